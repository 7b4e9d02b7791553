/*
 * scan_direct.h - the scan kernels launched directly, without gs_scan (for
 * tests/gpu/test_scan_kernels.cu and test_scan_faults.cu): the bandwidth
 * tiling's register and resident kernels, whether this GPU runs the
 * resident one, the workspace a direct launch needs, and two kernels of one
 * tiling compared bit for bit.
 */
#ifndef GS_SCAN_DIRECT_H
#define GS_SCAN_DIRECT_H

#include <gridsync/detail/scan/resident_scan.cuh>
#include <gridsync/detail/scan/single_pass_scan.cuh>
#include <gridsync/detail/scan/single_tile_scan.cuh>

#include "scan_test.h"

typedef gs::detail::scan_policy<float, gs::detail::scan_bandwidth> bandwidth_f32;
typedef gs::detail::scan_policy<int, gs::detail::scan_bandwidth> bandwidth_i32;

/* Launch the bandwidth tiling's register or resident kernel of Op on
 * `blocks` blocks (the resident one with its shared memory allowed). */
template <class Op>
static void launch_bandwidth(bool resident, unsigned int blocks, const gs::detail::scan_args &a)
{
    typedef gs::detail::scan_policy<typename Op::value_type, gs::detail::scan_bandwidth> policy;
    if (!resident) {
        gs::detail::single_pass_scan_kernel<policy, Op><<<blocks, policy::threads>>>(a);
        return;
    }
    const int smem = gs::detail::scan_resident_bytes<policy, typename Op::value_type>();
    CUDA_OK(cudaFuncSetAttribute(gs::detail::single_pass_scan_resident_kernel<policy, Op>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    gs::detail::single_pass_scan_resident_kernel<policy, Op>
        <<<blocks, gs::detail::scan_resident_threads<policy>(), smem>>>(a);
}

/* Whether this GPU runs the resident kernel (sm_90 and later, with code
 * built for it: src/scan/scan.cu's kernel_shape asks the same); where it
 * does not, the library never selects it and its direct cases are skipped. */
static inline bool resident_runs(void)
{
    int device = 0, major = 0;
    cudaFuncAttributes attr;
    CUDA_OK(cudaGetDevice(&device));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_OK(cudaFuncGetAttributes(
        &attr, gs::detail::single_pass_scan_resident_kernel<bandwidth_f32, gs::sum<float>>));
    return major >= 9 && attr.ptxVersion >= 90;
}

/* What a direct launch of the bandwidth kernels needs beside its data (the
 * library's workspace holds the same, src/scan/scan.cu): descriptors for
 * `tiles` tiles and the look-back window past them, zeroed; the four
 * counter words (ticket, abort, blocks out, abort's call), the ticket set
 * to `ticket`; and a fault record the host reads while the kernel runs. */
struct direct_workspace {
    unsigned long long *desc;
    unsigned int *counters;
    unsigned int *fault;   /* host view of the record */
    unsigned int *d_fault; /* the device's view of it */
};

static inline direct_workspace direct_workspace_make(long long tiles, unsigned int ticket)
{
    direct_workspace w;
    const size_t desc_bytes = (size_t)(tiles + 64) * 64;
    const unsigned int start[4] = {ticket, 0u, 0u, 0u};
    CUDA_OK(cudaMalloc((void **)&w.desc, desc_bytes));
    CUDA_OK(cudaMalloc((void **)&w.counters, sizeof start));
    CUDA_OK(cudaHostAlloc((void **)&w.fault, GS_FAULT_WORDS * 4, cudaHostAllocMapped));
    CUDA_OK(cudaHostGetDevicePointer((void **)&w.d_fault, w.fault, 0));
    memset(w.fault, 0, GS_FAULT_WORDS * 4);
    CUDA_OK(cudaMemset(w.desc, 0, desc_bytes));
    CUDA_OK(cudaMemcpy(w.counters, start, sizeof start, cudaMemcpyHostToDevice));
    return w;
}

static inline void direct_workspace_free(direct_workspace *w)
{
    CUDA_OK(cudaFree(w->desc));
    CUDA_OK(cudaFree(w->counters));
    CUDA_OK(cudaFreeHost(w->fault));
}

/* Two kernels of one tiling launched directly (`launch`: kernel 0, the
 * reference, or 1, on `blocks[k]` blocks) must give the same bits: n
 * elements of Op's type from `h_in` at `in_offset` (in place when
 * `in_place`), outputs poisoned first; kernel 1 must write every element
 * and nothing past n, and no look-back may give up (time-out 2 s). */
struct kernel_pair {
    const char *names[2];
    void (*launch)(int k, unsigned int blocks, const gs::detail::scan_args &a);
    unsigned int blocks[2];
};

template <class Policy, class Op>
static int same_bits_case(const kernel_pair &pair, const typename Op::value_type *h_in,
                          long long n, int in_offset, bool in_place, int exclusive,
                          const char *what, int out_offset = -1)
{
    if (out_offset < 0 || in_place)
        out_offset = in_offset;
    typedef typename Op::value_type T;
    const long long tiles = (n + Policy::tile_items - 1) / Policy::tile_items;
    const size_t bytes = (size_t)(n + (in_offset > out_offset ? in_offset : out_offset) + GUARD) *
                         sizeof(T);
    char *d_in, *d_out[2], *h_out[2];
    CUDA_OK(cudaMalloc((void **)&d_in, bytes));
    direct_workspace w = direct_workspace_make(tiles, 0u);
    for (int k = 0; k < 2; ++k) {
        CUDA_OK(cudaMalloc((void **)&d_out[k], bytes));
        h_out[k] = (char *)malloc(bytes);
        T *src = (T *)d_in + in_offset;
        T *dst = in_place ? src : (T *)d_out[k] + out_offset;
        CUDA_OK(cudaMemset(d_in, 0xff, bytes));
        CUDA_OK(cudaMemset(d_out[k], 0xff, bytes));
        CUDA_OK(cudaMemcpy(src, h_in, (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
        gs::detail::scan_args a = {src, dst, n, w.desc, w.counters, w.d_fault, 2000000000ull,
                                   1u + k, (unsigned int)tiles, exclusive, 1};
        pair.launch(k, pair.blocks[k], a);
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(h_out[k], in_place ? d_in : d_out[k], bytes, cudaMemcpyDeviceToHost));
    }
    const size_t at = (size_t)out_offset * sizeof(T), used = (size_t)n * sizeof(T);
    long long poisoned = 0;
    for (long long i = 0; i < n; ++i) /* a scan of these inputs never gives all-ones bits */
        poisoned += ((const unsigned int *)(h_out[1] + at))[i * sizeof(T) / 4] == 0xffffffffu;
    int touched = 0;
    for (size_t i = at + used; i < bytes; ++i)
        touched += (unsigned char)h_out[1][i] != 0xffu;
    EXPECT(memcmp(h_out[0] + at, h_out[1] + at, used) == 0,
           "%s, %s (n=%lld, in+%d, out+%d%s, %s, %u blocks): not the bits of the %s on %u",
           pair.names[1], what, n, in_offset, out_offset, in_place ? ", in place" : "",
           exclusive ? "exclusive" : "inclusive", pair.blocks[1], pair.names[0], pair.blocks[0]);
    EXPECT(w.fault[0] == 0u, "%s, %s: a look-back gave up (time-out 2 s), tile %u",
           pair.names[1], what, w.fault[2]);
    EXPECT(poisoned == 0, "%s, %s: %lld elements left unwritten", pair.names[1], what, poisoned);
    EXPECT(touched == 0, "%s, %s: %d bytes past the end written", pair.names[1], what, touched);
    for (int k = 0; k < 2; ++k) {
        cudaFree(d_out[k]);
        free(h_out[k]);
    }
    cudaFree(d_in);
    direct_workspace_free(&w);
    return 3;
}

#endif
