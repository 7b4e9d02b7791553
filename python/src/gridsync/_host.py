"""Host calls on arrays of any framework: reduce, dot, scan, sgemm.

Each call reads its arrays (gridsync._arrays: torch and CuPy fast paths,
__cuda_array_interface__, DLPack), runs on the given stream or the
framework's current one, allocates its output through the caller's
framework unless out= is given, and raises the library's sentence on
failure. The C call is one ctypes call of a function declared once, its
enumerations passed as ready c_int objects (_lib.CINT).
On a torch tensor a call reads each argument's dtype, device, contiguity,
element count and pointer once; whether x is on the current device is left
to the library, which checks every pointer it is given (after a refusal,
explain_failure gives the sentence naming the argument).
"""
from collections import namedtuple

from . import _arrays, _lib
from ._arrays import (CUPY, TORCH, NAMES, NP_OF, default_stream, empty, empty_like,
                      empty_scalar, flat, layout, pointer, stream_handle)
from ._errors import InvalidArgumentError
from ._lib import CINT, EXCLUSIVE, F32, I64, INCLUSIVE, SCAN_OPS, REDUCE_OPS, SUM_TYPE

ArgResult = namedtuple("ArgResult", ["value", "index"])
_INT_MAX = 2**31 - 1


def _op(table, op, who):
    code = table.get(op)
    if code is None:
        raise InvalidArgumentError("%s: unknown op %r (%s)" % (who, op, ", ".join(table)))
    return code


def _failure(st, who, arrays):
    """The exception for a failed C call on `arrays` ((name, array) pairs):
    the library's, or the Python sentence naming the argument it refused."""
    err = _lib.error(st)  # first: it reads this thread's detail
    _arrays.explain_failure(who, arrays)
    return err


def _output(out, who, gs, n, stream, dev):
    """The pointer of a caller's out=: contiguous, x's dtype, n elements, on x's device."""
    if dev >= 0 and type(out) is _arrays._TT and _arrays._TORCH_GS.get(out.dtype) == gs and \
            out.get_device() == dev and out.numel() == n and out.is_contiguous():
        return out.data_ptr()  # the common case, checked in five calls
    ptr, ogs, on, _, _, _ = flat(out, who, "out", stream)
    if ogs != gs:
        raise InvalidArgumentError("%s: out has dtype %s, the result is %s" %
                                   (who, NAMES[ogs], NAMES[gs]))
    if on != n:
        raise InvalidArgumentError("%s: out has %d elements, the result has %d" % (who, on, n))
    return ptr


def scan(x, op="sum", *, exclusive=False, out=None, stream=None):
    """Prefix scan of x's elements (any shape, C-contiguous, in memory order):
    out[i] = x[0] op ... op x[i] (inclusive) or x[0] op ... op x[i-1]
    (exclusive; out[0] is op's identity). op: "sum" (integer sums wrap), "min",
    "max". Returns out (new, shaped as x, unless given; out=x scans in place),
    of x's dtype: a float16 or bfloat16 sum is computed in float32 and each
    element rounded to x's dtype (float16 past 65504: inf).
    Asynchronous on `stream` (default: the framework's current stream)."""
    ptr, gs, n, dev, kind, hint = flat(x, "gridsync.scan", "x")
    code = SCAN_OPS.get(op)
    if code is None:
        code = _op(SCAN_OPS, op, "gridsync.scan")
    s = default_stream(kind, dev, hint) if stream is None else stream_handle(stream)
    if out is None:
        out = empty_like(kind, x, "gridsync.scan")
        optr = out.data_ptr() if kind == TORCH else pointer(kind, out)
    else:
        optr = _output(out, "gridsync.scan", gs, n, s, dev)
    st = _lib.gs_scan(CINT[code], CINT[EXCLUSIVE if exclusive else INCLUSIVE], CINT[gs], ptr,
                      optr, n, s)
    if st:
        raise _failure(st, "gridsync.scan", (("x", x), ("out", out)))
    return out


