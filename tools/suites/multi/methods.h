/* methods.h - the names of the multi suite's rows that its run code writes
 * and its description reads. */
#ifndef GS_SUITES_MULTI_METHODS_H
#define GS_SUITES_MULTI_METHODS_H

/* The methods; the two-process rows append TWO_PROCESSES. */
#define P2P "gridsync p2p"
#define LSA "nccl lsa barrier (device API)"
#define ALLREDUCE "nccl allreduce 1 word"
#define HOST_SYNC "host stream sync"
#define ONE_GPU "gs_reduce_sum, 1 GPU"
#define MULTI_REDUCE "gs_multi_reduce_sum"
#define TWO_PROCESSES ", 2 processes"
/* What a row measures (the column "what"). */
#define BARRIER "barrier"
#define REDUCE "reduce 2^28/GPU"

#endif
