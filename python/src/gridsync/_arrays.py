"""Arrays of any framework: the pointer, type, size, layout, device and
stream that a gridsync call needs, and outputs allocated by the caller's
framework.

Fast paths for torch.Tensor and cupy.ndarray (their own attributes: no
protocol objects built per call); the general path reads
__cuda_array_interface__ (numba-cuda, CuPy, PyTorch, ...) or DLPack
(__dlpack__ / __dlpack_device__: JAX, cuda.core, TensorFlow, ...). Neither
torch nor CuPy is imported by gridsync: their bindings are set up the first
time one of their arrays is seen.
"""
import ctypes
import sys

import numpy as np

from ._errors import InvalidArgumentError
from ._lib import BF16, F16, F32, F64, I32, I64, U32, U64

TORCH, CUPY, NUMBA, CAI, DLPACK = 1, 2, 3, 4, 5
NAMES = {F32: "float32", F64: "float64", I32: "int32", I64: "int64", U32: "uint32",
         U64: "uint64", F16: "float16", BF16: "bfloat16"}
# NumPy has no bfloat16: bfloat16 arrays come from torch or DLPack
NP_OF = {F32: np.dtype(np.float32), F64: np.dtype(np.float64), I32: np.dtype(np.int32),
         I64: np.dtype(np.int64), U32: np.dtype(np.uint32), U64: np.dtype(np.uint64),
         F16: np.dtype(np.float16)}
_GS_OF_NP = {v: k for k, v in NP_OF.items()}
# __cuda_array_interface__ typestrs, little-endian: "<f4", ... (no bfloat16)
_GS_OF_TYPESTR = {dt.newbyteorder("<").str: gs for gs, dt in NP_OF.items()}
# (code, bits): kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4
_GS_OF_DLPACK = {(2, 32): F32, (2, 64): F64, (0, 32): I32, (0, 64): I64, (1, 32): U32,
                 (1, 64): U64, (2, 16): F16, (4, 16): BF16}
_SUPPORTED = ", ".join(list(NAMES.values())[:-1]) + " or " + list(NAMES.values())[-1]

_TT = None  # torch.Tensor, once a tensor has been seen
_CT = None  # cupy.ndarray, once a CuPy array has been seen
_torch = _cupy = None
_TORCH_GS = _GS_TORCH = None
_torch_stream = _torch_device = _cupy_stream = _cupy_device = None


def _bind_torch():
    global _TT, _torch, _TORCH_GS, _GS_TORCH, _torch_stream, _torch_device
    import torch
    _torch = torch
    _TORCH_GS = {torch.float32: F32, torch.float64: F64, torch.int32: I32, torch.int64: I64,
                 torch.float16: F16, torch.bfloat16: BF16}
    for name, gs in (("uint32", U32), ("uint64", U64)):  # torch 2.3 and later
        if hasattr(torch, name):
            _TORCH_GS[getattr(torch, name)] = gs
    _GS_TORCH = {v: k for k, v in _TORCH_GS.items()}
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    _torch_stream = raw if raw is not None else (lambda d: torch.cuda.current_stream(d).cuda_stream)
    _torch_device = getattr(torch._C, "_cuda_getDevice", None) or torch.cuda.current_device
    _TT = torch.Tensor


def _bind_cupy():
    global _CT, _cupy, _cupy_stream, _cupy_device
    import cupy
    _cupy = cupy
    _cupy_stream = cupy.cuda.get_current_stream
    _cupy_device = cupy.cuda.runtime.getDevice
    _CT = cupy.ndarray


def _bind_for(x):
    """Set up the torch or CuPy fast path if x is one of theirs; True if so."""
    mod = type(x).__module__.partition(".")[0]
    if mod == "torch" and "torch" in sys.modules and _TT is None:
        _bind_torch()
        return isinstance(x, _TT)
    if mod == "cupy" and "cupy" in sys.modules and _CT is None:
        _bind_cupy()
        return isinstance(x, _CT)
    return False


def _bad_dtype(who, name, dtype):
    return InvalidArgumentError("%s: %s has dtype %s; gridsync takes %s" % (who, name, dtype, _SUPPORTED))


def _not_contiguous(who, name):
    return InvalidArgumentError(
        "%s: %s is not contiguous; pass a contiguous array (e.g. x.contiguous() in torch, "
        "cupy.ascontiguousarray(x))" % (who, name))


