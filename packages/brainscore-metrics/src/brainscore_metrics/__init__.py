"""Metrics and noise ceilings for comparing models with brain measurements.

Names are resolved lazily (PEP 562) so that importing the package, or its plugin module, imports
neither scikit-learn nor torch.
"""

from __future__ import annotations

from importlib.metadata import version as _version
from types import MappingProxyType

from brainio.lazy import lazy_names

__version__ = _version("brainscore-metrics")

# public name -> defining module
_LAZY = MappingProxyType({
    "StimulusSplitter": "brainscore_metrics.splits",
    "aggregate_splits": "brainscore_metrics.splits",
    "cross_validation_indices": "brainscore_metrics.splits",
    "bootstrap_confidence_interval": "brainscore_metrics.bootstrap",
    "CrossRegressedCorrelation": "brainscore_metrics.regression_correlation",
    "SplitRegressedCorrelation": "brainscore_metrics.regression_correlation",
    "ReverseCrossRegressedCorrelation": "brainscore_metrics.reverse_predictivity",
    "ReversePredictivity": "brainscore_metrics.reverse_predictivity",
    "ReversePredictivitySplit": "brainscore_metrics.reverse_predictivity",
    "DualRidgeSplitCorrelation": "brainscore_metrics.dual_ridge",
    "SplitHalfPredictorConsistency": "brainscore_metrics.predictor_consistency",
    "SpanTimeCrossRegressedCorrelation": "brainscore_metrics.temporal",
    "InternalConsistency": "brainscore_metrics.internal_consistency",
    "InternalConsistencyTemporal": "brainscore_metrics.internal_consistency",
    "PLSRegression": "brainscore_metrics.regression",
    "RidgeRegression": "brainscore_metrics.regression",
    "RidgeCVRegression": "brainscore_metrics.regression",
    "LinearRegression": "brainscore_metrics.regression",
    "NeuronToNeuron": "brainscore_metrics.regression",
    "ALPHA_LIST": "brainscore_metrics.regression",
    "RDM": "brainscore_metrics.rdm",
    "RDMMetric": "brainscore_metrics.rdm",
    "RDMCrossValidated": "brainscore_metrics.rdm",
    "RDMSimilarity": "brainscore_metrics.rdm",
    "CKAMetric": "brainscore_metrics.cka",
    "CKACrossValidated": "brainscore_metrics.cka",
    "RSACeiling": "brainscore_metrics.rsa_ceiling",
    "Accuracy": "brainscore_metrics.behavior.accuracy",
    "I1n": "brainscore_metrics.behavior.i2n",
    "I2n": "brainscore_metrics.behavior.i2n",
    "ErrorConsistency": "brainscore_metrics.behavior.error_consistency",
    "AccuracyDistance": "brainscore_metrics.behavior.accuracy_distance",
    "ValueDelta": "brainscore_metrics.behavior.value_delta",
    "KSSimilarity": "brainscore_metrics.properties.ks_similarity",
    "PropertyCeiling": "brainscore_metrics.properties.ks_similarity",
    "use_backend": "brainscore_metrics.backend",
    "get_backend": "brainscore_metrics.backend",
    "use_threads": "brainscore_metrics.backend",
    "check_metric": "brainscore_metrics.testing",
    # the array face (numpy or torch in, arrays or floats out)
    "ridge_predict": "brainscore_metrics.arrays",
    "ridgecv_predict": "brainscore_metrics.arrays",
    "dual_ridge_predict": "brainscore_metrics.arrays",
    "pearson_columns": "brainscore_metrics.arrays",
    "compute_rdm": "brainscore_metrics.arrays",
    "compare_rdms": "brainscore_metrics.arrays",
    "rsa": "brainscore_metrics.arrays",
    "linear_cka": "brainscore_metrics.arrays",
    "linear_cka_from_grams": "brainscore_metrics.arrays",
    "RDM_METHODS": "brainscore_metrics.arrays",
    "RDM_COMPARISONS": "brainscore_metrics.arrays",
})

__all__ = ["__version__", *_LAZY]


__getattr__, __dir__ = lazy_names(globals(), _LAZY)
