/*
 * multi_process.cu - one process per GPU, under any launcher or none.
 *
 * Every rank fills its share of a vector, the ranks sum it together
 * (gs_multi_reduce_sum: every rank gets the total) and check it against the
 * CPU; then a persistent kernel on every GPU meets the others 1000 times
 * (gs_multi_sync, on the device path) and computes the dot product of the
 * whole vector with itself inside the kernel (gs_multi_allreduce_sum_f64:
 * every thread of every GPU gets the same bits), or the ranks meet 1000
 * times between kernels (on the host path, ranks on several nodes, where a
 * kernel cannot meet the others: no device view, no all-reduce inside
 * kernels; gs_multi_dot gives the dot product). The unique id travels
 * through a file that every rank can read (gs_multi_unique_id_write/_read),
 * so no MPI is needed; with MPI, pass it with MPI_Bcast instead.
 *
 *   build: part of the gridsync build (examples/), or against an installed
 *          gridsync: nvcc multi_process.cu $(pkg-config --cflags --libs gridsync_multi)
 *   run:   example_multi_process --id-file PATH [--rank R --ranks N] [--device D]
 *          Rank, rank count and GPU come from the launcher when not given:
 *          mpirun (OMPI_COMM_WORLD_RANK/_SIZE/_LOCAL_RANK), torchrun (RANK,
 *          WORLD_SIZE, LOCAL_RANK), srun (SLURM_PROCID, SLURM_NTASKS,
 *          SLURM_LOCALID). The file must be new to the run and on a file
 *          system every node sees.
 * Exit: 0 right, 1 wrong or failed, 2 usage, 3 no GPU.
 */
#include <gridsync/multi_allreduce.cuh>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Meets the other GPUs `rounds` times, then sums x[i]^2 over every GPU's
 * share: each thread its part of this GPU's n elements, then one all-reduce
 * across the GPUs, whose result every thread gets. */
static __global__ void meet(gs_multi_view v, int rounds, const float *x, long long n,
                            double *dot)
{
    for (int r = 0; r < rounds; ++r)
        gs_multi_sync(&v);
    double mine = 0.0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        mine += (double)x[i] * x[i];
    double all = gs_multi_allreduce_sum_f64(&v, mine);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *dot = all;
}

static __global__ void fill(float *x, long long n, int rank)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        x[i] = 0.25f * (float)((i + rank) % 7 - 3); /* every partial sum is exact in float */
}

