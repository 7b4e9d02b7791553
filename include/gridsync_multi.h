/*
 * gridsync_multi.h - several GPUs of one node as one: reductions combined
 * with NCCL, and a barrier that persistent kernels on all the GPUs meet at.
 * Plain C17; link libgridsync_multi (built when NCCL is found).
 *
 * Two forms of group, one API:
 *  - one process drives several local GPUs (gs_multi_create, NCCL's
 *    ncclCommInitAll bootstrap): it holds every rank;
 *  - one process per GPU (MPI, torchrun, Slurm, or the file bootstrap below),
 *    on one node or several: gs_multi_create_rank from an ncclUniqueId, rank
 *    and rank count, or gs_multi_create_comm from an existing communicator.
 *    Each process holds one rank.
 * Every call that takes per-GPU arrays takes them indexed by LOCAL rank,
 * 0 .. gs_multi_local_ranks()-1: all ranks in the first form, one element in
 * the second (so the same program text serves both). gs_multi_rank() gives a
 * local rank's place in the whole group (0 .. gs_multi_size()-1).
 *
 *   gs_multi_t m;
 *   int devs[2] = {0, 1};
 *   gs_multi_create(&m, 2, devs);                      (one process)
 *   gs_multi_create_rank(&m, &id, nranks, rank, dev, 0); (one per GPU)
 *   gs_multi_reduce_sum(m, GS_FLOAT32, d_parts, n_per_gpu, &host_sum);
 *
 * Calls on a group of several processes are collective: every rank calls
 * them in the same order (as NCCL's collectives). Every wait for the other
 * ranks is bounded by the group's time-out (gs_multi_set_timeout; default
 * 60 s, GRIDSYNC_MULTI_TIMEOUT in seconds): when it passes, the call returns
 * GS_ERR_BARRIER_TIMEOUT and the NCCL communicator is aborted (NCCL's only
 * way to cancel a collective), after which the group can only be destroyed.
 *
 * The cross-GPU barrier: flags in peer memory over NVLink/PCIe (in another
 * process's GPU through CUDA IPC), written with system-scope release and
 * polled with system-scope acquire, after a grid barrier on each GPU. Same
 * guarantees as the single-GPU barrier: every wait is bounded; a GPU that
 * never arrives becomes GS_ERR_BARRIER_TIMEOUT naming it ("cross-GPU barrier
 * #4: GPU 1 never arrived", or "rank 1 (GPU 1) never arrived" across
 * processes). Where the ranks have no load/store path to each other (other
 * nodes, no peer access) the barrier takes the host path and says so
 * (gs_multi_barrier_path): ranks meet between kernels, through NCCL.
 * In kernels, besides gs_multi_sync (gridsync/multi.cuh), an all-reduce
 * across the GPUs in one meeting: gs_multi_allreduce_sum_f64(&view, x) and
 * the other sums, minima and maxima (gridsync/multi_allreduce.cuh); every
 * thread of every GPU gets the same bits. Device path only.
 */
#ifndef GRIDSYNC_MULTI_H
#define GRIDSYNC_MULTI_H

#include <nccl.h>

#include "gridsync.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Local ranks of one process, and ranks of a barrier's device path. */
#define GS_MULTI_MAX_GPUS 16

typedef struct gs_multi *gs_multi_t;

/* A group of `ndevices` local GPUs (device ordinals), with one NCCL
 * communicator and one stream per GPU, all driven by this process.
 * GS_ERR_NOT_SUPPORTED when a pair of them cannot access each other's
 * memory. */
GS_API gs_status gs_multi_create(gs_multi_t *multi, int ndevices, const int *devices);

/* This process's rank of a group of `nranks` processes, one GPU each, that
 * share the unique id `id` (from ncclGetUniqueId on one rank, passed to the
 * others by MPI, a launcher's store, or gs_multi_unique_id_write/_read).
 * Runs on GPU `device`. Collective: every rank calls it with the same id and
 * rank count. Waits at most `timeout_s` seconds (0: the group's default) for
 * the others: an id that never completes (a rank not started, another rank
 * count, a rank joining twice) ends in GS_ERR_BARRIER_TIMEOUT or the error
 * NCCL reports, naming the id's ranks, and nothing is left waiting. The same
 * (id, rank) joined twice in this process is refused at once. */
GS_API gs_status gs_multi_create_rank(gs_multi_t *multi, const ncclUniqueId *id, int nranks,
                                      int rank, int device, double timeout_s);

