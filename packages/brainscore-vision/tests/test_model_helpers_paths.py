"""Brain-Score's ``brainscore_vision.model_helpers`` paths: the very modules of model-tools once it is installed, one
line naming the pip command when it is not; the weight loaders need no model-tools."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap

import pytest

from brainio.skipping import skip_if

MODULES = ["activations", "activations.pytorch", "activations.core", "brain_transformation",
           "brain_transformation.behavior", "check_submission", "check_submission.check_models", "utils"]

HIDE_MODEL_TOOLS = """
    import importlib.abc, sys

    class HideModelTools(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "model_tools" or name.startswith("model_tools."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, HideModelTools())
"""


def test_without_model_tools_the_error_is_one_line_with_the_pip_command():
    code = textwrap.dedent(HIDE_MODEL_TOOLS) + textwrap.dedent("""
        import brainscore_vision, brainscore_vision.model_helpers as helpers
        from brainscore_vision.errors import ModelToolsMissingError
        print(helpers.download_weights.__name__, helpers.load_weight_file.__name__)  # need no model-tools
        try:
            from brainscore_vision.model_helpers.activations.pytorch import PytorchWrapper
        except ModelToolsMissingError as error:
            print(type(error).__mro__[1].__name__, "|", error)
        print("model_tools" in sys.modules)
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "load_folder_from_s3 load_weight_file"
    kind, message = lines[1].split(" | ")
    assert kind == "VisionError" and message.startswith(
        "brainscore_vision.model_helpers.activations is part of model-tools, which is not installed: pip install "
        "model-tools (from a clone of the repository: python -m pip install -c constraints.txt ./packages/model-tools)")
    assert lines[2] == "False"


def test_importing_brainscore_vision_never_imports_model_tools():
    code = "import sys, brainscore_vision, brainscore_vision.model_helpers; print('model_tools' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "False", result.stderr


@skip_if(importlib.util.find_spec("model_tools") is None, "extra",
         "model-tools is not installed (this package's test session installs it)")
@pytest.mark.parametrize("name", MODULES)
def test_each_path_is_the_model_tools_module_itself(name):
    module = importlib.import_module(f"brainscore_vision.model_helpers.{name}")
    assert module is importlib.import_module(f"model_tools.compat.{name}")
    assert module.__spec__.name == f"model_tools.compat.{name}"  # the import machinery's spec was given back


@skip_if(importlib.util.find_spec("model_tools") is None, "extra",
         "model-tools is not installed (this package's test session installs it)")
def test_brainscore_names_are_model_tools_classes():
    from brainscore_vision.model_helpers.activations import PytorchWrapper as from_package
    from brainscore_vision.model_helpers.activations.pytorch import PytorchWrapper, load_preprocess_images
    from brainscore_vision.model_helpers.brain_transformation import ModelCommitment
    from model_tools.activations import PytorchWrapper as ours
    from model_tools.brain_transformation import ModelCommitment as our_commitment

    assert PytorchWrapper is ours is from_package and issubclass(ModelCommitment, our_commitment)
    assert callable(load_preprocess_images)
    with pytest.raises(ModuleNotFoundError, match="brainscore_vision.model_helpers.no_such_module"):
        importlib.import_module("brainscore_vision.model_helpers.no_such_module")
