"""Every error (and warning) that metrics and ceilings raise, in one module that imports nothing heavy.

Each error names the assembly, dim or coordinate at fault. All derive from :class:`MetricError` (itself a
:class:`brainscore_core.errors.BrainScoreError`, the project's one root), and each also from the builtin it stands
for (``ValueError``, ``KeyError``), so ``except ValueError`` keeps working.
Importing this module imports neither scikit-learn, scipy nor torch, nor any metric module; only
:mod:`brainio.errors` (for :class:`DimensionError`, which is brainio's own, specialised) and
:mod:`brainscore_core.errors`.
A module that raises one of them imports it from here; import them from here too.
"""

from __future__ import annotations

from brainio.errors import DimensionError as _BrainioDimensionError
from brainscore_core.errors import BrainScoreError

__all__ = [
    "AlignmentError",
    "BehaviorInputError",
    "DimensionError",
    "DuplicateStimulusError",
    "IllConditionedKernelError",
    "InputTypeError",
    "InvalidParameterError",
    "MetricCheckError",
    "MetricError",
    "MissingCoordinateError",
    "NonFiniteValuesError",
    "PLSConvergenceWarning",
    "RDMFormatError",
    "SplitValueMismatchError",
    "StimulusAlignmentError",
    "StimulusMismatchError",
    "TooFewFeaturesError",
    "TooFewStimuliError",
    "UnknownBackendError",
    "UnknownPropertyError",
    "UnknownRegressionError",
]


class MetricError(BrainScoreError):
    """Base of every error a metric or ceiling of this package raises (a :class:`BrainScoreError`)."""


# -- inputs that do not line up ---------------------------------------------------------------------------------
class AlignmentError(MetricError, ValueError):
    """Two assemblies cannot be aligned on their presentations or neuroids."""


class DuplicateStimulusError(AlignmentError):
    """A stimulus identifier occurs more than once where each must be unique."""


class StimulusMismatchError(AlignmentError):
    """Source and target do not hold the same stimuli."""


class StimulusAlignmentError(AlignmentError):
    """Stimulus ids are missing, duplicated or differ between the two assemblies compared."""


class SplitValueMismatchError(MetricError, ValueError):
    """Source and target do not hold the same split values."""


class BehaviorInputError(AlignmentError):
    """Behavioural assemblies do not line up (ids, lengths, duplicated trials, unknown labels)."""


# -- inputs of the wrong shape or content -----------------------------------------------------------------------
class DimensionError(MetricError, _BrainioDimensionError):
    """An assembly lacks a required dimension or has an unexpected one (a brainio ``DimensionError`` too)."""


class RDMFormatError(DimensionError):
    """An assembly that should hold RDMs does not have square stimulus x stimulus matrices."""


class MissingCoordinateError(MetricError, KeyError):
    """An assembly lacks a coordinate that a metric or splitter needs (or has it on the wrong dims).

    ``coord`` names the coordinate; ``message`` replaces the default "<what> has no coordinate <coord>".
    """

    def __init__(self, coord: str, what: str = "assembly", *, message: str | None = None):
        self.coord = coord
        super().__init__(message or f"{what} has no coordinate {coord!r}")

    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return str(self.args[0])


class NonFiniteValuesError(MetricError, ValueError):
    """An assembly holds NaN or infinite values where the metric needs finite ones."""


class TooFewStimuliError(MetricError, ValueError):
    """Fewer stimuli than the statistic needs (e.g. unbiased CKA needs at least 4)."""


class TooFewFeaturesError(MetricError, ValueError):
    """The source has fewer features than the regression needs (PLS components)."""


class UnknownPropertyError(MetricError, ValueError):
    """An assembly of neuronal properties does not hold the property asked for, or not its bin edges
    (``attrs['<property>_bins']``); the message names the property and the ones the assembly holds.

    One class for one fault: brainscore-vision's ``UnknownPropertyError`` (Marques 2020 data) is this class.
    """


class InputTypeError(MetricError, TypeError):
    """An input of a type the metric does not take; the message names the input, the types it takes and the type
    given."""


class InvalidParameterError(MetricError, ValueError):
    """A metric or ceiling parameter holds a value the metric cannot use; the message names the metric, the
    parameter, what it allows and what it got (as scikit-learn's ``InvalidParameterError``)."""


# -- unknown names ----------------------------------------------------------------------------------------------
class UnknownRegressionError(MetricError, ValueError):
    """A regression name that is not in ``brainscore_metrics.regression.REGRESSIONS``."""


class UnknownBackendError(MetricError, ValueError):
    """A backend name that is not in ``brainscore_metrics.backend.AVAILABLE_BACKENDS``."""


# -- warnings ---------------------------------------------------------------------------------------------------
class IllConditionedKernelError(MetricError, ValueError):
    """A Gram matrix too close to singular for the one-factorisation path (the caller then takes the per-split
    path; never reaches a user). A ``ValueError`` like numpy's ``LinAlgError``."""


class MetricCheckError(MetricError, AssertionError):
    """A metric failed one of the :func:`brainscore_metrics.testing.check_metric` checks; names the check."""


class PLSConvergenceWarning(UserWarning):
    """The power iteration of a PLS component reached ``max_iter``."""
