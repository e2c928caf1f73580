"""Brain-Score's import path ``brainscore_vision.metric_helpers.transformations``: cross-validation and aggregation
over labelled assemblies. Re-exports; the one implementation is :mod:`brainscore_metrics.cross_validation` (its splits
are :class:`brainscore_metrics.splits.StimulusSplitter`'s)."""

from brainscore_metrics.cross_validation import (
    CrossValidation,
    CrossValidationSingle,
    Split,
    TestOnlyCrossValidation,
    TestOnlyCrossValidationSingle,
    apply_aggregate,
    enumerate_done,
    extract_coord,
    standard_error_of_the_mean,
)

__all__ = ["CrossValidation", "CrossValidationSingle", "Split", "TestOnlyCrossValidation",
           "TestOnlyCrossValidationSingle", "apply_aggregate", "enumerate_done", "extract_coord",
           "standard_error_of_the_mean"]
