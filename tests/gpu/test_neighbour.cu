/*
 * test_neighbour.cu - the neighbour barriers (1-D with and without
 * wrap-around, 2-D with corners, any list) and the subset barrier order
 * memory between the blocks they connect: every step each block writes its
 * slot (the last thread, so the write reaches others through the block
 * barrier and thread 0's release), after a random per-block delay, syncs,
 * and checks every neighbour's slot. Slots alternate between two buffers,
 * so a block running two steps ahead of a neighbour would be caught
 * overwriting a value still to be read. Grid sizes 1, 2, SMs, SMs + 1 and
 * the co-resident maximum; over 10^6 synchronizations per primitive; a
 * second launch on the same state (no reset, another grid size) included.
 */
#include "exchange.cuh"
#include "gpu_test.h"
#include "grid_sizes.h"

#include <gridsync/neighbour.cuh>

enum shape { S_1D = 0, S_1D_WRAP = 1, S_2D = 2, S_LIST = 3, S_SUBSET = 4, S_COUNT = 5 };
static const char *const shape_names[S_COUNT] = {"1-D", "1-D wrap", "2-D + corners", "list",
                                                 "subset"};

/* A sparse random delay: about one step in 16 per block sleeps. */
static __device__ __forceinline__ void maybe_delay(unsigned int seed, int it, unsigned int b,
                                                   unsigned int max_ns)
{
    unsigned int h = ex_hash(seed ^ (unsigned int)it * 40503u ^ (b << 11));
    if (max_ns && threadIdx.x == 0 && (h & 15u) == 0u)
        __nanosleep((h >> 4) % max_ns);
}

/* Neighbour k of block b for each shape (b itself: none). */
static __device__ unsigned int neighbour_of(int shape, unsigned int k, unsigned int b,
                                            unsigned int n, const unsigned int *lists)
{
    switch (shape) {
    case S_1D: return k == 0 ? (b > 0 ? b - 1 : b) : (b + 1 < n ? b + 1 : b);
    case S_1D_WRAP: return k == 0 ? (b + n - 1) % n : (b + 1) % n;
    case S_2D: {
        int dx[8] = {-1, 1, 0, 0, -1, 1, -1, 1}, dy[8] = {0, 0, -1, 1, -1, -1, 1, 1};
        int x = (int)blockIdx.x + dx[k], y = (int)blockIdx.y + dy[k];
        if (x < 0 || y < 0 || x >= (int)gridDim.x || y >= (int)gridDim.y)
            return b;
        return (unsigned int)x + gridDim.x * (unsigned int)y;
    }
    default: return lists[b * 3 + k];
    }
}

static __global__ void neighbour_kernel(gs_grid_barrier bar, int shape, unsigned int *slots,
                                        const unsigned int *lists, const unsigned int *members,
                                        unsigned int group, unsigned int *errors, int iters,
                                        unsigned int seed, unsigned int max_delay_ns)
{
    const unsigned int n = gridDim.x * gridDim.y, b = blockIdx.x + gridDim.x * blockIdx.y;
    const unsigned int t = threadIdx.x, nt = blockDim.x;
    const unsigned int nk = shape == S_2D ? 8u : shape == S_LIST ? 3u : 2u;
    /* subset: consecutive groups of `group` blocks, listed in `members` from
     * the group's middle on (so the first listed is not the smallest) */
    const unsigned int g0 = b / group * group, gsize = min(group, n - g0);
    unsigned int bad = 0u;
    for (int it = 0; it < iters; ++it) {
        unsigned int *buf = slots + (unsigned int)(it & 1) * n;
        maybe_delay(seed, it, b, max_delay_ns);
        __syncthreads();
        if (t == nt - 1u)
            buf[b] = ex_value(seed, it, b);
        switch (shape) {
        case S_1D: gs_neighbour_sync_1d(&bar, 0u); break;
        case S_1D_WRAP: gs_neighbour_sync_1d(&bar, GS_NEIGHBOURS_WRAP); break;
        case S_2D: gs_neighbour_sync_2d(&bar, GS_NEIGHBOURS_DIAGONAL); break;
        case S_LIST: gs_neighbour_sync_list(&bar, lists + b * 3, 3u); break;
        default: gs_subset_sync(&bar, g0, members + g0, gsize); break;
        }
        if (shape == S_SUBSET) {
            if (t < gsize) {
                unsigned int o = g0 + t;
                bad += buf[o] != ex_value(seed, it, o);
            }
            gs_subset_sync(&bar, g0, members + g0, gsize); /* nobody rewrites before all read */
        } else if (t < nk) {
            unsigned int o = neighbour_of(shape, t, b, n, lists);
            bad += buf[o] != ex_value(seed, it, o);
        }
    }
    if (bad)
        atomicAdd(errors, bad);
}

typedef struct ctx {
    unsigned int *slots, *lists, *members, *errors;
    unsigned int sms, max_blocks;
} ctx;

