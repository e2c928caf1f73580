"""The examples in public docstrings run (numpydoc Examples sections are doctests)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("module_name", ["brainscore_core.score", "brainscore_core.normalization",
                                         "brainscore_core.display"])
def test_docstring_examples_run(module_name):
    result = doctest.testmod(importlib.import_module(module_name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
