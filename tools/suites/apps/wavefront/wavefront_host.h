/*
 * wavefront_host.h - the host side of the wavefront (wavefront.cuh, which
 * includes this file): the problem's buffers, the CPU reference, the exact
 * check and one solve of each version.
 */
#ifndef GS_BENCH_WAVEFRONT_HOST_H
#define GS_BENCH_WAVEFRONT_HOST_H

/* A problem on the device and its answer from the CPU. */
typedef struct wf_host {
    wf_problem p;
    int *h_ref, *v_ref; /* the CPU's h and v, laid out as p.h and p.v */
    int *h_got, *v_got; /* the device's, copied back by wf_check */
    int lcs;            /* L[m][n] */
} wf_host;

/* A signal set shared by every launch of the signal version: each launch
 * starts from `base`, past every value an earlier one stored. */
typedef struct wf_signals {
    gs_signals_t set;
    gs_signal_set view;
    unsigned long long base;
} wf_signals;

/* The DP on the CPU, row by row, keeping the rows and columns the device
 * writes (every band's bottom row, every tile column's right column). */
static void wf_reference(const unsigned char *a, const unsigned char *b, wf_host *w, int *row)
{
    const wf_problem *p = &w->p;
    int *prev = row, *cur = row + p->n + 1;
    memset(prev, 0, (size_t)(p->n + 1) * sizeof *prev);
    cur[0] = 0;
    for (int r = 1; r <= p->m; ++r) {
        const unsigned char ar = a[r - 1];
        for (int c = 1; c <= p->n; ++c) {
            int x = prev[c] > cur[c - 1] ? prev[c] : cur[c - 1], y = prev[c - 1] + (ar == b[c - 1]);
            cur[c] = x > y ? x : y;
        }
        for (int j = 0; j < p->tc; ++j) {
            int c = (j + 1) * WF_TW < p->n ? (j + 1) * WF_TW : p->n;
            w->v_ref[j * p->vs + r - 1] = cur[c];
        }
        if (r % WF_TH == 0 || r == p->m)
            memcpy(w->h_ref + (r - 1) / WF_TH * p->hs, cur + 1, (size_t)p->n * sizeof *cur);
        int *s = prev;
        prev = cur;
        cur = s;
    }
    w->lcs = prev[p->n];
}

/* Random chars 0 .. WF_ALPHABET - 1 (splitmix64 of seed and index), padded. */
static void wf_random(unsigned char *s, int len, int padded, int pad, unsigned long long seed)
{
    for (int i = 0; i < padded; ++i) {
        unsigned long long z = seed + 0x9e3779b97f4a7c15ull * (unsigned long long)(i + 1);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        s[i] = i < len ? (unsigned char)((z ^ (z >> 31)) % WF_ALPHABET) : (unsigned char)pad;
    }
}

static void wf_destroy(wf_host *w)
{
    cudaFree((void *)w->p.a);
    cudaFree((void *)w->p.b);
    cudaFree(w->p.h);
    cudaFree(w->p.v);
    free(w->h_ref);
    free(w->v_ref);
    free(w->h_got);
    free(w->v_got);
    memset(w, 0, sizeof *w);
}

/* Strings of lengths m and n from `seed`, on the device, and the CPU's DP. */
static gs_status wf_create(wf_host *w, int m, int n, unsigned long long seed)
{
    memset(w, 0, sizeof *w);
    if (m < 1 || n < 1 || m > (1 << 20) || n > (1 << 20))
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "wavefront: lengths %d x %d outside 1 .. 2^20",
                        m, n);
    wf_problem *p = &w->p;
    p->m = m, p->n = n;
    p->tr = (m + WF_TH - 1) / WF_TH, p->tc = (n + WF_TW - 1) / WF_TW;
    p->hs = (long long)p->tc * WF_TW, p->vs = (long long)p->tr * WF_TH;
    const size_t na = (size_t)p->vs, nb = (size_t)p->hs + WF_TW;
    const size_t nh = (size_t)p->tr * p->hs, nv = (size_t)p->tc * p->vs;
    unsigned char *a = (unsigned char *)malloc(na), *b = (unsigned char *)malloc(nb);
    int *row = (int *)malloc(2 * ((size_t)n + 1) * sizeof *row);
    w->h_ref = (int *)malloc(nh * sizeof(int)), w->v_ref = (int *)malloc(nv * sizeof(int));
    w->h_got = (int *)malloc(nh * sizeof(int)), w->v_got = (int *)malloc(nv * sizeof(int));
    gs_status st = GS_SUCCESS;
    cudaError_t err = cudaSuccess;
    if (!a || !b || !row || !w->h_ref || !w->v_ref || !w->h_got || !w->v_got)
        st = gs__fail(GS_ERR_OUT_OF_MEMORY, "wavefront: out of host memory (%d x %d)", m, n);
    if (st == GS_SUCCESS) {
        wf_random(a, m, (int)na, WF_PAD_A, seed);
        wf_random(b, n, (int)nb, WF_PAD_B, seed ^ 0x5bd1e995ull);
        err = cudaMalloc((void **)&p->a, na);
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&p->b, nb);
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&p->h, nh * sizeof(int));
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&p->v, nv * sizeof(int));
        if (err == cudaSuccess)
            err = cudaMemcpy((void *)p->a, a, na, cudaMemcpyHostToDevice);
        if (err == cudaSuccess)
            err = cudaMemcpy((void *)p->b, b, nb, cudaMemcpyHostToDevice);
        if (err != cudaSuccess)
            st = gs__cuda_fail(err, "cudaMalloc/cudaMemcpy(wavefront strings and rows)", __FILE__,
                               __LINE__);
    }
    if (st == GS_SUCCESS)
        wf_reference(a, b, w, row);
    free(a);
    free(b);
    free(row);
    if (st != GS_SUCCESS)
        wf_destroy(w);
    return st;
}

