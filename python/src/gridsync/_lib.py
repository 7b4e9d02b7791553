"""Loading libgridsync and declaring its functions for ctypes.

Where the library comes from, first found wins:
  1. the file named by the environment variable GRIDSYNC_LIBRARY (then only it);
  2. the copy inside this package (gridsync/lib/libgridsync.so, put there by
     `pip install`);
  3. the system loader: an installed libgridsync of this version, by its
     SONAME (libgridsync.so.0.1: cmake --install), then libgridsync.so.
If it cannot be loaded because the CUDA runtime it links is not on the
loader's path, libcudart is loaded first from CUDA_HOME / CUDA_PATH, the
standard toolkit folders and NVIDIA's pip runtime package, and the load
retried.

Importing gridsync never fails for want of the library: the first call that
needs it raises GridsyncError saying what was tried. Each function is
declared once (argtypes, restype), so a call costs one ctypes foreign call.
The per-call functions (gs_scan, gs_reduce, gs_dot) are declared for the
cheapest conversions ctypes has: their enumerations are passed as the ready
c_int objects of CINT (a Python int through c_int costs about 0.1 us an
argument, a c_int object nothing), their element count as c_void_p (COUNT:
ctypes converts an int to c_void_p about 0.1 us faster than to c_longlong;
on an LP64 ABI, the only ones libgridsync.so is built for, both are one
64-bit integer register or stack slot, so the callee's long long reads the
same bits).
"""
import ctypes
import glob
import os
import sys

from . import _errors
from ._views import DeviceInfo, Dim3, GridBarrier, SignalSet

_HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED = os.path.join(_HERE, "lib", "libgridsync.so")
VERSION = "0.1.0"  # the package's, and the library's it loads (gridsync.__version__)


def soname(version):
    """The SONAME of libgridsync `version` (cmake/version.cmake):
    libgridsync.so.0.MINOR while the major version is 0, .so.MAJOR from 1.0 on."""
    major, minor = version.split(".")[:2]
    return "libgridsync.so." + (major + "." + minor if major == "0" else major)


c_int, c_uint, c_void_p, c_size_t = ctypes.c_int, ctypes.c_uint, ctypes.c_void_p, ctypes.c_size_t
c_ll, c_double, c_float, c_char_p = ctypes.c_longlong, ctypes.c_double, ctypes.c_float, ctypes.c_char_p
P = ctypes.POINTER
# The element count of the per-call functions (see the top): c_void_p where it
# has long long's size, as on every LP64 ABI.
COUNT = c_void_p if ctypes.sizeof(c_void_p) == ctypes.sizeof(c_ll) else c_ll
# Small enumeration values (ops, kinds, dtypes) as c_int objects, passed as is.
CINT = tuple(c_int(i) for i in range(16))

# name: (restype, argtypes); gs_status is a C enum: int.
SIGNATURES = {
    "gs_status_string": (c_char_p, [c_int]),
    "gs_last_error_detail": (c_char_p, []),
    "gs_version": (c_char_p, []),
    "gs_device_count": (c_int, [P(c_int)]),
    "gs_device_query": (c_int, [c_int, P(DeviceInfo)]),
    "gs_max_coresident_blocks_func": (c_int, [c_void_p, c_int, c_size_t, P(c_int)]),
    "gs_barrier_method_name": (c_char_p, [c_int]),
    "gs_barrier_method_parse": (c_int, [c_char_p, P(c_int)]),
    "gs_barrier_create": (c_int, [P(c_void_p), c_int]),
    "gs_barrier_destroy": (c_int, [c_void_p]),
    "gs_barrier_set_timeout": (c_int, [c_void_p, c_double]),
    "gs_barrier_method_for": (c_int, [c_void_p, c_uint]),
    "gs_barrier_device": (c_int, [c_void_p, c_uint, P(GridBarrier)]),
    "gs_barrier_check": (c_int, [c_void_p, c_void_p]),
    "gs_signals_create": (c_int, [P(c_void_p), c_uint]),
    "gs_signals_destroy": (c_int, [c_void_p]),
    "gs_signals_set_timeout": (c_int, [c_void_p, c_double]),
    "gs_signals_device": (c_int, [c_void_p, P(SignalSet)]),
    "gs_signals_reset": (c_int, [c_void_p, c_void_p]),
    "gs_signals_check": (c_int, [c_void_p, c_void_p]),
    "gs_launch_func": (c_int, [c_void_p, Dim3, Dim3, c_size_t, c_void_p, P(c_void_p), c_void_p]),
    "gs_format_coresidency": (None, [c_char_p, c_size_t, c_ll, c_int, c_int, c_int]),
    "gs_dtype_size": (c_size_t, [c_int]),
    "gs_dtype_name": (c_char_p, [c_int]),
    "gs_reduce_result_type": (c_int, [c_int, c_int, P(c_int)]),
    "gs_reduce": (c_int, [c_int, c_int, c_void_p, COUNT, c_void_p, c_void_p]),
    "gs_reduce_sum": (c_int, [c_int, c_void_p, COUNT, c_void_p, c_void_p]),
    "gs_dot": (c_int, [c_int, c_void_p, c_void_p, COUNT, c_void_p, c_void_p]),
    "gs_reduce_release_workspaces": (None, []),
    "gs_scan": (c_int, [c_int, c_int, c_int, c_void_p, c_void_p, COUNT, c_void_p]),
    "gs_gemm_kernel_parse": (c_int, [c_char_p, P(c_int)]),
    "gs_sgemm_with": (c_int, [c_int, c_int, c_int, c_int, c_float, c_void_p, c_int, c_void_p,
                              c_int, c_float, c_void_p, c_int, c_void_p]),
}

