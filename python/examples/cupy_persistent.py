"""A CuPy persistent kernel with a gridsync barrier and the watchdog.

Every block of a co-resident grid relaxes its share of a 1-D array in
place, 1000 steps, with a grid barrier between reading the neighbours and
writing; a second launch where one block leaves early shows the watchdog
naming it. Python beside the kernel's source: 12 lines.

    python python/examples/cupy_persistent.py
"""
import cupy as cp
import numpy as np

import gridsync

SOURCE = r"""
#include <gridsync/barrier.cuh>
extern "C" __global__ void relax(gs_grid_barrier bar, float *x, float *tmp, int n, int steps,
                                 int leaver)
{
    for (int s = 0; s < steps; ++s) {
        if ((int)blockIdx.x == leaver)
            return;                                  /* a bug: this block stops early */
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            tmp[i] = 0.5f * x[i] + 0.25f * (x[i > 0 ? i - 1 : i] + x[i < n - 1 ? i + 1 : i]);
        gs_grid_sync(&bar);                          /* every tmp[] written before anyone reads */
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            x[i] = tmp[i];
        gs_grid_sync(&bar);
    }
}
"""

# --- the Python side: 12 lines ---
relax = cp.RawModule(code=SOURCE, options=gridsync.nvrtc_options()).get_function("relax")
n, steps = 1 << 20, 1000
x, tmp = cp.random.rand(n, dtype=cp.float32), cp.empty(n, dtype=cp.float32)
bar = gridsync.Barrier(timeout=0.5)                  # watched: no wait lasts more than 0.5 s
blocks = gridsync.max_coresident_blocks(relax, 256)  # the grid that fits the GPU at once
gridsync.launch(relax, blocks, 256, (bar, x, tmp, np.int32(n), np.int32(steps), np.int32(-1)))
bar.check()                                          # waits; raises if anyone never arrived
gridsync.launch(relax, blocks, 256, (bar, x, tmp, np.int32(n), np.int32(steps), np.int32(7)))
try:
    bar.check()
except gridsync.TimeoutError as e:
    print("watchdog:", e)                            # "barrier #1: .../... blocks arrived; missing: block 7"
# --- end ---

# A check: 20 steps on fresh data against the same relaxation on the CPU, in float64.
x0 = cp.random.rand(n, dtype=cp.float32)
x1 = x0.copy()
gridsync.launch(relax, blocks, 256, (bar, x1, tmp, np.int32(n), np.int32(20), np.int32(-1)))
bar.check()
h = cp.asnumpy(x0).astype(np.float64)
for _ in range(20):
    h = 0.5 * h + 0.25 * (np.concatenate([h[:1], h[:-1]]) + np.concatenate([h[1:], h[-1:]]))
err = np.abs(cp.asnumpy(x1) - h).max()
print("cupy_persistent: %d blocks, max error after 20 steps %.2e" % (blocks, err))
assert err < 1e-5
print("cupy_persistent: OK")
