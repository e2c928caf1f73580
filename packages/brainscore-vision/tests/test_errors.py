"""One errors module for brainscore-vision: import-free, one base class, builtins kept, old paths work (issue 21)."""

from __future__ import annotations

import importlib
import inspect
import subprocess
import sys

import pytest

import brainscore_vision.errors as errors
from brainscore_core.errors import BrainScoreError


def test_the_errors_module_imports_only_core_errors_and_no_compute_library():
    # the module's own imports (brainscore_vision/__init__ itself loads brainio, the Brain-Score contract)
    import ast

    tree = ast.parse(inspect.getsource(errors))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert imported == {"__future__", "brainscore_core.errors", "brainscore_metrics.errors"}
    code = ("import sys, brainscore_vision.errors; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('scipy', 'sklearn', 'torch', 'PIL', 'brainscore_metrics')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "['brainscore_metrics', 'brainscore_metrics.errors']"  # the errors module, no metric


def test_one_fault_one_class_unknown_property():
    # issue 32: vision's UnknownPropertyError and metrics' PropertyInputError named one fault; now one class
    from brainscore_metrics.errors import MetricError
    from brainscore_metrics.errors import UnknownPropertyError as metrics_class
    from brainscore_vision.data.marques2020 import UnknownPropertyError as raised_by_marques

    assert errors.UnknownPropertyError is metrics_class is raised_by_marques
    assert all(issubclass(errors.UnknownPropertyError, base) for base in (MetricError, BrainScoreError, ValueError))


ERRORS = [cls for _, cls in inspect.getmembers(errors, inspect.isclass)
          if cls.__module__ == errors.__name__ and not issubclass(cls, Warning)]


@pytest.mark.parametrize("cls", ERRORS, ids=lambda cls: cls.__name__)
def test_every_error_has_the_package_base_and_a_builtin(cls):
    assert issubclass(cls, errors.VisionError) and issubclass(cls, BrainScoreError)
    if cls is not errors.VisionError:
        assert issubclass(cls, (ValueError, OSError, RuntimeError, ImportError))  # ImportError: a missing package


@pytest.mark.parametrize(("module", "name"), [
    ("brainscore_vision.cli", "CommandError"), ("brainscore_vision.report.site", "ReportDirectoryError"),
    ("brainscore_vision.benchmark_helpers.screen", "ScreenError"),
    ("brainscore_vision.data_helpers.packaged", "MissingRawDataError"),
    ("brainscore_vision.data_helpers.packaged", "DataRepairWarning"),
    ("brainscore_vision.data_helpers.public_catalogue", "PublicDataUnavailableError"),
    ("brainscore_vision.data.marques2020", "StimuliUnavailableError"),
    ("brainscore_vision.data.cowley2023.data_packaging.packaging", "RawDataError"),
    ("brainscore_vision.data.kriegeskorte2008.data_packaging.packaging", "RawDataError"),
])
def test_a_module_that_raises_an_error_raises_the_class_of_errors(module, name):
    assert getattr(importlib.import_module(module), name) is getattr(errors, name)


def test_command_error_keeps_its_exit_status():
    error = errors.CommandError("no such benchmark 'x'", status=2)
    assert error.status == 2 and str(error) == "no such benchmark 'x'"
    assert errors.CommandError("failed").status == errors.EXIT_FAILED == 1
