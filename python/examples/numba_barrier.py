"""A numba-cuda kernel with a gridsync grid barrier: every block writes its
slot, meets the others, and checks its neighbour's slot, 1000 times.

    python python/examples/numba_barrier.py

Exits 77 (skipped), saying why, where numba-cuda compiles no kernel (numba-cuda
0.30.4 under NumPy 2.5: gridsync.numba.compile_problem()).
"""
import sys

import numpy as np
from numba import cuda

import gridsync
import gridsync.numba as gsn

problem = gsn.compile_problem()
if problem:
    print("numba_barrier: SKIP: " + problem)
    sys.exit(77)


@cuda.jit
def ring(bar, slots, errors, iters):
    me = cuda.local.array(1, gsn.barrier_view)   # this thread's copy of the barrier view
    gsn.barrier_init(me[0], bar)
    b, nb = cuda.blockIdx.x, cuda.gridDim.x
    for it in range(iters):
        if cuda.threadIdx.x == 0:
            slots[b] = it * nb + b
        gsn.grid_sync(me[0])                     # every slot of this iteration is written
        nbr = (b + 1) % nb
        if cuda.threadIdx.x == 0 and slots[nbr] != it * nb + nbr:
            cuda.atomic.add(errors, 0, 1)
        gsn.grid_sync(me[0])                     # every check done before the next write


bar = gridsync.Barrier()
errors = cuda.to_device(np.zeros(1, np.int32))
slots = cuda.device_array(1, np.int32)
blocks = gridsync.max_coresident_blocks(ring, 128, args=(bar, slots, errors, np.int32(1)))
slots = cuda.to_device(np.full(blocks, -1, np.int32))
gridsync.launch(ring, blocks, 128, (bar, slots, errors, np.int32(1000)))
bar.check()
wrong = int(errors.copy_to_host()[0])
print("numba_barrier: %d blocks x 1000 iterations, %d wrong reads" % (blocks, wrong))
assert wrong == 0 and (slots.copy_to_host() == 999 * blocks + np.arange(blocks)).all()
print("numba_barrier: OK")
