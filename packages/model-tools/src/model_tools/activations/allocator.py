"""Keep freed memory in the process while a model runs on CPU (glibc only).

A CPU forward pass allocates and frees the same large buffers for every batch (a 64-image batch of a small
conv net: about 400 MB of layer outputs). With glibc's defaults, every block over 32 MiB is mapped with
``mmap`` and unmapped when freed, so each batch takes hundreds of thousands of page faults while the kernel
zero-fills fresh pages: on a 2-core virtual machine that was 27% of the forward pass's CPU time (1.0 million
faults for 640 images through ``randomnet``). Inside :func:`freed_memory_reused` such blocks come from
malloc's heap and freed memory stays there for the next batch, which made the same forward pass 1.4-1.6x faster.

On leaving, the thresholds are set to the largest values glibc's own dynamic adjustment reaches once large
blocks have been freed (mmap threshold 32 MiB, trim threshold 64 MiB) and ``malloc_trim(0)`` returns the free
heap memory to the system, so what the process keeps afterwards is what it would have kept anyway. Nothing happens on other
C libraries, when the user has tuned malloc through the environment (``GLIBC_TUNABLES`` naming malloc, or
``MALLOC_MMAP_THRESHOLD_`` / ``MALLOC_TRIM_THRESHOLD_``), or when env ``MODEL_TOOLS_REUSE_MEMORY`` is a false word
(``0``/``false``/``no``/``off``); both are read by :mod:`model_tools.settings`.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
from collections.abc import Iterator

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_HELD_THRESHOLD = 1 << 30  # blocks up to 1 GiB come from the heap while inside
_FALLBACK_THRESHOLD = 32 << 20  # the largest mmap threshold older glibc versions accept
_SETTLED_MMAP_THRESHOLD = 32 << 20  # where glibc's dynamic threshold ends after large blocks were freed
_SETTLED_TRIM_THRESHOLD = 64 << 20

_lock = threading.Lock()
_depth = 0
_MODEL_HOLD = "model-tools holds its malloc tuning while the model runs"  # a call_at_model_release key


def _glibc() -> ctypes.CDLL | None:
    """The process's C library if it is glibc (has ``mallopt`` and ``malloc_trim``), else None."""
    try:
        library = ctypes.CDLL(None)
        version = library.gnu_get_libc_version
        library.mallopt, library.malloc_trim  # noqa: B018 (present on glibc only)
    except (OSError, AttributeError):
        return None
    version.restype = ctypes.c_char_p
    library.mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    library.malloc_trim.argtypes = (ctypes.c_size_t,)
    return library


def reuse_enabled(parameter: bool | None = None) -> bool:
    """Whether :func:`freed_memory_reused` may tune malloc: ``parameter`` if given, else env
    ``MODEL_TOOLS_REUSE_MEMORY`` (default on), and never when the user tuned malloc through the environment."""
    from model_tools.settings import malloc_tuned_by_user, reuse_memory_enabled

    if malloc_tuned_by_user():
        return False
    if parameter is not None:
        return bool(parameter)
    return reuse_memory_enabled()


@contextlib.contextmanager
def freed_memory_reused(enabled: bool | None = None) -> Iterator[bool]:
    """Within the block, large freed blocks stay in the process for reuse (see the module docstring).

    Nested and concurrent uses (threads) are counted: malloc is tuned on the first entry and settled on the
    last exit. Inside a scored pair (:func:`brainscore_core.pair_scope.pair_scope`) the tuning is held from the
    first block until the pair's model is released (:func:`brainscore_core.pair_scope.call_at_model_release`): at
    the pair's end, or, when a grid scores the model on several benchmarks in a row and keeps it for the next pair,
    when the grid lets it go. So the extractions of a pair (a microsaccade look has one per trial; Malania2007's ten
    benchmarks 118) and of a model's consecutive pairs reuse the memory of the ones before instead of returning it
    and faulting it in again (7.1 million page faults against 0.35 million for Malania2007; Scialom2024's 44
    benchmarks 0.7 s sooner). Yields whether malloc was tuned.

    Parameters
    ----------
    enabled : bool, default=None
        None follows env ``MODEL_TOOLS_REUSE_MEMORY`` (default on); False does nothing.
    """
    library = _glibc() if reuse_enabled(enabled) else None
    if library is None:
        yield False
        return
    _enter(library)
    _hold_for_the_model(library)
    try:
        yield True
    finally:
        _leave(library)


def _enter(library: ctypes.CDLL) -> None:
    global _depth
    with _lock:
        if _depth == 0:
            if not library.mallopt(_M_MMAP_THRESHOLD, _HELD_THRESHOLD):
                library.mallopt(_M_MMAP_THRESHOLD, _FALLBACK_THRESHOLD)
            library.mallopt(_M_TRIM_THRESHOLD, _HELD_THRESHOLD)
        _depth += 1


def _leave(library: ctypes.CDLL) -> None:
    global _depth
    with _lock:
        _depth -= 1
        if _depth == 0:
            library.mallopt(_M_MMAP_THRESHOLD, _SETTLED_MMAP_THRESHOLD)
            library.mallopt(_M_TRIM_THRESHOLD, _SETTLED_TRIM_THRESHOLD)
            library.malloc_trim(0)


def _hold_for_the_model(library: ctypes.CDLL) -> None:
    """Inside a scored pair, one more entry, left when the pair's model is released (once per model run): at the
    pair's end, or, when the grid keeps the model for its next pair, when the grid lets the model go."""
    from brainscore_core.pair_scope import call_at_model_release

    if call_at_model_release(_MODEL_HOLD, lambda: _leave(library)):  # False outside a pair, or when held already
        _enter(library)
