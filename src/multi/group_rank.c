/*
 * group_rank.c - groups of one rank per process (gridsync_multi.h):
 * gs_multi_create_rank (a communicator from an ncclUniqueId, initialised
 * non-blocking and polled against the time-out, aborted when it passes, as
 * NCCL's documentation prescribes), gs_multi_create_comm (an existing
 * communicator, checked against the device it is said to belong to), and
 * the handshake every rank takes part in once the communicator is up: each
 * rank's record (rank, the rank count it was told, host, GPU) gathered to
 * all, so that mismatched rank counts and two ranks on one GPU are refused
 * by every rank alike, with a sentence naming the ranks.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "multi_internal.h"

/* ------------------------------------------------ the join registry
 * (id, rank) pairs that have joined in this process: a second join of the
 * same pair could only wait for itself, so it is refused at once. */
enum { MAX_JOINED = 64 };
static pthread_mutex_t joined_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long joined[MAX_JOINED];

static unsigned long long fnv1a(const void *p, size_t n, unsigned long long h)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static gs_status join(const ncclUniqueId *id, int rank, unsigned long long *key)
{
    unsigned long long k = fnv1a(&rank, sizeof rank, fnv1a(id, sizeof *id, 14695981039346656037ull));
    k |= 1ull; /* 0 marks a free slot */
    gs_status st = GS_SUCCESS;
    int free_slot = -1;
    pthread_mutex_lock(&joined_lock);
    for (int i = 0; i < MAX_JOINED && st == GS_SUCCESS; ++i) {
        if (joined[i] == k)
            st = gs__fail(GS_ERR_INVALID_ARGUMENT,
                          "gs_multi_create_rank: rank %d of this unique id has already joined in "
                          "this process (a rank joins once; destroy that group first)",
                          rank);
        else if (!joined[i] && free_slot < 0)
            free_slot = i;
    }
    if (st == GS_SUCCESS && free_slot < 0)
        st = gs__fail(GS_ERR_INVALID_ARGUMENT,
                      "gs_multi_create_rank: %d groups of this process are alive already",
                      MAX_JOINED);
    if (st == GS_SUCCESS)
        joined[free_slot] = *key = k;
    pthread_mutex_unlock(&joined_lock);
    return st;
}

void gs__multi_leave(gs_multi_t m)
{
    pthread_mutex_lock(&joined_lock);
    for (int i = 0; i < MAX_JOINED && m->joined_key; ++i)
        if (joined[i] == m->joined_key)
            joined[i] = 0;
    pthread_mutex_unlock(&joined_lock);
    m->joined_key = 0;
}

/* ------------------------------------------------------ the handshake */

/* Host name and boot id: equal on one node (and one boot) only. */
static unsigned long long host_hash(void)
{
    char name[256] = "", boot[64] = "";
    (void)gethostname(name, sizeof name - 1);
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(boot, sizeof boot, f))
            boot[0] = '\0';
        fclose(f);
    }
    return fnv1a(boot, strlen(boot), fnv1a(name, strlen(name), 14695981039346656037ull));
}

static gs_status check_peers(gs_multi_t m, int nranks_told)
{
    const gs__rank_info *p = m->peers;
    for (int j = 0; j < m->size; ++j) {
        if (p[j].magic != GS__RANK_INFO_MAGIC || p[j].rank != j)
            return gs__fail(GS_ERR_INVALID_ARGUMENT,
                            "creating a gridsync group: rank %d sent no gridsync record (is every "
                            "rank calling gs_multi_create_rank or gs_multi_create_comm?)",
                            j);
        if (p[j].nranks != nranks_told)
            return gs__fail(GS_ERR_INVALID_ARGUMENT,
                            "creating a gridsync group: mismatched rank counts: rank %d was told "
                            "%d ranks, rank %d was told %d",
                            j, p[j].nranks, m->first_rank, nranks_told);
        for (int k = 0; k < j; ++k)
            if (p[k].host == p[j].host && strcmp(p[k].bus_id, p[j].bus_id) == 0)
                return gs__fail(GS_ERR_INVALID_ARGUMENT,
                                "creating a gridsync group: ranks %d and %d both run on GPU %s "
                                "of one node (one GPU per rank)",
                                k, j, p[j].bus_id);
    }
    return GS_SUCCESS;
}

