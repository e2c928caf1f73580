"""Content digests used as cache keys: model weights, stimuli, parameters.

Everything is sha1 over bytes (never over ``repr`` of arbitrary objects, never over pickles), so a changed
weight, image byte or parameter changes the key, and equal content gives equal keys across runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Mapping
from typing import Any

#: A file's digest is remembered only once its last change is this old (nanoseconds): a later change of it then
#: shows in its mtime/ctime even on file systems with coarse timestamps (git's "racily clean" rule).
_SETTLED_NS = 2_000_000_000
_MAX_REMEMBERED = 200_000
_remembered: dict[tuple, str] = {}
_remembered_lock = threading.Lock()

#: Bumped when the layout or meaning of cached activations changes; part of every cache key.
CACHE_FORMAT_VERSION = 2


def json_digest(payload: Mapping[str, Any]) -> str:
    """sha1 hex of a JSON document written with sorted keys (the payload must be JSON-serialisable)."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def parameters_document(value: Any) -> Any:
    """A JSON form of a parameter value that is the same in every run: mappings and sequences recursively, an
    object with ``get_params()`` (a metric, a ceiling, an estimator) as its class and parameters, a function or
    class as its import path, numpy values as lists. Anything else is written with ``str`` (as
    :func:`json_digest` would)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Mapping):
        return {str(key): parameters_document(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [parameters_document(item) for item in value]
    if callable(getattr(value, "get_params", None)) and not isinstance(value, type):
        return {"class": _import_path(type(value)), "params": parameters_document(value.get_params())}
    if isinstance(value, type) or callable(value) and hasattr(value, "__qualname__"):
        return _import_path(value)
    if hasattr(value, "tolist") and hasattr(value, "dtype"):  # numpy scalars and arrays
        return value.tolist()
    return str(value)


def _import_path(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', type(obj).__qualname__)}"


def weights_digest(model: Any) -> str:
    """sha1 hex over a module's ``state_dict``: names, dtypes, shapes and raw bytes (buffers included).

    Parameters
    ----------
    model : torch.nn.Module
        The model; its class name is hashed too, so two parameter-free modules of different classes differ.
    """
    import torch

    sha = hashlib.sha1()
    sha.update(f"{type(model).__module__}.{type(model).__qualname__}".encode())
    for name, tensor in model.state_dict().items():
        sha.update(f"|{name}|{tensor.dtype}|{tuple(tensor.shape)}|".encode())
        flat = tensor.detach().to("cpu").contiguous().reshape(-1)
        if flat.numel():
            sha.update(flat.view(torch.uint8).numpy().tobytes())
    return sha.hexdigest()


def file_digest(path: str) -> str:
    """sha1 hex of a file's bytes, read in 1 MiB chunks."""
    sha = hashlib.sha1()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            sha.update(chunk)
    return sha.hexdigest()


def _stat_key(path: str, status: os.stat_result) -> tuple:
    return (path, status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def cached_file_digest(path: str) -> str:
    """:func:`file_digest`, remembered in memory per (path, device, inode, size, mtime, ctime).

    A warm cache hit then costs one ``stat`` per stimulus instead of reading every file. Any write to a file
    changes its ctime (which user code cannot set), so a changed file is hashed again. A digest is remembered
    only when the file had not changed for 2 s before it was read and its stat is the same after reading:
    a file rewritten within one timestamp tick of being hashed is never served from memory.
    """
    before = os.stat(path)
    key = _stat_key(path, before)
    with _remembered_lock:
        known = _remembered.get(key)
    if known is not None:
        return known
    digest = file_digest(path)
    after = os.stat(path)
    settled = time.time_ns() - max(before.st_mtime_ns, before.st_ctime_ns) > _SETTLED_NS
    if settled and _stat_key(path, after) == key:
        with _remembered_lock:
            if len(_remembered) >= _MAX_REMEMBERED:
                _remembered.clear()
            _remembered[key] = digest
    return digest
