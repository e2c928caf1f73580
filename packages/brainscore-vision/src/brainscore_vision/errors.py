"""Every error (and warning) brainscore-vision raises, in one module that imports nothing heavy.

All errors derive from :class:`VisionError` (itself a :class:`brainscore_core.errors.BrainScoreError`) and from the
builtin they stand for, so ``except ValueError`` / ``except OSError`` keep working. Importing this module imports
only :mod:`brainscore_core.errors` and :mod:`brainscore_metrics.errors` (for the one fault both packages raise:
:class:`UnknownPropertyError`, which is brainscore-metrics' class). The modules that raise them re-export the names,
so older import paths keep working.
"""

from __future__ import annotations

from brainscore_core.errors import BrainScoreError
from brainscore_metrics.errors import UnknownPropertyError

__all__ = [
    "BenchmarkDataError", "CommandError", "CredentialsRequiredError", "DataIntegrityError", "DataRepairWarning",
    "DataSourceError", "GratingLayoutError", "LocalDataMissingError", "MalformedRowWarning", "MissingRawDataError",
    "ModelToolsMissingError", "NoSpatialLayoutError", "PackagingDriftWarning", "PublicDataUnavailableError",
    "RawDataError", "ReportDirectoryError", "ReportFigureWarning", "ScreenError", "SelectionError",
    "StimuliUnavailableError", "StimulusTableError", "UnitSelectionError", "UnknownPropertyError", "VisionError",
]

EXIT_FAILED = 1
"""Exit status of the command line for a failed command (see :mod:`brainscore_vision.cli`)."""
EXIT_USAGE = 2
"""Exit status for a bad identifier, argument or address (the message lists close matches where there are any)."""
EXIT_MISSING_DATA = 3
"""Exit status when raw data is missing or changed (the message names ``BRAINSCORE_RAW_DATA`` and the path)."""


class VisionError(BrainScoreError):
    """Base of every error this package raises."""


# -- data and packaging -----------------------------------------------------------------------------------------
class RawDataError(VisionError, ValueError):
    """A raw file does not have the layout the README of its data folder describes; the message names the file."""


class MissingRawDataError(VisionError, FileNotFoundError, ValueError):
    """The raw recordings a data plugin packages from are not where ``$BRAINSCORE_RAW_DATA`` points."""


class DataSourceError(VisionError, ValueError):
    """``$BRAINSCORE_VISION_DATA_SOURCE`` names no store scheme, or a remote source lacks its location
    (``$BRAINSCORE_VISION_S3_BUCKET``); the message lists the schemes brainio knows."""


class DataIntegrityError(VisionError, ValueError):
    """A raw file's sha1 differs from the one recorded in the plugin; the message names the file."""


class PublicDataUnavailableError(VisionError, OSError):
    """A file of Brain-Score's public store could not be fetched (no network, refused, or missing)."""


class CredentialsRequiredError(PublicDataUnavailableError, PermissionError):
    """A file of Brain-Score's store that its bucket refused both without credentials and with the user's AWS
    credentials (or none were found): the message names the identifier, the bucket and the key, and says that it
    needs Brain-Score credentials."""


class StimuliUnavailableError(PublicDataUnavailableError):
    """A registered stimulus set whose images are neither in the raw data nor reachable in Brain-Score's store."""


class LocalDataMissingError(VisionError, FileNotFoundError):
    """Data that may not be redistributed (THINGS, NSD, LAION-fMRI, ImageNet) is not where its local folder points;
    the message says what to fetch and which variable to set."""


class StimulusTableError(VisionError, ValueError):
    """A stimulus parameter table lacks a column or holds a value the generator cannot render."""


# -- models -----------------------------------------------------------------------------------------------------
class ModelToolsMissingError(VisionError, ModuleNotFoundError):
    """A ``brainscore_vision.model_helpers`` module was imported without model-tools, which implements it."""


# -- benchmarks -------------------------------------------------------------------------------------------------
class BenchmarkDataError(VisionError, ValueError):
    """A benchmark's data lacks what the benchmark needs (a region, time-bin coordinates, ...)."""


class ScreenError(VisionError, ValueError):
    """Stimuli cannot be placed on the screen (missing degrees, unreadable file, bad size)."""


class GratingLayoutError(VisionError, ValueError):
    """Responses whose presentations are not the full factorial grating grid in Brain-Score's order."""


class UnitSelectionError(VisionError, ValueError):
    """No model unit can be used: none has its receptive field at the stimulus, or none responds."""


class NoSpatialLayoutError(UnitSelectionError):
    """The recorded units have no spatial layout: every receptive-field centre is at the same place."""


# -- command line and report ------------------------------------------------------------------------------------
class SelectionError(VisionError, ValueError):
    """A model or benchmark selection (identifier, shell-style glob or suite name) that names nothing registered here;
    the message names the word and the closest identifiers, in one line."""


class CommandError(VisionError, RuntimeError):
    """A one-line reason for the command line to stop, with the exit status to stop with."""

    def __init__(self, message: str, status: int = EXIT_FAILED):
        super().__init__(message)
        self.status = status


class ReportDirectoryError(VisionError, ValueError):
    """The output path exists but is not a report folder this function may replace."""


# -- warnings ---------------------------------------------------------------------------------------------------
class DataRepairWarning(UserWarning):
    """A damaged local data store (manifest or packaged file) is being packaged again from the raw data."""


class MalformedRowWarning(UserWarning):
    """A results-store row the report cannot use (a timestamp that is not a time, no model or benchmark); the row
    is named and skipped."""


class ReportFigureWarning(UserWarning):
    """A figure of the report could not be drawn from the stored rows; its page says so in a note, and the rest of
    the site is built."""


class PackagingDriftWarning(UserWarning):
    """Packaging produced files whose sha1 differs from the one the plugin records.

    The raw inputs were verified, so the content is right; the bytes differ because the packaging code or
    a library writing the files changed. Re-record the sha1s (and re-upload S3 copies).
    """
