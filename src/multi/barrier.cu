/*
 * barrier.cu - the cross-GPU barrier's host side (gridsync_multi.h):
 * creation (each local rank's flags and grid barrier; across processes the
 * flags are shared by barrier_ipc.c, or the host path is taken), the views
 * kernels receive, and the launch on every local GPU. The check and its
 * report: check.cu. The device side: gridsync/multi.cuh.
 */
#include <gridsync/multi.cuh>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/timeout.h"
#include "multi_internal.h"

static_assert(GS_MULTI_ARRIVALS + GS_MULTI_MAX_GPUS <= GS_MULTI_COUNTER,
              "the arrival words end before the counter's line");
static_assert(GS_MULTI_RESULT % 2 == 0 && GS_MULTI_RESULT + 2 <= GS_MULTI_ARRIVALS &&
                  GS_MULTI_RESULT > GS_MULTI_REC_ABORTED,
              "the all-reduce's result: 8 aligned bytes of the epoch's line, past the record");
static_assert(GS_MULTI_COUNTER + 32 <= GS_MULTI_VALUES && GS_MULTI_VALUES % 4 == 0 &&
                  GS_MULTI_VALUE_SLOT_WORDS == 4,
              "the all-reduce's slots: 16-byte aligned, past the counter's line");
static_assert(GS_MULTI_STATE_WORDS == GS_MULTI_VALUES + 2 * GS_MULTI_VALUE_SET_WORDS,
              "the state ends with the all-reduce's two sets of one slot per rank");

static void destroy_barrier(gs_multi_barrier_t b)
{
    gs_multi_t m = b->multi;
    if (m->processes) {
        gs__barrier_unshare(b);
        /* the others unmap this rank's flags before they are freed (a rank
         * that is gone only costs the time-out) */
        if (!m->aborted && b->shared)
            (void)gs_multi_barrier_host_sync(b);
    }
    for (int r = 0; r < m->local; ++r) {
        cudaSetDevice(m->devices[r]);
        if (b->grid[r])
            gs_barrier_destroy(b->grid[r]);
        cudaFree(b->state[r]);
    }
    if (b->abort)
        cudaFreeHost(b->abort);
    free(b);
}

extern "C" gs_status gs_multi_barrier_destroy(gs_multi_barrier_t b)
{
    int caller = 0;
    if (!b)
        return GS_SUCCESS;
    GS_TRY(gs__keep_device(&caller));
    destroy_barrier(b);
    return gs__restore_device(caller, GS_SUCCESS);
}

static gs_status create_barrier(gs_multi_t m, struct gs_multi_barrier *b)
{
    int env_set = 0;
    unsigned long long env_ns = 0;
    GS_TRY(gs__multi_usable(m, "gs_multi_barrier_create"));
    GS_TRY(gs__timeout_from_env(&env_set, &env_ns));
    b->timeout_ns = env_set ? env_ns : GS_BARRIER_DEFAULT_TIMEOUT_NS;
    b->timeout_from_env = env_set;
    GS_CUDA_TRY(cudaHostAlloc((void **)&b->abort, sizeof *b->abort,
                              cudaHostAllocMapped | cudaHostAllocPortable));
    *b->abort = 0u;
    for (int r = 0; r < m->local; ++r) {
        GS_ON_RANK(m, r);
        GS_CUDA_TRY(cudaMalloc((void **)&b->state[r], GS_MULTI_STATE_WORDS * sizeof(unsigned int)));
        GS_CUDA_TRY(cudaMemset(b->state[r], 0, GS_MULTI_STATE_WORDS * sizeof(unsigned int)));
        GS_CUDA_TRY(cudaDeviceSynchronize()); /* zeroed before any rank can see the flags */
        GS_TRY(gs_barrier_create(&b->grid[r], GS_BARRIER_AUTO));
        if (!m->processes) /* by group rank: here the same as local */
            b->peer[r] = b->state[r];
    }
    b->path = GS_MULTI_PATH_DEVICE;
    return m->processes ? gs__barrier_share(b) : GS_SUCCESS;
}

extern "C" gs_status gs_multi_barrier_create(gs_multi_t m, gs_multi_barrier_t *out)
{
    int caller = 0;
    if (!m || !out)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_create: NULL argument");
    *out = NULL;
    GS_TRY(gs__keep_device(&caller));
    struct gs_multi_barrier *b = (struct gs_multi_barrier *)calloc(1, sizeof *b);
    if (!b)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_multi_barrier_create: out of host memory");
    b->multi = m;
    gs_status st = create_barrier(m, b);
    if (st != GS_SUCCESS) {
        char detail[1024];
        snprintf(detail, sizeof detail, "%s", gs_last_error_detail());
        destroy_barrier(b);
        st = gs__fail(st, "%s", detail);
    } else {
        *out = b;
    }
    return gs__restore_device(caller, st);
}

