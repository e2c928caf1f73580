"""Small JSON records that carry a digest of their own content: cache indexes, markers, selections.

A record is written atomically (and durably) as ``{"content": ..., "sha1": <SHA-1 of the canonical JSON of
content>}``. Reading returns the content, or None when the file is missing; a file that is not valid JSON, is
not a record, or whose content does not match its digest is a miss too, with a warning naming the file, so a
corrupted cache entry is computed again instead of being used.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .files import atomic_path

__all__ = ["content_sha1", "read_record", "write_record"]

_logger = logging.getLogger(__name__)


def content_sha1(content: Any) -> str:
    """SHA-1 of the canonical JSON of ``content`` (sorted keys, no whitespace; ``str`` for other objects)."""
    return content_sha1s((content,))[0]


def content_sha1s(contents: Iterable[Any]) -> list[str]:
    """:func:`content_sha1` of each of ``contents``, in one call (one encoder for all)."""
    encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str).encode
    return [hashlib.sha1(encode(content).encode("utf-8")).hexdigest() for content in contents]


def write_record(path: str | os.PathLike, content: Any) -> None:
    """Write ``content`` (JSON-serialisable) with its digest to ``path``, atomically and durably."""
    record = {"content": content, "sha1": content_sha1(content)}
    with atomic_path(path, durable=True) as temp:
        temp.write_text(json.dumps(record, sort_keys=True, indent=1, default=str), encoding="utf-8")


def read_record(path: str | os.PathLike, what: str = "cache record") -> Any | None:
    """The content of the record at ``path``; None when it is missing, damaged or fails its digest (warned)."""
    path = Path(path)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        _logger.warning("%s %s is damaged (%s); ignoring it", what, path, error)
        return None
    if not isinstance(record, dict) or "content" not in record or record.get("sha1") != content_sha1(record["content"]):
        _logger.warning("%s %s does not match its digest; ignoring it", what, path)
        return None
    return record["content"]
