/*
 * gridsync/pdl.cuh - kernels chained by programmatic dependent launch (PDL,
 * compute capability 9.0 and later): the two instructions a kernel
 * launched with gs_launch_pdl (gridsync.h) uses.
 *
 *   #include <gridsync/pdl.cuh>
 *
 *   // step k of a chain: reads what step k - 1 wrote, writes its own
 *   __global__ void step(const float *in, float *out, ...)
 *   {
 *       gs_pdl_launch_dependents();  // step k + 1 may be scheduled now
 *       float w = weights[i];        // work on data no earlier kernel writes
 *       gs_pdl_wait();               // step k - 1 has completed, its writes are visible
 *       out[i] = f(in[i], w);        // dependent reads, and every write
 *   }
 *   ...
 *   for (int k = 0; k < steps; ++k)  // on a stream, or captured into a graph
 *       gs_launch_pdl((const void *)step, grid, block, 0, stream, args[k]);
 *
 *   gs_pdl_launch_dependents()  griddepcontrol.launch_dependents: once every
 *                               block of this grid has executed it (or
 *                               ended), the next kernel on the stream may
 *                               be scheduled, while this one is still
 *                               running. Repeats in a block do nothing
 *                               more. It orders no memory: it is only a
 *                               hint of when to start the next launch.
 *   gs_pdl_wait()               griddepcontrol.wait: the calling thread
 *                               waits until every prerequisite grid (the
 *                               previous kernel on the stream) has
 *                               completed and all its memory operations
 *                               are performed and visible to this grid.
 *
 * Why a chain is correct: the PTX ISA (griddepcontrol) guarantees that
 * after .wait returns, every memory operation of the prerequisite grids is
 * performed and visible to the current grid; "completed" includes all of
 * their threads, so every read that grid made is done as well. A kernel
 * launched with programmatic stream serialization may start as soon as the
 * previous one allows it, and nothing else orders the two: every access a
 * kernel makes to memory that an earlier kernel of the chain writes OR
 * reads must come after gs_pdl_wait in the thread that makes it (call it in
 * every thread, or in one thread before a __syncthreads that the others
 * pass before their accesses). Reads are the part users forget: a kernel
 * that overwrites a buffer the previous kernel reads (ping-pong buffers,
 * in-place updates) must wait before those writes too (write after read).
 * The order is transitive: kernel k's wait returns only after kernel k - 1
 * completed, which happened after k - 1's own wait returned, so waiting
 * orders a kernel after every earlier kernel of the chain; a kernel of the
 * chain that never calls gs_pdl_wait breaks that for the kernels after it.
 * gs_pdl_launch_dependents may come first (as above): it releases nothing,
 * so it is never wrong; calling it early only lets the next kernel's blocks
 * take SM slots sooner (see When).
 * The wait is not a gridsync spin and has no time-out: it lasts as long as
 * the previous kernel runs, and is bounded when that kernel is (every wait
 * of gridsync's own primitives is).
 *
 * Below sm_90 (and in a build without sm_90 code) both compile to nothing:
 * gs_launch_pdl then makes ordinary stream-ordered launches (the kernel
 * starts after the previous one has completed), which need no wait, so the
 * same kernel is correct everywhere. Without the launch attribute (a plain
 * <<<>>> launch) the instructions are no-ops as well.
 *
 * When: a PDL boundary is the cheapest kernel boundary there is. On H200
 * (barrier bench workload, us a step) a CUDA graph with PDL took 0.71-0.97
 * us from 1 to 528 blocks of 256 threads, against 0.90-1.26 for a plain
 * graph and 0.89-1.48 for cooperative groups' grid.sync: there it beats
 * every full and neighbour barrier inside a kernel. At 1056 blocks (8 a
 * SM) it lost its edge (1.57 us, graph 1.52), and for large memory-bound
 * steps (2-D Jacobi from 1M cells) early-launched blocks took SM slots
 * from the running grid and PDL was slower than a plain graph. In-kernel
 * synchronization stays ahead where it does what a boundary cannot: keep
 * state in registers or shared memory, overlap the wait with independent
 * work across the whole step, or wait for a few blocks instead of the
 * grid. `gridsync bench barrier sync` measures which wins on the GPU at
 * hand, per grid size and step length (docs/pdl.md).
 *
 * Compiles with nvcc and NVRTC (no includes).
 */
#ifndef GRIDSYNC_PDL_CUH
#define GRIDSYNC_PDL_CUH

/* Let the next kernel on the stream be scheduled once every block of this
 * grid has called this (or ended); orders no memory. No-op below sm_90. */
static __device__ __forceinline__ void gs_pdl_launch_dependents(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* Wait until the previous kernel on the stream has completed and its
 * memory operations are visible to this grid; call it before any access
 * to memory an earlier kernel writes or reads. No-op below sm_90 (where
 * gs_launch_pdl's launches are ordinary stream-ordered ones). */
static __device__ __forceinline__ void gs_pdl_wait(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

#endif /* GRIDSYNC_PDL_CUH */