/* A group on an existing communicator of one rank (one process per GPU):
 * `device` must be the communicator's GPU (GS_ERR_INVALID_ARGUMENT
 * otherwise, before anything is exchanged). Collective over the
 * communicator's ranks. The communicator stays the caller's: it is not
 * destroyed with the group (but aborted on a time-out, see above). */
GS_API gs_status gs_multi_create_comm(gs_multi_t *multi, ncclComm_t comm, int device);

GS_API gs_status gs_multi_destroy(gs_multi_t multi);

/* Ranks in the whole group; ranks this process holds; a local rank's place
 * in the group, its device, stream and NCCL communicator. */
GS_API int gs_multi_size(gs_multi_t multi);
GS_API int gs_multi_local_ranks(gs_multi_t multi);
GS_API int gs_multi_rank(gs_multi_t multi, int local_rank);
GS_API int gs_multi_device(gs_multi_t multi, int local_rank);
GS_API cudaStream_t gs_multi_stream(gs_multi_t multi, int local_rank);
GS_API ncclComm_t gs_multi_comm(gs_multi_t multi, int local_rank);

/* The bound on every wait for the other ranks (see above), 0.001 .. 86400 s. */
GS_API gs_status gs_multi_set_timeout(gs_multi_t multi, double seconds);

/* Gather `bytes` bytes from every rank into `all` (host memory, size x
 * bytes, in rank order); `mine` holds this process's local ranks' blocks
 * (local_ranks x bytes). For exchanging small records such as CUDA IPC
 * handles. Collective; bounded. */
GS_API gs_status gs_multi_allgather(gs_multi_t multi, const void *mine, size_t bytes, void *all);

/* ----------------------------------------- file bootstrap (no launcher)
 * Pass a unique id from rank 0 to the other processes through a file that
 * they all can read (a local or shared file system). Rank 0 writes it to a
 * temporary file beside `path` and renames it into place, so a reader sees
 * the whole id or nothing; the others poll for it for at most `timeout_s`
 * seconds (GS_ERR_BARRIER_TIMEOUT: "no unique id appeared at PATH within
 * ..."). The file records the rank count; a reader told another count is
 * refused. Use a path unique to the run: an old file from an earlier run
 * would be read as this run's. `path` is only ever opened, never run. */
GS_API gs_status gs_multi_unique_id_write(const char *path, const ncclUniqueId *id, int nranks);
GS_API gs_status gs_multi_unique_id_read(const char *path, int nranks, double timeout_s,
                                         ncclUniqueId *id);

/* Sum (or dot) over all GPUs' shares: each GPU reduces its `n` elements at
 * d_in[local rank] with gs_reduce_sum (gs_dot), then an NCCL all-reduce adds
 * the GPUs' results; *result (host memory) receives the total, in every
 * process (an all-reduce): one element of `type`, a float for GS_FLOAT16
 * and GS_BFLOAT16 (gs_reduce_result_type). Identical from run to run (each
 * step folds in a fixed order). Waits for the result (bounded, see above). */
GS_API gs_status gs_multi_reduce_sum(gs_multi_t multi, gs_dtype type, const void *const *d_in,
                                     long long n, void *result);
GS_API gs_status gs_multi_dot(gs_multi_t multi, gs_dtype type, const void *const *d_x,
                              const void *const *d_y, long long n, void *result);

/* ------------------------------------------------- cross-GPU barrier */

typedef struct gs_multi_barrier *gs_multi_barrier_t;

/* What one GPU's kernel receives (by value): its local grid barrier and the
 * cross-GPU flags. Fill with gs_multi_barrier_device. */
typedef struct gs_multi_view {
    gs_grid_barrier grid;             /* this GPU's grid barrier */
    unsigned int *state;              /* this GPU's words: epoch, record, arrivals */
    unsigned int *peer_arrivals[GS_MULTI_MAX_GPUS]; /* each rank's arrival words (IPC-mapped across
                                                     * processes); its other words, the all-reduce's
                                                     * slots among them, lie in the same allocation */
    unsigned int *abort;              /* host-mapped: nonzero calls every meeting off */
    unsigned long long timeout_ns;    /* 0: no bound (GRIDSYNC_BARRIER_TIMEOUT=off) */
    int rank, size;                   /* this GPU's place in the group */
    /* The meeting thread's own copy, kept by gs_multi_sync (zero from the
     * host): the last epoch and whether a meeting of this launch broke; read
     * from the state once per launch, so no meeting waits on a load of it. */
    unsigned int epoch;
    unsigned int flags;
} gs_multi_view;

