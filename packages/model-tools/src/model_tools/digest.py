"""Content digests used as cache keys: model weights, stimuli, parameters.

Everything is sha1 over bytes (never over ``repr`` of arbitrary objects, never over pickles), so a changed
weight, image byte or parameter changes the key, and equal content gives equal keys across runs.
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections.abc import Mapping
from typing import Any

from brainio.files import remembered_sha1_hash, sha1_hash
from brainscore_core.pair_scope import KEPT_MODEL, pair_memo

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


#: per model (held weakly: nothing here keeps a model alive), its stamp, the digest of its sampled elements and its
#: digest, from the last pair that hashed it
_ACROSS_PAIRS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: elements of each tensor read by the sample that checks a digest remembered across pairs
SAMPLED_ELEMENTS = 4096


def weights_digest(model: Any) -> str:
    """sha1 hex over a module's ``state_dict``: names, dtypes, shapes and raw bytes (buffers included).

    Inside scored pairs (:func:`brainscore_core.pair_scope.pair_scope`: the pair's stored digest, then each
    activations-cache key) the digest is remembered with a stamp of every tensor (its storage address, torch's
    in-place version counter, dtype, shape, strides): a tensor replaced or changed in place in between
    (``load_state_dict``, an optimiser step, ``param.copy_``) is hashed again. Within one pair the stamp decides.
    From one pair to the next the digest is reused only for a model the grid loaded by identifier and kept for the
    next pair (:data:`brainscore_core.pair_scope.KEPT_MODEL`; no user code holds it), and only when the stamp matches
    and so does a sample of every tensor's values (:data:`SAMPLED_ELEMENTS` evenly spread elements, all of a smaller
    tensor). A model a user passes to ``score()`` is hashed again in every pair, so a change through ``param.data``
    (which escapes torch's version counter) between two calls is always seen. Outside a pair every call hashes.

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
    sample = _sample_digest(state)
    earlier = _ACROSS_PAIRS.get(model) if memo.get(KEPT_MODEL) else None
    if earlier is not None and earlier[0] == stamp and earlier[1] == sample:
        digest = earlier[2]
    else:
        digest = _hash_state(model, state)
        _ACROSS_PAIRS[model] = (stamp, sample, digest)
    memo[("weights_digest", id(model))] = (model, stamp, digest)  # the model is held: its id is not reused
    return digest


def _sample_digest(state: Mapping[str, Any]) -> str:
    """sha1 hex of :data:`SAMPLED_ELEMENTS` evenly spread elements of every tensor (all of a smaller one); gathered
    with numpy for a tensor in memory (torch's indexing costs tens of ms per call on a busy machine)."""
    import numpy as np
    import torch

    sha = hashlib.sha1()
    for name, tensor in state.items():
        flat = tensor.detach().reshape(-1)
        on_cpu = flat.device.type == "cpu"
        values = flat.view(torch.uint8).numpy().view(np.uint8) if on_cpu and flat.numel() else None
        if flat.numel() > SAMPLED_ELEMENTS:
            # integer positions (a float32 linspace rounds the last one past the end of a tensor of 2**24+ elements)
            positions = np.arange(SAMPLED_ELEMENTS, dtype=np.int64) * (flat.numel() - 1) // (SAMPLED_ELEMENTS - 1)
            if on_cpu:
                width = flat.element_size()
                values = values.reshape(-1, width)[positions]
            else:
                values = flat[torch.from_numpy(positions).to(flat.device)].to("cpu").contiguous().view(
                    torch.uint8).numpy()
        elif not on_cpu:
            values = flat.to("cpu").contiguous().view(torch.uint8).numpy()
        sha.update(f"|{name}|".encode())
        if values is not None:
            sha.update(memoryview(np.ascontiguousarray(values)))
    return sha.hexdigest()


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
