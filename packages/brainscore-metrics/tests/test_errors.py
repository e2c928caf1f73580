"""One errors module: import-free, one base class, builtins kept, old import paths still work (issue 21, item 3)."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

import brainscore_metrics.errors as errors


def test_importing_errors_pulls_in_no_compute_library_and_no_metric_module():
    code = ("import sys, brainscore_metrics.errors; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'scipy', 'torch', 'brainscore_metrics')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "['brainscore_metrics', 'brainscore_metrics.errors']"


ERRORS = [cls for _, cls in inspect.getmembers(errors, inspect.isclass)
          if cls.__module__ == errors.__name__ and issubclass(cls, Exception) and not issubclass(cls, Warning)]


@pytest.mark.parametrize("cls", ERRORS, ids=lambda cls: cls.__name__)
def test_every_error_has_the_package_base_and_a_builtin(cls):
    assert issubclass(cls, errors.MetricError)
    if cls is not errors.MetricError:
        assert issubclass(cls, (ValueError, KeyError, TypeError, AssertionError))
    assert cls.__name__ in errors.__all__


def test_dimension_error_is_brainios():
    from brainio.errors import DimensionError

    assert issubclass(errors.DimensionError, DimensionError)
    assert issubclass(errors.RDMFormatError, DimensionError)


@pytest.mark.parametrize(("module", "name"), [
    ("brainscore_metrics.regression", "UnknownRegressionError"),
    ("brainscore_metrics.splits", "MissingCoordinateError"), ("brainscore_metrics.splits", "SplitValueMismatchError"),
    ("brainscore_metrics.backend", "UnknownBackendError"), ("brainscore_metrics._pls", "PLSConvergenceWarning"),
    ("brainscore_metrics._alignment_representational", "RDMFormatError"),
])
def test_a_module_that_raises_an_error_raises_the_class_of_errors(module, name):
    import importlib

    assert getattr(importlib.import_module(module), name) is getattr(errors, name)


def test_a_raised_error_is_caught_by_the_base_and_names_the_coordinate():
    with pytest.raises(errors.MetricError, match="'object_name'"):
        raise errors.MissingCoordinateError("object_name", "target")

