"""Kernels written in Python with a gridsync barrier, on the GPU: a CuPy
persistent kernel over many iterations (checked), one where a block leaves
early (check() names it exactly, then the next launch works), a grid that
cannot be co-resident (refused, nothing launched), the view passed to CuPy's
own launch, signal sets, a numba-cuda kernel and a cuda.core kernel."""
import re

import numpy as np
import pytest

import gridsync

pytestmark = pytest.mark.gpu

RING = r"""
#include <gridsync/barrier.cuh>
/* Each iteration every block writes its slot, meets the others at the
 * barrier, reads its neighbour's slot (written this iteration) and counts a
 * wrong value, meets again. Block `leaver` returns before iteration
 * iters / 2: the others then wait at the barrier until the watchdog. */
extern "C" __global__ void ring(gs_grid_barrier bar, int *slots, int *errors, int iters,
                                int leaver)
{
    const int b = blockIdx.x, nb = gridDim.x;
    for (int it = 0; it < iters; ++it) {
        if (b == leaver && it == iters / 2)
            return;
        if (threadIdx.x == 0)
            slots[b] = it * nb + b;
        gs_grid_sync(&bar);
        const int nbr = (b + 1) % nb;
        if (threadIdx.x == 0 && slots[nbr] != it * nb + nbr)
            atomicAdd(errors, 1);
        gs_grid_sync(&bar);
    }
}

/* Block b waits until block b-1 has published round r, then publishes its
 * own: a chain through a signal set. Block `silent` never publishes. */
#include <gridsync/signal.cuh>
extern "C" __global__ void chain(gs_signal_set sig, int rounds, int silent, int *seen)
{
    const unsigned b = blockIdx.x;
    for (int r = 1; r <= rounds; ++r) {
        if (b > 0)
            gs_block_signal_wait(&sig, b - 1, (unsigned long long)r);
        if ((int)b != silent)
            gs_block_signal_store(&sig, b, (unsigned long long)r);
    }
    if (threadIdx.x == 0)
        seen[b] = rounds;
}
"""


@pytest.fixture(scope="module")
def cupy_module():
    cp = pytest.importorskip("cupy")
    return cp, cp.RawModule(code=RING, options=gridsync.nvrtc_options())


def _ring(cp, kern, bar, blocks, iters, leaver=-1, **kw):
    slots = cp.full(blocks, -1, dtype=cp.int32)
    errors = cp.zeros(1, dtype=cp.int32)
    gridsync.launch(kern, blocks, 256, (bar, slots, errors, np.int32(iters), np.int32(leaver)),
                    **kw)
    return slots, errors


def test_cupy_persistent_kernel(cupy_module):
    cp, mod = cupy_module
    kern = mod.get_function("ring")
    blocks = gridsync.max_coresident_blocks(kern, 256)
    assert blocks > 0
    with gridsync.Barrier() as bar:
        for grid in (1, 3, blocks // 2 + 1, blocks):
            slots, errors = _ring(cp, kern, bar, grid, 1000)
            bar.check()
            assert int(errors[0]) == 0
            np.testing.assert_array_equal(cp.asnumpy(slots), 999 * grid + np.arange(grid))


def test_cupy_block_leaving_early_is_named_then_next_launch_works(cupy_module):
    cp, mod = cupy_module
    kern = mod.get_function("ring")
    blocks = gridsync.max_coresident_blocks(kern, 256)
    leaver = min(17, blocks - 1)
    bar = gridsync.Barrier(timeout=0.2)
    _ring(cp, kern, bar, blocks, 100, leaver)
    with pytest.raises(gridsync.TimeoutError) as e:
        bar.check()
    msg = str(e.value)
    print("watchdog:", msg)
    assert re.search(r"missing: block %d\b" % leaver, msg), msg
    assert "%d/%d blocks arrived" % (blocks - 1, blocks) in msg, msg
    slots, errors = _ring(cp, kern, bar, blocks, 100)  # re-armed: the next launch works
    bar.check()
    assert int(errors[0]) == 0


def test_cupy_not_coresident_refused(cupy_module):
    cp, mod = cupy_module
    kern = mod.get_function("ring")
    blocks = gridsync.max_coresident_blocks(kern, 256)
    with gridsync.Barrier() as bar:
        slots = cp.full(blocks + 1, -1, dtype=cp.int32)
        with pytest.raises(gridsync.NotCoresidentError,
                           match=r"%d blocks requested, at most %d fit" % (blocks + 1, blocks)):
            gridsync.launch(kern, blocks + 1, 256, (bar, slots, cp.zeros(1, cp.int32),
                                                    np.int32(5), np.int32(-1)))
        cp.cuda.Device().synchronize()
        assert int(slots.min()) == -1  # nothing ran


def test_cupy_own_launch_takes_the_view(cupy_module):
    cp, _ = cupy_module
    # CuPy makes a kernel cooperative when it builds it: RawKernel.__call__
    # passes the kernel's own enable_cooperative_groups to every launch, so
    # the keyword given to the call as well is "multiple values" (TypeError)
    kern = cp.RawModule(code=RING, options=gridsync.nvrtc_options(),
                        enable_cooperative_groups=True).get_function("ring")
    blocks = min(64, gridsync.max_coresident_blocks(kern, 256))
    with gridsync.Barrier() as bar:
        slots = cp.full(blocks, -1, dtype=cp.int32)
        errors = cp.zeros(1, dtype=cp.int32)
        kern((blocks,), (256,), (bar.view(blocks), slots, errors, np.int32(200), np.int32(-1)))
        bar.check(cp.cuda.get_current_stream())
        assert int(errors[0]) == 0
        np.testing.assert_array_equal(cp.asnumpy(slots), 199 * blocks + np.arange(blocks))


def test_cupy_streams(cupy_module):
    cp, mod = cupy_module
    kern = mod.get_function("ring")
    blocks = min(32, gridsync.max_coresident_blocks(kern, 256))
    bars = [gridsync.Barrier() for _ in range(3)]
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(3)]
    runs = []
    for bar, s in zip(bars, streams):
        with s:
            runs.append(_ring(cp, kern, bar, blocks, 300))
    for bar, s, (slots, errors) in zip(bars, streams, runs):
        bar.check(s)
        assert int(errors[0]) == 0
    # one barrier on two streams while the first launch runs: refused (GS_ERR_BUSY) or ordered
    with gridsync.Barrier() as bar:
        with streams[0]:
            _ring(cp, kern, bar, blocks, 20000)
        try:
            with streams[1]:
                _ring(cp, kern, bar, blocks, 10)
        except gridsync.BusyError as e:
            assert "still running" in str(e)
        bar.check(streams[0])
        bar.check(streams[1])