/* Every rank's record to every rank, then the same checks on every rank. */
static gs_status handshake(gs_multi_t m, int nranks_told)
{
    gs__rank_info mine;
    memset(&mine, 0, sizeof mine);
    mine.magic = GS__RANK_INFO_MAGIC;
    mine.rank = m->first_rank;
    mine.nranks = nranks_told;
    mine.device = m->devices[0];
    mine.pid = (long long)getpid();
    mine.host = host_hash();
    GS_CUDA_TRY(cudaDeviceGetPCIBusId(mine.bus_id, (int)sizeof mine.bus_id - 1, m->devices[0]));
    m->peers = (gs__rank_info *)calloc((size_t)m->size, sizeof *m->peers);
    if (!m->peers)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "creating a gridsync group: out of host memory");
    GS_TRY(gs_multi_allgather(m, &mine, sizeof mine, m->peers));
    return check_peers(m, nranks_told);
}

void gs__multi_rank_name(gs_multi_t m, int rank, char *buf, size_t len)
{
    if (!m->processes)
        snprintf(buf, len, "GPU %d", m->devices[rank]);
    else
        snprintf(buf, len, "rank %d (GPU %d)", rank, m->peers ? m->peers[rank].device : -1);
}

/* --------------------------------------------------------- the forms */

static gs_status check_device(const char *fn, int device)
{
    int count = 0;
    GS_CUDA_TRY(cudaGetDeviceCount(&count));
    if (device < 0 || device >= count)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "%s: no device %d (%d present)", fn, device,
                        count);
    return GS_SUCCESS;
}

/* `timeout_s`: the program's time-out, or 0 for the default. */
static gs_status new_group(gs_multi_t *out, int size, int rank, int device, double timeout_s)
{
    struct gs_multi *m = (struct gs_multi *)calloc(1, sizeof *m);
    if (!m)
        return gs__fail(GS_ERR_OUT_OF_MEMORY, "creating a gridsync group: out of host memory");
    m->processes = 1;
    m->size = size;
    m->local = 1;
    m->first_rank = rank;
    m->devices[0] = device;
    *out = m;
    return gs__multi_timeout(timeout_s, &m->timeout_ns);
}

/* ncclCommInitRankConfig, non-blocking, polled until done or the deadline;
 * aborted on failure or time-out, so no NCCL thread is left waiting. */
static gs_status init_comm(gs_multi_t m, const ncclUniqueId *id)
{
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    ncclComm_t comm = NULL;
    int timed_out = 0;
    GS_ON_RANK(m, 0);
    ncclResult_t r = ncclCommInitRankConfig(&comm, m->size, *id, m->first_rank, &config);
    gs_status st = GS_SUCCESS;
    if (r != ncclSuccess && r != ncclInProgress)
        st = gs__nccl_fail(r, "ncclCommInitRankConfig", __FILE__, __LINE__);
    if (st == GS_SUCCESS)
        st = gs__nccl_settle(comm, gs__now_ns() + m->timeout_ns, &timed_out);
    if (st == GS_SUCCESS && !timed_out) {
        m->comms[0] = comm;
        return GS_SUCCESS;
    }
    if (comm)
        (void)ncclCommAbort(comm);
    if (timed_out)
        return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                        "ncclCommInitRankConfig (rank %d of %d): the other ranks did not all join "
                        "this unique id within %.3f s (not started, given another id or rank "
                        "count, or a rank joined twice); the communicator was aborted",
                        m->first_rank, m->size, m->timeout_ns / 1e9);
    return gs__fail(st, "rank %d of %d: %s", m->first_rank, m->size, gs_last_error_detail());
}

