"""BLAS calls that let other threads run: scipy's own BLAS routines, called without the GIL.

``scipy.linalg.blas.ssyrk`` (an f2py wrapper) holds the GIL for the whole call, so the float32 Gram blocks that a
:class:`~brainscore_metrics.backend.plan.ComputePlan` hands to its worker threads ran one after the other: two workers
were no faster than one (measured 2026-11-28 on the 2-core machine: eleven 640 x 2,048 ``ssyrk`` calls 0.10 s on one
worker and on two). The same routine is exported, GIL-free, by ``scipy.linalg.cython_blas`` as a C function pointer;
called through :mod:`ctypes` (which releases the GIL during a foreign call) the workers run in parallel (0.053 s on
two), and since it is the very routine the f2py wrapper calls, with the same arguments, the bits are the same.

Where the pointer cannot be had (a SciPy without ``cython_blas``'s capsules), the f2py wrapper is used: the same
numbers, without the parallelism.
"""

from __future__ import annotations

import ctypes
import re

import numpy as np

__all__ = ["ssyrk_upper", "uses_ctypes"]

_INT = ctypes.POINTER(ctypes.c_int)
_FLOAT = ctypes.POINTER(ctypes.c_float)
_SSYRK_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_char_p, _INT, _INT, _FLOAT, ctypes.c_void_p, _INT,
                               _FLOAT, ctypes.c_void_p, _INT)


#: the C signature ``scipy.linalg.cython_blas`` declares for ``ssyrk`` (32-bit ints, float32 ``s``): any other (an
#: ILP64 build, a changed declaration) is not called through ctypes
_SSYRK_SIGNATURE = re.compile(r"void \(char \*, char \*, int \*, int \*(, [\w]*cython_blas_s \*){2}, int \*"
                              r"(, [\w]*cython_blas_s \*){2}, int \*\)")


def _capsule_pointer(module, name: str, signature: re.Pattern) -> int | None:
    """The address of ``name`` among a Cython module's exported C functions (``__pyx_capi__``) when its declared
    signature matches ``signature``, else None."""
    capsule = getattr(module, "__pyx_capi__", {}).get(name)
    if capsule is None:
        return None
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    declared = get_name(capsule)
    if declared is None or signature.fullmatch(declared.decode("ascii", "replace")) is None:
        return None
    return get_pointer(capsule, declared) or None


def _load_ssyrk():
    try:
        import scipy.linalg.cython_blas as cython_blas

        address = _capsule_pointer(cython_blas, "ssyrk", _SSYRK_SIGNATURE)
    except (ImportError, AttributeError, ValueError):
        return None
    return _SSYRK_TYPE(address) if address else None


_SSYRK = _load_ssyrk()  # a foreign function, set once at import: never changed (no state between calls)


def ssyrk_upper(chunk: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The upper triangle of ``chunk @ chunk.T`` written into ``out`` (the strict lower triangle left as it is), by
    BLAS ``ssyrk`` without the GIL: ``scipy.linalg.blas.ssyrk(1.0, chunk.T, beta=0.0, c=out, trans=1,
    overwrite_c=1)``, bit for bit.

    Parameters
    ----------
    chunk : ndarray of shape (n, k), float32, unit stride along its columns (C order, or a view of rows of one)
    out : ndarray of shape (n, n), float32, Fortran order

    Returns
    -------
    ndarray
        ``out``.
    """
    n, k = chunk.shape
    if out.shape != (n, n) or out.dtype != np.float32 or not out.flags.f_contiguous:
        raise ValueError(f"out must be a Fortran-ordered float32 array of shape {(n, n)}, got {out.dtype} "
                         f"{out.shape}")
    if chunk.dtype != np.float32 or chunk.strides[1] != 4 or chunk.strides[0] % 4 or chunk.strides[0] < 4 * k:
        chunk = np.ascontiguousarray(chunk, dtype=np.float32)
    if _SSYRK is None or n == 0 or k == 0:
        from scipy.linalg import blas

        return blas.ssyrk(1.0, chunk.T, beta=0.0, c=out, trans=1, overwrite_c=1)
    leading = max(1, chunk.strides[0] // 4)
    _SSYRK(b"U", b"T", ctypes.byref(ctypes.c_int(n)), ctypes.byref(ctypes.c_int(k)),
           ctypes.byref(ctypes.c_float(1.0)), chunk.ctypes.data, ctypes.byref(ctypes.c_int(leading)),
           ctypes.byref(ctypes.c_float(0.0)), out.ctypes.data, ctypes.byref(ctypes.c_int(n)))
    return out


def uses_ctypes() -> bool:
    """Whether :func:`ssyrk_upper` calls BLAS without the GIL here (else through SciPy's f2py wrapper)."""
    return _SSYRK is not None
