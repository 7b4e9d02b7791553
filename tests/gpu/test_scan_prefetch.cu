/*
 * test_scan_prefetch.cu - what gs_scan reads, and when: its kernels prefetch
 * their input into L2 before the programmatic-launch wait (sm_90), so a
 * call's blocks start while the previous kernel on the stream is still
 * writing. In-place scans back to back, each reading what the one before it
 * is writing as it starts; a scan behind a kernel that writes its input
 * late, after letting the scan's blocks start and prefetch the old bytes
 * (apart and in place; a PDL-launched observer first shows whether this
 * device starts a dependent kernel early); input and output in managed
 * memory last written by the CPU, apart and in place (no prefetch there).
 * One length per kernel: one block per tile, the tile loop, the resident
 * kernel. int32 sums against the CPU reference (scan_test.h).
 */
#include "scan_test.h"

/* ------------------------------------------------- in-place chains */

/* In-place int32 scans back to back on one stream, each reading what the
 * one before it wrote: on sm_90 a call's blocks start, and prefetch their
 * tiles into L2, while the previous call is still writing those very
 * elements (single_pass_prefetch_l2, before the programmatic-launch wait).
 * Every call must still read the finished values. The kinds alternate at
 * random; the reference applies the same scans on the CPU (wrapping). One
 * length per kernel: one block per tile (aligned, and misaligned with a
 * partial tile), the tile loop (28 MB: more tiles than a wave, so blocks
 * loop) and, past 32 MiB, the resident kernel. Whether a call's blocks do
 * start before the previous call ends is the scheduler's choice;
 * check_prefetch_race makes sure of it. */
static int check_in_place_chain(int quick)
{
    enum { CALLS = 12 };
    const long long lengths[] = {1ll << 19, (1ll << 19) - 777, 7000001, 9000011};
    const int offsets[] = {0, 3, 1, 0};
    const int nlen = quick ? 2 : 4;
    int checks = 0;
    for (int l = 0; l < nlen; ++l) {
        const long long n = lengths[l];
        int *d, *h_in = (int *)malloc((size_t)n * 4), *h_out = (int *)malloc((size_t)n * 4);
        unsigned int *want = (unsigned int *)malloc((size_t)n * 4);
        CUDA_OK(cudaMalloc((void **)&d, (size_t)(n + offsets[l]) * 4));
        cudaStream_t s;
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        fill(h_in, n, FILL_REAL);
        for (long long i = 0; i < n; ++i)
            want[i] = (unsigned int)h_in[i];
        CUDA_OK(cudaMemcpy(d + offsets[l], h_in, (size_t)n * 4, cudaMemcpyHostToDevice));
        int kinds = 0;
        for (int c = 0; c < CALLS; ++c) {
            const int exclusive = (int)(next_u64() & 1u);
            kinds |= 1 << exclusive;
            GS_OK(gs_scan(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE,
                          GS_INT32, d + offsets[l], d + offsets[l], n, s));
            unsigned int run = 0u;
            for (long long i = 0; i < n; ++i) {
                const unsigned int x = want[i];
                want[i] = exclusive ? run : run + x;
                run += x;
            }
        }
        CUDA_OK(cudaStreamSynchronize(s));
        CUDA_OK(cudaMemcpy(h_out, d + offsets[l], (size_t)n * 4, cudaMemcpyDeviceToHost));
        long long wrong = 0;
        for (long long i = 0; i < n; ++i)
            wrong += (unsigned int)h_out[i] != want[i];
        EXPECT(wrong == 0, "%d in-place scans back to back, n %lld, offset %d: %lld elements wrong",
               CALLS, n, offsets[l], wrong);
        printf("  %d in-place scans back to back (kinds %s), n %lld, offset %d: %lld wrong\n",
               CALLS, kinds == 3 ? "mixed" : kinds == 2 ? "exclusive" : "inclusive", n, offsets[l],
               wrong);
        ++checks;
        CUDA_OK(cudaStreamDestroy(s));
        cudaFree(d);
        free(h_in);
        free(h_out);
        free(want);
    }
    return checks;
}

/* ------------------------------------------------- a writer the scan overtakes */

/* Lets the next kernel on the stream be scheduled at once (programmatic
 * launch completion, sm_90), waits spin_ns, then copies `fresh` over `dst`
 * and stamps when it is done (end_ns, the latest block's globaltimer). A
 * gs_scan of `dst` launched after it starts while it spins: its blocks
 * prefetch the old bytes into L2 before their launch wait, and must read
 * the new ones after it. The spin is bounded by the global timer. */
static __global__ void late_writer(int *dst, const int *fresh, long long n,
                                   unsigned long long spin_ns, unsigned long long *end_ns)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    const unsigned long long t0 = gs__globaltimer_ns();
    while (gs__globaltimer_ns() - t0 < spin_ns) {
    }
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = fresh[i];
    __syncthreads();
    if (threadIdx.x == 0u)
        atomicMax(end_ns, gs__globaltimer_ns());
}