extern "C" gs_status gs_multi_barrier_set_timeout(gs_multi_barrier_t b, double seconds)
{
    if (!b || !(seconds >= 1e-3) || seconds > 3600.0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_barrier_set_timeout: need a barrier and 0.001 <= s <= 3600");
    if (!b->timeout_from_env) /* GRIDSYNC_BARRIER_TIMEOUT wins */
        __atomic_store_n(&b->timeout_ns, (unsigned long long)(seconds * 1e9), __ATOMIC_RELAXED);
    return GS_SUCCESS;
}

extern "C" gs_multi_t gs_multi_barrier_group(gs_multi_barrier_t b) { return b ? b->multi : NULL; }

extern "C" gs_multi_path gs_multi_barrier_path(gs_multi_barrier_t b, const char **reason)
{
    if (reason)
        *reason = b ? b->path_reason : "no barrier";
    return b ? b->path : GS_MULTI_PATH_HOST;
}

static gs_status host_path_refused(gs_multi_barrier_t b, const char *fn)
{
    return gs__fail(GS_ERR_NOT_SUPPORTED,
                    "%s: this barrier takes the host path (%s): gs_multi_sync and "
                    "gs_multi_allreduce_* cannot meet inside kernels; meet between kernels with "
                    "gs_multi_barrier_host_sync, and combine values with gs_multi_reduce_sum",
                    fn, b->path_reason);
}

extern "C" gs_status gs_multi_barrier_device(gs_multi_barrier_t b, int l, unsigned int blocks,
                                             gs_multi_view *v)
{
    if (!b || !v || l < 0 || l >= b->multi->local)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_barrier_device: bad local rank %d (this process holds %d)", l,
                        b ? b->multi->local : 0);
    if (b->path != GS_MULTI_PATH_DEVICE)
        return host_path_refused(b, "gs_multi_barrier_device");
    memset(v, 0, sizeof *v);
    GS_TRY(gs_barrier_device(b->grid[l], blocks, &v->grid));
    /* the local grid barrier waits while block 0 meets the other GPUs */
    const unsigned long long timeout_ns = __atomic_load_n(&b->timeout_ns, __ATOMIC_RELAXED);
    v->grid.timeout_ns = timeout_ns ? 2 * timeout_ns + 1000000000ull : 0;
    v->state = b->state[l];
    for (int j = 0; j < b->multi->size; ++j)
        v->peer_arrivals[j] = b->peer[j] + GS_MULTI_ARRIVALS;
    v->abort = b->abort;
    v->timeout_ns = timeout_ns;
    v->rank = b->multi->first_rank + l;
    v->size = b->multi->size;
    return GS_SUCCESS;
}

static gs_status launch_all(gs_multi_barrier_t b, const cudaFunction_t *funcs, dim3 grid,
                            dim3 block, size_t smem, void **const *args)
{
    gs_multi_t m = b->multi;
    b->launch_failure[0] = '\0';
    if (b->path != GS_MULTI_PATH_DEVICE)
        return host_path_refused(b, "gs_multi_launch");
    for (int r = 0; r < m->local; ++r) {
        GS_ON_RANK(m, r);
        gs_status st = gs_launch_func(funcs[r], grid, block, smem, m->streams[r], args[r],
                                      b->grid[r]);
        if (st == GS_SUCCESS)
            continue;
        /* the GPUs launched so far would wait for this one until the
         * time-out: call their meetings off */
        *b->abort = 1u;
        snprintf(b->launch_failure, sizeof b->launch_failure,
                 "the launch on GPU %d (rank %d) failed: %s", m->devices[r], m->first_rank + r,
                 gs_last_error_detail());
        return gs__fail(st, "%s%s", b->launch_failure,
                        r ? "; the GPUs launched before it were told to stop meeting "
                            "(gs_multi_barrier_check collects them)"
                          : "");
    }
    return GS_SUCCESS;
}

extern "C" gs_status gs_multi_launch_func(gs_multi_barrier_t b, const cudaFunction_t *funcs,
                                          dim3 grid, dim3 block, size_t smem, void **const *args)
{
    int caller = 0;
    if (!b || !funcs || !args)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_launch: NULL argument");
    GS_TRY(gs__keep_device(&caller));
    return gs__restore_device(caller, launch_all(b, funcs, grid, block, smem, args));
}
