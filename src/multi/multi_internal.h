/*
 * multi_internal.h - the host side of gridsync_multi.h shared by its files
 * (internal): the group and barrier objects, bounded waits on NCCL, the
 * group's host meetings.
 *
 * Files: multi.cu (groups of one process, reductions, the barrier's launch
 * and check), group_rank.c (groups of one rank per process: creation from a
 * unique id or a communicator, the handshake), nccl_wait.c (every wait for
 * other ranks, bounded, with ncclCommAbort on time-out), barrier_ipc.c (the
 * barrier's flags mapped across processes, or the host path and why),
 * meet.c (host meetings: all-reduce of words, all-gather of records),
 * barrier.cu (the barrier's creation, views, launch), check.cu (its check
 * and report), id_file.c (the file bootstrap).
 */
#ifndef GS_MULTI_INTERNAL_H
#define GS_MULTI_INTERNAL_H

#include <nccl.h>

#include "gridsync_multi.h"
#include "../core/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What every rank tells the others when a group of processes forms. */
typedef struct gs__rank_info {
    unsigned int magic;      /* GS__RANK_INFO_MAGIC: the record is one of ours */
    int rank, nranks;        /* as this rank was told */
    int device;              /* its GPU, as an ordinal of its own process */
    long long pid;
    unsigned long long host; /* hash of the host name and boot id: same node? */
    char bus_id[32];         /* PCI bus id of its GPU */
} gs__rank_info;

#define GS__RANK_INFO_MAGIC 0x47534d52u /* "GSMR" */

struct gs_multi {
    int processes;    /* one rank per process (group_rank.c); else one process holds all */
    int size;         /* ranks in the group */
    int local;        /* ranks this process holds: size (one process) or 1 */
    int first_rank;   /* group rank of local rank 0 */
    int owns_comms;   /* destroy the communicators with the group */
    int aborted;      /* a bounded wait timed out: the communicators were aborted */
    unsigned long long timeout_ns; /* bound on waits for other ranks (set and read atomically:
                                      gs_multi_set_timeout may come from another thread) */
    unsigned long long joined_key; /* id form: this (id, rank) in the join registry */
    int devices[GS_MULTI_MAX_GPUS];
    ncclComm_t comms[GS_MULTI_MAX_GPUS];
    cudaStream_t streams[GS_MULTI_MAX_GPUS];
    void *scratch[GS_MULTI_MAX_GPUS]; /* 256 bytes per local rank: partials, meeting words */
    gs__rank_info *peers;             /* processes: every rank's record (the handshake) */
};

struct gs_multi_barrier {
    gs_multi_t multi;
    gs_barrier_t grid[GS_MULTI_MAX_GPUS];   /* by local rank */
    unsigned int *state[GS_MULTI_MAX_GPUS]; /* by local rank: this process's flags */
    unsigned int *peer[GS_MULTI_MAX_GPUS];  /* by group rank: every rank's flags (IPC-mapped) */
    unsigned int *abort;           /* host-mapped, read by every local GPU (multi.cuh) */
    unsigned long long timeout_ns; /* 0: no bound (set and read atomically) */
    int timeout_from_env;
    gs_multi_path path;
    int shared;                    /* processes: every rank went through gs__barrier_share */
    char path_reason[256];         /* why the host path */
    char launch_failure[512];      /* the last gs_multi_launch failure, for the check */
};

/* Bytes of device scratch per local rank. */
enum { GS__MULTI_SCRATCH_BYTES = 256 };

#define GS_NCCL_TRY(call)                                                                   \
    do {                                                                                    \
        ncclResult_t r_ = (call);                                                           \
        if (r_ != ncclSuccess && r_ != ncclInProgress)                                      \
            return gs__nccl_fail(r_, #call, __FILE__, __LINE__);                            \
    } while (0)

/* Record a failed NCCL call ("ncclAllReduce(...) failed: <ncclGetErrorString>
 * (<ncclGetLastError>)") and return GS_ERR_CUDA. */
gs_status gs__nccl_fail(ncclResult_t r, const char *call, const char *file, int line);

/* ------------------------------------------------------ nccl_wait.c */

/* Monotonic clock, nanoseconds. */
unsigned long long gs__now_ns(void);

/* A group's time-out: `timeout_s` when the program gives one (> 0, already
 * checked), else GRIDSYNC_MULTI_TIMEOUT or 60 s; a malformed or "off" value
 * of the variable fails, but only when it is read. */
gs_status gs__multi_timeout(double timeout_s, unsigned long long *timeout_ns);

/* Wait until `comm` has no operation in progress (a non-blocking
 * communicator returns ncclInProgress), at most until `deadline_ns`.
 * *timed_out is set on time-out (nothing is aborted here). */
gs_status gs__nccl_settle(ncclComm_t comm, unsigned long long deadline_ns, int *timed_out);

/* Wait for every local rank's stream and NCCL operations, at most the
 * group's time-out. On time-out: abort every communicator, mark the group
 * aborted, GS_ERR_BARRIER_TIMEOUT "<what>: ...". */
gs_status gs__multi_wait(gs_multi_t m, const char *what);

/* GS_ERR_CUDA "this group's communicator was aborted..." once aborted. */
gs_status gs__multi_usable(gs_multi_t m, const char *what);

/* `count` ints from each local rank (host, local x count) combined with
 * `op` over the group into `out` (count ints, local rank 0's copy).
 * Collective; bounded (gs__multi_wait). count <= 64. */
gs_status gs__multi_allreduce_ints(gs_multi_t m, const int *in, int count, ncclRedOp_t op,
                                   int *out, const char *what);

/* In place on every local rank's scratch: `count` elements of `type`
 * combined by `op` over the group; enqueued on the ranks' streams. */
gs_status gs__multi_allreduce_scratch(gs_multi_t m, size_t count, ncclDataType_t type,
                                      ncclRedOp_t op);

/* Local rank l's stream and scratch (multi.cu). */
gs_status gs__multi_setup_rank(gs_multi_t m, int l);

/* Every public call runs its body between these two, so that it leaves the
 * caller's current device as it found it (multi.cu). */
gs_status gs__keep_device(int *device);
gs_status gs__restore_device(int device, gs_status st);

/* Make the device of local rank `r` current. */
#define GS_ON_RANK(m, r) GS_CUDA_TRY(cudaSetDevice((m)->devices[r]))

/* ---------------------------------------------------- group_rank.c */

/* Leave the join registry (gs_multi_destroy of an id-form group). */
void gs__multi_leave(gs_multi_t m);

/* The name of group rank `rank` in sentences: "GPU 1" (one process) or
 * "rank 1 (GPU 1)" (group_rank.c). */
void gs__multi_rank_name(gs_multi_t m, int rank, char *buf, size_t len);

/* ---------------------------------------------------- barrier_ipc.c */

/* Processes form: map every rank's flags (b->peer) or choose the host path
 * (b->path, b->path_reason), the same on every rank. Collective. */
gs_status gs__barrier_share(struct gs_multi_barrier *b);

/* Unmap the other ranks' flags. */
void gs__barrier_unshare(struct gs_multi_barrier *b);

#ifdef __cplusplus
}
#endif

#endif /* GS_MULTI_INTERNAL_H */
