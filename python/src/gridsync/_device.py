"""Device side for kernels written in Python: the device headers, barriers
and signal sets whose views are kernel arguments, and a launch that refuses
a grid that cannot be co-resident.

A kernel compiled at run time (CuPy RawKernel/RawModule, cuda.core, NVRTC)
includes <gridsync/barrier.cuh> with -I gridsync.include_dir(), takes a
gs_grid_barrier by value, and is launched with gridsync.launch(), which
passes a Barrier argument as its view for the grid, checks that the grid
fits the GPU all at once (gs_launch_func: GS_ERR_NOT_CORESIDENT otherwise,
with the numbers) and launches it cooperatively. Barrier.check() waits and
raises gridsync.TimeoutError naming the blocks that never arrived; the next
launch then works.
"""
import ctypes
import os

import numpy as np

from . import _lib
from ._arrays import data_pointer, framework_stream, stream_handle
from ._errors import GridsyncError, InvalidArgumentError, NotSupportedError
from ._views import (GRID_BARRIER_DTYPE, SIGNAL_SET_DTYPE, Dim3, GridBarrier, SignalSet,
                     as_array)

_HERE = os.path.dirname(os.path.abspath(__file__))


def include_dir():
    """The folder holding gridsync.h and gridsync/*.cuh, for NVRTC's -I:
    the package's copy; else GRIDSYNC_INCLUDE_DIR; else beside the library
    loaded (<prefix>/include); else the source tree this file is in."""
    candidates = [os.path.join(_HERE, "include"), os.environ.get("GRIDSYNC_INCLUDE_DIR")]
    if _lib.path and os.path.isabs(_lib.path):
        candidates.append(os.path.join(os.path.dirname(_lib.path), "..", "include"))
    candidates.append(os.path.join(_HERE, "..", "..", "..", "include"))
    for d in candidates:
        if d and os.path.isfile(os.path.join(d, "gridsync", "barrier.cuh")):
            return os.path.normpath(d)
    raise GridsyncError("gridsync's device headers were not found (looked in %s); install the "
                        "package with pip, or set GRIDSYNC_INCLUDE_DIR" %
                        ", ".join(d for d in candidates if d))


def nvrtc_options(*extra):
    """NVRTC options for a kernel that includes gridsync's headers:
    ("-I<include_dir>", "-std=c++17", *extra); for CuPy's RawModule(options=)
    and cuda.core's ProgramOptions (include_path=include_dir() there)."""
    return ("-I" + include_dir(), "-std=c++17") + tuple(extra)


def barrier_methods():
    """The barrier method names the library knows, "auto" first, in the order
    of its registry (GS_BARRIER_METHODS): what Barrier(method=) accepts."""
    names = []
    while True:  # gs_barrier_method_name says "unknown" past the last method
        name = _lib.gs_barrier_method_name(len(names)).decode()
        if name == "unknown":
            return tuple(names)
        names.append(name)


def _parse_method(name):
    code = ctypes.c_int()
    if not isinstance(name, str):
        raise InvalidArgumentError("gridsync.Barrier: method must be a name (%s)" %
                                   ", ".join(barrier_methods()))
    _lib.check(_lib.gs_barrier_method_parse(name.encode(), ctypes.byref(code)))
    return code.value


