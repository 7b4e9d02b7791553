/*
 * test_scan_fault_records.cu - the scan's fault records on the GPU
 * (gridsync/detail/core/fault_record.h, scan_record_fault): a record belongs to
 * the stream's workspace whose call gave up, one record per call however
 * many of its tiles time out together, and a second fault before the host
 * reported the first keeps the first and is counted.
 *
 * The register and resident bandwidth kernels (this test's own instances)
 * run directly on two "streams' workspaces" (descriptors, counters and a
 * host-mapped record each), side by side on two CUDA streams. The scan's
 * fault-injection hook (GS_SCAN_TEST_DELAY, single_pass_scan.cuh) holds
 * tile 0's aggregate back 100 ms in calls numbered from HELD_FROM, so every
 * later tile's wait passes its 5 ms time-out; the other stream's call, not
 * held, must be exact and leave its record clear.
 */
#include <string.h>

/* Tile 0's aggregate held back in calls numbered from here on. */
#define HELD_FROM 1000u
static __device__ void hold_tile0(unsigned int seq, unsigned int tile, int point);
#define GS_SCAN_TEST_DELAY(args, tile, point) hold_tile0((args).seq, (tile), (point))

#include <gridsync/detail/core/fault_record.h>
#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/resident_scan.cuh>
#include <gridsync/detail/scan/single_pass_scan.cuh>

#include "gpu_test.h"

static __device__ void hold_tile0(unsigned int seq, unsigned int tile, int point)
{
    if (seq < HELD_FROM || tile != 0u || point != 0)
        return;
    const unsigned long long start = gs__globaltimer_ns();
    while (gs__globaltimer_ns() - start < 100000000ull) { /* 100 ms */
    }
}

typedef gs::detail::scan_policy<int, gs::detail::scan_bandwidth> policy;
typedef gs::sum<int> sum_op;

enum { TILES = 8, BLOCKS = 4 };
static const long long N = (long long)TILES * policy::tile_items;
static const unsigned long long TIMEOUT_NS = 5000000ull; /* 5 ms */
/* Stream B's calls, which must not give up: long enough for a tile's
 * look-back under compute-sanitizer (racecheck made B's tiles give up at
 * 5 ms), still bounded */
static const unsigned long long B_TIMEOUT_NS = 10000000000ull; /* 10 s */

/* What a stream's workspace holds for the scan, and its data. */
struct lane {
    cudaStream_t stream;
    unsigned long long *desc;
    unsigned int *counters;
    unsigned int *record, *d_record; /* host view, device view */
    int *d_in, *d_out;
};

static lane lane_make(void)
{
    lane l;
    const size_t desc_bytes = (size_t)(TILES + 64) * 64;
    CUDA_OK(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&l.desc, desc_bytes));
    CUDA_OK(cudaMemset(l.desc, 0, desc_bytes));
    CUDA_OK(cudaMalloc((void **)&l.counters, 16));
    CUDA_OK(cudaMemset(l.counters, 0, 16));
    CUDA_OK(cudaHostAlloc((void **)&l.record, GS_FAULT_WORDS * 4, cudaHostAllocMapped));
    CUDA_OK(cudaHostGetDevicePointer((void **)&l.d_record, l.record, 0));
    memset(l.record, 0, GS_FAULT_WORDS * 4);
    CUDA_OK(cudaMalloc((void **)&l.d_in, N * 4));
    CUDA_OK(cudaMalloc((void **)&l.d_out, N * 4));
    return l;
}

static void lane_free(lane *l)
{
    CUDA_OK(cudaStreamDestroy(l->stream));
    CUDA_OK(cudaFree(l->desc));
    CUDA_OK(cudaFree(l->counters));
    CUDA_OK(cudaFreeHost(l->record));
    CUDA_OK(cudaFree(l->d_in));
    CUDA_OK(cudaFree(l->d_out));
}

/* Call `seq` of the kernel (resident or register) on the lane's stream,
 * its tiles giving up after `timeout_ns`. */
