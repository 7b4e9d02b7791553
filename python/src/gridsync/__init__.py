"""gridsync from Python.

Host calls on GPU arrays of any framework (torch, CuPy, numba-cuda, anything
with __cuda_array_interface__ or DLPack), on the framework's current stream,
results as the caller's framework's arrays:

    gridsync.scan(x)                      # inclusive prefix sum (exclusive=True, op="max", ...)
    gridsync.reduce(x, "sum")             # also min, max, argmin, argmax
    gridsync.dot(x, y)
    gridsync.sgemm(a, b)                  # FP32 C = A @ B (alpha, beta, c=)

Device side for kernels compiled at run time: include_dir() / nvrtc_options()
for NVRTC, Barrier and Signals (their views are kernel arguments), launch()
(refuses a grid that cannot be co-resident), Barrier.check() (raises
gridsync.TimeoutError naming what never arrived). gridsync.numba: the same
barrier inside numba-cuda kernels.

Errors are exceptions carrying the library's sentence (gridsync.GridsyncError
and one subclass per gs_status).
"""
from . import _lib
from ._device import (Barrier, Signals, barrier_methods, function_handle, include_dir, launch,
                      max_coresident_blocks, nvrtc_options)
from ._errors import (BusyError, CudaError, GridsyncError, InternalError, InvalidArgumentError,
                      MisuseError, NoDeviceError, NotCoresidentError, NotSupportedError,
                      OutOfMemoryError, TimeoutError)
from ._host import ArgResult, dot, exclusive_scan, inclusive_scan, reduce, scan, sgemm
from ._views import GRID_BARRIER_DTYPE, SIGNAL_SET_DTYPE

__version__ = _lib.VERSION

__all__ = [
    "ArgResult", "Barrier", "BusyError", "CudaError", "GRID_BARRIER_DTYPE", "GridsyncError",
    "InternalError", "InvalidArgumentError", "MisuseError", "NoDeviceError",
    "NotCoresidentError", "NotSupportedError", "OutOfMemoryError", "SIGNAL_SET_DTYPE",
    "Signals", "TimeoutError", "barrier_methods", "device_count", "dot", "exclusive_scan", "function_handle",
    "inclusive_scan", "include_dir", "launch", "library_path", "library_version",
    "max_coresident_blocks", "nvrtc_options", "reduce", "release_workspaces", "scan", "sgemm",
]


def library_version():
    """The loaded libgridsync's version string (gs_version)."""
    return _lib.gs_version().decode()


def library_path():
    """The libgridsync file loaded (GRIDSYNC_LIBRARY, the package's copy, or an
    installed one); loads it if needed."""
    _lib.load()
    return _lib.path


def device_count():
    """The number of CUDA devices; 0 where there is none (or no driver)."""
    import ctypes
    n = ctypes.c_int(0)
    st = _lib.gs_device_count(ctypes.byref(n))
    return n.value if st == 0 else 0


def release_workspaces():
    """Free the reductions' and scans' cached workspaces (optional)."""
    _lib.gs_reduce_release_workspaces()
