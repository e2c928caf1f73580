"""Plugin module named by the ``brainscore_vision`` entry point: metric and ceiling factories.

Nothing heavy is imported here: each factory imports its module only when called through
``load_metric(identifier, *args, **kwargs)`` / ``load_ceiling(...)``; positional and keyword arguments
are passed through to the class, over the table's default keyword arguments.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from typing import Any

from brainscore_core import hookimpl
from brainscore_metrics._frozen import frozen

__all__ = ["CEILINGS", "METRICS", "brainscore_ceilings", "brainscore_metrics", "make_factory"]

_PKG = "brainscore_metrics"
_RC = f"{_PKG}.regression_correlation"
_TEMPORAL = f"{_PKG}.temporal"
_IC = f"{_PKG}.internal_consistency"
_REVERSE = f"{_PKG}.reverse_predictivity"
_PC = f"{_PKG}.predictor_consistency"

#: identifier -> (module, class name, default keyword arguments)
METRICS: Mapping[str, tuple[str, str, Mapping[str, Any]]] = frozen({
    # regression-correlation, cross-validated
    "pls": (_RC, "CrossRegressedCorrelation", {"regression": "pls"}),
    "pls_cv": (_RC, "CrossRegressedCorrelation", {"regression": "pls"}),
    "ridge": (_RC, "CrossRegressedCorrelation", {"regression": "ridge"}),
    "ridge_cv": (_RC, "CrossRegressedCorrelation", {"regression": "ridge"}),
    "ridgecv": (_RC, "CrossRegressedCorrelation", {"regression": "ridgecv"}),
    "linear_predictivity": (_RC, "CrossRegressedCorrelation", {"regression": "linear"}),
    "neuron_to_neuron": (_RC, "CrossRegressedCorrelation", {"regression": "neuron_to_neuron"}),
    "reverse_pls": (_REVERSE, "ReversePredictivity", {"regression": "pls"}),
    # regression-correlation, fixed split (source_train, source_test, target_train, target_test)
    "pls_split": (_RC, "SplitRegressedCorrelation", {"regression": "pls"}),
    "ridge_split": (_RC, "SplitRegressedCorrelation", {"regression": "ridge"}),
    "ridgecv_split": (_RC, "SplitRegressedCorrelation", {"regression": "ridgecv"}),
    "linear_predictivity_split": (_RC, "SplitRegressedCorrelation", {"regression": "linear"}),
    "neuron_to_neuron_split": (_RC, "SplitRegressedCorrelation", {"regression": "neuron_to_neuron"}),
    # temporal
    "spantime_pls": (_TEMPORAL, "SpanTimeCrossRegressedCorrelation", {"regression": "pls"}),
    "spantime_ridge": (_TEMPORAL, "SpanTimeCrossRegressedCorrelation", {"regression": "ridge"}),
    # representational (metrics B)
    "rdm": (f"{_PKG}.rdm", "RDMMetric", {}),
    "rdm_cv": (f"{_PKG}.rdm", "RDMCrossValidated", {}),
    "cka": (f"{_PKG}.cka", "CKAMetric", {}),
    "cka_biased": (f"{_PKG}.cka", "CKAMetric", {"unbiased": False}),
    "cka_cv": (f"{_PKG}.cka", "CKACrossValidated", {}),
    # behaviour (metrics B)
    "accuracy": (f"{_PKG}.behavior.accuracy", "Accuracy", {}),
    "i1n": (f"{_PKG}.behavior.i2n", "I1n", {}),
    "i2n": (f"{_PKG}.behavior.i2n", "I2n", {}),
    "error_consistency": (f"{_PKG}.behavior.error_consistency", "ErrorConsistency", {}),
    "accuracy_distance": (f"{_PKG}.behavior.accuracy_distance", "AccuracyDistance", {}),
    "value_delta": (f"{_PKG}.behavior.value_delta", "ValueDelta", {}),
    "threshold": (f"{_PKG}.behavior.threshold", "Threshold", {}),
    "threshold_elevation": (f"{_PKG}.behavior.threshold", "ThresholdElevation", {}),
    # single-neuron properties (metrics B)
    "ks_similarity": (f"{_PKG}.properties.ks_similarity", "KSSimilarity", {}),
    # Brain-Score registers these as metrics too (the tutorials call ``load_metric('internal_consistency')``)
    "internal_consistency": (_IC, "InternalConsistency", {}),
    "internal_consistency_temporal": (_IC, "InternalConsistencyTemporal", {}),
    "rsa_ceiling": (f"{_PKG}.rsa_ceiling", "RSACeiling", {}),
    "property_ceiling": (f"{_PKG}.properties.ks_similarity", "PropertyCeiling", {}),
    # Brain-Score's cross-validated aliases ('pls_cv' style) and its first-order behaviour name
    "linear_predictivity_cv": (_RC, "CrossRegressedCorrelation", {"regression": "linear"}),
    "neuron_to_neuron_cv": (_RC, "CrossRegressedCorrelation", {"regression": "neuron_to_neuron"}),
    "reverse_pls_cv": (_REVERSE, "ReversePredictivity", {"regression": "pls"}),
    # newest machinery: dual ridge on a fixed split, reverse predictivity on a fixed split, its ceiling
    "reverse_pls_split": (_REVERSE, "ReversePredictivitySplit", {"regression": "pls"}),
    "dual_ridge_split": (f"{_PKG}.dual_ridge", "DualRidgeSplitCorrelation", {"regression": "dual_ridge"}),
    "dual_ridgecv_split": (f"{_PKG}.dual_ridge", "DualRidgeSplitCorrelation", {"regression": "dual_ridgecv"}),
    "predictor_consistency": (_PC, "SplitHalfPredictorConsistency", {}),
    "i1": (f"{_PKG}.behavior.i2n", "I1", {}),
    # benchmark-specific metrics of Brain-Score's families (Kar2019, Baker2022, Maniquet2024, Cadena2017, ...)
    "ost": (f"{_PKG}.behavior.ost", "OSTCorrelation", {}),
    "mask_regression": (_RC, "CrossRegressedCorrelation", {"regression": "mask"}),
    "baker_accuracy_delta": (f"{_PKG}.behavior.accuracy_delta", "BakerAccuracyDelta", {}),
    "factor_dimensionality": (f"{_PKG}.dimensionality", "Dimensionality", {}),
    "confusion_similarity": (f"{_PKG}.behavior.confusion", "ConfusionSimilarity", {}),
    "tasks_consistency": (f"{_PKG}.behavior.confusion", "TasksConsistency", {}),
})

#: ceiling identifier -> (module, class name, default keyword arguments)
CEILINGS: Mapping[str, tuple[str, str, Mapping[str, Any]]] = frozen({
    "internal_consistency": (_IC, "InternalConsistency", {}),
    "internal_consistency_temporal": (_IC, "InternalConsistencyTemporal", {}),
    "rsa_ceiling": (f"{_PKG}.rsa_ceiling", "RSACeiling", {}),
    "property_ceiling": (f"{_PKG}.properties.ks_similarity", "PropertyCeiling", {}),
    "predictor_consistency": (_PC, "SplitHalfPredictorConsistency", {}),
})


def _build(module: str, class_name: str, defaults: Mapping[str, Any], *args, **kwargs):
    cls = getattr(importlib.import_module(module), class_name)
    return cls(*args, **{**defaults, **kwargs})


def make_factory(module: str, class_name: str, defaults: Mapping[str, Any] | None = None) -> Callable:
    """A factory that imports ``module`` when called and instantiates ``class_name``.

    ``factory(*args, **kwargs)`` builds ``class_name(*args, **{**defaults, **kwargs})``.
    """
    factory = functools.partial(_build, module, class_name, dict(defaults or {}))
    factory.__doc__ = f"Build {module}.{class_name} (defaults {dict(defaults or {})!r})."
    return factory


@hookimpl
def brainscore_metrics() -> Mapping[str, Callable]:
    """Metric factories keyed by identifier."""
    return {identifier: make_factory(*target) for identifier, target in METRICS.items()}


@hookimpl
def brainscore_ceilings() -> Mapping[str, Callable]:
    """Ceiling factories keyed by identifier."""
    return {identifier: make_factory(*target) for identifier, target in CEILINGS.items()}
