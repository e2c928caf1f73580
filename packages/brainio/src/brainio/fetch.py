"""Load packaged stimulus sets and assemblies from any store, through the verified local cache."""

from __future__ import annotations

from collections.abc import Callable

from .assemblies import DataAssembly, resolve_assembly_class
from .cache import cache_home, fetch_verified
from .errors import InvalidIdentifierError, ValidationError
from .linking import attach_stimulus_set
from .netcdf import read_netcdf
from .stimuli import StimulusSet
from .stimulus_cache.digests import ExtractedPaths
from .stimulus_cache.extraction import extract_zip, member_sha1s, sweep_stale_temporaries

__all__ = ["MAX_IDENTIFIER_BYTES", "assembly_file_name", "check_identifier", "load_assembly", "load_stimulus_set",
           "resolve_assembly_class", "stimulus_file_stem"]


MAX_IDENTIFIER_BYTES = 150
"""Longest identifier (UTF-8 bytes): its files, their lock, marker and temporary names must stay under the 255
bytes a file name may have."""


def check_identifier(identifier: object, what: str = "identifier") -> str:
    """``identifier`` when it can name packaged files; else :class:`InvalidIdentifierError` naming it and why.

    Refused: anything but a non-blank string, ``/`` or ``\\`` (the name would point into another folder), control
    characters (NUL, newline, ...), characters UTF-8 cannot encode, and more than :data:`MAX_IDENTIFIER_BYTES`.
    """
    if not isinstance(identifier, str) or not identifier.strip():
        reason = "it is not a non-empty string"
    elif "/" in identifier or "\\" in identifier:
        reason = "it holds a path separator ('/' or '\\')"
    elif any(ord(character) < 32 or ord(character) == 127 for character in identifier):
        reason = "it holds a control character (NUL, newline, tab, ...)"
    else:
        try:
            size = len(identifier.encode("utf-8"))
        except UnicodeEncodeError:
            reason = "it holds a character UTF-8 cannot encode"
        else:
            reason = f"it is {size} bytes long (at most {MAX_IDENTIFIER_BYTES})" if size > MAX_IDENTIFIER_BYTES else ""
    if reason:
        raise InvalidIdentifierError(f"{what} {identifier!r} cannot name a file: {reason}")
    return identifier


def stimulus_file_stem(identifier: str, filename_prefix: str | None = "stimulus_") -> str:
    """``stimulus_<identifier with '.' -> '_'>`` (legacy prefix ``image_``); the identifier is checked
    (:func:`check_identifier`)."""
    return f"{filename_prefix or 'stimulus_'}{check_identifier(identifier, 'stimulus set identifier').replace('.', '_')}"


def assembly_file_name(identifier: str) -> str:
    """``assy_<identifier with '.' -> '_'>.nc``; the identifier is checked (:func:`check_identifier`)."""
    return f"assy_{check_identifier(identifier, 'assembly identifier').replace('.', '_')}.nc"


def load_stimulus_set(identifier: str, store, csv_sha1: str, zip_sha1: str, csv_version_id: str | None = None,
                      zip_version_id: str | None = None, filename_prefix: str | None = "stimulus_") -> StimulusSet:
    """Fetch ``<prefix><identifier>.csv`` and ``.zip`` from ``store``, verify, extract and build the set.

    Parameters
    ----------
    identifier : str
        Stimulus set identifier, e.g. ``'MyExperiment2024'``.
    store : Store
        :class:`~brainio.stores.LocalStore`, :class:`~brainio.stores.S3Store` or anything with ``download``.
    csv_sha1, zip_sha1 : str
        Expected SHA-1 of the two files.
    csv_version_id, zip_version_id : str, optional
        Store versions, default=None (latest).
    filename_prefix : str, default='stimulus_'

    Returns
    -------
    StimulusSet with ``identifier`` set and ``stimulus_paths`` pointing into the cache
    (``$BRAINIO_HOME/<zip_sha1>/<zip name without .zip>/``).
    """
    stem = stimulus_file_stem(identifier, filename_prefix)
    home = cache_home()
    sweep_stale_temporaries(home)
    csv_path = fetch_verified(store, f"{stem}.csv", csv_sha1, csv_version_id, home=home)
    zip_path = fetch_verified(store, f"{stem}.zip", zip_sha1, zip_version_id, home=home)
    directory = extract_zip(zip_path, zip_path.parent / stem, home=home)  # checks every member's stamp or SHA-1
    # the author's recorded SHA-1 vouches for the table: only the checks that protect the reader (strict=False)
    stimulus_set = StimulusSet.from_files(csv_path, directory, identifier=identifier, strict=False)
    # the members' SHA-1s recorded at the verified extraction: the set's content digests (spec 3.1: flat or nested;
    # archive members that are not in the CSV are ignored)
    paths, missing = ExtractedPaths.of(stimulus_set.stimulus_paths, directory, member_sha1s(directory))
    if missing:
        raise ValidationError(f"stimulus set {identifier!r}: {len(missing)} stimulus files named in {csv_path} are "
                              f"not in the archive {zip_path}, e.g. {missing[:5]}")
    stimulus_set.stimulus_paths = paths
    return stimulus_set


def load_assembly(identifier: str, store, sha1: str, cls: type | str = DataAssembly, version_id: str | None = None,
                  stimulus_set_loader: Callable[[], StimulusSet] | None = None,
                  merge_stimulus_set_meta: bool = True) -> DataAssembly:
    """Fetch ``assy_<identifier>.nc`` from ``store``, verify it and read it as ``cls``.

    With ``stimulus_set_loader``, the loaded set is kept as ``attrs['stimulus_set']`` and (unless
    ``merge_stimulus_set_meta`` is False or ``cls`` is a Property/Metadata assembly) its columns are
    joined onto ``presentation`` by ``stimulus_id``.
    """
    cls = resolve_assembly_class(cls)
    path = fetch_verified(store, assembly_file_name(identifier), sha1, version_id)
    assembly = read_netcdf(path, cls=cls, verified=True)  # fetch_verified checked its SHA-1
    assembly.attrs["identifier"] = identifier
    if stimulus_set_loader is not None:
        assembly = attach_stimulus_set(assembly, stimulus_set_loader(), merge=merge_stimulus_set_meta)
    return assembly


def __getattr__(name: str):
    """A name an installed distribution adds to this module (:mod:`brainio.extensions`; brainscore-legacy adds
    brainio 2021's ``get_assembly`` and ``get_stimulus_set``), else AttributeError."""
    if name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .extensions import extension_name

    return extension_name(__name__, name)
