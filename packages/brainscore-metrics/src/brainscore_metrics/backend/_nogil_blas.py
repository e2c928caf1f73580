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

__all__ = ["dpotrs_lower", "dtrsm_right_lower_transposed", "ssyrk_upper", "uses_ctypes"]

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


_DOUBLE = ctypes.POINTER(ctypes.c_double)
_DTRSM_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, _INT, _INT,
                               _DOUBLE, ctypes.c_void_p, _INT, ctypes.c_void_p, _INT)
_DPOTRS_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p, _INT, _INT, ctypes.c_void_p, _INT, ctypes.c_void_p, _INT, _INT)
_D = r"[\w]*cython_blas_d \*"
_DTRSM_SIGNATURE = re.compile(rf"void \(char \*, char \*, char \*, char \*, int \*, int \*, {_D}, {_D}, int \*, "
                              rf"{_D}, int \*\)")
_L = r"[\w]*cython_lapack_d \*"
_DPOTRS_SIGNATURE = re.compile(rf"void \(char \*, int \*, int \*, {_L}, int \*, {_L}, int \*, int \*\)")


def _load(module_name: str, name: str, signature: re.Pattern, prototype):
    """The GIL-free foreign function ``name`` of ``scipy.linalg.<module_name>``, or None."""
    try:
        import importlib

        module = importlib.import_module(f"scipy.linalg.{module_name}")
        address = _capsule_pointer(module, name, signature)
    except (ImportError, AttributeError, ValueError):
        return None
    return prototype(address) if address else None


# foreign functions, set once at import and never changed (no state between calls)
_SSYRK = _load("cython_blas", "ssyrk", _SSYRK_SIGNATURE, _SSYRK_TYPE)
_DTRSM = _load("cython_blas", "dtrsm", _DTRSM_SIGNATURE, _DTRSM_TYPE)
_DPOTRS = _load("cython_lapack", "dpotrs", _DPOTRS_SIGNATURE, _DPOTRS_TYPE)


def _int(value: int):
    return ctypes.byref(ctypes.c_int(value))


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


def _callable(routine, matrix: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``routine`` (a ctypes pointer, or None) takes these float64 Fortran-ordered arrays; else the SciPy
    wrapper is called (an empty ``b`` too)."""
    return routine is not None and b.size > 0 and all(
        array.flags.f_contiguous and array.dtype == np.float64 for array in (matrix, b))


def dtrsm_right_lower_transposed(diagonal: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``b L^-T`` in place of ``b`` (``L``: the lower triangle of ``diagonal``), by BLAS ``dtrsm`` without the GIL:
    ``scipy.linalg.blas.dtrsm(1.0, diagonal, b, side=1, lower=1, trans_a=1, overwrite_b=1)``, bit for bit.

    Parameters
    ----------
    diagonal : ndarray of shape (k, k), float64, Fortran order
    b : ndarray of shape (m, k), float64, Fortran order (overwritten)
    """
    if not _callable(_DTRSM, diagonal, b):
        from scipy.linalg import blas

        return blas.dtrsm(1.0, diagonal, b, side=1, lower=1, trans_a=1, overwrite_b=1)
    m, k = b.shape
    if diagonal.shape != (k, k):
        raise ValueError(f"diagonal must be of shape {(k, k)}, got {diagonal.shape}")
    _DTRSM(b"R", b"L", b"T", b"N", _int(m), _int(k), ctypes.byref(ctypes.c_double(1.0)), diagonal.ctypes.data,
           _int(max(1, k)), b.ctypes.data, _int(max(1, m)))
    return b


def dpotrs_lower(factor: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, int]:
    """Solve ``a x = b`` from the lower Cholesky factor of ``a``, in place of ``b``, by LAPACK ``potrs`` without the
    GIL: ``scipy.linalg.lapack.dpotrs(factor, b, lower=1, overwrite_b=1)``, bit for bit; ``(x, info)``.

    Parameters
    ----------
    factor : ndarray of shape (n, n), float64, Fortran order
    b : ndarray of shape (n, k), float64, Fortran order (overwritten)
    """
    if not _callable(_DPOTRS, factor, b):
        from scipy.linalg import lapack

        return lapack.dpotrs(factor, b, lower=1, overwrite_b=1)
    n, k = b.shape
    if factor.shape != (n, n):
        raise ValueError(f"factor must be of shape {(n, n)}, got {factor.shape}")
    info = ctypes.c_int(0)
    _DPOTRS(b"L", _int(n), _int(k), factor.ctypes.data, _int(max(1, n)), b.ctypes.data, _int(max(1, n)),
            ctypes.byref(info))
    return b, int(info.value)


def uses_ctypes() -> bool:
    """Whether the functions of this module call BLAS and LAPACK without the GIL here (else through SciPy's f2py
    wrappers: the same numbers)."""
    return _SSYRK is not None and _DTRSM is not None and _DPOTRS is not None
