"""gridsync's grid barrier and signals inside numba-cuda kernels.

    from numba import cuda
    import numpy as np
    import gridsync
    import gridsync.numba as gsn

    @cuda.jit
    def relax(bar, x, iters):
        me = cuda.local.array(1, gsn.barrier_view)   # this thread's copy of the view
        gsn.barrier_init(me[0], bar)
        for _ in range(iters):
            ...                                      # phase one
            gsn.grid_sync(me[0])                     # every block's phase one is visible
            ...

    bar = gridsync.Barrier()
    blocks = gridsync.max_coresident_blocks(relax, 256, args=(bar, x, np.int32(100)))
    gridsync.launch(relax, blocks, 256, (bar, x, np.int32(100)))
    bar.check()                                      # gridsync.TimeoutError names who never came

The kernel receives the barrier's view as a numba record (gridsync.launch
passes a Barrier argument that way; by hand: bar.view(blocks)[()]). Each
thread copies it into a local record first (barrier_init): the view counts
the barriers its thread has passed, which is how a time-out names "barrier
#5". Every thread of every block calls grid_sync the same number of times.
signal_store / signal_wait take a Signals' view record (sig.view()[()]).

compile_problem() says why numba-cuda cannot compile kernels here, where it
cannot (numba-cuda 0.30.4 under NumPy 2.5), or returns None.

The device functions are gridsync's own (gridsync/barrier.cuh), compiled by
numba-cuda's NVRTC from _numba_shim.cu with gridsync's include folder added
to its search path, and linked into every kernel that calls them.
"""
import importlib
import os

from numba import cuda, from_dtype, types

from ._device import include_dir, numba_cannot_compile
from ._views import GRID_BARRIER_DTYPE, SIGNAL_SET_DTYPE

SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_numba_shim.cu")


def _add_search_path(folder):
    """numba-cuda compiles linked .cu files with NVRTC; its extra include
    folders are a config value (numba.cuda.config, or numba.core.config in
    older releases), colon-separated."""
    configs = []
    for name in ("numba.cuda.config", "numba.core.config"):
        try:
            configs.append(__import__(name, fromlist=["x"]))
        except ImportError:
            pass
    for config in configs:
        current = getattr(config, "CUDA_NVRTC_EXTRA_SEARCH_PATHS", "") or ""
        if folder not in current.split(":"):
            config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = ":".join(p for p in (current, folder) if p)


_add_search_path(include_dir())

barrier_view = from_dtype(GRID_BARRIER_DTYPE)
"""The numba record type of a barrier view (gs_grid_barrier): for
cuda.local.array(1, barrier_view) and signatures."""
signal_set = from_dtype(SIGNAL_SET_DTYPE)
"""The numba record type of a signal set's view (gs_signal_set)."""


def _declare(name, sig):
    try:
        return cuda.declare_device(name, sig, link=SHIM)
    except TypeError:  # numba-cuda before declare_device(link=): cuda.jit(link=[gsn.SHIM])
        return cuda.declare_device(name, sig)


barrier_init = _declare("gs_numba_barrier_init", types.void(barrier_view, barrier_view))
"""barrier_init(mine, given): copy the kernel argument `given` into the
thread's local record `mine` (cuda.local.array(1, barrier_view)[0])."""
grid_sync = _declare("gs_numba_grid_sync", types.void(barrier_view))
"""grid_sync(mine): gs_grid_sync on the thread's local view."""
signal_store = _declare("gs_numba_signal_store", types.void(signal_set, types.uint32,
                                                             types.uint64))
"""signal_store(sig, i, value): gs_block_signal_store (release; the block's
writes before it are visible to whoever sees the value)."""
signal_wait = _declare("gs_numba_signal_wait", types.void(signal_set, types.uint32, types.uint64))
"""signal_wait(sig, i, value): gs_block_signal_wait (until counter i >= value,
watched)."""


def compile_problem():
    """None where numba-cuda can compile kernels; else the sentence saying why
    it cannot (the one gridsync.launch and max_coresident_blocks raise as
    NotSupportedError): numba-cuda 0.30.4 under NumPy 2.5, where it fails on
    every kernel. Imports the module numba-cuda's CUDA target loads when it
    compiles its first kernel; compiles nothing."""
    try:
        importlib.import_module("numba.cuda.np.arrayobj")
    except ImportError:  # numba's own numba.cuda, before numba-cuda: no such module
        return None
    except AttributeError as e:
        err = numba_cannot_compile(e)
        if err is None:
            raise
        return str(err)
    return None
