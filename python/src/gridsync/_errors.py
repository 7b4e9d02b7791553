"""Exceptions: one class per gs_status, each carrying the library's sentence.

Every error that the C library reports becomes an exception whose message is
gs_last_error_detail() (the sentence: which CUDA call failed, how many blocks
fit, which blocks never arrived); `status` is the gs_status value and
`status_name` its name ("GS_ERR_NOT_CORESIDENT"). Errors found in Python
before any call (a dtype, a device, a layout) use the same classes.
"""
import builtins


class GridsyncError(Exception):
    """Base class of gridsync's errors."""

    status = None
    status_name = None

    def __init__(self, detail, status=None, status_name=None):
        super().__init__(detail)
        self.detail = detail
        if status is not None:
            self.status = status
        if status_name is not None:
            self.status_name = status_name


class InvalidArgumentError(GridsyncError, ValueError):
    """A bad argument: dtype, device, layout, size, pointer (GS_ERR_INVALID_ARGUMENT)."""

    status, status_name = 1, "GS_ERR_INVALID_ARGUMENT"


class CudaError(GridsyncError, RuntimeError):
    """A CUDA call failed; the message names it (GS_ERR_CUDA)."""

    status, status_name = 2, "GS_ERR_CUDA"


class NoDeviceError(GridsyncError, RuntimeError):
    """No usable CUDA device (GS_ERR_NO_DEVICE)."""

    status, status_name = 3, "GS_ERR_NO_DEVICE"


class NotCoresidentError(GridsyncError, ValueError):
    """The grid cannot be resident all at once (GS_ERR_NOT_CORESIDENT)."""

    status, status_name = 4, "GS_ERR_NOT_CORESIDENT"


class TimeoutError(GridsyncError, builtins.TimeoutError):
    """A watched wait timed out; the message names what never arrived
    (GS_ERR_BARRIER_TIMEOUT)."""

    status, status_name = 5, "GS_ERR_BARRIER_TIMEOUT"


class OutOfMemoryError(GridsyncError, MemoryError):
    """A device or host allocation failed (GS_ERR_OUT_OF_MEMORY)."""

    status, status_name = 6, "GS_ERR_OUT_OF_MEMORY"


class NotSupportedError(GridsyncError, RuntimeError):
    """The device lacks a feature the call needs (GS_ERR_NOT_SUPPORTED)."""

    status, status_name = 7, "GS_ERR_NOT_SUPPORTED"


class InternalError(GridsyncError, RuntimeError):
    """A gridsync bug: please report it (GS_ERR_INTERNAL)."""

    status, status_name = 8, "GS_ERR_INTERNAL"


class BusyError(GridsyncError, RuntimeError):
    """The object is in use by unfinished work on another stream (GS_ERR_BUSY)."""

    status, status_name = 9, "GS_ERR_BUSY"


class MisuseError(GridsyncError, RuntimeError):
    """A kernel used a primitive wrongly; the message says which (GS_ERR_MISUSE)."""

    status, status_name = 10, "GS_ERR_MISUSE"


BY_STATUS = {cls.status: cls for cls in (
    InvalidArgumentError, CudaError, NoDeviceError, NotCoresidentError, TimeoutError,
    OutOfMemoryError, NotSupportedError, InternalError, BusyError, MisuseError)}


def from_status(status, detail, status_name=None):
    """The exception for a gs_status and its sentence."""
    cls = BY_STATUS.get(status)
    if cls is None:
        return GridsyncError(detail or "unknown gridsync status %d" % status, status,
                             status_name or "GS_ERR_UNKNOWN_STATUS")
    return cls(detail or status_name or cls.status_name, status, status_name)
