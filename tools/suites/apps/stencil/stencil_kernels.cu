/*
 * stencil_kernels.cu - the 2-D heat stencil's kernels and how each
 * version picks its grid (stencil.h). The persistent kernels are the
 * bodies of stencil_body.cuh (how they work and why they are correct:
 * there) with gridsync's neighbour barrier or cooperative groups'
 * grid.sync(): the same tiling, the same grid rule for the same field, so
 * that the barrier is the only difference.
 */
#include <cooperative_groups.h>

#include <gridsync/halo.cuh>
#include <gridsync/neighbour.cuh>
#include <gridsync/tagged.cuh>

#include "gridsync_internal.h"
#include "suites/apps/stencil/stencil.h"

namespace cg = cooperative_groups;

/* Threads of the persistent blocks and blocks a SM: on chip one block of
 * up to 1024 (onchip_threads; its tile uses the SM's shared memory); in
 * global memory GLOBAL_PER_SM blocks of GLOBAL_THREADS, every SM full
 * (32 registers, no spills). Measured on H200 (docs/apps-stencil.md, us a
 * step at 2^22 / 2^24 / 2^26 cells, interleaved row groups, alternating
 * direction): 1024 x 1 14.1 / 66.7 / 287; 512 x 4 10.6 / 47.0 / 189;
 * 1024 x 2 12.2 / 46.1 / 184; 256 x 8 12.7 / 48.8 / 197. The relaunched
 * kernel's block: 32 x 8. */
enum { ONCHIP_THREADS = 1024, GLOBAL_THREADS = 512, GLOBAL_PER_SM = 4, STEP_X = 32,
       STEP_Y = 8 };

/* The neighbour version runs a field of up to this many cells on one block:
 * then it has no neighbour, gs_neighbour_sync_2d is a block barrier, and a
 * step of 2^14 cells (16 a thread) costs less than one barrier between
 * blocks (about 1 us on an H200, docs/scoped-sync.md). grid.sync costs that
 * microsecond even on one block, so its version always spreads the field. */
#define ONE_BLOCK_MAX_CELLS (1 << 14)
/* The tagged halo's exchange costs less than a neighbour barrier (0.85-0.98
 * against 1.14-1.49 us in bench sync on H200), so its version spreads the
 * field from fewer cells: one block up to 2^12 cells
 * (1.11 us a step on H200, 256 threads; 2^14 cells on one block: 1.98).
 * Above that, one block per TAGGED_CELLS_PER_BLOCK cells (tiles of about
 * 32 x 32), at most one per SM: a block adds an exchange with its
 * neighbours, and a smaller tile computes less than that exchange costs.
 * Measured on H200 (docs/apps-stencil.md, us a step, 16 / 32 / 64 / 132
 * blocks, before the early gets): 2^14 cells 1.07 / 1.07 / 1.16 / 1.27;
 * 2^16 1.43 / 1.27 / 1.08 / 1.19; 2^18 2.30 / 1.77 / 1.42 / 1.29. */
#define TAGGED_ONE_BLOCK_MAX_CELLS (1 << 12)
#define TAGGED_CELLS_PER_BLOCK 1024

const char *const gs_stencil_method_names[GS_STENCIL_NMETHODS] = {
    "gridsync neighbour", "gridsync tagged halo", "gridsync halo", "cg grid.sync",
    "relaunch graph", "relaunch stream", "relaunch graph + PDL", "relaunch stream + PDL"};

struct neighbour_sync {
    gs_grid_barrier *bar;
    __device__ __forceinline__ void operator()() const { gs_neighbour_sync_2d(bar, 0u); }
};

/* The global-memory body's ring of blocks (gs_stencil_global_body). */
struct ring_sync {
    gs_grid_barrier *bar;
    __device__ __forceinline__ void operator()() const
    {
        gs_neighbour_sync_1d(bar, GS_NEIGHBOURS_WRAP);
    }
};