/* Launched with programmatic dependent launch after late_writer, as
 * gs_scan is: when it started (before its launch wait). */
static __global__ void early_observer(unsigned long long *start_ns)
{
    if (threadIdx.x == 0u)
        *start_ns = gs__globaltimer_ns();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* gs_scan behind a kernel that writes its input late (late_writer): the
 * scan's blocks are scheduled while the writer spins, prefetch the input's
 * old bytes into L2 (single_pass_prefetch_l2) and wait; the result must be
 * the scan of the new bytes. First a PDL-launched observer shows that this
 * device starts a dependent kernel before the writer ends (printed, not
 * asserted: the scheduler may decline, and the sanitizers serialize
 * kernels). int32 sums against the CPU (wrapping), output poisoned, apart
 * (output misaligned by one) and in place; one length per kernel: one block
 * per tile (input misaligned, a partial tile), the tile loop, the resident
 * kernel (input misaligned). */
static int check_prefetch_race(int quick)
{
    const long long lengths[] = {(1ll << 19) - 777, 7000001, 9000011};
    const int offsets[] = {1, 0, 3};
    const int nlen = quick ? 2 : 3;
    const unsigned long long spin_ns = 50000ull;
    int checks = 0;
    cudaStream_t s;
    unsigned long long *d_stamps, h_stamps[2];
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaMalloc((void **)&d_stamps, 2 * sizeof(unsigned long long)));
    for (int l = 0; l < nlen; ++l) {
        const long long n = lengths[l];
        const int off = offsets[l];
        int *d_in, *d_fresh, *d_out;
        int *h_old = (int *)malloc((size_t)n * 4), *h_fresh = (int *)malloc((size_t)n * 4);
        int *h_out = (int *)malloc((size_t)(n + 2) * 4);
        CUDA_OK(cudaMalloc((void **)&d_in, (size_t)(n + off) * 4));
        CUDA_OK(cudaMalloc((void **)&d_fresh, (size_t)n * 4));
        CUDA_OK(cudaMalloc((void **)&d_out, (size_t)(n + 2) * 4));
        fill(h_old, n, FILL_REAL);
        fill(h_fresh, n, FILL_REAL);
        CUDA_OK(cudaMemcpy(d_fresh, h_fresh, (size_t)n * 4, cudaMemcpyHostToDevice));
        if (l == 0) { /* does a dependent kernel start early here? */
            /* both kernels loaded first: the first launch of a kernel
             * (lazy loading) waits for the work in flight */
            late_writer<<<1, 32, 0, s>>>(d_in + off, d_fresh, 0, 0ull, d_stamps);
            early_observer<<<1, 32, 0, s>>>(d_stamps + 1);
            CUDA_OK(cudaGetLastError());
            CUDA_OK(cudaMemsetAsync(d_stamps, 0, 2 * sizeof(unsigned long long), s));
            late_writer<<<4, 256, 0, s>>>(d_in + off, d_fresh, n, spin_ns, d_stamps);
            cudaLaunchAttribute attr[1];
            attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
            attr[0].val.programmaticStreamSerializationAllowed = 1;
            cudaLaunchConfig_t config = {};
            config.gridDim = dim3(1);
            config.blockDim = dim3(32);
            config.stream = s;
            config.attrs = attr;
            config.numAttrs = 1;
            CUDA_OK(cudaLaunchKernelEx(&config, early_observer, d_stamps + 1));
            CUDA_OK(cudaMemcpyAsync(h_stamps, d_stamps, sizeof h_stamps, cudaMemcpyDeviceToHost, s));
            CUDA_OK(cudaStreamSynchronize(s));
            if (h_stamps[1] < h_stamps[0])
                printf("  a kernel launched after the late writer started %.1f us before the "
                       "writer's last store (programmatic dependent launch)\n",
                       (double)(h_stamps[0] - h_stamps[1]) * 1e-3);
            else
                printf("  a kernel launched after the late writer started after its last store: "
                       "no early start here, the race below is not exercised\n");
        }
        for (int in_place = 0; in_place < 2; ++in_place) {
            const int exclusive = (int)(next_u64() & 1u);
            int *dst = in_place ? d_in + off : d_out + 1;
            CUDA_OK(cudaMemcpy(d_in + off, h_old, (size_t)n * 4, cudaMemcpyHostToDevice));
            CUDA_OK(cudaMemset(d_out, 0xab, (size_t)(n + 2) * 4));
            CUDA_OK(cudaMemset(d_stamps, 0, 2 * sizeof(unsigned long long)));
            late_writer<<<4, 256, 0, s>>>(d_in + off, d_fresh, n, spin_ns, d_stamps);
            CUDA_OK(cudaGetLastError());
            GS_OK(gs_scan(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE, GS_INT32,
                          d_in + off, dst, n, s));
            CUDA_OK(cudaStreamSynchronize(s));
            int outside = 0;
            if (in_place) {
                CUDA_OK(cudaMemcpy(h_out + 1, d_in + off, (size_t)n * 4, cudaMemcpyDeviceToHost));
            } else {
                CUDA_OK(cudaMemcpy(h_out, d_out, (size_t)(n + 2) * 4, cudaMemcpyDeviceToHost));
                outside = h_out[0] != (int)0xabababab || h_out[n + 1] != (int)0xabababab;
            }
            const long long wrong =
                wrong_elements<int>(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE,
                                    h_fresh, h_out + 1, n, true, "scan behind a late writer");
            EXPECT(wrong == 0 && !outside,
                   "scan behind a late writer, n %lld, offset %d, %s, %s: %lld elements wrong%s",
                   n, off, exclusive ? "exclusive" : "inclusive", in_place ? "in place" : "apart",
                   wrong, outside ? ", a neighbour of the output written" : "");
            printf("  scan behind a late writer, n %lld, offset %d, %s, %s: %lld wrong\n", n, off,
                   exclusive ? "exclusive" : "inclusive", in_place ? "in place" : "apart", wrong);
            ++checks;
        }
        cudaFree(d_in);
        cudaFree(d_fresh);
        cudaFree(d_out);
        free(h_old);
        free(h_fresh);
        free(h_out);
    }
    cudaFree(d_stamps);
    CUDA_OK(cudaStreamDestroy(s));
    return checks;
}