# gs_dtype, gs_reduce_op, gs_scan_op, gs_scan_kind (gridsync.h)
F32, F64, I32, I64, U32, U64, F16, BF16 = 0, 1, 2, 3, 4, 5, 6, 7
# What a sum (and a dot) of a dtype returns where that is not the dtype
# itself (gs_reduce_result_type): the 16-bit floats add up in float32.
SUM_TYPE = {F16: F32, BF16: F32}
REDUCE_OPS = {"sum": 0, "min": 1, "max": 2, "argmin": 3, "argmax": 4}
SCAN_OPS = {"sum": 0, "min": 1, "max": 2}
INCLUSIVE, EXCLUSIVE = 0, 1

_load_error = None  # why the library could not be loaded, once tried
path = None         # the file loaded


def _cuda_runtime_candidates():
    dirs = []
    for var in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"):
        if os.environ.get(var):
            dirs += [os.path.join(os.environ[var], "lib64"), os.path.join(os.environ[var], "lib")]
    dirs += sorted(glob.glob("/usr/local/cuda*/lib64")) + sorted(glob.glob("/usr/local/cuda*/lib"))
    for entry in sys.path:  # NVIDIA's pip packages: nvidia/cuda_runtime/lib, nvidia/cu13/lib
        dirs += glob.glob(os.path.join(entry, "nvidia", "cu*", "lib"))
        dirs += glob.glob(os.path.join(entry, "nvidia", "cuda_runtime", "lib"))
    for d in dirs:
        for f in sorted(glob.glob(os.path.join(d, "libcudart.so.*")), reverse=True):
            yield f


def _open(name):
    try:
        return ctypes.CDLL(name), None
    except OSError as e:
        return None, str(e)


def _load():
    global path
    env = os.environ.get("GRIDSYNC_LIBRARY")
    if env:
        names = [env]
    else:
        names = ([BUNDLED] if os.path.exists(BUNDLED) else []) + [soname(VERSION),
                                                                 "libgridsync.so"]
    errors = []
    for name in names:
        lib, err = _open(name)
        if lib is None and "libcudart" in err:  # the runtime it links is off the path
            for cudart in _cuda_runtime_candidates():
                if _open_global(cudart):
                    lib, err = _open(name)
                    if lib is not None:
                        break
        if lib is not None:
            path = name
            return lib
        errors.append("%s: %s" % (name, err))
    where = "GRIDSYNC_LIBRARY=%s" % env if env else "the package's copy and the system loader"
    raise _errors.GridsyncError(
        "cannot load libgridsync (tried %s): %s. Install the package with "
        "`pip install ./python` from a gridsync checkout, or set GRIDSYNC_LIBRARY to a "
        "libgridsync.so" % (where, "; ".join(errors) or "not found"))


def _open_global(name):
    try:
        ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)
        return True
    except OSError:
        return False


def _declare(lib):
    g = globals()
    for name, (restype, argtypes) in SIGNATURES.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
        g[name] = fn


def load():
    """Load the library now (idempotent); raises GridsyncError if it cannot."""
    global _load_error
    if "gs_version" in globals():
        return
    if _load_error is not None:
        raise _load_error
    try:
        _declare(_load())
    except _errors.GridsyncError as e:
        _load_error = e
        raise


def __getattr__(name):  # the functions, on first use, where the import could not load them
    if name in SIGNATURES:
        load()
        return globals()[name]
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def detail():
    """The calling thread's gs_last_error_detail() as text."""
    return globals()["gs_last_error_detail"]().decode("utf-8", "replace")


def error(status):
    """The exception for a failed call: its status and the library's sentence."""
    name = globals()["gs_status_string"](status).decode()
    return _errors.from_status(status, detail(), name)


def check(status):
    if status:
        raise error(status)


try:
    load()
except _errors.GridsyncError:
    pass  # raised again, with the reason, by the first call that needs the library