struct grid_sync {
    __device__ __forceinline__ void operator()() const { cg::this_grid().sync(); }
};

/* The on-chip body's edges in tagged words (gridsync/tagged.cuh): a
 * neighbour's edge of step s - 1 is read by polling for its tag, early (the
 * body's pollers, during step s - 1's interior; try_get: one look, so that
 * a poller's loads are in flight together); nothing between steps. Why that
 * is correct: at gs_stencil_onchip_body. */
struct tagged_halo {
    static constexpr bool early_gets = true;
    gs_tagged_word *words;
    const gs_grid_barrier *bar;
    unsigned int tag0;
    __device__ __forceinline__ void put(size_t at, float v, int s) const
    {
        gs_tagged_put_f32(words + at, v, tag0 + (unsigned int)s + 1u);
    }
    __device__ __forceinline__ int get(size_t at, int s, int from, float *v) const
    {
        return gs_tagged_get_f32(bar, words + at, tag0 + (unsigned int)s, (unsigned int)from, v);
    }
    __device__ __forceinline__ int try_get(size_t at, int s, float *v) const
    {
        const unsigned long long w = gs__ld_relaxed_gpu_u64(words + at);
        if ((unsigned int)(w >> 32) != tag0 + (unsigned int)s)
            return 0;
        *v = __uint_as_float((unsigned int)w);
        return 1;
    }
    __device__ __forceinline__ void ring_done(int gave_up) const { gs_block_leave_if(gave_up); }
    __device__ __forceinline__ void step_done() const {}
};

/* Persistent, tiles in shared memory (2 * (tile_h + 2) * (tile_w + 2) floats). */
template <gs_stencil_method M>
static __global__ void __launch_bounds__(ONCHIP_THREADS, 1)
    stencil_onchip(gs_grid_barrier bar, gs_stencil_field f)
{
    extern __shared__ float smem[];
    const int bx = (int)blockIdx.x, by = (int)blockIdx.y;
    if constexpr (M == GS_STENCIL_NEIGHBOUR)
        gs_stencil_onchip_body(f, bx, by, smem,
                               gs_stencil_barrier_halo<neighbour_sync>{f.halo, {&bar}});
    else if constexpr (M == GS_STENCIL_TAGGED)
        gs_stencil_onchip_body(f, bx, by, smem, tagged_halo{f.tagged, &bar, f.tag0});
    else
        gs_stencil_onchip_body(f, bx, by, smem, gs_stencil_barrier_halo<grid_sync>{f.halo, {}});
}

/* Persistent, field in global memory: GLOBAL_PER_SM blocks a SM (32
 * registers) where a SM holds 2048 threads (sm_80, sm_90, sm_100); two on
 * the others (1024 or 1536 threads a SM: four blocks of 512 are out of
 * range there and fail the build). The host asks the occupancy API how many
 * fit (plan_global). The bound's block size also lets the compiler keep
 * the walk's indices in 32 registers: __maxnreg__(32) alone spilled 16
 * words where this spills 3 (sm_90 SASS). */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || \
    __CUDA_ARCH__ == 1000 || __CUDA_ARCH__ == 1030
#define GS_STENCIL_GLOBAL_BOUNDS __launch_bounds__(GLOBAL_THREADS, GLOBAL_PER_SM)
#else
#define GS_STENCIL_GLOBAL_BOUNDS __launch_bounds__(GLOBAL_THREADS, 2)
#endif
template <bool Neighbour>
static __global__ void GS_STENCIL_GLOBAL_BOUNDS
    stencil_global(gs_grid_barrier bar, gs_stencil_field f)
{
    if constexpr (Neighbour)
        gs_stencil_global_body(f, (int)blockIdx.x, (int)gridDim.x, ring_sync{&bar});
    else
        gs_stencil_global_body(f, (int)blockIdx.x, (int)gridDim.x, grid_sync{});
}