def inclusive_scan(x, op="sum", *, out=None, stream=None):
    """scan(x, op) (see scan)."""
    return scan(x, op, out=out, stream=stream)


def exclusive_scan(x, op="sum", *, out=None, stream=None):
    """scan(x, op, exclusive=True) (see scan)."""
    return scan(x, op, exclusive=True, out=out, stream=stream)


def reduce(x, op="sum", *, out=None, stream=None):
    """Reduce x's elements with op: "sum" (integer sums wrap), "min", "max"
    (NaN propagates), "argmin", "argmax" (first index of the extreme; a NaN
    wins). sum/min/max return a 0-d array of x's dtype (into out= if given: one
    element of x's dtype), except that the sum of float16 or bfloat16 is
    float32 (summed in float32: it never rounds to 16 bits, nor overflows
    float16's 65504); argmin/argmax an ArgResult(value, index) of
    arrays of the framework (index int64). Asynchronous: the result is a
    device array, written in stream order. An empty x gives the identity
    (0, +inf/-inf or the integer limits; index -1)."""
    ptr, gs, n, dev, kind, hint = flat(x, "gridsync.reduce", "x")
    code = REDUCE_OPS.get(op)
    if code is None:
        code = _op(REDUCE_OPS, op, "gridsync.reduce")
    s = default_stream(kind, dev, hint) if stream is None else stream_handle(stream)
    if code >= 3:
        return _arg_reduce(x, code, ptr, gs, n, kind, s, out)
    rgs = SUM_TYPE.get(gs, gs) if code == 0 else gs
    if out is None:
        out = empty_scalar(kind, x, dev, rgs, "gridsync.reduce")
        optr = out.data_ptr() if kind == TORCH else pointer(kind, out)
    else:
        optr = _output(out, "gridsync.reduce", rgs, 1, s, dev)
    st = _lib.gs_reduce(CINT[code], CINT[gs], ptr, n, optr, s)
    if st:
        raise _failure(st, "gridsync.reduce", (("x", x), ("out", out)))
    return out


def _arg_reduce(x, code, ptr, gs, n, kind, s, out):
    if out is not None:
        raise InvalidArgumentError("gridsync.reduce: out= is for sum, min and max; argmin and "
                                   "argmax return new (value, index) arrays")
    buf = empty(kind, x, (2,), I64, "gridsync.reduce")  # gs_reduce_arg: index, value (union)
    st = _lib.gs_reduce(CINT[code], CINT[gs], ptr, n, pointer(kind, buf), s)
    if st:
        raise _failure(st, "gridsync.reduce", (("x", x),))
    if kind == TORCH:
        return ArgResult(buf[1:].view(x.dtype)[0], buf[0])
    if kind == CUPY:
        return ArgResult(buf[1:].view(NP_OF[gs])[0], buf[0])
    # numba: 1-element device arrays (the value the first bytes of the union)
    return ArgResult(buf[1:].view(NP_OF[gs])[0:1], buf[0:1])


def dot(x, y, *, out=None, stream=None):
    """Dot product of two arrays of one dtype and length (C-contiguous, any
    shape; every dtype reduce takes: integer products and sums wrap, float16
    and bfloat16 multiplied and summed in float32); a 0-d array (or out=, one
    element) of that dtype, float32 for float16 and bfloat16. Asynchronous,
    like reduce."""
    ptr, gs, n, dev, kind, hint = flat(x, "gridsync.dot", "x")
    s = default_stream(kind, dev, hint) if stream is None else stream_handle(stream)
    yptr, ygs, yn, _, _, _ = flat(y, "gridsync.dot", "y", s)
    if ygs != gs or yn != n:
        raise InvalidArgumentError("gridsync.dot: x is %d x %s, y is %d x %s; they must match" %
                                   (n, NAMES[gs], yn, NAMES[ygs]))
    rgs = SUM_TYPE.get(gs, gs)
    if out is None:
        out = empty_scalar(kind, x, dev, rgs, "gridsync.dot")
        optr = out.data_ptr() if kind == TORCH else pointer(kind, out)
    else:
        optr = _output(out, "gridsync.dot", rgs, 1, s, dev)
    st = _lib.gs_dot(CINT[gs], ptr, yptr, n, optr, s)
    if st:
        raise _failure(st, "gridsync.dot", (("x", x), ("y", y), ("out", out)))
    return out