/* How the ranks of a barrier meet. */
typedef enum gs_multi_path {
    GS_MULTI_PATH_DEVICE = 0, /* flags in every rank's GPU memory: gs_multi_sync in kernels */
    GS_MULTI_PATH_HOST = 1    /* no load/store path: meet between kernels, through NCCL */
} gs_multi_path;

/* The cross-GPU time-out is 2 s by default; GRIDSYNC_BARRIER_TIMEOUT (see
 * gs_barrier_create) overrides it and gs_multi_barrier_set_timeout. Each
 * GPU's own grid barrier waits while its block 0 meets the others, so it is
 * given twice the time-out plus a second. */
GS_API gs_status gs_multi_barrier_create(gs_multi_t multi, gs_multi_barrier_t *barrier);
/* (On a group of several processes gs_multi_barrier_create, _destroy and
 * _check are collective, and every rank should set the same time-out. The
 * creation maps every rank's flags with CUDA IPC where all ranks are on one
 * node with peer access; where any rank cannot, every rank takes the host
 * path, with the reason; GRIDSYNC_MULTI_HOST_PATH=1 asks for it.) */
GS_API gs_status gs_multi_barrier_destroy(gs_multi_barrier_t barrier);
GS_API gs_status gs_multi_barrier_set_timeout(gs_multi_barrier_t barrier, double seconds);

/* The group a barrier was created for. */
GS_API gs_multi_t gs_multi_barrier_group(gs_multi_barrier_t barrier);

/* Which path the barrier's ranks meet by; *reason (may be NULL) receives
 * the sentence saying why the host path was taken ("" on the device path). */
GS_API gs_multi_path gs_multi_barrier_path(gs_multi_barrier_t barrier, const char **reason);

/* A meeting of every rank on the host, between kernels, through an NCCL
 * all-reduce of one word: returns once every rank has called it and this
 * process's streams have finished what was enqueued before. Works on both
 * paths; the host path's only meeting. Collective; bounded by the group's
 * time-out. */
GS_API gs_status gs_multi_barrier_host_sync(gs_multi_barrier_t barrier);

/* The view for local rank `local_rank`'s kernel, launched with `blocks`
 * blocks. GS_ERR_NOT_SUPPORTED (with the reason) on the host path: there no
 * kernel can meet the others, neither gs_multi_sync nor gs_multi_allreduce_*. */
GS_API gs_status gs_multi_barrier_device(gs_multi_barrier_t barrier, int local_rank,
                                         unsigned int blocks, gs_multi_view *view);

/* gs_multi_launch with the kernel already resolved on each local rank's
 * device (funcs[local rank], a driver handle as for gs_launch_func). */
GS_API gs_status gs_multi_launch_func(gs_multi_barrier_t barrier, const cudaFunction_t *funcs,
                                      dim3 grid, dim3 block, size_t dynamic_smem,
                                      void **const *args);

/* Launch `kernel` on every local GPU (cooperatively, each on its rank's
 * stream, refused if the grid cannot be co-resident, refused on the host
 * path); args[local rank] are that GPU's arguments. Returns once all are
 * enqueued. If a GPU's launch fails, the kernels already started on this
 * process's other GPUs are told to stop meeting (they end without waiting
 * for the time-out; other processes' kernels wait for it) and the error
 * names that GPU; collect them with gs_multi_barrier_check. Leaves the
 * current device as it was. */
static inline gs_status gs_multi_launch(gs_multi_barrier_t barrier, const void *kernel,
                                        dim3 grid, dim3 block, size_t dynamic_smem,
                                        void **const *args)
{
    cudaFunction_t funcs[GS_MULTI_MAX_GPUS] = {0};
    gs_multi_t multi = gs_multi_barrier_group(barrier);
    int size = gs_multi_local_ranks(multi), current = 0;
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

/* Wait for every local GPU; GS_ERR_BARRIER_TIMEOUT (naming the GPUs that
 * never arrived, and any GPU's own grid-barrier report) if a wait timed out
 * or a launch failed. Re-arms every GPU's state either way, even when one of
 * the steps fails (the first failure is returned). Across processes the
 * ranks compare their records in a host meeting (so every rank reports the
 * same failure) and re-arm together; a rank that never comes to the check
 * (its process ended) turns into a time-out naming it, and the communicator
 * is aborted. */
GS_API gs_status gs_multi_barrier_check(gs_multi_barrier_t barrier);

#ifdef __cplusplus
}
#endif

#endif