static void make_lists(unsigned int n, unsigned int group, unsigned int *dev_lists,
                       unsigned int *dev_members)
{
    unsigned int *lists = (unsigned int *)malloc(3u * n * sizeof *lists);
    unsigned int *members = (unsigned int *)malloc(n * sizeof *members);
    for (unsigned int b = 0; b < n; ++b) { /* symmetric: b^1, b+7, b-7 (when in the grid) */
        lists[3 * b] = (b ^ 1u) < n ? b ^ 1u : b;
        lists[3 * b + 1] = (b + 7u) % n;
        lists[3 * b + 2] = (b + n - 7u % n) % n;
    }
    for (unsigned int g0 = 0; g0 < n; g0 += group) {
        unsigned int size = group < n - g0 ? group : n - g0;
        for (unsigned int i = 0; i < size; ++i)
            members[g0 + i] = g0 + (i + size / 2u) % size;
    }
    CUDA_OK(cudaMemcpy(dev_lists, lists, 3u * n * sizeof *lists, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dev_members, members, n * sizeof *members, cudaMemcpyHostToDevice));
    free(lists);
    free(members);
}

/* One launch of `shape` on `bar`; returns the number of synchronizations. */
static long long run(const ctx *c, gs_barrier_t bar, int shape, unsigned int blocks, int iters,
                     unsigned int delay_ns)
{
    unsigned int seed = (unsigned int)rand(), bad = 0, w = blocks, h = 1u, group = 5u;
    if (shape == S_2D)
        gs_test_grid_2d(blocks, &w, &h);
    make_lists(blocks, group, c->lists, c->members);
    gs_grid_barrier view;
    GS_OK(gs_barrier_device(bar, blocks, &view));
    CUDA_OK(cudaMemset(c->errors, 0, sizeof bad));
    unsigned int *slots = c->slots, *lists = c->lists, *members = c->members;
    unsigned int *errors = c->errors;
    void *args[] = {&view,   &shape, &slots, &lists,   &members, &group,
                    &errors, &iters, &seed,  &delay_ns};
    GS_OK(gs_launch((const void *)neighbour_kernel, dim3(w, h), dim3(128), 0, 0, args, bar));
    gs_status st = gs_barrier_check(bar, 0);
    EXPECT(st == GS_SUCCESS, "%s, %u blocks: %s: %s", shape_names[shape], blocks,
           gs_status_string(st), gs_last_error_detail());
    CUDA_OK(cudaMemcpy(&bad, c->errors, sizeof bad, cudaMemcpyDeviceToHost));
    EXPECT(bad == 0, "%s, %u x %u blocks, delay %u ns: %u wrong values in %d steps",
           shape_names[shape], w, h, delay_ns, bad, iters);
    return (long long)iters * (shape == S_SUBSET ? 2 : 1);
}

int main(void)
{
    gs_test_require_gpu("neighbour");
    srand((unsigned int)gs_test_seed("neighbour"));
    const int quick = gs_test_sanitizer();
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    ctx c;
    int max_blocks = 0;
    GS_OK(gs_max_coresident_blocks((const void *)neighbour_kernel, 128, 0, &max_blocks));
    c.sms = (unsigned int)info.sm_count;
    c.max_blocks = (unsigned int)max_blocks;
    CUDA_OK(cudaMalloc(&c.slots, 2u * c.max_blocks * sizeof *c.slots));
    CUDA_OK(cudaMalloc(&c.lists, 3u * c.max_blocks * sizeof *c.lists));
    CUDA_OK(cudaMalloc(&c.members, c.max_blocks * sizeof *c.members));
    CUDA_OK(cudaMalloc(&c.errors, sizeof *c.errors));
    unsigned int grids[6];
    int ngrids = gs_test_grid_sizes(c.sms, c.max_blocks, grids);
    /* 1.2 x 10^6 synchronizations per primitive over the grid sizes */
    const int iters = quick ? 6 : 1200000 / ngrids + 1;

    int checks = 0;
    gs_barrier_t bar;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(bar, quick ? 30.0 : 5.0));
    for (int shape = 0; shape < S_COUNT; ++shape) {
        long long syncs = 0;
        for (int g = 0; g < ngrids; ++g) {
            /* the same state serves every size, launch after launch: no reset */
            syncs += run(&c, bar, shape, grids[g], iters, g % 2 ? 3000u : 0u);
            ++checks;
        }
        syncs += run(&c, bar, shape, grids[0], quick ? 3 : 1000, 1000u); /* back to the first */
        ++checks;
        printf("neighbour: %-14s %lld synchronizations over %d grid sizes (1 .. %u blocks)\n",
               shape_names[shape], syncs, ngrids, c.max_blocks);
    }
    GS_OK(gs_barrier_destroy(bar));
    cudaFree(c.slots);
    cudaFree(c.lists);
    cudaFree(c.members);
    cudaFree(c.errors);
    return gs_test_finish("neighbour", checks);
}
