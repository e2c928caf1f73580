"""Brain-Score's data by reference: identifiers that load Brain-Score's own files from its S3 buckets, sha1-verified.

The rules, shared by every family registered this way:

- **The facts.** Each entry names identifier, bucket, key, sha1, version id, assembly class and linked stimulus set,
  read from brain-score/vision's data plugins (commit c642dbe4). Brain-Score's public data is in
  ``public_catalogue.json`` beside this module; a family's own entries live in a JSON file of the same schema beside
  its data plugin, read with :func:`read_catalogue` and passed as ``entries=`` to the ``register_*`` functions. An
  entry's ``access`` is ``'public'`` (the default: a reading without credentials was evidenced), ``'private'``
  (Brain-Score marks the data private: its core benchmarks) or ``'unknown'`` (Brain-Score's tests mark it private,
  its metadata calls it public, and no read was measured here).
- **Verified.** The files are fetched through brainio's cache: each checked against its recorded sha1 before use,
  written atomically, nothing half-written left behind (:func:`brainio.cache.fetch_verified`).
- **Unsigned first, then your credentials.** Each read is tried without credentials, then signed with the
  credentials boto3's default chain finds (``AWS_ACCESS_KEY_ID``, ``~/.aws/credentials``, profiles, roles):
  :class:`brainio.stores.s3.S3Store`. ``AWS_ENDPOINT_URL`` points the requests at another S3 server (the tests use a
  local moto server).
- **One line when it fails.** Offline, or when the object is missing: :class:`PublicDataUnavailableError` naming the
  identifier, the bucket and the key. Refused both unsigned and signed: :class:`CredentialsRequiredError`, the same
  facts and "needs Brain-Score credentials".
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, MutableMapping
from pathlib import Path
from typing import Any

from brainscore_vision.errors import CredentialsRequiredError, PublicDataUnavailableError

__all__ = ["ACCESS_LEVELS", "ACCESS_NEEDS", "CredentialsRequiredError", "PublicDataUnavailableError", "catalogue", "catalogue_entry",
           "load_assembly_by_reference", "load_stimulus_set_by_reference", "read_catalogue",
           "register_assemblies_by_reference", "register_family_catalogue", "register_stimulus_sets_by_reference"]

CATALOGUE_FILE = Path(__file__).with_name("public_catalogue.json")
#: an entry's ``access``: read without credentials (evidenced), Brain-Score marks it private, or not measured
ACCESS_LEVELS = ("public", "private", "unknown")
#: the data need (:mod:`brainscore_core.data_needs`) of a file registered by reference, from its entry's ``access``:
#: set on each factory registered here (``factory.data_need``), so ``brainscore list`` marks it without a table
ACCESS_NEEDS = {"public": "network", "unknown": "credentials", "private": "private"}
Catalogue = dict[tuple[str, str], dict[str, Any]]


def read_catalogue(path: str | Path) -> Catalogue:
    """``{(kind, identifier): entry}`` from a catalogue JSON file (``{"entries": [...]}``, each entry with ``kind``
    ``'assembly'`` or ``'stimulus_set'``, ``identifier``, ``bucket``, ``key`` and the sha1s, version ids and class of
    ``public_catalogue.json``; ``access`` one of :data:`ACCESS_LEVELS`, default ``'public'``).

    Raises ``ValueError`` naming the file and the entry when a kind or an access level is unknown or an identifier
    repeats."""
    path = Path(path)
    found: Catalogue = {}
    for number, entry in enumerate(json.loads(path.read_text(encoding="utf-8"))["entries"]):
        name = f"{path.name}, entry {number} ({entry.get('identifier')!r})"
        if entry.get("kind") not in ("assembly", "stimulus_set"):
            raise ValueError(f"{name}: kind {entry.get('kind')!r} is not 'assembly' or 'stimulus_set'")
        if entry.setdefault("access", "public") not in ACCESS_LEVELS:
            raise ValueError(f"{name}: access {entry['access']!r} is not one of {ACCESS_LEVELS}")
        if (entry["kind"], entry["identifier"]) in found:
            raise ValueError(f"{name}: the identifier appears twice")
        found[(entry["kind"], entry["identifier"])] = entry
    return found


@functools.cache
def catalogue() -> Catalogue:
    """``{(kind, identifier): entry}`` for every public entry; kind is ``'assembly'`` or ``'stimulus_set'``."""
    return read_catalogue(CATALOGUE_FILE)


def catalogue_entry(kind: str, identifier: str, entries: Catalogue | None = None) -> dict[str, Any]:
    """The entry of ``identifier`` in ``entries`` (default: the public catalogue); a ``KeyError`` naming close
    identifiers when absent."""
    entries = catalogue() if entries is None else entries
    try:
        return dict(entries[(kind, identifier)])
    except KeyError:
        known = sorted(name for entry_kind, name in entries if entry_kind == kind)
        what = "public Brain-Score" if entries is catalogue() else "catalogued"
        raise KeyError(f"{identifier!r} is not a {what} {kind.replace('_', ' ')}; "
                       f"the catalogue lists {len(known)}, e.g. {known[:5]}") from None


def _unavailable(kind: str, entry: dict[str, Any], error: BaseException) -> PublicDataUnavailableError:
    from brainio.errors import StoreAccessDeniedError

    facts = (f"Brain-Score's {kind.replace('_', ' ')} {entry['identifier']!r} (bucket {entry['bucket']!r}, key "
             f"{entry['key']!r})")
    if isinstance(error, StoreAccessDeniedError):
        return CredentialsRequiredError(
            f"{facts} needs Brain-Score credentials: the bucket refused it without credentials and "
            f"{'found no AWS credentials to try' if 'no AWS credentials' in str(error) else 'with yours'} "
            "(set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile, with Brain-Score's access)")
    reason = " ".join(str(error).split()) or type(error).__name__
    return PublicDataUnavailableError(f"cannot fetch {facts}: {reason}")


def _network_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [OSError]
    try:
        from botocore.exceptions import BotoCoreError, ClientError

        errors += [BotoCoreError, ClientError]
    except ImportError:  # boto3 not installed: brainio[s3] is an extra
        pass
    from brainio.errors import StoreKeyError

    errors.append(StoreKeyError)
    return tuple(errors)


def load_stimulus_set_by_reference(identifier: str, entry: dict[str, Any] | None = None):
    """Brain-Score's stimulus set ``identifier`` from its store (sha1-verified); ``entry`` default: the public
    catalogue's."""
    entry = entry or catalogue_entry("stimulus_set", identifier)
    try:
        from brainio.s3 import load_stimulus_set_from_s3

        return load_stimulus_set_from_s3(identifier=entry["s3_identifier"], bucket=entry["bucket"],
                                         csv_sha1=entry["csv_sha1"], zip_sha1=entry["zip_sha1"],
                                         csv_version_id=entry.get("csv_version_id"),
                                         zip_version_id=entry.get("zip_version_id"))
    except ImportError as error:  # brainio's MissingExtraError names the pip command
        raise _unavailable("stimulus_set", entry, error) from error
    except _network_errors() as error:
        raise _unavailable("stimulus_set", entry, error) from error


