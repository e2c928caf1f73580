"""The compatibility wing (Brain-Score's import paths, the modules the ``compat-wing`` contract of ``.importlinter``
protects) holds re-exports, and adapters listed below with why each is one. This test counts the definitions with
logic in every wing module of every package (their source is read, nothing is imported) and fails on one that is not
listed, and on a listed one that is gone. Logic that our own code needs lives in a real module, which the wing
re-exports (see CONTRIBUTING.md).
"""

from __future__ import annotations

import ast
import configparser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CONTRACTS = ROOT / ".importlinter"
WING_CONTRACT = "importlinter:contract:compat-wing"

_FACTORIES = "Brain-Score's regression factory: its defaults, over brainscore-metrics' regression of that name"
_READOUT = "Brain-Score's start_task / look_at signatures over model-tools' readout of that task"
_CHECK = "Brain-Score's pre-submission check steps, run through ModelCommitment on a benchmark shipped here"
_REDIRECT = ("makes Brain-Score's model_helpers.<module> the providing distribution's module (import machinery: "
             "vision neither imports nor names model-tools)")

#: wing definitions that hold logic, ``module:name`` -> why it is a documented adapter (one line each)
ADAPTERS = {
    "brainscore_core.supported_data_standards.brainio:__getattr__":
        "resolves Brain-Score's brainio submodule paths on first use, so that a missing boto3 fails only when S3 is "
        "used",
    "brainscore_core.supported_data_standards.brainio._reexport:lazy_module":
        "builds each of those submodules as a lazy re-export of the brainio module of the same name",
    "brainscore_vision.metric_helpers.regressions:_labelled": "wraps an array regression for the factories below",
    "brainscore_vision.metric_helpers.regressions:pls_regression": _FACTORIES,
    "brainscore_vision.metric_helpers.regressions:linear_regression": _FACTORIES,
    "brainscore_vision.metric_helpers.regressions:ridge_regression": _FACTORIES,
    "brainscore_vision.metric_helpers.regressions:ridge_cv_regression": _FACTORIES,
    "brainscore_vision.metric_helpers.regressions:dual_ridge_regression": _FACTORIES,
    "brainscore_vision.metric_helpers.regressions:dual_ridge_cv_regression": _FACTORIES,
    "brainscore_vision.metric_helpers.regressions:single_regression": _FACTORIES,
    "brainscore_vision.metric_helpers.regressions:mask_regression": _FACTORIES,
    "brainscore_vision.metric_helpers.regressions:pearsonr_correlation":
        "Brain-Score's labelled Pearson r factory, over XarrayCorrelation",
    "brainscore_vision.metric_helpers.xarray_utils:_check_dims": "the dims check of XarrayRegression",
    "brainscore_vision.metric_helpers.xarray_utils:XarrayRegression":
        "Brain-Score's labelled fit / predict over an array regression; our metrics unwrap it (as_array_regression)",
    "brainscore_vision.metric_helpers.xarray_utils:XarrayCorrelation":
        "Brain-Score's labelled per-neuroid correlation; Pearson's is brainscore_metrics.arrays.pearson_columns",
    "brainscore_vision.metric_helpers.xarray_utils:map_target_to_source":
        "Brain-Score's stimulus matching of two labelled assemblies, for plugin code that aligns by hand",
    "brainscore_vision.model_helpers:__getattr__": _REDIRECT,
    "brainscore_vision.model_helpers:_AliasLoader": _REDIRECT,
    "brainscore_vision.model_helpers:_provider": _REDIRECT,
    "brainscore_vision.model_helpers:_ModelToolsRedirect": _REDIRECT,
    "model_tools.compat.brain_transformation:LayerSelection":
        "Brain-Score's LayerSelection called on a benchmark without a candidate factory: ModelCommitment candidates",
    "model_tools.compat.brain_transformation.behavior:BehaviorArbiter":
        "Brain-Score's dispatcher from a task to its readout",
    "model_tools.compat.brain_transformation.behavior:LabelBehavior": _READOUT,
    "model_tools.compat.brain_transformation.behavior:ProbabilitiesMapping": _READOUT,
    "model_tools.compat.brain_transformation.behavior:OddOneOut": _READOUT,
    "model_tools.compat.brain_transformation.behavior:LabelToImagenetIndices":
        "Brain-Score's label -> ImageNet indices lookup, over model-tools' shipped table",
    "model_tools.compat.check_submission.check_models:_module": _CHECK,
    "model_tools.compat.check_submission.check_models:_model_names": _CHECK,
    "model_tools.compat.check_submission.check_models:_require": _CHECK,
    "model_tools.compat.check_submission.check_models:_MockBenchmark": _CHECK,
    "model_tools.compat.check_submission.check_models:check_brain_model_processing": _CHECK,
    "model_tools.compat.check_submission.check_models:check_processing": _CHECK,
    "model_tools.compat.check_submission.check_models:check_base_models": _CHECK,
    "model_tools.compat.check_submission.check_models:check_brain_models": _CHECK,
    "model_tools.compat.utils:make_list": "Brain-Score's one-line utility of that name (plugins import it)",
}


