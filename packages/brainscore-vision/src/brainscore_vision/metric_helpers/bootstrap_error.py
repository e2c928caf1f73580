"""Brain-Score's import path ``brainscore_vision.metric_helpers.bootstrap_error``: the resampling error of an
aggregated score. Re-exports; the one implementation is :mod:`brainscore_metrics.bootstrap`."""

from brainscore_metrics.bootstrap import (
    ERROR_KEY,
    ERROR_NAN_REASON_KEY,
    ERROR_OVER_KEY,
    N_BOOTSTRAP_KEY,
    attach_error,
    bootstrap_error,
    declare_no_error,
)

__all__ = ["ERROR_KEY", "ERROR_NAN_REASON_KEY", "ERROR_OVER_KEY", "N_BOOTSTRAP_KEY", "attach_error",
           "bootstrap_error", "declare_no_error"]
