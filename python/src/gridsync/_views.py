"""ctypes mirrors of the C structs the package passes or receives by value.

gs_grid_barrier (gridsync/barrier_view.h) and gs_signal_set
(gridsync/signal_view.h) are what a kernel receives; dim3, gs_reduce_arg and
gs_device_info cross the host API. Field for field as in the headers (names,
order, C types); tests/test_layout.py compares every size and offset with the
C compiler's offsetof. Pointers are c_void_p (the headers' `unsigned int *`
and `unsigned long long *`: 8 bytes on every 64-bit platform CUDA supports).
"""
import ctypes

import numpy as np


class GridBarrier(ctypes.Structure):
    """gs_grid_barrier: the device view of a grid barrier."""

    _fields_ = [
        ("state", ctypes.c_void_p),
        ("timeout_ns", ctypes.c_ulonglong),
        ("method", ctypes.c_int),
        ("count", ctypes.c_uint),
        ("capacity", ctypes.c_uint),
        ("group_size", ctypes.c_uint),
        ("flat_max", ctypes.c_uint),
        ("epoch_known", ctypes.c_uint),
        ("epoch", ctypes.c_ulonglong),
        ("reduces", ctypes.c_uint),
        ("split_phase", ctypes.c_uint),
    ]


class SignalSet(ctypes.Structure):
    """gs_signal_set: the device view of a signal set."""

    _fields_ = [
        ("values", ctypes.c_void_p),
        ("record", ctypes.c_void_p),
        ("timeout_ns", ctypes.c_ulonglong),
        ("count", ctypes.c_uint),
        ("reserved", ctypes.c_uint),
    ]


class Dim3(ctypes.Structure):
    """CUDA's dim3."""

    _fields_ = [("x", ctypes.c_uint), ("y", ctypes.c_uint), ("z", ctypes.c_uint)]


class _ReduceValue(ctypes.Union):
    _fields_ = [("f32", ctypes.c_float), ("f64", ctypes.c_double), ("i32", ctypes.c_int),
                ("i64", ctypes.c_longlong)]


class ReduceArg(ctypes.Structure):
    """gs_reduce_arg: the result of argmin / argmax."""

    _fields_ = [("index", ctypes.c_longlong), ("value", _ReduceValue)]


class DeviceInfo(ctypes.Structure):
    """gs_device_info (gs_device_query)."""

    _fields_ = [
        ("ordinal", ctypes.c_int),
        ("name", ctypes.c_char * 256),
        ("cc_major", ctypes.c_int),
        ("cc_minor", ctypes.c_int),
        ("sm_count", ctypes.c_int),
        ("sm_clock_khz", ctypes.c_int),
        ("mem_clock_khz", ctypes.c_int),
        ("mem_bus_width_bits", ctypes.c_int),
        ("mem_bandwidth_gbs", ctypes.c_double),
        ("global_mem_bytes", ctypes.c_size_t),
        ("l2_bytes", ctypes.c_int),
        ("smem_per_sm_bytes", ctypes.c_size_t),
        ("smem_per_block_bytes", ctypes.c_size_t),
        ("smem_per_block_optin_bytes", ctypes.c_size_t),
        ("max_threads_per_sm", ctypes.c_int),
        ("max_threads_per_block", ctypes.c_int),
        ("max_blocks_per_sm", ctypes.c_int),
        ("regs_per_sm", ctypes.c_int),
        ("warp_size", ctypes.c_int),
        ("cooperative_launch", ctypes.c_int),
        ("driver_version", ctypes.c_int),
        ("runtime_version", ctypes.c_int),
    ]


# The views as NumPy structured dtypes (the same bytes): a 0-d array of one
# is what CuPy passes by value to a RawKernel, and its [()] a record that
# numba-cuda passes to its kernels.
GRID_BARRIER_DTYPE = np.dtype(GridBarrier)
SIGNAL_SET_DTYPE = np.dtype(SignalSet)


def as_array(struct, dtype):
    """A 0-d NumPy array holding a copy of the ctypes struct's bytes."""
    out = np.zeros((), dtype=dtype)
    ctypes.memmove(out.ctypes.data, ctypes.addressof(struct), ctypes.sizeof(struct))
    out.flags.writeable = False
    return out