def wing_expressions() -> list[str]:
    """The module expressions the ``compat-wing`` contract protects."""
    parser = configparser.ConfigParser()
    parser.read(CONTRACTS)
    return parser[WING_CONTRACT]["protected_modules"].split()


def module_files() -> dict[str, Path]:
    """Dotted name -> file of every module of our packages."""
    files = {}
    for source in sorted(ROOT.glob("packages/*/src")):
        for path in source.rglob("*.py"):
            parts = list(path.relative_to(source).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join(parts)] = path
    return files


def wing_files() -> dict[str, Path]:
    """Every module of the wing: each protected module and everything under it."""
    files = module_files()
    return {name: path for name, path in files.items()
            if any(name == expression or name.startswith(f"{expression}.") for expression in wing_expressions())}


def _holds_logic(node: ast.stmt) -> bool:
    """A function always does; a class does when its body holds more than a docstring, constants and data-only
    classes (``class Defaults: batch_size = 64`` holds none)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    for statement in node.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # a docstring
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and all(
                isinstance(part, (ast.Constant, ast.Tuple, ast.List, ast.Dict, ast.Name, ast.Attribute, ast.Load))
                for part in ast.walk(statement.value or ast.Constant(None))):
            continue  # a constant
        if isinstance(statement, ast.ClassDef) and not _holds_logic(statement):
            continue
        return True
    return False


def definitions_with_logic(source: str) -> list[str]:
    """Names of the top-level functions and classes of ``source`` that hold logic."""
    return [node.name for node in ast.parse(source).body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _holds_logic(node)]


def test_the_counter_tells_logic_from_data():
    source = ('"""doc"""\nfrom x import y\nclass Defaults:\n    """d"""\n    size = 64\n    dims = ("a", "b")\n'
              'class Holder:\n    class Inner:\n        n = 1\n'
              'class Adapter(y):\n    def call(self):\n        return 1\n'
              'def helper():\n    pass\nhelper_alias = helper\n')
    assert definitions_with_logic(source) == ["Adapter", "helper"]


def test_the_wing_is_what_the_contract_protects_and_every_expression_names_modules():
    files = module_files()
    for expression in wing_expressions():
        assert expression in files, f"{expression} (protected in .importlinter) is no module of ours"
    assert len(wing_files()) > 50


def test_wing_modules_hold_only_reexports_and_listed_adapters():
    found = {f"{name}:{definition}" for name, path in wing_files().items()
             for definition in definitions_with_logic(path.read_text())}
    unlisted = sorted(found - set(ADAPTERS))
    assert not unlisted, (f"{len(unlisted)} definitions with logic in Brain-Score's import paths, not listed as "
                          f"adapters: {unlisted}; move the logic into a real module and re-export it, or list the "
                          "adapter with why in ADAPTERS")
    stale = sorted(set(ADAPTERS) - found)
    assert not stale, f"listed adapters that are gone: {stale}"


@pytest.mark.parametrize("name", sorted(ADAPTERS))
def test_every_adapter_says_why_in_one_line(name):
    assert ADAPTERS[name].strip() and "\n" not in ADAPTERS[name]
