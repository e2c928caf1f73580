"""Brain-Score's public data, registered by reference: identifiers that load Brain-Score's own files from its
public S3 bucket, sha1-verified, without credentials.

The facts (identifier, bucket, key, sha1, version id, assembly class, linked stimulus set) are in
``public_catalogue.json`` beside this module, read from brain-score/vision's data plugins. With network access
``load_stimulus_set('Geirhos2021_colour')`` fetches the CSV and ZIP that Brain-Score serves, checks them against
the recorded sha1s (a signed request first, then an unsigned one: :class:`brainio.stores.s3.S3Store`) and caches
them. Offline, or when the bucket refuses, the load fails with one line (:class:`PublicDataUnavailableError`)
naming the identifier, the bucket and the key. ``AWS_ENDPOINT_URL`` points the requests at another S3 server
(the tests use a local moto server).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, MutableMapping
from pathlib import Path
from typing import Any

from brainscore_vision.errors import PublicDataUnavailableError

__all__ = ["PublicDataUnavailableError", "catalogue", "catalogue_entry", "load_assembly_by_reference",
           "load_stimulus_set_by_reference", "register_assemblies_by_reference", "register_stimulus_sets_by_reference"]

CATALOGUE_FILE = Path(__file__).with_name("public_catalogue.json")




@functools.cache
def catalogue() -> dict[tuple[str, str], dict[str, Any]]:
    """``{(kind, identifier): entry}`` for every public entry; kind is ``'assembly'`` or ``'stimulus_set'``."""
    entries = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))["entries"]
    return {(entry["kind"], entry["identifier"]): entry for entry in entries}


def catalogue_entry(kind: str, identifier: str) -> dict[str, Any]:
    """The catalogue entry of ``identifier``; a ``KeyError`` naming close identifiers when absent."""
    try:
        return dict(catalogue()[(kind, identifier)])
    except KeyError:
        known = sorted(name for entry_kind, name in catalogue() if entry_kind == kind)
        raise KeyError(f"{identifier!r} is not a public Brain-Score {kind.replace('_', ' ')}; "
                       f"the catalogue lists {len(known)}, e.g. {known[:5]}") from None


def _unavailable(kind: str, entry: dict[str, Any], error: BaseException) -> PublicDataUnavailableError:
    reason = " ".join(str(error).split()) or type(error).__name__
    return PublicDataUnavailableError(
        f"cannot fetch Brain-Score's public {kind.replace('_', ' ')} {entry['identifier']!r} from bucket "
        f"{entry['bucket']!r}, key {entry['key']!r}: {reason}")


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
    """Brain-Score's stimulus set ``identifier`` from its public store (sha1-verified)."""
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
    """Brain-Score's assembly ``identifier`` from its public store (sha1-verified), of the recorded class."""
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


def register_stimulus_sets_by_reference(registry: MutableMapping[str, Any], identifiers: Iterable[str]) -> None:
    """Register each catalogue stimulus set of ``identifiers`` in ``registry`` as a by-reference loader."""
    for identifier in identifiers:
        catalogue_entry("stimulus_set", identifier)  # unknown identifiers fail at registration
        registry[identifier] = functools.partial(load_stimulus_set_by_reference, identifier)


def register_assemblies_by_reference(registry: MutableMapping[str, Any], identifiers: Iterable[str],
                                     stimulus_set_loader_of=None) -> None:
    """Register each catalogue assembly of ``identifiers`` in ``registry``; ``stimulus_set_loader_of(identifier)``
    gives the loader of its stimulus set (default: none attached)."""
    for identifier in identifiers:
        catalogue_entry("assembly", identifier)
        loader = stimulus_set_loader_of(identifier) if stimulus_set_loader_of else None
        registry[identifier] = functools.partial(load_assembly_by_reference, identifier,
                                                 stimulus_set_loader=loader)
