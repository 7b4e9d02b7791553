/*
 * barrier_ipc.c - the cross-GPU barrier's flags for ranks in different
 * processes. Each rank's flags are its own cudaMalloc; their CUDA IPC
 * handles go to every rank (gs_multi_allgather) and each rank maps the
 * others' (cudaIpcOpenMemHandle), so gs_multi_sync's system-scope stores
 * and acquire loads (multi_exchange.cuh) reach them as in one process.
 *
 * Which path: the device path needs every rank on one node, peer access
 * between every pair of GPUs that this process can see, a handle from every
 * rank and every handle mapped. Each rank decides what it can see, then the
 * ranks exchange their verdicts twice (before and after mapping) so that all
 * of them take the same path: a rank on the device path while another waits
 * on the host would only time out. The host path keeps the first reason
 * ("rank 1: runs on another node than rank 0") for gs_multi_barrier_path.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi_internal.h"

/* What each rank tells the others, twice: its handle and whether it can. */
typedef struct share_record {
    cudaIpcMemHandle_t handle;
    int ok;
    char reason[188];
} share_record;

/* Why this rank cannot take the device path (mine->reason, "" if it can so
 * far), and its flags' handle. */
static gs_status own_verdict(struct gs_multi_barrier *b, share_record *mine)
{
    char *reason = mine->reason;
    const size_t len = sizeof mine->reason;
    gs_multi_t m = b->multi;
    const gs__rank_info *me = &m->peers[m->first_rank];
    const char *env = getenv("GRIDSYNC_MULTI_HOST_PATH");
    if (m->size > GS_MULTI_MAX_GPUS) {
        snprintf(reason, len, "the group has %d ranks; the device path holds %d", m->size,
                 GS_MULTI_MAX_GPUS);
        return GS_SUCCESS;
    }
    if (env && strcmp(env, "1") == 0) {
        snprintf(reason, len, "GRIDSYNC_MULTI_HOST_PATH=1 asked for it");
        return GS_SUCCESS;
    }
    for (int j = 0; j < m->size; ++j) {
        const gs__rank_info *p = &m->peers[j];
        int ordinal = -1, can = 1;
        if (p->host != me->host) {
            snprintf(reason, len, "rank %d runs on another node than rank %d (no load/store path)",
                     j, m->first_rank);
            return GS_SUCCESS;
        }
        if (j == m->first_rank)
            continue;
        if (cudaDeviceGetByPCIBusId(&ordinal, p->bus_id) != cudaSuccess) {
            (void)cudaGetLastError(); /* not visible here: the mapping will tell */
            continue;
        }
        GS_CUDA_TRY(cudaDeviceCanAccessPeer(&can, m->devices[0], ordinal));
        if (!can) {
            snprintf(reason, len, "GPU %s (rank %d) cannot access GPU %s (rank %d): no peer access",
                     me->bus_id, m->first_rank, p->bus_id, j);
            return GS_SUCCESS;
        }
    }
    cudaError_t err = cudaIpcGetMemHandle(&mine->handle, b->state[0]);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(reason, len, "cudaIpcGetMemHandle(the barrier's flags) failed: %s",
                 cudaGetErrorName(err));
    }
    return GS_SUCCESS;
}

/* Gather every rank's record; the first rank that cannot, into b's reason. */
static gs_status agree(struct gs_multi_barrier *b, share_record *mine, share_record *all,
                       int *ok)
{
    gs_multi_t m = b->multi;
    GS_TRY(gs_multi_allgather(m, mine, sizeof *mine, all));
    *ok = 1;
    for (int j = 0; j < m->size && *ok; ++j)
        if (!all[j].ok) {
            *ok = 0;
            all[j].reason[sizeof all[j].reason - 1] = '\0';
            snprintf(b->path_reason, sizeof b->path_reason, "rank %d: %s", j, all[j].reason);
        }
    return GS_SUCCESS;
}

/* Map every other rank's flags; on failure, why, into mine. */
static void map_peers(struct gs_multi_barrier *b, const share_record *all, share_record *mine)
{
    gs_multi_t m = b->multi;
    b->peer[m->first_rank] = b->state[0];
    for (int j = 0; j < m->size && mine->ok; ++j) {
        if (j == m->first_rank)
            continue;
        cudaError_t err = cudaIpcOpenMemHandle((void **)&b->peer[j], all[j].handle,
                                               cudaIpcMemLazyEnablePeerAccess);
        if (err != cudaSuccess) {
            (void)cudaGetLastError();
            b->peer[j] = NULL;
            mine->ok = 0;
            snprintf(mine->reason, sizeof mine->reason,
                     "cudaIpcOpenMemHandle(rank %d's flags) failed: %s", j, cudaGetErrorName(err));
        }
    }
}

static gs_status share(struct gs_multi_barrier *b, share_record *all)
{
    gs_multi_t m = b->multi;
    share_record mine;
    int ok = 0;
    memset(&mine, 0, sizeof mine);
    GS_ON_RANK(m, 0);
    GS_TRY(own_verdict(b, &mine));
    mine.ok = mine.reason[0] == '\0';
    GS_TRY(agree(b, &mine, all, &ok));
    if (ok) {
        map_peers(b, all, &mine);
        GS_TRY(agree(b, &mine, all, &ok));
    }
    b->path = ok ? GS_MULTI_PATH_DEVICE : GS_MULTI_PATH_HOST;
    b->shared = 1; /* every rank got here: they meet again on destruction */
    if (ok)
        b->path_reason[0] = '\0';
    else
        gs__barrier_unshare(b);
    return GS_SUCCESS;
}

gs_status gs__barrier_share(struct gs_multi_barrier *b)
{
    share_record *all = (share_record *)calloc((size_t)b->multi->size, sizeof *all);
    if (!all)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "gs_multi_barrier_create: out of host memory");
    gs_status st = share(b, all);
    free(all);
    return st;
}

void gs__barrier_unshare(struct gs_multi_barrier *b)
{
    gs_multi_t m = b->multi;
    for (int j = 0; j < GS_MULTI_MAX_GPUS; ++j) {
        if (b->peer[j] && j != m->first_rank) {
            (void)cudaSetDevice(m->devices[0]);
            (void)cudaIpcCloseMemHandle(b->peer[j]);
        }
        b->peer[j] = NULL;
    }
}