/*
 * The relaunch peers' step: one thread a cell, 32 x 8 blocks (a warp reads
 * a row segment, coalesced; the rows above and below are the neighbouring
 * warps' and come from L1/L2).
 * Why correct: the kernel boundary orders step s's writes before step
 * s + 1's reads; within a launch src is never written, so the read-only
 * path (const __restrict__) is safe here, as it is not in the persistent
 * kernels.
 * When: the usual way; a step costs a launch (about 1.3 us inside a graph
 * on an H200) plus a pass over the field in memory.
 */
static __global__ void __launch_bounds__(STEP_X *STEP_Y)
    stencil_step(const float *__restrict__ src, float *__restrict__ dst, int w, int h)
{
    const int x = (int)(blockIdx.x * STEP_X + threadIdx.x);
    const int y = (int)(blockIdx.y * STEP_Y + threadIdx.y);
    if (x < w && y < h)
        dst[(size_t)y * (size_t)w + (size_t)x] = gs_stencil_at(src, w, h, x, y);
}

/*
 * The PDL peers' step: the same kernel, launched with programmatic dependent
 * launch (cudaLaunchAttributeProgrammaticStreamSerialization): each step's
 * grid may start while the one before still runs, and waits for it only
 * where it must.
 * How: cudaTriggerProgrammaticLaunchCompletion() first, so the next step's
 * grid is launched as early as possible (its blocks take SM slots as this
 * grid's leave); then cudaGridDependencySynchronize() before any access
 * to the field, then the cell.
 * Why correct: the wait returns once the step before has completed and its
 * writes are visible (the programming guide's guarantee for the primary
 * grid); that step waited for its own predecessor, so every earlier step is
 * complete too: the reads of src (step s - 1's output) see it, and the
 * write of dst (what step s - 1 read) follows those reads. Plain loads, not
 * the read-only path: the grid starts before its input is written.
 * When: the strongest boundary a relaunched stencil has (docs/apps.md:
 * faster than the plain graph up to 2^18 cells on H200, slower from 2^20,
 * where early blocks take SM slots from the running grid).
 */
static __global__ void __launch_bounds__(STEP_X *STEP_Y)
    stencil_step_pdl(const float *src, float *dst, int w, int h)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaTriggerProgrammaticLaunchCompletion();
    cudaGridDependencySynchronize();
#endif
    const int x = (int)(blockIdx.x * STEP_X + threadIdx.x);
    const int y = (int)(blockIdx.y * STEP_Y + threadIdx.y);
    if (x < w && y < h)
        dst[(size_t)y * (size_t)w + (size_t)x] = gs_stencil_at(src, w, h, x, y);
}

/*
 * The halo version: the tagged-halo pattern as a user writes it on
 * gridsync/halo.cuh (how it works and why it is correct: there), nothing of
 * the bench's own code but the cell. The same grid rule and block size as
 * the tagged version, so that the two compare the API with the expert body.
 * The interior goes by column strips (gs_halo_strips), each walked down by
 * the stencil's own column (gs_stencil_strip, the math as the tagged
 * version has it: the cells above and at the current one in registers,
 * three shared loads a cell, four rows' loads ahead of their stores).
 */
static __global__ void __launch_bounds__(ONCHIP_THREADS, 1)
    stencil_halo(gs_grid_barrier bar, gs_halo halo, const float *u0, float *out, int steps)
{
    extern __shared__ float smem[];
    gs_halo_tile t;
    gs_halo_begin_f32(&t, &bar, &halo, smem, steps);
    gs_halo_load_f32(&t, u0);
    const int S = t.stride;
    for (int s = 0; s < steps; ++s) {
        const float *c = gs_halo_cur_f32(&t);
        float *n = gs_halo_nxt_f32(&t);
        for (int e = t.thread; e < t.edges; e += t.threads) { /* edges first: they travel */
            int x, y;
            gs_halo_edge_cell(&t, e, &x, &y);
            const float *p = c + gs_halo_at(&t, x, y);
            gs_halo_put_f32(&t, x, y, gs_stencil_cell(p[0], p[-S], p[S], p[-1], p[1]));
        }
        for (gs_halo_strip st = gs_halo_strips(&t); st.item < st.items; gs_halo_strip_next(&t, &st)) {
            const int col = gs_halo_at(&t, st.x, -1); /* the column, row -1 (the ring) on */
            gs_stencil_strip(c + col, n + col, S, st.y, st.end);
        }
        gs_halo_exchange_f32(&t); /* the next ring arrives while the interior runs */
    }
    gs_halo_store_f32(&t, out);
    gs_halo_end(&t);
}

