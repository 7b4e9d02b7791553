/* suites.h - benchmark suites run by `gridsync bench`. */
#ifndef GS_BENCH_SUITES_H
#define GS_BENCH_SUITES_H

#include "gridsync.h"
#include "bench/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gs_bench_barrier_opts {
    int iterations;         /* exchange iterations per kernel (2 barriers each) */
    int samples;            /* timed kernels per configuration */
    int warmup;
    const int *threads;     /* block sizes to measure */
    int nthreads;
    const int *blocks;      /* grid sizes; NULL: 1, 1/SM, 2/SM, co-resident maximum */
    int nblocks;
    unsigned int tree_flat_max;  /* 0: library default */
    unsigned int tree_group;     /* 0: library default */
    int quiet;              /* no progress on stderr */
} gs_bench_barrier_opts;

/* Per-barrier latency of every method and peer; `*table` receives the
 * result rows. Fails with GS_ERR_INTERNAL if any method's exchange check saw
 * a wrong value (the table is still returned). */
gs_status gs_bench_barrier(const gs_bench_barrier_opts *opts, gs_table **table);

typedef struct gs_bench_reduce_opts {
    const int *log2_sizes;  /* n = 2^k for each k */
    int nsizes;
    int samples;            /* timed samples per method and size (median reported) */
    int warmup;
    int quiet;
} gs_bench_reduce_opts;

/* float32 sum/min/max: gridsync vs CUB DeviceReduce and seed 001. */
gs_status gs_bench_reduce(const gs_bench_reduce_opts *opts, gs_table **table);
/* float32 dot: gridsync vs cuBLAS Sdot and seed 004 (host finish). */
gs_status gs_bench_dot(const gs_bench_reduce_opts *opts, gs_table **table);

typedef struct gs_bench_gemm_opts {
    const int *sizes;       /* square sizes n (m = n = k) */
    int nsizes;
    int extra_shapes;       /* also the tall, wide, deep and odd shapes */
    int samples;
    int warmup;
    int quiet;
} gs_bench_gemm_opts;

/* FP32 gemm: gridsync vs cuBLAS SGEMM (pedantic FP32) and the seed's tiled16;
 * fails if gridsync's result differs from cuBLAS's. */
gs_status gs_bench_gemm(const gs_bench_gemm_opts *opts, gs_table **table);

#ifdef __cplusplus
}
#endif

#endif
