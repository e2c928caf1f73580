"""Brain-Score's ``brainscore_vision.model_helpers`` import paths, for model plugins written against them.

The model code lives in model-tools (this package never imports it on its own, nor names it): the distribution that
provides these paths declares its package in the entry-point group ``brainscore_vision.model_helpers`` (model-tools:
``model_tools.compat``), and ``brainscore_vision.model_helpers.<module>`` is that package's ``<module>`` itself (the
same module object, so classes compare equal), imported when a plugin first imports it:

* ``activations.pytorch``: ``PytorchWrapper``, ``load_preprocess_images``, ``load_images``, ``preprocess_images``;
* ``activations.core``: ``ActivationsExtractorHelper``;
* ``brain_transformation``: ``ModelCommitment``, ``LayerSelection``, ``RegionLayerMap``; ``.behavior``
  (``LabelBehavior``, ``ProbabilitiesMapping``, ``OddOneOut``, ...);
* ``check_submission.check_models``: ``check_base_models``, ``check_brain_models``;
* ``utils``: ``fullname``, ``make_list``.

Without model-tools, such an import fails with one line saying how to install it
(:class:`~brainscore_vision.errors.ModelToolsMissingError`). ``download_weights`` (Brain-Score's
``load_folder_from_s3``) and ``load_weight_file`` come from :mod:`brainscore_core.s3_files` and need no model-tools.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from typing import Any

__all__ = ["download_weights", "load_weight_file"]

PROVIDERS_GROUP = "brainscore_vision.model_helpers"
INSTALL = ("pip install model-tools (from a clone of the repository: python -m pip install -c constraints.txt "
           "./packages/model-tools)")


def __getattr__(name: str) -> Any:
    if name == "download_weights":
        from brainscore_core.s3_files import load_folder_from_s3

        return load_folder_from_s3
    if name == "load_weight_file":
        from brainscore_core.s3_files import load_weight_file

        return load_weight_file
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as error:
        if error.name == f"{__name__}.{name}":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
        raise


class _AliasLoader(importlib.abc.Loader):
    """Hands out the provider's already imported module as the requested module."""

    def __init__(self, module: Any):
        self.module = module
        self.own_spec = module.__spec__

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self.module

    def exec_module(self, module: Any) -> None:
        """Nothing to run (the module ran under its own name); give it back the spec the import machinery replaced."""
        module.__spec__ = self.own_spec


def _provider() -> str | None:
    """The package that provides these paths (the entry point of :data:`PROVIDERS_GROUP`), None without one."""
    from importlib.metadata import entry_points

    points = sorted(entry_points(group=PROVIDERS_GROUP), key=lambda point: point.name)
    return points[0].module if points else None


class _ModelToolsRedirect(importlib.abc.MetaPathFinder):
    """``brainscore_vision.model_helpers.<x>`` -> the module ``<provider>.<x>`` (model-tools: ``model_tools.compat``)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        prefix = f"{__name__}."
        if not fullname.startswith(prefix):
            return None
        provider = _provider()
        try:
            installed = provider is not None and importlib.util.find_spec(provider.partition(".")[0]) is not None
        except ImportError:
            installed = False
        if not installed:
            from brainscore_vision.errors import ModelToolsMissingError

            raise ModelToolsMissingError(f"{fullname} is part of model-tools, which is not installed: {INSTALL}",
                                         name=fullname)
        source = f"{provider}.{fullname[len(prefix):]}"
        try:
            module = importlib.import_module(source)
        except ModuleNotFoundError as error:
            if error.name is not None and source.startswith(error.name):  # no such module in the provider
                return None
            raise
        spec = importlib.machinery.ModuleSpec(fullname, _AliasLoader(module),
                                              is_package=hasattr(module, "__path__"))
        if hasattr(module, "__path__"):
            spec.submodule_search_locations = list(module.__path__)
        return spec


if not any(isinstance(finder, _ModelToolsRedirect) for finder in sys.meta_path):
    sys.meta_path.insert(0, _ModelToolsRedirect())