static int persistent(gs_stencil_method m)
{
    return m == GS_STENCIL_NEIGHBOUR || m == GS_STENCIL_TAGGED || m == GS_STENCIL_HALO ||
           m == GS_STENCIL_GRID_SYNC;
}

/* gridsync's versions: the ones with a gridsync barrier (launch, watchdog). */
static int ours(gs_stencil_method m)
{
    return m == GS_STENCIL_NEIGHBOUR || m == GS_STENCIL_TAGGED || m == GS_STENCIL_HALO;
}

static int pdl(gs_stencil_method m)
{
    return m == GS_STENCIL_GRAPH_PDL || m == GS_STENCIL_STREAM_PDL;
}

/* Threads of an on-chip block: about 16 cells a thread, 256 to 1024 (a
 * step's fixed cost grows with the block's warps, its compute shrinks).
 * Measured on H100 with the tagged halo (us a step, 256 / 512 / 1024
 * threads): 2^16 cells, 500 a tile: 1.21 / 1.25 / 1.56; 2^18, 2000 a tile:
 * 1.40 / 1.43 / 1.68; 2^20, 8000 a tile: 3.25 / 2.27 / 2.49. */
static int onchip_threads(int tile_cells)
{
    int t = (tile_cells / 16 + 31) / 32 * 32;
    return t < 256 ? 256 : t > ONCHIP_THREADS ? ONCHIP_THREADS : t;
}

/* The tagged halo's words: the same edges as the float halo, 8 bytes each. */
static size_t tagged_bytes(const gs_stencil_field *f)
{
    return sizeof(gs_tagged_word) * gs_stencil_halo_floats(f->w, f->h, f->gx, f->gy);
}

/* The tiles on shared memory for `want` blocks, if they fit (co-resident,
 * within the per-block opt-in): sets r->kernel, grid, block, smem. */
static gs_status try_onchip(gs_stencil_run *r, int want, int *fits)
{
    gs_stencil_field *f = &r->f;
    int dev = 0, optin = 0, most = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    GS_TRY(gs_halo_split_2d(f->w, f->h, want, &f->gx, &f->gy));
    f->tile_w = (f->w + f->gx - 1) / f->gx;
    f->tile_h = (f->h + f->gy - 1) / f->gy;
    r->smem = 2u * sizeof(float) * (size_t)(f->tile_w + 2) * (size_t)(f->tile_h + 2);
    r->kernel = r->method == GS_STENCIL_NEIGHBOUR ? (const void *)stencil_onchip<GS_STENCIL_NEIGHBOUR>
                : r->method == GS_STENCIL_TAGGED  ? (const void *)stencil_onchip<GS_STENCIL_TAGGED>
                                                  : (const void *)stencil_onchip<GS_STENCIL_GRID_SYNC>;
    r->block = dim3((unsigned int)onchip_threads(f->tile_w * f->tile_h));
    r->grid = dim3((unsigned int)f->gx, (unsigned int)f->gy);
    *fits = r->smem <= (size_t)optin;
    if (!*fits)
        return GS_SUCCESS;
    GS_CUDA_TRY(cudaFuncSetAttribute(r->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)r->smem));
    GS_TRY(gs_max_coresident_blocks(r->kernel, (int)r->block.x, r->smem, &most));
    *fits = most >= f->gx * f->gy;
    return GS_SUCCESS;
}