/* ------------------------------------------------- managed memory */

/* gs_scan takes managed memory: input and output of cudaMallocManaged,
 * written last by the CPU (their pages on the host when the call starts;
 * the kernels skip their L2 prefetch for such an input: scan_args'
 * prefetch_input). int32 sums against the CPU (wrapping), the output
 * poisoned first, in and out apart (the output misaligned by one
 * element) and in place; one length per kernel: one block per tile (a
 * partial last tile), the tile loop and, past 32 MiB, the resident kernel. */
static int check_managed(int quick)
{
    const long long lengths[] = {(1ll << 19) - 777, 7000001, 9000011};
    const int nlen = quick ? 2 : 3;
    int checks = 0, dev = 0, managed = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, dev));
    if (!managed) {
        printf("  managed memory: not supported by this device, not checked\n");
        return 0;
    }
    for (int l = 0; l < nlen; ++l) {
        const long long n = lengths[l];
        int *in, *out;
        CUDA_OK(cudaMallocManaged((void **)&in, (size_t)n * 4));
        CUDA_OK(cudaMallocManaged((void **)&out, (size_t)(n + 2) * 4));
        int *h_in = (int *)malloc((size_t)n * 4); /* the input, kept for the reference */
        cudaStream_t s;
        CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        for (int in_place = 0; in_place < 2; ++in_place) {
            const int exclusive = (int)(next_u64() & 1u);
            int *dst = in_place ? in : out + 1;
            fill(in, n, FILL_REAL); /* on the host: the pages move there */
            for (long long i = 0; i < n + 2; ++i)
                out[i] = (int)0xdeadbeef;
            memcpy(h_in, in, (size_t)n * 4);
            GS_OK(gs_scan(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE, GS_INT32,
                          in, dst, n, s));
            CUDA_OK(cudaStreamSynchronize(s));
            const long long wrong =
                wrong_elements<int>(GS_SCAN_SUM, exclusive ? GS_SCAN_EXCLUSIVE : GS_SCAN_INCLUSIVE,
                                    h_in, dst, n, true, "managed memory");
            const int outside = !in_place && (out[0] != (int)0xdeadbeef ||
                                              out[n + 1] != (int)0xdeadbeef);
            EXPECT(wrong == 0 && !outside,
                   "managed memory, n %lld, %s, %s: %lld elements wrong%s", n,
                   exclusive ? "exclusive" : "inclusive", in_place ? "in place" : "apart", wrong,
                   outside ? ", a neighbour of the output written" : "");
            printf("  managed memory, n %lld, %s, %s: %lld wrong\n", n,
                   exclusive ? "exclusive" : "inclusive", in_place ? "in place" : "apart", wrong);
            ++checks;
        }
        CUDA_OK(cudaStreamDestroy(s));
        cudaFree(in);
        cudaFree(out);
        free(h_in);
    }
    return checks;
}

/* ------------------------------------------------------------------ main */

int main(void)
{
    const int quick = scan_test_begin("scan_prefetch");
    int checks = 0;
    checks += check_in_place_chain(quick);
    checks += check_prefetch_race(quick);
    checks += check_managed(quick);
    return scan_test_end("scan_prefetch", checks);
}