def _wrong_device(who, name, dev, cur):
    return InvalidArgumentError(
        "%s: %s is on cuda:%d but cuda:%d is the current device; make its device current "
        "first (torch.cuda.device(%d), cupy.cuda.Device(%d))" % (who, name, dev, cur, dev, dev))


def flat(x, who, name, stream=None):
    """(pointer, gs dtype, element count, device, kind, stream hint) of a
    C-contiguous CUDA array of any shape, read as its elements in order.
    `stream`: the one the call will run on, if known (DLPack producers order
    their pending work before it)."""
    t = type(x)
    if t is _TT:  # every call's path: the checks inline, the helper only to raise
        # the device is not compared with the current one here: the C call
        # refuses another GPU's memory, and its caller then asks
        # explain_failure for the sentence naming the argument
        dev = x.get_device()
        gs = _TORCH_GS.get(x.dtype)
        if dev < 0 or gs is None or not x.is_contiguous():
            _torch_checked(x, who, name, True)  # raises the error that applies
        return x.data_ptr(), gs, x.numel(), dev, TORCH, None
    if t is _CT:
        gs = _GS_OF_NP.get(x.dtype)
        dev = x.data.device_id
        if gs is None or not x.flags.c_contiguous or dev != _cupy_device():
            _cupy_checked(x, who, name, True)  # raises the error that applies
        return x.data.ptr, gs, x.size, dev, CUPY, None
    if _bind_for(x):
        return flat(x, who, name, stream)
    ptr, gs, shape, strides, dev, kind, hint = layout(x, who, name, stream)
    if strides is not None and not _is_c_contiguous(shape, strides):
        raise _not_contiguous(who, name)
    n = 1
    for s in shape:
        n *= s
    return ptr, gs, n, dev, kind, hint


def explain_failure(who, arrays):
    """After a failed C call on `arrays` ((name, array) pairs): raise the
    Python sentence for the first array that flat's fast path let through
    unchecked (a torch tensor on a device other than the current one) and
    the library refused; return if none applies (the caller then raises the
    library's own error)."""
    for name, a in arrays:
        if _TT is not None and type(a) is _TT and a.get_device() >= 0:
            _torch_checked(a, who, name, False)


def _torch_checked(x, who, name, contiguous):
    """(device, gs dtype) of a torch tensor that is on CUDA, of a dtype
    gridsync takes, on the current device and, if `contiguous`, C-contiguous;
    else the error saying which it is not (flat tests the same inline and
    calls this only to raise it)."""
    dev = x.get_device()
    gs = _TORCH_GS.get(x.dtype)
    if dev < 0:
        raise InvalidArgumentError(
            "%s: %s is on %s; gridsync works on CUDA tensors (x.cuda())" % (who, name, x.device))
    if gs is None:
        raise _bad_dtype(who, name, x.dtype)
    if contiguous and not x.is_contiguous():
        raise _not_contiguous(who, name)
    cur = _torch_device()
    if dev != cur:
        raise _wrong_device(who, name, dev, cur)
    return dev, gs


def _cupy_checked(x, who, name, contiguous):
    """(device, gs dtype) of a CuPy array of a dtype gridsync takes, on the
    current device and, if `contiguous`, C-contiguous; else the error."""
    gs = _GS_OF_NP.get(x.dtype)
    if gs is None:
        raise _bad_dtype(who, name, x.dtype)
    if contiguous and not x.flags.c_contiguous:
        raise _not_contiguous(who, name)
    dev = x.data.device_id
    cur = _cupy_device()
    if dev != cur:
        raise _wrong_device(who, name, dev, cur)
    return dev, gs


def _is_c_contiguous(shape, strides):
    """strides in elements. An empty array is contiguous whatever its strides
    (NumPy 2 gives one strides of 0, and DLPack and CAI pass them on)."""
    if 0 in shape:
        return True
    want = 1
    for extent, stride in zip(reversed(shape), reversed(strides)):
        if extent != 1 and stride != want:
            return False
        want *= extent
    return True