/* A creation that failed: what was made is destroyed, its sentence kept. */
static gs_status undo(gs_multi_t *out, gs_status st)
{
    if (st == GS_SUCCESS || !out || !*out)
        return st;
    char detail[1024];
    snprintf(detail, sizeof detail, "%s", gs_last_error_detail());
    gs_multi_destroy(*out);
    *out = NULL;
    return gs__fail(st, "%s", detail);
}

/* The arguments of gs_multi_create_rank, before any CUDA or NCCL call. */
static gs_status check_rank_args(gs_multi_t *out, const ncclUniqueId *id, int nranks, int rank,
                                 double timeout_s)
{
    if (!out || !id)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_create_rank: need an output handle and a unique id");
    if (nranks < 1 || rank < 0 || rank >= nranks)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_create_rank: rank %d of %d ranks: need 0 <= rank < nranks",
                        rank, nranks);
    if (!(timeout_s >= 0.0) || timeout_s > 86400.0 || (timeout_s > 0.0 && timeout_s < 1e-3))
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_create_rank: time-out %g s: need 0 (the default) or 0.001 .. "
                        "86400",
                        timeout_s);
    return GS_SUCCESS;
}

static gs_status create_rank(gs_multi_t *out, const ncclUniqueId *id, int nranks, int rank,
                             int device, double timeout_s)
{
    GS_TRY(check_device("gs_multi_create_rank", device));
    GS_TRY(new_group(out, nranks, rank, device, timeout_s));
    gs_multi_t m = *out;
    m->owns_comms = 1;
    GS_TRY(join(id, rank, &m->joined_key));
    GS_TRY(init_comm(m, id));
    GS_TRY(gs__multi_setup_rank(m, 0));
    int count = 0;
    GS_NCCL_TRY(ncclCommCount(m->comms[0], &count));
    if (count != nranks)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_create_rank: the communicator has %d ranks, this rank was told %d",
                        count, nranks);
    return handshake(m, nranks);
}

gs_status gs_multi_create_rank(gs_multi_t *out, const ncclUniqueId *id, int nranks, int rank,
                               int device, double timeout_s)
{
    int caller = 0;
    if (out)
        *out = NULL;
    GS_TRY(check_rank_args(out, id, nranks, rank, timeout_s));
    GS_TRY(gs__keep_device(&caller));
    return gs__restore_device(caller, undo(out, create_rank(out, id, nranks, rank, device,
                                                           timeout_s)));
}

static gs_status create_comm(gs_multi_t *out, ncclComm_t comm, int device)
{
    int comm_device = -1, count = 0, rank = 0, timed_out = 0;
    GS_TRY(check_device("gs_multi_create_comm", device));
    GS_NCCL_TRY(ncclCommCuDevice(comm, &comm_device));
    if (comm_device != device)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_create_comm: the communicator belongs to GPU %d, not GPU %d",
                        comm_device, device);
    GS_NCCL_TRY(ncclCommCount(comm, &count));
    GS_NCCL_TRY(ncclCommUserRank(comm, &rank));
    GS_TRY(new_group(out, count, rank, device, 0.0));
    gs_multi_t m = *out;
    GS_TRY(gs__nccl_settle(comm, gs__now_ns() + m->timeout_ns, &timed_out));
    if (timed_out)
        return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                        "gs_multi_create_comm: the communicator was still initialising after "
                        "%.3f s",
                        m->timeout_ns / 1e9);
    m->comms[0] = comm;
    GS_TRY(gs__multi_setup_rank(m, 0));
    return handshake(m, count);
}

gs_status gs_multi_create_comm(gs_multi_t *out, ncclComm_t comm, int device)
{
    int caller = 0;
    if (out)
        *out = NULL;
    if (!out || !comm)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_multi_create_comm: need an output handle and a communicator");
    GS_TRY(gs__keep_device(&caller));
    return gs__restore_device(caller, undo(out, create_comm(out, comm, device)));
}