/* Interleaved groups of whole rows (gs_stencil_global_body): every SM
 * full, at most one block a group. */
static gs_status plan_global(gs_stencil_run *r, int blocks, int sms)
{
    gs_stencil_field *f = &r->f;
    int most = 0;
    r->kernel = r->method == GS_STENCIL_NEIGHBOUR ? (const void *)stencil_global<true>
                                                  : (const void *)stencil_global<false>;
    GS_TRY(gs_max_coresident_blocks(r->kernel, GLOBAL_THREADS, 0, &most));
    const int rows = gs_stencil_group_rows(f->w, GLOBAL_THREADS);
    const int groups = (f->h + rows - 1) / rows;
    int want = blocks ? blocks : sms * GLOBAL_PER_SM < most ? sms * GLOBAL_PER_SM : most;
    if (want > most)
        return gs__fail(GS_ERR_NOT_CORESIDENT,
                        "stencil: %d blocks of the global-memory kernel requested, at most %d "
                        "fit", want, most);
    f->gx = 1;
    f->gy = want < groups ? want : groups;
    f->tile_w = f->tile_h = 0; /* no tiles: the body walks row groups */
    r->onchip = 0;
    r->smem = 0;
    r->block = dim3(GLOBAL_THREADS);
    r->grid = dim3((unsigned int)f->gy);
    return GS_SUCCESS;
}

/* The on-chip grid each persistent version takes for `cells` cells unless
 * told (the rules and their measurements: the comments at
 * ONE_BLOCK_MAX_CELLS and TAGGED_ONE_BLOCK_MAX_CELLS): grid.sync one block
 * per SM; the neighbour barrier one block up to ONE_BLOCK_MAX_CELLS, then
 * one per SM; the tagged halo one block up to TAGGED_ONE_BLOCK_MAX_CELLS,
 * then one per TAGGED_CELLS_PER_BLOCK cells, at most one per SM. */
static int onchip_blocks(gs_stencil_method m, long long cells, int sms)
{
    if (m != GS_STENCIL_TAGGED && m != GS_STENCIL_HALO)
        return ours(m) && cells <= ONE_BLOCK_MAX_CELLS ? 1 : sms;
    if (cells <= TAGGED_ONE_BLOCK_MAX_CELLS)
        return 1;
    const long long per_tile = cells / TAGGED_CELLS_PER_BLOCK;
    return per_tile < sms ? (int)per_tile : sms;
}

/* The halo version: the tagged version's grid (onchip_blocks), the tiles
 * from gs_halo_split_2d, the shared memory from the halo; on chip only. */
static gs_status plan_halo(gs_stencil_run *r, int blocks, int mode)
{
    gs_stencil_field *f = &r->f;
    int dev = 0, sms = 0, optin = 0, most = 0;
    if (mode == GS_STENCIL_GLOBAL)
        return gs__fail(GS_ERR_NOT_CORESIDENT, "stencil: the halo runs only with the tiles on "
                        "chip");
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    const int want = blocks ? blocks : onchip_blocks(r->method, (long long)f->w * f->h, sms);
    GS_TRY(gs_halo_split_2d(f->w, f->h, want, &f->gx, &f->gy));
    f->tile_w = (f->w + f->gx - 1) / f->gx;
    f->tile_h = (f->h + f->gy - 1) / f->gy;
    GS_TRY(gs_halo_create_2d(&r->halo, f->w, f->h, f->gx, f->gy, GS_FLOAT32));
    GS_TRY(gs_halo_device(r->halo, &r->halo_view));
    GS_TRY(gs_halo_shared_bytes(r->halo, &r->smem));
    r->kernel = (const void *)stencil_halo;
    r->block = dim3((unsigned int)onchip_threads(f->tile_w * f->tile_h));
    r->grid = dim3((unsigned int)f->gx, (unsigned int)f->gy);
    r->onchip = 1;
    if (r->smem <= (size_t)optin) {
        GS_CUDA_TRY(cudaFuncSetAttribute(r->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)r->smem));
        GS_TRY(gs_max_coresident_blocks(r->kernel, (int)r->block.x, r->smem, &most));
    }
    if (most < f->gx * f->gy)
        return gs__fail(GS_ERR_NOT_CORESIDENT,
                        "stencil: %d x %d tiles of %d x %d cells need %zu bytes of shared "
                        "memory a block; they do not fit on %d co-resident blocks",
                        f->gx, f->gy, f->tile_w, f->tile_h, r->smem, f->gx * f->gy);
    return GS_SUCCESS;
}

