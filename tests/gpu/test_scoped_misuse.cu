/*
 * test_scoped_misuse.cu - the watchdog and the misuse checks of the scoped
 * primitives: a block that never arrives at a neighbour barrier, an
 * all-reduce or a split barrier, a signal nobody stores, a neighbour
 * outside the grid, a subset listing a block twice or not listing the
 * caller, a split-barrier token of another step, a signal going backwards
 * or past the set: each ends as the error that names it, nothing hangs,
 * and the next launch on the same object works.
 */
#include <string.h>

#include "gpu_test.h"

#include <gridsync/allreduce.cuh>
#include <gridsync/barrier.cuh>
#include <gridsync/neighbour.cuh>
#include <gridsync/signal.cuh>

enum case_id {
    C_NEIGHBOUR_MISSING, C_ALLREDUCE_MISSING, C_SPLIT_MISSING, C_NEIGHBOUR_OUTSIDE,
    C_SUBSET_TWICE, C_SUBSET_NOT_MEMBER, C_SPLIT_TOKEN, C_HEALTHY, C_COUNT
};

/* Block `missing` returns before its first synchronization where a case
 * needs a block that never arrives. */
static __global__ void misuse_kernel(gs_grid_barrier bar, int which, unsigned int missing,
                                     const unsigned int *list, float *out)
{
    const unsigned int b = blockIdx.x, n = gridDim.x;
    if ((which == C_NEIGHBOUR_MISSING || which == C_ALLREDUCE_MISSING ||
         which == C_SPLIT_MISSING) && b == missing)
        return;
    for (int it = 0; it < 3; ++it) {
        switch (which) {
        case C_NEIGHBOUR_MISSING: gs_neighbour_sync_1d(&bar, 0u); break;
        case C_ALLREDUCE_MISSING: out[b] = gs_grid_allreduce_sum_f32(&bar, 1.0f); break;
        case C_SPLIT_MISSING: gs_grid_wait(&bar, gs_grid_arrive(&bar)); break;
        case C_NEIGHBOUR_OUTSIDE: {
            unsigned int nb[2] = {(b + 1u) % n, b == 3u ? n + 5u : b};
            gs_neighbour_sync_list(&bar, nb, 2u);
            break;
        }
        case C_SUBSET_TWICE: if (b < 3u) gs_subset_sync(&bar, 0u, list, 4u); break;
        case C_SUBSET_NOT_MEMBER: gs_subset_sync(&bar, 1u, list, 2u); break;
        case C_SPLIT_TOKEN: {
            gs_grid_token t = gs_grid_arrive(&bar);
            gs_grid_sync(&bar);
            gs_grid_wait(&bar, t);
            break;
        }
        default:
            gs_neighbour_sync_2d(&bar, GS_NEIGHBOURS_WRAP);
            out[b] = gs_grid_allreduce_max_f32(&bar, (float)b);
            gs_grid_wait(&bar, gs_grid_arrive(&bar));
        }
    }
}

static __global__ void signal_kernel(gs_signal_set sig, int which)
{
    if (threadIdx.x != 0)
        return;
    switch (which) {
    case 0: (void)gs_signal_wait(&sig, 1u, 5ull); break;    /* nobody stores it */
    case 1: gs_signal_store(&sig, 2u, 9ull); gs_signal_store(&sig, 2u, 4ull); break;
    case 2: gs_signal_add(&sig, 99u, 1ull); break;          /* a set of 4 */
    default: gs_signal_store(&sig, 0u, 3ull); (void)gs_signal_wait(&sig, 0u, 3ull);
    }
}

static int expect_error(gs_status st, gs_status want, const char *needle, const char *what)
{
    const char *detail = gs_last_error_detail();
    EXPECT(st == want && strstr(detail, needle) != NULL, "%s: got %s (%s), expected %s with "
           "\"%s\"", what, gs_status_string(st), detail, gs_status_string(want), needle);
    printf("scoped_misuse: %-22s -> %s: %s\n", what, gs_status_string(st), detail);
    return 1;
}

