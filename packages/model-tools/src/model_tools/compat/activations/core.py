"""``brainscore_vision.model_helpers.activations.core``: Brain-Score's ``ActivationsExtractorHelper``.

Re-exports: the helper is :mod:`model_tools.activations.extractor_helper` (a function ``get_activations`` run by this
package's extractor through a ``FunctionModel``), its hook handle that of :mod:`model_tools.activations.function_model`.
"""

from model_tools.activations.extractor_helper import ActivationsExtractorHelper
from model_tools.activations.function_model import HookHandle

__all__ = ["ActivationsExtractorHelper", "Defaults", "HookHandle"]


class Defaults:
    """Brain-Score's default of the helper (``batch_size``)."""

    batch_size = 64