static gs_status plan_persistent(gs_stencil_run *r, int blocks, int mode)
{
    gs_stencil_field *f = &r->f;
    if (r->method == GS_STENCIL_HALO)
        return plan_halo(r, blocks, mode);
    if (r->method == GS_STENCIL_TAGGED && mode == GS_STENCIL_GLOBAL)
        return gs__fail(GS_ERR_NOT_CORESIDENT, "stencil: the tagged halo runs only with the "
                        "tiles on chip");
    int dev = 0, sms = 0;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (mode != GS_STENCIL_GLOBAL) {
        int fits = 0,
            want = blocks ? blocks : onchip_blocks(r->method, (long long)f->w * f->h, sms);
        GS_TRY(try_onchip(r, want, &fits));
        if (fits && r->method == GS_STENCIL_TAGGED) { /* tag 0, never waited for */
            r->onchip = 1;
            GS_CUDA_TRY(cudaMalloc((void **)&f->tagged, tagged_bytes(f)));
            GS_CUDA_TRY(cudaMemset(f->tagged, 0, tagged_bytes(f)));
            f->tag0 = 0u;
            return GS_SUCCESS;
        }
        if (fits) { /* the halo, poisoned: a ring read before its write is NaN */
            const size_t bytes = sizeof(float) * gs_stencil_halo_floats(f->w, f->h, f->gx, f->gy);
            r->onchip = 1;
            GS_CUDA_TRY(cudaMalloc((void **)&f->halo, bytes));
            GS_CUDA_TRY(cudaMemset(f->halo, 0xff, bytes));
            return GS_SUCCESS;
        }
        if (mode == GS_STENCIL_ONCHIP || r->method == GS_STENCIL_TAGGED)
            return gs__fail(GS_ERR_NOT_CORESIDENT,
                            "stencil: %d x %d tiles of %d x %d cells need %zu bytes of shared "
                            "memory a block; they do not fit on %d co-resident blocks",
                            f->gx, f->gy, f->tile_w, f->tile_h, r->smem, f->gx * f->gy);
    }
    return plan_global(r, blocks, sms);
}

gs_status gs_stencil_setup(gs_stencil_run *r, gs_stencil_method method,
                           const gs_stencil_field *field, int blocks, int mode)
{
    if (!r || !field || (int)method < 0 || method >= GS_STENCIL_NMETHODS || field->w < 1 ||
        field->h < 1 || (long long)field->w * field->h >= (1ll << 31) || field->steps < 1 ||
        blocks < 0 || !field->u0 || !field->out)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "stencil: bad setup");
    *r = gs_stencil_run{};
    r->method = method;
    r->f = *field;
    r->f.halo = NULL;
    r->f.tagged = NULL;
    if (!persistent(method)) {
        r->block = dim3(STEP_X, STEP_Y);
        r->grid = dim3((unsigned int)((field->w + STEP_X - 1) / STEP_X),
                       (unsigned int)((field->h + STEP_Y - 1) / STEP_Y));
        r->kernel = pdl(method) ? (const void *)stencil_step_pdl : (const void *)stencil_step;
        return GS_SUCCESS;
    }
    gs_status st = plan_persistent(r, blocks, mode);
    if (st == GS_SUCCESS && ours(method)) {
        st = gs_barrier_create(&r->bar, GS_BARRIER_AUTO);
        if (st == GS_SUCCESS)
            st = gs_barrier_device(r->bar, r->grid.x * r->grid.y, &r->view);
    }
    if (st != GS_SUCCESS)
        gs_stencil_release(r);
    return st;
}