int main(void)
{
    gs_test_require_gpu("scoped_misuse");
    (void)gs_test_seed("scoped_misuse");
    gs_device_info info;
    GS_OK(gs_device_query(0, &info));
    const unsigned int blocks = (unsigned int)info.sm_count;
    unsigned int host_list[4] = {0u, 1u, 2u, 1u}, *list;
    float *out;
    CUDA_OK(cudaMalloc(&list, sizeof host_list));
    CUDA_OK(cudaMemcpy(list, host_list, sizeof host_list, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMalloc(&out, blocks * sizeof *out));

    gs_barrier_t bar;
    GS_OK(gs_barrier_create(&bar, GS_BARRIER_AUTO));
    GS_OK(gs_barrier_set_timeout(bar, gs_test_sanitizer() ? 5.0 : 0.2));
    gs_grid_barrier view;
    GS_OK(gs_barrier_device(bar, blocks, &view));
    const unsigned int missing = blocks / 2u;
    static const struct {
        gs_status want;
        const char *needle, *what;
    } cases[C_COUNT] = {
        {GS_ERR_BARRIER_TIMEOUT, "fell behind: it arrived at 0 neighbour barriers",
         "neighbour, one missing"},
        {GS_ERR_BARRIER_TIMEOUT, "missing: block", "all-reduce, one missing"},
        {GS_ERR_BARRIER_TIMEOUT, "missing: block", "split, one missing"},
        {GS_ERR_MISUSE, "outside the grid", "neighbour outside"},
        {GS_ERR_MISUSE, "twice", "subset lists one twice"},
        {GS_ERR_MISUSE, "not in its member list", "subset without caller"},
        {GS_ERR_MISUSE, "another barrier", "split token reused"},
        {GS_SUCCESS, "", "healthy, after all that"},
    };
    int checks = 0;
    for (int c = 0; c < C_COUNT; ++c) {
        int which = c;
        void *args[] = {&view, &which, (void *)&missing, &list, &out};
        dim3 grid = c == C_HEALTHY ? dim3(blocks / 2u, 2u) : dim3(blocks);
        GS_OK(gs_barrier_device(bar, grid.x * grid.y, &view));
        GS_OK(gs_launch((const void *)misuse_kernel, grid, dim3(128), 0, 0, args, bar));
        gs_status st = gs_barrier_check(bar, 0);
        if (cases[c].want == GS_SUCCESS) {
            EXPECT(st == GS_SUCCESS, "%s: %s: %s", cases[c].what, gs_status_string(st),
                   gs_last_error_detail());
            ++checks;
        } else {
            checks += expect_error(st, cases[c].want, cases[c].needle, cases[c].what);
        }
    }
    GS_OK(gs_barrier_destroy(bar));

    gs_signals_t sig;
    GS_OK(gs_signals_create(&sig, 4u));
    GS_OK(gs_signals_set_timeout(sig, gs_test_sanitizer() ? 5.0 : 0.2));
    gs_signal_set sv;
    GS_OK(gs_signals_device(sig, &sv));
    static const struct {
        gs_status want;
        const char *needle, *what;
    } sig_cases[4] = {
        {GS_ERR_BARRIER_TIMEOUT, "signal 1: block 0 waited for >= 5", "signal never stored"},
        {GS_ERR_MISUSE, "below its value 9", "signal going backwards"},
        {GS_ERR_MISUSE, "signal 99 of a set of 4", "signal past the set"},
        {GS_SUCCESS, "", "signals healthy after"},
    };
    for (int c = 0; c < 4; ++c) {
        signal_kernel<<<1, 32>>>(sv, c);
        CUDA_OK(cudaGetLastError());
        gs_status st = gs_signals_check(sig, 0);
        if (sig_cases[c].want == GS_SUCCESS) {
            EXPECT(st == GS_SUCCESS, "%s: %s: %s", sig_cases[c].what, gs_status_string(st),
                   gs_last_error_detail());
            ++checks;
        } else {
            checks += expect_error(st, sig_cases[c].want, sig_cases[c].needle, sig_cases[c].what);
        }
    }
    GS_OK(gs_signals_destroy(sig));
    cudaFree(list);
    cudaFree(out);
    return gs_test_finish("scoped_misuse", checks);
}