def layout(x, who, name, stream=None):
    """(pointer, gs dtype, shape, strides in elements or None when C-contiguous,
    device or -1 when unknown, kind, stream hint) of any CUDA array."""
    t = type(x)
    if t is not _TT and t is not _CT:
        _bind_for(x)
    if isinstance(x, _TT) if _TT is not None else False:
        dev, gs = _torch_checked(x, who, name, False)
        return x.data_ptr(), gs, tuple(x.shape), tuple(x.stride()), dev, TORCH, None
    if isinstance(x, _CT) if _CT is not None else False:
        dev, gs = _cupy_checked(x, who, name, False)
        item = x.dtype.itemsize
        strides = tuple(s // item for s in x.strides)
        if any(s % item for s in x.strides):
            raise _not_contiguous(who, name)
        return x.data.ptr, gs, tuple(x.shape), strides, dev, CUPY, None
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        return _from_cai(x, cai, who, name)
    if isinstance(x, (np.ndarray, np.generic)):
        raise InvalidArgumentError(
            "%s: %s is a NumPy array (host memory); gridsync works on GPU arrays "
            "(torch, CuPy, numba-cuda, or anything with __cuda_array_interface__ or __dlpack__)"
            % (who, name))
    if hasattr(x, "__dlpack__"):
        return _from_dlpack(x, who, name, stream)
    raise InvalidArgumentError(
        "%s: %s (%s) is not a GPU array: it has neither __cuda_array_interface__ nor __dlpack__"
        % (who, name, type(x).__name__))


def _from_cai(x, cai, who, name):
    gs = _GS_OF_TYPESTR.get(cai.get("typestr"))
    if gs is None:
        raise _bad_dtype(who, name, np.dtype(cai.get("typestr", "V")))
    ptr = cai["data"][0] or 0
    shape = tuple(cai["shape"])
    item = NP_OF[gs].itemsize
    strides = cai.get("strides")
    if strides is not None:
        if any(s % item for s in strides):
            raise _not_contiguous(who, name)
        strides = tuple(s // item for s in strides)
    kind = NUMBA if type(x).__module__.startswith("numba") else CAI
    hint = cai.get("stream")
    return ptr, gs, shape, strides, -1, kind, hint if isinstance(hint, int) else None


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int), ("device_id", ctypes.c_int)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_DL_CUDA, _DL_CUDA_MANAGED = 2, 13


def _dltensor(x, stream):
    """(capsule, its DLTensor) of x.__dlpack__(stream=stream): the capsule is
    only read, never consumed, so its own destructor frees it; the DLTensor
    lives in its memory, so hold the capsule while reading it."""
    capsule = x.__dlpack__(stream=stream)
    return capsule, _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))


def _from_dlpack(x, who, name, stream):
    """DLPack (the unversioned capsule, which every producer offers; see
    _dltensor)."""
    dev_type, dev_id = x.__dlpack_device__()
    if int(dev_type) not in (_DL_CUDA, _DL_CUDA_MANAGED):
        raise InvalidArgumentError(
            "%s: %s is not in CUDA memory (DLPack device type %d); gridsync works on GPU arrays"
            % (who, name, int(dev_type)))
    # the consumer's stream (1: the legacy default one, where gridsync runs by default)
    capsule, t = _dltensor(x, stream or 1)
    gs = _GS_OF_DLPACK.get((t.dtype.code, t.dtype.bits)) if t.dtype.lanes == 1 else None
    if gs is None:
        raise _bad_dtype(who, name, "DLPack (code %d, %d bits, %d lanes)" %
                         (t.dtype.code, t.dtype.bits, t.dtype.lanes))
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else None
    ptr = (t.data or 0) + t.byte_offset
    del capsule
    return ptr, gs, shape, strides, int(dev_id), DLPACK, None


def stream_handle(stream):
    """The cudaStream_t of a stream object of any framework, or an int."""
    if isinstance(stream, int):
        return stream
    proto = getattr(stream, "__cuda_stream__", None)
    if proto is not None:  # cuda.core's protocol: (version, handle)
        return int(proto()[1])
    for attr in ("cuda_stream", "ptr"):  # torch, CuPy
        h = getattr(stream, attr, None)
        if isinstance(h, int):
            return h
    h = getattr(stream, "handle", None)  # numba-cuda, cuda.core
    if h is not None:
        h = getattr(h, "value", h)  # a ctypes c_void_p
        return int(h or 0)
    raise InvalidArgumentError("stream: %r is not a CUDA stream (an int handle, or a stream of "
                               "torch, CuPy, numba-cuda or cuda.core)" % (stream,))


def default_stream(kind, dev, hint):
    """The stream a call runs on when none is given: the framework's current one."""
    if kind == TORCH:
        return _torch_stream(dev)
    if kind == CUPY:
        return _cupy_stream().ptr
    return hint or 0


