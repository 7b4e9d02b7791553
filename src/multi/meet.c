/*
 * meet.c - the group's host meetings, through NCCL: an all-reduce of a few
 * words (the barrier's collective check, gs_multi_barrier_host_sync), the
 * all-gather of small records (gs_multi_allgather: handshakes, CUDA IPC
 * handles). Each is one NCCL collective per local rank in one NCCL group,
 * then a bounded wait (nccl_wait.c); results are copied to the host only
 * after that wait, so no copy can block on a rank that never comes.
 */
#include <stdlib.h>
#include <string.h>

#include "multi_internal.h"

gs_status gs__multi_allreduce_scratch(gs_multi_t m, size_t count, ncclDataType_t type,
                                      ncclRedOp_t op)
{
    ncclResult_t r = ncclGroupStart(), end;
    const char *failed = "ncclGroupStart";
    for (int l = 0; l < m->local && (r == ncclSuccess || r == ncclInProgress); ++l) {
        r = ncclAllReduce(m->scratch[l], m->scratch[l], count, type, op, m->comms[l],
                          m->streams[l]);
        failed = "ncclAllReduce(scratch, scratch, count, type, op, comm, stream)";
    }
    end = ncclGroupEnd(); /* always closed, even after a failed call */
    if (r != ncclSuccess && r != ncclInProgress)
        return gs__nccl_fail(r, failed, __FILE__, __LINE__);
    if (end != ncclSuccess && end != ncclInProgress)
        return gs__nccl_fail(end, "ncclGroupEnd", __FILE__, __LINE__);
    return GS_SUCCESS;
}

gs_status gs__multi_allreduce_ints(gs_multi_t m, const int *in, int count, ncclRedOp_t op,
                                   int *out, const char *what)
{
    const size_t bytes = (size_t)count * sizeof(int);
    if (count < 1 || bytes > GS__MULTI_SCRATCH_BYTES)
        return gs__fail(GS_ERR_INTERNAL, "%s: %d words do not fit the scratch", what, count);
    GS_TRY(gs__multi_usable(m, what));
    for (int l = 0; l < m->local; ++l) {
        GS_ON_RANK(m, l);
        GS_CUDA_TRY(cudaMemcpyAsync(m->scratch[l], in + (size_t)l * count, bytes,
                                    cudaMemcpyHostToDevice, m->streams[l]));
    }
    GS_TRY(gs__multi_allreduce_scratch(m, (size_t)count, ncclInt32, op));
    GS_TRY(gs__multi_wait(m, what));
    GS_ON_RANK(m, 0);
    GS_CUDA_TRY(cudaMemcpy(out, m->scratch[0], bytes, cudaMemcpyDeviceToHost));
    return GS_SUCCESS;
}

/* The all-gather into dev[l] (size x bytes on each local rank), enqueued. */
static gs_status gather(gs_multi_t m, void *const *dev, size_t bytes)
{
    ncclResult_t r = ncclGroupStart(), end;
    const char *failed = "ncclGroupStart";
    for (int l = 0; l < m->local && (r == ncclSuccess || r == ncclInProgress); ++l) {
        char *recv = (char *)dev[l];
        r = ncclAllGather(recv + (size_t)(m->first_rank + l) * bytes, recv, bytes, ncclUint8,
                          m->comms[l], m->streams[l]);
        failed = "ncclAllGather(in place, bytes, ncclUint8, comm, stream)";
    }
    end = ncclGroupEnd();
    if (r != ncclSuccess && r != ncclInProgress)
        return gs__nccl_fail(r, failed, __FILE__, __LINE__);
    if (end != ncclSuccess && end != ncclInProgress)
        return gs__nccl_fail(end, "ncclGroupEnd", __FILE__, __LINE__);
    return GS_SUCCESS;
}

static gs_status allgather(gs_multi_t m, const void *mine, size_t bytes, void *all, void **dev)
{
    const size_t total = (size_t)m->size * bytes;
    for (int l = 0; l < m->local; ++l) {
        GS_ON_RANK(m, l);
        GS_CUDA_TRY(cudaMalloc(&dev[l], total));
        GS_CUDA_TRY(cudaMemcpyAsync((char *)dev[l] + (size_t)(m->first_rank + l) * bytes,
                                    (const char *)mine + (size_t)l * bytes, bytes,
                                    cudaMemcpyHostToDevice, m->streams[l]));
    }
    GS_TRY(gather(m, dev, bytes));
    GS_TRY(gs__multi_wait(m, "gs_multi_allgather"));
    GS_ON_RANK(m, 0);
    GS_CUDA_TRY(cudaMemcpy(all, dev[0], total, cudaMemcpyDeviceToHost));
    return GS_SUCCESS;
}

gs_status gs_multi_allgather(gs_multi_t m, const void *mine, size_t bytes, void *all)
{
    void *dev[GS_MULTI_MAX_GPUS] = {0};
    int caller = 0;
    if (!m || !mine || !all || bytes < 1 || bytes > (1u << 20))
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_allgather: need a group, both buffers and 1 .. 2^20 bytes");
    GS_TRY(gs__multi_usable(m, "gs_multi_allgather"));
    GS_TRY(gs__keep_device(&caller));
    gs_status st = allgather(m, mine, bytes, all, dev);
    /* after a time-out an aborted NCCL kernel may still hold the buffers:
     * they are left allocated rather than freed under it */
    for (int l = 0; l < m->local && !m->aborted; ++l) {
        (void)cudaSetDevice(m->devices[l]);
        cudaFree(dev[l]);
    }
    return gs__restore_device(caller, st);
}

gs_status gs_multi_barrier_host_sync(gs_multi_barrier_t b)
{
    int ones[GS_MULTI_MAX_GPUS], total = 0, caller = 0;
    if (!b)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_multi_barrier_host_sync: NULL barrier");
    gs_multi_t m = b->multi;
    for (int l = 0; l < m->local; ++l)
        ones[l] = 1;
    GS_TRY(gs__keep_device(&caller));
    gs_status st = gs__multi_allreduce_ints(m, ones, 1, ncclSum, &total,
                                            "gs_multi_barrier_host_sync");
    if (st == GS_SUCCESS && total != m->size)
        st = gs__fail(GS_ERR_INTERNAL, "gs_multi_barrier_host_sync: %d of %d ranks counted",
                      total, m->size);
    return gs__restore_device(caller, st);
}