class _Handle:
    """A library object's handle and lifecycle: `handle` (refused once
    closed), close(), a context manager, closed when collected. A subclass
    sets _handle in __init__ and names its destroy function (a name in _lib:
    the library loads on first use) and what it is, for the error."""
    _destroy = None  # "gs_barrier_destroy"
    _who = None      # "gridsync.Barrier"
    _noun = None     # "barrier"

    @property
    def handle(self):
        """The library's handle (gs_barrier_t, gs_signals_t), as an int."""
        if not self._handle:
            raise InvalidArgumentError("%s: this %s has been closed" % (self._who, self._noun))
        return self._handle

    def close(self):
        if self._handle:
            h, self._handle = self._handle, None
            _lib.check(getattr(_lib, self._destroy)(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


class Barrier(_Handle):
    """A grid barrier (gs_barrier_create) on the current device.

    Pass it in a kernel's arguments to gridsync.launch (it becomes its view,
    a gs_grid_barrier for that grid), or pass view(blocks) yourself to a
    cooperative launch of your own (a 0-d NumPy struct: CuPy passes it by
    value to a kernel of RawModule(..., enable_cooperative_groups=True);
    numba-cuda takes view(blocks)[()]).
    The state serves any number of launches and barriers with no reset.
    timeout: seconds any wait may take (default 2; GRIDSYNC_BARRIER_TIMEOUT
    overrides it)."""
    _destroy, _who, _noun = "gs_barrier_destroy", "gridsync.Barrier", "barrier"

    def __init__(self, method="auto", *, timeout=None):
        handle = ctypes.c_void_p()
        _lib.check(_lib.gs_barrier_create(ctypes.byref(handle), _parse_method(method)))
        self._handle = handle.value
        self._views = {}
        if timeout is not None:
            self.set_timeout(timeout)

    def set_timeout(self, seconds):
        _lib.check(_lib.gs_barrier_set_timeout(self.handle, float(seconds)))
        self._views.clear()

    def view(self, blocks):
        """The view for a grid of `blocks` blocks: a read-only 0-d NumPy array
        of dtype gridsync.GRID_BARRIER_DTYPE (the bytes of gs_grid_barrier)."""
        v = self._views.get(blocks)
        if v is None:
            s = GridBarrier()
            _lib.check(_lib.gs_barrier_device(self.handle, int(blocks), ctypes.byref(s)))
            v = self._views[blocks] = as_array(s, GRID_BARRIER_DTYPE)
        return v

    def method_for(self, blocks):
        """The method ("tree", ...) a grid of `blocks` blocks gets."""
        m = _lib.gs_barrier_method_for(self.handle, int(blocks))
        return _lib.gs_barrier_method_name(m).decode()

    def check(self, stream=None):
        """Wait for `stream` (default: the legacy default stream) and the
        barrier's last launch; raise gridsync.TimeoutError naming the blocks
        that never arrived (and at which barrier), or MisuseError. The state is
        re-armed either way: the next launch works."""
        s = 0 if stream is None else stream_handle(stream)
        _lib.check(_lib.gs_barrier_check(self.handle, s))


class Signals(_Handle):
    """A set of `count` 64-bit counters that blocks publish and wait on
    (gs_signals_create; device API gridsync/signal.cuh). Pass it to
    gridsync.launch (it becomes its gs_signal_set view) or pass view()."""
    _destroy, _who, _noun = "gs_signals_destroy", "gridsync.Signals", "signal set"

    def __init__(self, count, *, timeout=None):
        handle = ctypes.c_void_p()
        _lib.check(_lib.gs_signals_create(ctypes.byref(handle), int(count)))
        self._handle = handle.value
        self._view = None
        if timeout is not None:
            _lib.check(_lib.gs_signals_set_timeout(self._handle, float(timeout)))

    def view(self):
        """A read-only 0-d NumPy array of dtype gridsync.SIGNAL_SET_DTYPE."""
        if self._view is None:
            s = SignalSet()
            _lib.check(_lib.gs_signals_device(self.handle, ctypes.byref(s)))
            self._view = as_array(s, SIGNAL_SET_DTYPE)
        return self._view

    def reset(self, stream=None):
        """Zero every counter and the watchdog record, in stream order."""
        _lib.check(_lib.gs_signals_reset(self.handle, 0 if stream is None else
                                         stream_handle(stream)))

    def check(self, stream=None):
        """Wait for `stream`; raise gridsync.TimeoutError naming the counter, the
        waiting block and the values, or MisuseError. Either re-arms the set."""
        _lib.check(_lib.gs_signals_check(self.handle, 0 if stream is None else
                                         stream_handle(stream)))


# --------------------------------------------------------------- kernels

_cu_kernel_get_function = None


def _function_of_cukernel(kernel_handle):
    """cuKernelGetFunction: the CUfunction of a CUkernel (cuda.core, new
    numba-cuda) in the current context; occupancy queries want a function."""
    global _cu_kernel_get_function
    if _cu_kernel_get_function is None:
        fn = ctypes.CDLL("libcuda.so.1").cuKernelGetFunction
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]
        _cu_kernel_get_function = fn
    out = ctypes.c_void_p()
    r = _cu_kernel_get_function(ctypes.byref(out), kernel_handle)
    if r != 0:
        raise GridsyncError("cuKernelGetFunction failed (CUresult %d): is the kernel's device "
                            "current?" % r)
    return out.value


def _int_handle(h):
    return int(getattr(h, "value", h) or 0)


def _is_numba(kernel):
    return type(kernel).__module__.startswith("numba") and hasattr(kernel, "typeof_pyval")


def function_handle(kernel):
    """The driver function handle (CUfunction, as an int) of a kernel: an
    int, a ctypes pointer, a CuPy RawKernel (or cupy.cuda.Function) or a
    cuda.core Kernel (numba-cuda kernels: see launch)."""
    if isinstance(kernel, int):
        return kernel
    if isinstance(kernel, ctypes.c_void_p):
        return kernel.value or 0
    mod = type(kernel).__module__
    if mod.startswith("cupy"):
        return getattr(kernel, "kernel", kernel).ptr  # RawKernel.kernel: loaded on this device
    if mod.startswith("cuda"):
        return _function_of_cukernel(_core_kernel_handle(kernel))
    raise InvalidArgumentError(
        "gridsync: %s is not a kernel gridsync knows (an int CUfunction, a CuPy RawKernel, a "
        "cuda.core Kernel or a numba-cuda kernel)" % type(kernel).__name__)


def _numba_compiled(disp, args):
    """The numba-cuda kernel specialized for args (compiled once, cached)."""
    try:
        return disp.compile(tuple(disp.typeof_pyval(a) for a in args))
    except AttributeError as e:
        err = numba_cannot_compile(e)
        if err is None:
            raise
        raise err from e


def numba_cannot_compile(e):
    """The NotSupportedError for numba-cuda's own failure to compile any
    kernel under the NumPy installed, or None where `e` is another error.
    numba-cuda (0.30.4, in maintenance mode) registers an overload of
    np.row_stack under any NumPy 2 when its CUDA target loads, at the first
    kernel it compiles; NumPy 2.5 removed np.row_stack."""
    if not isinstance(e, AttributeError) or "row_stack" not in str(e):
        return None
    from importlib import metadata
    try:
        numba_cuda = "numba-cuda " + metadata.version("numba-cuda")
    except metadata.PackageNotFoundError:
        numba_cuda = "numba-cuda"
    return NotSupportedError(
        "%s compiles no kernel under NumPy %s: it registers np.row_stack, which NumPy 2.5 "
        "removed (%s; NVIDIA/numba-cuda issue 907); use it with NumPy < 2.5, or write the "
        "kernel for CuPy or cuda.core" % (numba_cuda, np.__version__, e))


def _core_kernel_handle(kernel):
    """The CUkernel of a cuda.core Kernel (public `handle`, `_handle` before it)."""
    h = getattr(kernel, "handle", None)
    return _int_handle(h if h is not None else kernel._handle)


def _numba_function(compiled):
    """Recent numba-cuda loads kernels through cuda.core (a CUkernel under
    `kernel`); older releases hold a CUfunction in `handle`."""
    cufunc = compiled._codelibrary.get_cufunc()
    core_kernel = getattr(cufunc, "kernel", None)
    if core_kernel is not None:
        return _function_of_cukernel(_core_kernel_handle(core_kernel))
    return _int_handle(cufunc.handle)


def _dim3(v, what):
    t = (v,) if isinstance(v, (int, np.integer)) else tuple(v)
    if not 1 <= len(t) <= 3 or any(int(x) < 0 or int(x) > 0xffffffff for x in t):
        raise InvalidArgumentError("gridsync.launch: %s %r must be 1 to 3 sizes" % (what, v))
    t = tuple(int(x) for x in t) + (1,) * (3 - len(t))
    return Dim3(*t)


def _substitute(args, blocks, barrier, record):
    """Barrier and Signals arguments as their views; the first Barrier is the
    launch's barrier unless one is given."""
    out = []
    for a in args:
        if isinstance(a, Barrier):
            if barrier is None:
                barrier = a
            try:
                v = a.view(blocks)
            except InvalidArgumentError:
                if a is not barrier:
                    raise
                # more blocks than the barrier serves: gs_launch_func refuses the
                # launch before anything runs, and says whether the GPU could hold it
                v = np.zeros((), GRID_BARRIER_DTYPE)
            out.append(v[()] if record else v)
        elif isinstance(a, Signals):
            v = a.view()
            out.append(v[()] if record else v)
        else:
            out.append(a)
    return out, barrier


def _arg_storage(a):
    """A ctypes object (or NumPy array) whose bytes are the kernel argument."""
    if isinstance(a, (ctypes._SimpleCData, ctypes.Structure, ctypes.Union, ctypes.Array)):
        return a
    if isinstance(a, np.ndarray):
        if a.size != 1:
            raise InvalidArgumentError(
                "gridsync.launch: a NumPy array of %d elements as a kernel argument; only one "
                "element passes by value (a GPU array passes as its pointer)" % a.size)
        return np.ascontiguousarray(a)
    if isinstance(a, np.generic):
        return np.array(a)
    if a is None:
        return ctypes.c_void_p(0)
    if isinstance(a, bool):
        return ctypes.c_bool(a)
    if isinstance(a, int):  # as CuPy passes a Python int: 64 bits
        return ctypes.c_longlong(a)
    if isinstance(a, float):
        return ctypes.c_double(a)
    return ctypes.c_void_p(data_pointer(a, "gridsync.launch"))  # a GPU array: its pointer


def _address(storage):
    if isinstance(storage, np.ndarray):
        return storage.ctypes.data
    return ctypes.addressof(storage)


def _numba_storage(v):
    """An element of numba-cuda's prepared kernel arguments as ctypes."""
    if isinstance(v, (ctypes._SimpleCData, ctypes.Structure)):
        return v
    if isinstance(v, (bool, np.bool_)):
        return ctypes.c_bool(bool(v))
    if isinstance(v, np.generic):
        return np.array(v)
    if isinstance(v, int):  # numba-cuda passes sizes, strides and pointers as intptr_t
        return ctypes.c_ssize_t(v)
    if isinstance(v, float):
        return ctypes.c_double(v)
    ptr = getattr(v, "device_ctypes_pointer", None)  # older numba: device arrays, records
    if ptr is not None:
        return ptr
    raise InvalidArgumentError("gridsync.launch: numba-cuda prepared an argument of type %s "
                               "that gridsync cannot pass" % type(v).__name__)


def _launch_stream(kernel, args, stream):
    if stream is not None:
        return stream_handle(stream)
    if type(kernel).__module__.startswith("cupy"):
        import cupy
        return cupy.cuda.get_current_stream().ptr
    for a in args:
        s = framework_stream(a)
        if s is not None:
            return s
    return 0


def launch(kernel, grid, block, args=(), *, shared_mem=0, stream=None, barrier=None):
    """Launch `kernel` with every block resident at once, or refuse.

    kernel: a CuPy RawKernel (RawModule.get_function), a cuda.core Kernel, a
    numba-cuda kernel (@cuda.jit) or an int CUfunction. grid, block: an int
    or a tuple of up to 3. args: the kernel's arguments: a Barrier or
    Signals (passed as its view; the first Barrier is the launch's barrier),
    GPU arrays of any framework (their pointer), NumPy scalars and size-1
    arrays (by value: np.int32(n) for an int), ctypes values, Python
    ints (64-bit), floats (double) and bools. stream: default the current
    stream of CuPy (CuPy kernels) or of the first torch/CuPy array argument,
    else the legacy default stream.

    Raises NotCoresidentError ("1100 blocks requested, at most 1056 fit: ...")
    without launching; InvalidArgumentError, TimeoutError (an earlier time-out
    of the barrier not yet collected with check()), BusyError (the barrier's
    last launch still runs on another stream). Asynchronous: call
    barrier.check() to wait and hear the watchdog."""
    g, b = _dim3(grid, "grid"), _dim3(block, "block")
    blocks = g.x * g.y * g.z
    s = _launch_stream(kernel, args, stream)
    numba = _is_numba(kernel)
    args, barrier = _substitute(args, blocks, barrier, numba)
    if numba:
        compiled = _numba_compiled(kernel, args)
        func = _numba_function(compiled)
        # numba-cuda's own argument preparation (arrays as its several values,
        # records copied to the device); its copies on numba's stream, or its
        # synchronous default one
        numba_stream = stream if type(stream).__module__.startswith("numba") else 0
        prepared, retr = [], []
        for t, v in zip(compiled.argument_types, args):
            compiled._prepare_args(t, v, numba_stream, retr, prepared)
        storage = [_numba_storage(v) for v in prepared]
    else:
        func = function_handle(kernel)
        storage = [_arg_storage(a) for a in args]
    argv = (ctypes.c_void_p * max(1, len(storage)))(*[_address(x) for x in storage])
    bar = None if barrier is None else barrier.handle
    _lib.check(_lib.gs_launch_func(func, g, b, int(shared_mem), s, argv, bar))
    if numba:
        for writeback in retr:
            writeback()


def max_coresident_blocks(kernel, block, shared_mem=0, *, args=None):
    """The largest grid of `kernel` with `block` threads per block (an int or
    a tuple) and `shared_mem` bytes of dynamic shared memory that the current
    device holds all at once. numba-cuda kernels need args= (the arguments
    they will be launched with: they pick the compiled version)."""
    b = _dim3(block, "block")
    if _is_numba(kernel):
        if args is None:
            raise InvalidArgumentError("gridsync.max_coresident_blocks: a numba-cuda kernel "
                                       "needs args= to pick its compiled version")
        args, _ = _substitute(args, 1, None, True)
        func = _numba_function(_numba_compiled(kernel, args))
    else:
        func = function_handle(kernel)
    n = ctypes.c_int()
    _lib.check(_lib.gs_max_coresident_blocks_func(func, b.x * b.y * b.z, int(shared_mem),
                                                  ctypes.byref(n)))
    return n.value
