/*
 * gridsync_multi.h - several GPUs of one node as one: reductions combined
 * with NCCL, and a barrier that persistent kernels on all the GPUs meet at.
 * Plain C17; link libgridsync_multi (built when NCCL is found).
 *
 * One process drives all the GPUs it is given (NCCL's ncclCommInitAll
 * bootstrap). Every call that takes per-GPU arrays takes them indexed by
 * rank (0 .. size-1, in the order of the devices given to gs_multi_create).
 *
 *   gs_multi_t m;
 *   int devs[2] = {0, 1};
 *   gs_multi_create(&m, 2, devs);
 *   gs_multi_reduce_sum(m, GS_FLOAT32, d_parts, n_per_gpu, &host_sum);
 *
 * The cross-GPU barrier: flags in peer memory over NVLink/PCIe, written with
 * system-scope release and polled with system-scope acquire, after a grid
 * barrier on each GPU. Same guarantees as the single-GPU barrier: every wait
 * is bounded; a GPU that never arrives becomes GS_ERR_BARRIER_TIMEOUT naming
 * it ("cross-GPU barrier #4: GPU 1 never arrived").
 */
#ifndef GRIDSYNC_MULTI_H
#define GRIDSYNC_MULTI_H

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GS_MULTI_MAX_GPUS 16

typedef struct gs_multi *gs_multi_t;

/* A group of `ndevices` local GPUs (device ordinals), with one NCCL
 * communicator and one stream per GPU. GS_ERR_NOT_SUPPORTED when a pair of
 * them cannot access each other's memory. */
gs_status gs_multi_create(gs_multi_t *multi, int ndevices, const int *devices);
gs_status gs_multi_destroy(gs_multi_t multi);
int gs_multi_size(gs_multi_t multi);
int gs_multi_device(gs_multi_t multi, int rank);
cudaStream_t gs_multi_stream(gs_multi_t multi, int rank);

/* Sum (or dot) over all GPUs' shares: each GPU reduces its `n` elements at
 * d_in[rank] with gs_reduce_sum (gs_dot), then an NCCL all-reduce adds the
 * GPUs' results; *result (host memory) receives the total. Identical from run
 * to run (each step folds in a fixed order). Waits for the result. */
gs_status gs_multi_reduce_sum(gs_multi_t multi, gs_dtype type, const void *const *d_in,
                              long long n, void *result);
gs_status gs_multi_dot(gs_multi_t multi, gs_dtype type, const void *const *d_x,
                       const void *const *d_y, long long n, void *result);

/* ------------------------------------------------- cross-GPU barrier */

typedef struct gs_multi_barrier *gs_multi_barrier_t;

/* What one GPU's kernel receives (by value): its local grid barrier and the
 * cross-GPU flags. Fill with gs_multi_barrier_device. */
typedef struct gs_multi_view {
    gs_grid_barrier grid;             /* this GPU's grid barrier */
    unsigned int *state;              /* this GPU's words: epoch, record, arrivals */
    unsigned int *peer_arrivals[GS_MULTI_MAX_GPUS]; /* each GPU's arrival words */
    unsigned int *abort;              /* host-mapped: nonzero calls every meeting off */
    unsigned long long timeout_ns;    /* 0: no bound (GRIDSYNC_BARRIER_TIMEOUT=off) */
    int rank, size;
    /* Block 0's own copy, kept by gs_multi_sync (zero from the host): the
     * last epoch and whether a meeting of this launch broke; read from the
     * state once per launch, so no meeting waits on a load of it. */
    unsigned int epoch;
    unsigned int flags;
} gs_multi_view;

/* The cross-GPU time-out is 2 s by default; GRIDSYNC_BARRIER_TIMEOUT (see
 * gs_barrier_create) overrides it and gs_multi_barrier_set_timeout. Each
 * GPU's own grid barrier waits while its block 0 meets the others, so it is
 * given twice the time-out plus a second. */
gs_status gs_multi_barrier_create(gs_multi_t multi, gs_multi_barrier_t *barrier);
gs_status gs_multi_barrier_destroy(gs_multi_barrier_t barrier);
gs_status gs_multi_barrier_set_timeout(gs_multi_barrier_t barrier, double seconds);

/* The group a barrier was created for. */
gs_multi_t gs_multi_barrier_group(gs_multi_barrier_t barrier);

/* The view for `rank`'s kernel, launched with `blocks` blocks. */
gs_status gs_multi_barrier_device(gs_multi_barrier_t barrier, int rank, unsigned int blocks,
                                  gs_multi_view *view);

/* gs_multi_launch with the kernel already resolved on each rank's device
 * (funcs[rank], a driver handle as for gs_launch_func). */
gs_status gs_multi_launch_func(gs_multi_barrier_t barrier, const cudaFunction_t *funcs,
                               dim3 grid, dim3 block, size_t dynamic_smem, void **const *args);

/* Launch `kernel` on every GPU (cooperatively, each on its rank's stream,
 * refused if the grid cannot be co-resident); args[rank] are that GPU's
 * arguments. Returns once all are enqueued. If a GPU's launch fails, the
 * kernels already started on the others are told to stop meeting (they end
 * without waiting for the time-out) and the error names that GPU; collect
 * them with gs_multi_barrier_check. Leaves the current device as it was. */
static inline gs_status gs_multi_launch(gs_multi_barrier_t barrier, const void *kernel,
                                        dim3 grid, dim3 block, size_t dynamic_smem,
                                        void **const *args)
{
    cudaFunction_t funcs[GS_MULTI_MAX_GPUS] = {0};
    gs_multi_t multi = gs_multi_barrier_group(barrier);
    int size = gs_multi_size(multi), current = 0;
    gs_status st = GS_SUCCESS;
    cudaError_t err = cudaGetDevice(&current);
    for (int r = 0; r < size && st == GS_SUCCESS && err == cudaSuccess; ++r) {
        err = cudaSetDevice(gs_multi_device(multi, r));
        if (err == cudaSuccess) /* a kernel handle belongs to one device */
            st = gs__kernel_func(kernel, &funcs[r]);
    }
    if (err != cudaSuccess)
        st = gs__runtime_call_failed("cudaGetDevice/cudaSetDevice", (int)err);
    (void)cudaSetDevice(current);
    if (st != GS_SUCCESS)
        return st;
    return gs_multi_launch_func(barrier, funcs, grid, block, dynamic_smem, args);
}

/* Wait for every GPU; GS_ERR_BARRIER_TIMEOUT (naming the GPUs that never
 * arrived, and any GPU's own grid-barrier report) if a wait timed out or a
 * launch failed. Re-arms every GPU's state either way, even when one of the
 * steps fails (the first failure is returned). */
gs_status gs_multi_barrier_check(gs_multi_barrier_t barrier);

#ifdef __cplusplus
}
#endif

#endif