static void launch(bool resident, lane *l, unsigned int seq,
                   unsigned long long timeout_ns = TIMEOUT_NS)
{
    gs::detail::scan_args a = {l->d_in, l->d_out, N, l->desc, l->counters, l->d_record,
                               timeout_ns, seq, (unsigned int)TILES, 0, 1};
    if (!resident) {
        gs::detail::single_pass_scan_kernel<policy, sum_op>
            <<<BLOCKS, policy::threads, 0, l->stream>>>(a);
    } else {
        const int smem = gs::detail::scan_resident_bytes<policy, int>();
        CUDA_OK(cudaFuncSetAttribute(gs::detail::single_pass_scan_resident_kernel<policy, sum_op>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
        gs::detail::single_pass_scan_resident_kernel<policy, sum_op>
            <<<BLOCKS, gs::detail::scan_resident_threads<policy>(), smem, l->stream>>>(a);
    }
    CUDA_OK(cudaGetLastError());
}

/* Whether this GPU runs the resident kernel (sm_90, code built for it). */
static bool resident_runs(void)
{
    int device = 0, major = 0;
    cudaFuncAttributes attr;
    CUDA_OK(cudaGetDevice(&device));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_OK(cudaFuncGetAttributes(&attr,
                                  gs::detail::single_pass_scan_resident_kernel<policy, sum_op>));
    return major >= 9 && attr.ptxVersion >= 90;
}

static int check_kernel(bool resident, const int *h_in, const int *want)
{
    const char *which = resident ? "resident" : "register";
    int *h_out = (int *)malloc(N * 4);
    unsigned int counters[4];
    if (!h_out) {
        fprintf(stderr, "FATAL: out of host memory\n");
        exit(1);
    }
    lane a = lane_make(), b = lane_make();
    CUDA_OK(cudaMemcpy(a.d_in, h_in, N * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b.d_in, h_in, N * 4, cudaMemcpyHostToDevice));
    const unsigned int *ra = a.record, *rb = b.record;

    /* side by side: A's call gives up, B's does not */
    launch(resident, &a, HELD_FROM);
    launch(resident, &b, 7u, B_TIMEOUT_NS);
    CUDA_OK(cudaStreamSynchronize(a.stream));
    CUDA_OK(cudaStreamSynchronize(b.stream));
    EXPECT(ra[GS_FAULT_FLAG] == 1u && ra[GS_FAULT_CALL] == HELD_FROM &&
               ra[GS_FAULT_WHERE] < (unsigned int)TILES && ra[GS_FAULT_OF] == (unsigned int)TILES &&
               ra[GS_FAULT_LATER] == 0u,
           "%s: stream A's record %u %u %u %u %u, expected 1 %u <%d %d 0 (one record for the "
           "call, however many tiles gave up)",
           which, ra[0], ra[1], ra[2], ra[3], ra[4], HELD_FROM, TILES, TILES);
    EXPECT(rb[GS_FAULT_FLAG] == 0u && rb[GS_FAULT_LATER] == 0u,
           "%s: stream B's record %u %u %u %u %u: A's fault landed in B's record, or B's call "
           "gave up",
           which, rb[0], rb[1], rb[2], rb[3], rb[4]);
    CUDA_OK(cudaMemcpy(counters, a.counters, 16, cudaMemcpyDeviceToHost));
    EXPECT(counters[0] == 0u && counters[3] == HELD_FROM,
           "%s: stream A after giving up: ticket %u (want 0), abort word %u (want %u)", which,
           counters[0], counters[3], HELD_FROM);
    CUDA_OK(cudaMemcpy(h_out, b.d_out, N * 4, cudaMemcpyDeviceToHost));
    long long wrong = 0;
    for (long long i = 0; i < N; ++i)
        wrong += h_out[i] != want[i];
    EXPECT(wrong == 0, "%s: stream B's scan beside A's fault: %lld elements wrong", which, wrong);

    /* a second fault on A before the host reported the first */
    launch(resident, &a, HELD_FROM + 1u);
    CUDA_OK(cudaStreamSynchronize(a.stream));
    EXPECT(ra[GS_FAULT_FLAG] == 1u && ra[GS_FAULT_CALL] == HELD_FROM && ra[GS_FAULT_LATER] == 1u,
           "%s: after a second fault, stream A's record %u %u %u %u %u, expected 1 %u . . 1 "
           "(the first kept, the second counted)",
           which, ra[0], ra[1], ra[2], ra[3], ra[4], HELD_FROM);

    /* reported (the host lowers the flag, as gs__ws_fault_take): the next
     * fault is described */
    a.record[GS_FAULT_FLAG] = 0u;
    launch(resident, &a, HELD_FROM + 2u);
    CUDA_OK(cudaStreamSynchronize(a.stream));
    EXPECT(ra[GS_FAULT_FLAG] == 1u && ra[GS_FAULT_CALL] == HELD_FROM + 2u &&
               ra[GS_FAULT_LATER] == 1u,
           "%s: a fault after the report: stream A's record %u %u %u %u %u, expected 1 %u . . 1",
           which, ra[0], ra[1], ra[2], ra[3], ra[4], HELD_FROM + 2u);
    printf("  %s kernel: faults kept per stream, the first of two kept, one record a call\n",
           which);
    lane_free(&a);
    lane_free(&b);
    free(h_out);
    return 6;
}

int main(void)
{
    gs_test_require_gpu("scan_fault_records");
    unsigned long long seed = gs_test_seed("scan_fault_records");
    int *h_in = (int *)malloc(N * 4), *want = (int *)malloc(N * 4);
    if (!h_in || !want) {
        fprintf(stderr, "FATAL: out of host memory\n");
        return 1;
    }
    int acc = 0;
    for (long long i = 0; i < N; ++i) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        h_in[i] = (int)(seed >> 33);
        acc = (int)((unsigned int)acc + (unsigned int)h_in[i]); /* wraps, as the scan's sums */
        want[i] = acc;
    }
    int checks = check_kernel(false, h_in, want);
    if (resident_runs())
        checks += check_kernel(true, h_in, want);
    else
        printf("  the resident kernel: skipped (it needs sm_90 and code built for it)\n");
    free(h_in);
    free(want);
    return gs_test_finish("scan_fault_records", checks);
}