def test_signals(cupy_module):
    cp, mod = cupy_module
    kern = mod.get_function("chain")
    blocks = min(40, gridsync.max_coresident_blocks(kern, 64))
    with gridsync.Signals(blocks, timeout=0.2) as sig:
        seen = cp.zeros(blocks, dtype=cp.int32)
        gridsync.launch(kern, blocks, 64, (sig, np.int32(50), np.int32(-1), seen))
        sig.check()
        assert int(seen.min()) == 50
        sig.reset()
        gridsync.launch(kern, blocks, 64, (sig, np.int32(5), np.int32(3), seen))
        with pytest.raises(gridsync.TimeoutError) as e:
            sig.check()
        print("watchdog:", e.value)
        # blocks 4.. each wait on the block before them: the first to give up is named
        m = re.search(r"signal (\d+): block (\d+) waited for >= 1 but it stayed at 0", str(e.value))
        assert m and int(m.group(1)) >= 3 and int(m.group(2)) == int(m.group(1)) + 1, str(e.value)
        seen[:] = 0
        gridsync.launch(kern, blocks, 64, (sig, np.int32(7), np.int32(-1), seen))
        sig.check()  # re-armed
        assert int(seen.min()) == 7


def test_numba_kernel_with_barrier():
    pytest.importorskip("numba.cuda")
    from numba import cuda
    import gridsync.numba as gsn
    problem = gsn.compile_problem()  # numba-cuda 0.30.4 under NumPy 2.5 compiles no kernel
    if problem:
        pytest.skip(problem)

    @cuda.jit
    def ring(bar, slots, errors, iters, leaver):
        me = cuda.local.array(1, gsn.barrier_view)
        gsn.barrier_init(me[0], bar)
        b, nb = cuda.blockIdx.x, cuda.gridDim.x
        for it in range(iters):
            if b == leaver and it == iters // 2:
                return
            if cuda.threadIdx.x == 0:
                slots[b] = it * nb + b
            gsn.grid_sync(me[0])
            nbr = (b + 1) % nb
            if cuda.threadIdx.x == 0 and slots[nbr] != it * nb + nbr:
                cuda.atomic.add(errors, 0, 1)
            gsn.grid_sync(me[0])

    bar = gridsync.Barrier(timeout=0.2)
    slots = cuda.device_array(1, np.int32)
    errors = cuda.to_device(np.zeros(1, np.int32))
    args = (bar, slots, errors, np.int32(500), np.int32(-1))
    blocks = gridsync.max_coresident_blocks(ring, 128, args=args)
    slots = cuda.to_device(np.full(blocks, -1, np.int32))
    gridsync.launch(ring, blocks, 128, (bar, slots, errors, np.int32(500), np.int32(-1)))
    bar.check()
    assert errors.copy_to_host()[0] == 0
    np.testing.assert_array_equal(slots.copy_to_host(), 499 * blocks + np.arange(blocks))
    leaver = min(5, blocks - 1)
    gridsync.launch(ring, blocks, 128, (bar, slots, errors, np.int32(50), np.int32(leaver)))
    with pytest.raises(gridsync.TimeoutError, match=r"missing: block %d\b" % leaver):
        bar.check()
    gridsync.launch(ring, blocks, 128, (bar, slots, errors, np.int32(50), np.int32(-1)))
    bar.check()
    assert errors.copy_to_host()[0] == 0
    with pytest.raises(gridsync.NotCoresidentError):
        gridsync.launch(ring, blocks + 1, 128, (bar, slots, errors, np.int32(1), np.int32(-1)))


def test_cuda_core_kernel_with_barrier():
    try:
        from cuda.core import Device, Program, ProgramOptions
    except ImportError:
        core = pytest.importorskip("cuda.core.experimental")
        Device, Program, ProgramOptions = core.Device, core.Program, core.ProgramOptions
    cp = pytest.importorskip("cupy")
    dev = Device(0)
    dev.set_current()
    arch = "sm_%s%s" % dev.compute_capability
    opts = ProgramOptions(std="c++17", arch=arch, include_path=[gridsync.include_dir()])
    kern = Program(RING, code_type="c++", options=opts).compile("cubin").get_kernel("ring")
    blocks = gridsync.max_coresident_blocks(kern, 256)
    with gridsync.Barrier() as bar:
        slots, errors = _ring(cp, kern, bar, blocks, 300, stream=cp.cuda.get_current_stream())
        bar.check(cp.cuda.get_current_stream())
        assert int(errors[0]) == 0
        np.testing.assert_array_equal(cp.asnumpy(slots), 299 * blocks + np.arange(blocks))
