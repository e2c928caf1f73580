"""Typed errors of model-tools; each names the offending identifier, layer, region or file."""

from __future__ import annotations

from brainscore_core.errors import BrainScoreError


class ModelToolsError(BrainScoreError):
    """Base class of every error raised on purpose by model-tools (a :class:`BrainScoreError`)."""


class UnknownLayerError(ModelToolsError, KeyError):
    """A layer name does not resolve to a submodule of the model."""

    def __init__(self, layer: str, model_identifier: str, available: list[str]):
        close = [name for name in available if layer.split(".")[-1] in name][:5]
        hint = f"; close matches: {close}" if close else ""
        super().__init__(
            f"layer {layer!r} is not a submodule of model {model_identifier!r} "
            f"(use dotted module paths as in model.named_modules(), or 'logits'){hint}"
        )
        self.layer = layer

    def __str__(self) -> str:  # KeyError would print the repr of the message
        return str(self.args[0])


class UnmappedRegionError(ModelToolsError, KeyError):
    """A region was requested that has no layer committed and no way to select one."""

    def __init__(self, region: str, model_identifier: str, mapped: list[str]):
        super().__init__(
            f"model {model_identifier!r} has no layer committed to region {region!r} (mapped regions: "
            f"{mapped}); pass region_layer_map={{{region!r}: '<layer>'}} or region_benchmarks for layer selection"
        )
        self.region = region

    def __str__(self) -> str:
        return str(self.args[0])


class StimulusError(ModelToolsError, ValueError):
    """A stimulus cannot be read or is of an unsupported kind."""


class UnsupportedTaskError(ModelToolsError, ValueError):
    """``start_task`` was called with a task this model cannot perform."""


class MissingLabelsError(ModelToolsError, ValueError):
    """Fitting stimuli lack a label column, or a label has no ImageNet indices."""


class MissingWeightsError(ModelToolsError, FileNotFoundError):
    """Pretrained weights were requested but are neither present locally nor downloadable."""


class MissingDependencyError(ModelToolsError, ImportError):
    """An optional dependency (torchvision, timm) is needed for a model but is not importable."""


class WeightsDigestError(ModelToolsError, ValueError):
    """A weight file whose SHA-256 does not match the digest its publisher gives; names the file and both digests."""


class MicrosaccadesNotSupportedError(ModelToolsError, NotImplementedError):
    """Several trials with ``require_variance=True`` (Brain-Score's microsaccades) were asked of an activations model
    that cannot shift its inputs (one whose preprocessing gives no image tensor, or a third party's callable)."""


class MicrosaccadeError(ModelToolsError, ValueError):
    """Microsaccades were asked for but cannot be sized: the model's visual degrees or its input's height is unknown;
    the message names the model and what to set."""


class RegionLayerMapError(ModelToolsError, ValueError):
    """A ``region_layer_map/<identifier>.json`` that is not a JSON object of region -> layer; names the file."""


class CheckFailedError(ModelToolsError, AssertionError):
    """A model does not pass Brain-Score's pre-submission check (``check_models``); names the model and the check."""