_GEMM_KERNELS = {}


def _matrix(x, name, s):
    """(pointer, rows, cols, row stride, kind, device, hint) of a float32 matrix
    whose rows are contiguous (the row stride may exceed the width; an empty
    one has any strides, and the library says what it makes of its size)."""
    ptr, gs, shape, strides, dev, kind, hint = layout(x, "gridsync.sgemm", name, s)
    if len(shape) != 2:
        raise InvalidArgumentError("gridsync.sgemm: %s has %d dimensions; it must be a matrix"
                                   % (name, len(shape)))
    if gs != F32:
        raise InvalidArgumentError("gridsync.sgemm: %s is %s; sgemm takes float32" %
                                   (name, NAMES[gs]))
    rows, cols = shape
    ld = cols if strides is None else strides[0]
    if strides is not None and rows and cols and \
            ((cols > 1 and strides[1] != 1) or (rows > 1 and ld < cols)):
        raise InvalidArgumentError(
            "gridsync.sgemm: %s has strides %s (in elements); its rows must be contiguous "
            "(row-major, row stride >= width)" % (name, strides))
    ld = max(ld, cols, 1)
    if max(rows, cols, ld) > _INT_MAX:
        raise InvalidArgumentError("gridsync.sgemm: %s is %d x %d (row stride %d): sizes above "
                                   "2^31-1 are not supported" % (name, rows, cols, ld))
    return ptr, rows, cols, ld, kind, dev, hint


def sgemm(a, b, c=None, *, alpha=1.0, beta=0.0, kernel="auto", stream=None):
    """C = alpha * A @ B + beta * C in float32 (FP32 products and sums; no TF32).
    A is m x k, B is k x n, C is m x n; row-major with contiguous rows (a row
    stride larger than the width is fine). Without c, a new m x n C (beta must
    be 0). kernel: "auto", "fast", "tiled16", "splitk", "streamk". Returns C.
    Asynchronous on `stream` (default: the framework's current stream)."""
    s0 = None if stream is None else stream_handle(stream)
    aptr, m, k, lda, kind, dev, hint = _matrix(a, "a", s0)
    s = default_stream(kind, dev, hint) if s0 is None else s0
    bptr, k2, n, ldb, _, _, _ = _matrix(b, "b", s)
    if k2 != k:
        raise InvalidArgumentError("gridsync.sgemm: a is %d x %d and b is %d x %d: a's columns "
                                   "must equal b's rows" % (m, k, k2, n))
    if c is None:
        if beta != 0:
            raise InvalidArgumentError("gridsync.sgemm: beta=%r needs c= (the matrix it scales)"
                                       % (beta,))
        c = empty(kind, a, (m, n), F32, "gridsync.sgemm")
        cptr, ldc = pointer(kind, c), max(n, 1)  # new and C-contiguous: what _matrix gives
    else:
        cptr, cm, cn, ldc, _, _, _ = _matrix(c, "c", s)
        if (cm, cn) != (m, n):
            raise InvalidArgumentError("gridsync.sgemm: c is %d x %d, a @ b is %d x %d" %
                                       (cm, cn, m, n))
    kc = _GEMM_KERNELS.get(kernel)
    if kc is None:
        kc = _gemm_kernel(kernel)
    st = _lib.gs_sgemm_with(kc, m, n, k, alpha, aptr, lda, bptr, ldb, beta, cptr, ldc, s)
    if st:
        raise _lib.error(st)
    return c


def _gemm_kernel(name):
    import ctypes
    if not isinstance(name, str):
        raise InvalidArgumentError("gridsync.sgemm: kernel must be a name such as \"auto\"")
    code = ctypes.c_int()
    _lib.check(_lib.gs_gemm_kernel_parse(name.encode(), ctypes.byref(code)))
    _GEMM_KERNELS[name] = code.value
    return code.value
