"""Content digests used as cache keys: model weights, stimuli, parameters.

Everything is sha1 over bytes (never over ``repr`` of arbitrary objects, never over pickles), so a changed
weight, image byte or parameter changes the key, and equal content gives equal keys across runs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from brainio.files import remembered_sha1_hash, sha1_hash
from brainscore_core.pair_scope import pair_memo

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

    Within one scored pair (:func:`brainscore_core.pair_scope.pair_scope`: the pair's stored digest, then each
    activations-cache key) the digest is computed once and remembered with a stamp of every tensor (its storage
    address, torch's in-place version counter, dtype, shape, strides): a tensor replaced or changed in place in
    between (``load_state_dict``, an optimiser step, ``param.copy_``) is hashed again. An in-place change through
    ``param.data`` escapes torch's version counter: within the pair it is not seen, from the next pair on it is.
    Nothing is remembered past the pair, nor outside one.

    Parameters
    ----------
    model : torch.nn.Module
        The model; its class name is hashed too, so two parameter-free modules of different classes differ.
    """
    state = model.state_dict()
    memo = pair_memo()
    if memo is None:
        return _hash_state(model, state)
    stamp = tuple((name, tensor.data_ptr(), tensor._version, str(tensor.dtype), tuple(tensor.shape),
                   tuple(tensor.stride()), str(tensor.device)) for name, tensor in state.items())
    remembered = memo.get(("weights_digest", id(model)))
    if remembered is not None and remembered[0] is model and remembered[1] == stamp:
        return remembered[2]
    digest = _hash_state(model, state)
    memo[("weights_digest", id(model))] = (model, stamp, digest)  # the model is held: its id is not reused
    return digest


def _hash_state(model: Any, state: Mapping[str, Any]) -> str:
    import torch

    sha = hashlib.sha1()
    sha.update(f"{type(model).__module__}.{type(model).__qualname__}".encode())
    for name, tensor in state.items():
        sha.update(f"|{name}|{tensor.dtype}|{tuple(tensor.shape)}|".encode())
        flat = tensor.detach().to("cpu").contiguous().reshape(-1)
        if flat.numel():  # the bytes are hashed in place (no copy: half the time of hashing a bytes copy)
            sha.update(memoryview(flat.view(torch.uint8).numpy()))
    return sha.hexdigest()


def file_digest(path: str) -> str:
    """sha1 hex of a file's bytes (:func:`brainio.files.sha1_hash`)."""
    return sha1_hash(path)


def cached_file_digest(path: str) -> str:
    """:func:`file_digest`, remembered in memory per file identity and stamp
    (:func:`brainio.files.remembered_sha1_hash`): a warm cache hit costs one ``stat`` per stimulus."""
    return remembered_sha1_hash(path)