#define CHECK(call)                                                                        \
    do {                                                                                   \
        gs_status st_ = (call);                                                            \
        if (st_ != GS_SUCCESS) {                                                           \
            fprintf(stderr, "rank %d: %s: %s: %s\n", rank, #call, gs_status_string(st_),   \
                    gs_last_error_detail());                                               \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

/* The first of the environment variables that is set, as a number; -1. */
static int from_env(const char *a, const char *b, const char *c)
{
    const char *names[3] = {a, b, c};
    for (int i = 0; i < 3; ++i) {
        const char *v = getenv(names[i]);
        char *end = NULL;
        long n = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && *end == '\0' && n >= 0 && n < 1000000)
            return (int)n;
    }
    return -1;
}

static int usage(const char *why)
{
    fprintf(stderr, "example_multi_process: %s\nusage: example_multi_process --id-file PATH "
                    "[--rank R --ranks N] [--device D]\n", why);
    return 2;
}

int main(int argc, char **argv)
{
    const char *id_file = NULL;
    int rank = from_env("OMPI_COMM_WORLD_RANK", "RANK", "SLURM_PROCID");
    int ranks = from_env("OMPI_COMM_WORLD_SIZE", "WORLD_SIZE", "SLURM_NTASKS");
    int device = from_env("OMPI_COMM_WORLD_LOCAL_RANK", "LOCAL_RANK", "SLURM_LOCALID");
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--id-file") == 0)
            id_file = argv[i + 1];
        else if (strcmp(argv[i], "--rank") == 0)
            rank = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--ranks") == 0)
            ranks = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--device") == 0)
            device = atoi(argv[i + 1]);
        else
            return usage("unknown option");
    }
    if (argc % 2 == 0)
        return usage("every option takes a value");
    if (!id_file || ranks < 1 || rank < 0 || rank >= ranks)
        return usage("need --id-file, and a rank and rank count (options or a launcher's)");
    int count = 0;
    if (gs_device_count(&count) != GS_SUCCESS || count == 0) {
        printf("example_multi_process: no GPU, nothing to run\n");
        return 3;
    }
    device = device >= 0 ? device % count : rank % count;

    ncclUniqueId id;
    if (rank == 0) {
        if (ncclGetUniqueId(&id) != ncclSuccess)
            return fprintf(stderr, "rank 0: ncclGetUniqueId failed\n"), 1;
        CHECK(gs_multi_unique_id_write(id_file, &id, ranks));
    } else {
        CHECK(gs_multi_unique_id_read(id_file, ranks, 120.0, &id));
    }
    gs_multi_t m;
    CHECK(gs_multi_create_rank(&m, &id, ranks, rank, device, 0.0));

    /* the sum of every rank's share, against the CPU */
    const long long n = (1 << 20) + 5;
    float *x = NULL, total = -1.0f;
    if (cudaSetDevice(device) != cudaSuccess || cudaMalloc((void **)&x, n * sizeof *x) != cudaSuccess)
        return fprintf(stderr, "rank %d: no memory on GPU %d\n", rank, device), 1;
    fill<<<256, 256, 0, gs_multi_stream(m, 0)>>>(x, n, rank);
    const void *parts[1] = {x};
    CHECK(gs_multi_reduce_sum(m, GS_FLOAT32, parts, n, &total));
    double expected = 0.0;
    for (int r = 0; r < ranks; ++r)
        for (long long i = 0; i < n; ++i)
            expected += 0.25 * (double)((i + r) % 7 - 3);

    /* x.x over every rank's share; every square and partial sum is exact */
    double dot = -1.0, dot_expected = 0.0, dot_bound = 0.0;
    for (int r = 0; r < ranks; ++r)
        for (long long i = 0; i < n; ++i)
            dot_expected += 0.0625 * (double)(((i + r) % 7 - 3) * ((i + r) % 7 - 3));

    /* meetings and the dot product: in a kernel where the ranks share
     * memory, else between kernels */
    gs_multi_barrier_t bar;
    const char *reason = "";
    int rounds = 1000;
    CHECK(gs_multi_barrier_create(m, &bar));
    if (gs_multi_barrier_path(bar, &reason) == GS_MULTI_PATH_DEVICE) {
        gs_multi_view view;
        double *d_dot = NULL;
        if (cudaMalloc((void **)&d_dot, sizeof *d_dot) != cudaSuccess)
            return fprintf(stderr, "rank %d: no memory on GPU %d\n", rank, device), 1;
        CHECK(gs_multi_barrier_device(bar, 0, 8, &view));
        void *args0[5] = {&view, &rounds, &x, (void *)&n, &d_dot}, **args[1] = {args0};
        CHECK(gs_multi_launch(bar, (const void *)meet, dim3(8), dim3(128), 0, args));
        CHECK(gs_multi_barrier_check(bar));
        if (cudaMemcpy(&dot, d_dot, sizeof dot, cudaMemcpyDeviceToHost) != cudaSuccess)
            return fprintf(stderr, "rank %d: copying the dot product failed\n", rank), 1;
        cudaFree(d_dot);
    } else {
        float fdot = -1.0f;
        for (int r = 0; r < rounds; ++r)
            CHECK(gs_multi_barrier_host_sync(bar));
        CHECK(gs_multi_dot(m, GS_FLOAT32, parts, parts, n, &fdot));
        dot = fdot;
        dot_bound = (double)ranks * n * ldexp(1.0, -24) * dot_expected; /* summed in float */
    }
    printf("rank %d of %d (GPU %d): sum %.2f (CPU %.2f), dot %.4f (CPU %.4f); met %d times on "
           "the %s path%s%s\n",
           rank, ranks, device, total, expected, dot, dot_expected, rounds,
           reason[0] ? "host" : "device", reason[0] ? ": " : "", reason);
    CHECK(gs_multi_barrier_destroy(bar));
    cudaFree(x);
    CHECK(gs_multi_destroy(m));
    return (double)total == expected && fabs(dot - dot_expected) <= dot_bound ? 0 : 1;
}