def empty(kind, like, shape, gs, who):
    """A new C-contiguous array of the caller's framework, on like's device."""
    if kind == TORCH:  # without dtype= where it is like's: torch parses no keyword
        dtype = _GS_TORCH[gs]
        return like.new_empty(shape) if like.dtype is dtype else like.new_empty(shape, dtype=dtype)
    if kind in (CUPY, NUMBA) and gs not in NP_OF:  # bfloat16: torch's alone
        raise InvalidArgumentError("%s: only torch allocates %s arrays; pass out=" %
                                   (who, NAMES[gs]))
    if kind == CUPY:
        return _cupy.empty(shape, dtype=NP_OF[gs])
    if kind == NUMBA:  # numba-cuda: a 1-element array where the result is a scalar
        from numba import cuda
        return cuda.device_array(shape or (1,), dtype=NP_OF[gs])
    raise InvalidArgumentError(
        "%s: gridsync allocates outputs as torch, CuPy or numba-cuda arrays, and %s is none "
        "of those: pass out= (an array of the result's shape and dtype)" % (who, type(like).__name__))


_torch_scalars = {}  # (device, gs dtype): a 0-d tensor, the pattern of scalar results


def empty_scalar(kind, like, dev, gs, who):
    """A new 0-d array of dtype gs (a reduction's result), of like's framework,
    on device dev (like's). For a plain torch tensor on CUDA, empty_like of a
    0-d CUDA tensor kept per device and dtype: it skips new_empty's parsing
    of a shape, about a third of an allocation's host time. A subclass of
    Tensor takes new_empty, so that its result is what its
    __torch_function__ makes it, as before; the pattern itself is a plain
    tensor, made outside any stream capture (where it would hold a block of
    the graph's memory pool for good)."""
    if type(like) is _TT:
        pattern = _torch_scalars.get((dev, gs))
        if pattern is not None:
            return _torch.empty_like(pattern)
        if not _torch.cuda.is_current_stream_capturing():
            pattern = _torch.empty((), dtype=_GS_TORCH[gs], device=_torch.device("cuda", dev))
            _torch_scalars[(dev, gs)] = pattern
            return _torch.empty_like(pattern)
    return empty(kind, like, (), gs, who)


def empty_like(kind, x, who):
    """A new array shaped as x (contiguous), same dtype, same framework."""
    if kind == TORCH:
        return _torch.empty_like(x)
    if kind == CUPY:
        return _cupy.empty_like(x)
    if kind == NUMBA:
        from numba import cuda
        return cuda.device_array_like(x)
    return empty(kind, x, None, None, who)


def pointer(kind, x):
    """The data pointer of an array this module allocated (or checked)."""
    if kind == TORCH:
        return x.data_ptr()
    if kind == CUPY:
        return x.data.ptr
    return x.__cuda_array_interface__["data"][0]


def data_pointer(x, who):
    """The data pointer of a GPU array of any dtype and layout (a kernel
    argument: the kernel knows what it points to)."""
    if _TT is not None and isinstance(x, _TT) or _CT is not None and isinstance(x, _CT) \
            or _bind_for(x):
        if _TT is not None and isinstance(x, _TT):
            if x.get_device() < 0:
                raise InvalidArgumentError("%s: a tensor on %s; kernels take CUDA tensors" %
                                           (who, x.device))
            return x.data_ptr()
        return x.data.ptr
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        return cai["data"][0] or 0
    if hasattr(x, "__dlpack__"):
        dev_type, _ = x.__dlpack_device__()
        if int(dev_type) not in (_DL_CUDA, _DL_CUDA_MANAGED):
            raise InvalidArgumentError("%s: an argument not in CUDA memory (DLPack device type "
                                       "%d)" % (who, int(dev_type)))
        capsule, t = _dltensor(x, 1)
        return (t.data or 0) + t.byte_offset
    raise InvalidArgumentError(
        "%s: an argument of type %s: gridsync passes GPU arrays, Barrier, Signals, NumPy "
        "scalars and size-1 arrays, ctypes values, ints, floats and bools" % (who, type(x).__name__))


def framework_stream(x):
    """The current stream of x's framework if x is a torch tensor or a CuPy
    array, else None."""
    if not (_TT is not None and isinstance(x, _TT) or _CT is not None and isinstance(x, _CT)):
        if not _bind_for(x):
            return None
    if _TT is not None and isinstance(x, _TT):
        dev = x.get_device()
        return default_stream(TORCH, dev, None) if dev >= 0 else None
    return default_stream(CUPY, None, None)