/* The PDL peers' steps: each launch with the programmatic-stream-
 * serialization attribute (stencil_step_pdl says why that is correct). */
static gs_status enqueue_pdl(gs_stencil_run *r, cudaStream_t stream)
{
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = r->grid;
    config.blockDim = r->block;
    config.stream = stream;
    config.attrs = attr;
    config.numAttrs = 1;
    for (int s = 0; s < r->f.steps; ++s) {
        const float *src;
        float *dst;
        gs_stencil_buffers(r->f, s, &src, &dst);
        GS_CUDA_TRY(cudaLaunchKernelEx(&config, stencil_step_pdl, src, dst, r->f.w, r->f.h));
    }
    return GS_SUCCESS;
}

gs_status gs_stencil_enqueue(void *p, cudaStream_t stream)
{
    gs_stencil_run *r = (gs_stencil_run *)p;
    if (pdl(r->method))
        return enqueue_pdl(r, stream);
    if (r->method == GS_STENCIL_HALO) { /* the halo's epochs carry the tags on: no reset */
        void *args[] = {&r->view, &r->halo_view, &r->f.u0, &r->f.out, &r->f.steps};
        return gs_launch(r->kernel, r->grid, r->block, r->smem, stream, args, r->bar);
    }
    if (!persistent(r->method)) {
        for (int s = 0; s < r->f.steps; ++s) {
            const float *src;
            float *dst;
            gs_stencil_buffers(r->f, s, &src, &dst);
            stencil_step<<<r->grid, r->block, 0, stream>>>(src, dst, r->f.w, r->f.h);
        }
        GS_CUDA_TRY(cudaGetLastError());
        return GS_SUCCESS;
    }
    if (r->method == GS_STENCIL_TAGGED) {
        /* this solve's tags follow the last one's; before they would wrap,
         * the words go back to tag 0 */
        if (r->f.tag0 > 0xffffffffu - (unsigned int)r->f.steps) {
            GS_CUDA_TRY(cudaMemsetAsync(r->f.tagged, 0, tagged_bytes(&r->f), stream));
            r->f.tag0 = 0u;
        }
        void *args[] = {&r->view, &r->f};
        gs_status st = gs_launch(r->kernel, r->grid, r->block, r->smem, stream, args, r->bar);
        r->f.tag0 += (unsigned int)r->f.steps;
        return st;
    }
    void *args[] = {&r->view, &r->f};
    if (r->method == GS_STENCIL_NEIGHBOUR)
        return gs_launch(r->kernel, r->grid, r->block, r->smem, stream, args, r->bar);
    GS_CUDA_TRY(cudaLaunchCooperativeKernel(r->kernel, r->grid, r->block, args, r->smem, stream));
    return GS_SUCCESS;
}

gs_status gs_stencil_check(gs_stencil_run *r, cudaStream_t stream)
{
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    if (r->bar)
        return gs_barrier_check(r->bar, stream);
    GS_CUDA_TRY(cudaGetLastError());
    return GS_SUCCESS;
}

int gs_stencil_blocks(const gs_stencil_run *r) { return (int)(r->grid.x * r->grid.y); }

void gs_stencil_release(gs_stencil_run *r)
{
    if (r->bar)
        gs_barrier_destroy(r->bar);
    if (r->f.halo)
        cudaFree(r->f.halo);
    if (r->f.tagged)
        cudaFree(r->f.tagged);
    if (r->halo)
        gs_halo_destroy(r->halo);
    r->halo = NULL;
    r->bar = NULL;
    r->f.halo = NULL;
    r->f.tagged = NULL;
}