/* Every value h and v hold becomes -1 (the DP has none below 0). */
static gs_status wf_poison(wf_host *w, cudaStream_t stream)
{
    const wf_problem *p = &w->p;
    GS_CUDA_TRY(cudaMemsetAsync(p->h, 0xff, (size_t)p->tr * p->hs * sizeof(int), stream));
    GS_CUDA_TRY(cudaMemsetAsync(p->v, 0xff, (size_t)p->tc * p->vs * sizeof(int), stream));
    return GS_SUCCESS;
}

/* Compare the device's h and v (every valid value: m x tc + tr x n of
 * them) with the CPU's: `bad` mismatches, `rel` the largest relative
 * difference; GS_ERR_INTERNAL naming the first mismatch when there is one. */
static gs_status wf_check(wf_host *w, const char *what, long long *bad, double *rel)
{
    const wf_problem *p = &w->p;
    GS_CUDA_TRY(cudaMemcpy(w->h_got, p->h, (size_t)p->tr * p->hs * sizeof(int),
                           cudaMemcpyDeviceToHost));
    GS_CUDA_TRY(cudaMemcpy(w->v_got, p->v, (size_t)p->tc * p->vs * sizeof(int),
                           cudaMemcpyDeviceToHost));
    char first[128] = "";
    *bad = 0, *rel = 0.0;
    for (int pass = 0; pass < 2; ++pass) {
        const int lines = pass ? p->tc : p->tr, len = pass ? p->m : p->n;
        const long long stride = pass ? p->vs : p->hs;
        const int *got = pass ? w->v_got : w->h_got, *ref = pass ? w->v_ref : w->h_ref;
        for (int x = 0; x < lines; ++x)
            for (int y = 0; y < len; ++y) {
                const int g = got[x * stride + y], e = ref[x * stride + y];
                if (g == e)
                    continue;
                if ((*bad)++ == 0)
                    snprintf(first, sizeof first, "%s[%d][%d] = %d, expected %d",
                             pass ? "right column" : "bottom row", x, y, g, e);
                double d = (double)(g > e ? g - e : e - g) / (e > 1 ? e : 1);
                *rel = d > *rel ? d : *rel;
            }
    }
    if (*bad)
        return gs__fail(GS_ERR_INTERNAL,
                        "wavefront %s, %d x %d: %lld values differ from the CPU's DP (first: %s)",
                        what, p->m, p->n, *bad, first);
    return GS_SUCCESS;
}

/* ------------------------------------------------------ one solve each */

static gs_status wf_solve_signals(const wf_host *w, wf_signals *s, int blocks, cudaStream_t stream)
{
    wf_problem p = w->p;
    void *args[] = {&p, &s->view, &s->base};
    GS_TRY(gs_launch((const void *)wf_signal_kernel, dim3((unsigned int)blocks), dim3(64), 0,
                     stream, args, NULL));
    /* the most tiles a block finishes: the next launch starts past them */
    s->base += (unsigned long long)((p.tr + blocks - 1) / blocks) * (unsigned long long)p.tc;
    return GS_SUCCESS;
}

static gs_status wf_solve_barrier(const wf_host *w, gs_barrier_t bar, const gs_grid_barrier *view,
                                  int blocks, cudaStream_t stream)
{
    wf_problem p = w->p;
    gs_grid_barrier v = *view;
    void *args[] = {&p, &v};
    return gs_launch((const void *)wf_barrier_kernel, dim3((unsigned int)blocks), dim3(32), 0,
                     stream, args, bar);
}

/* Whether the relaunch kernels can be chained by programmatic dependent
 * launch here: a device of compute capability 9.0 or later running the
 * kernel's sm_90 (or later) code. A build without it runs older PTX there,
 * whose kernel has no griddepcontrol.wait: launched with the attribute it
 * would read its inputs before the previous diagonal ended. */
static gs_status wf_pdl_supported(int *yes)
{
    return gs_pdl_overlaps((const void *)wf_diagonal_kernel, yes);
}

/* One kernel per anti-diagonal on `stream`; `pdl` (only where
 * wf_pdl_supported says so): each launched with programmatic stream
 * serialization, so that it starts while the one before drains. */
static gs_status wf_solve_relaunch(const wf_host *w, int pdl, cudaStream_t stream)
{
    wf_problem p = w->p;
    for (int d = 0; d < p.tr + p.tc - 1; ++d) {
        const int lo = d - p.tc + 1 > 0 ? d - p.tc + 1 : 0, hi = d < p.tr - 1 ? d : p.tr - 1;
        void *args[] = {&p, &d};
        GS_TRY(peer_pdl_launch((const void *)wf_diagonal_kernel,
                               dim3((unsigned int)(hi - lo + 1)), dim3(32), stream, args, pdl));
    }
    return GS_SUCCESS;
}

/* The grids: the signal version one block per band, the full-barrier
 * version one block per tile of the longest diagonal, each at most the
 * co-resident maximum of its kernel. */
static gs_status wf_grids(const wf_problem *p, int *signal_blocks, int *barrier_blocks)
{
    int most_s = 0, most_b = 0;
    GS_TRY(gs_max_coresident_blocks((const void *)wf_signal_kernel, 64, 0, &most_s));
    GS_TRY(gs_max_coresident_blocks((const void *)wf_barrier_kernel, 32, 0, &most_b));
    const int longest = p->tr < p->tc ? p->tr : p->tc;
    *signal_blocks = p->tr < most_s ? p->tr : most_s;
    *barrier_blocks = longest < most_b ? longest : most_b;
    return GS_SUCCESS;
}

#endif