def load_assembly_by_reference(identifier: str, entry: dict[str, Any] | None = None, *, stimulus_set_loader=None):
    """Brain-Score's assembly ``identifier`` from its store (sha1-verified), of the recorded class; ``entry`` default:
    the public catalogue's."""
    entry = entry or catalogue_entry("assembly", identifier)
    try:
        from brainio import assemblies
        from brainio.s3 import load_assembly_from_s3

        return load_assembly_from_s3(identifier=entry["s3_identifier"], version_id=entry.get("version_id"),
                                     sha1=entry["sha1"], bucket=entry["bucket"], cls=getattr(assemblies, entry["cls"]),
                                     stimulus_set_loader=stimulus_set_loader)
    except PublicDataUnavailableError:  # its stimulus set could not be fetched: that message names the file
        raise
    except ImportError as error:  # brainio's MissingExtraError names the pip command
        raise _unavailable("assembly", entry, error) from error
    except _network_errors() as error:
        raise _unavailable("assembly", entry, error) from error


def _with_need(factory: functools.partial, entry: dict[str, Any]) -> functools.partial:
    """``factory`` declaring the data it needs, from its catalogue entry's ``access`` (a field on the registration:
    :mod:`brainscore_core.data_needs`)."""
    factory.data_need = ACCESS_NEEDS[entry.get("access", "public")]
    return factory


def register_stimulus_sets_by_reference(registry: MutableMapping[str, Any], identifiers: Iterable[str], *,
                                        entries: Catalogue | None = None) -> None:
    """Register each stimulus set of ``identifiers`` in ``registry`` as a by-reference loader; its entry comes from
    ``entries`` (a family's own catalogue, :func:`read_catalogue`; default: the public catalogue)."""
    for identifier in identifiers:
        entry = catalogue_entry("stimulus_set", identifier, entries)  # unknown identifiers fail at registration
        registry[identifier] = _with_need(functools.partial(load_stimulus_set_by_reference, identifier,
                                                            entry if entries is not None else None), entry)


def register_assemblies_by_reference(registry: MutableMapping[str, Any], identifiers: Iterable[str],
                                     stimulus_set_loader_of=None, *, entries: Catalogue | None = None) -> None:
    """Register each assembly of ``identifiers`` in ``registry``; ``stimulus_set_loader_of(identifier)`` gives the
    loader of its stimulus set (default: none attached); entries as in :func:`register_stimulus_sets_by_reference`."""
    for identifier in identifiers:
        entry = catalogue_entry("assembly", identifier, entries)
        loader = stimulus_set_loader_of(identifier) if stimulus_set_loader_of else None
        registry[identifier] = _with_need(functools.partial(load_assembly_by_reference, identifier, entry if entries
                                                            is not None else None, stimulus_set_loader=loader), entry)


def register_family_catalogue(path: str | Path, *, data_registry: MutableMapping[str, Any],
                              stimulus_set_registry: MutableMapping[str, Any], load_stimulus_set,
                              skip: Iterable[str] = ()) -> Catalogue:
    """Register every entry of a family's catalogue file (:func:`read_catalogue`) by reference: its stimulus sets in
    ``stimulus_set_registry``, its assemblies in ``data_registry``, each assembly with the stimulus set its entry
    names (``stimulus_set``, loaded through ``load_stimulus_set`` when the assembly is). Identifiers in ``skip`` are
    left for the plugin to register itself (e.g. with a step after loading). Returns the entries.

    Called from a family's data plugin (``data/<family>/__init__.py``) with the ``catalogue.json`` beside it and
    ``brainscore_vision``'s registries."""
    entries = read_catalogue(path)
    skip = set(skip)

    def stimulus_set_loader_of(identifier: str):
        name = entries[("assembly", identifier)].get("stimulus_set")
        return functools.partial(load_stimulus_set, name) if name else None

    register_stimulus_sets_by_reference(
        stimulus_set_registry, [name for kind, name in entries if kind == "stimulus_set" and name not in skip],
        entries=entries)
    register_assemblies_by_reference(
        data_registry, [name for kind, name in entries if kind == "assembly" and name not in skip],
        stimulus_set_loader_of=stimulus_set_loader_of, entries=entries)
    return entries
