/*
 * gridsync/multi_allreduce.cuh - all-reduce across GPUs: every thread of
 * every GPU of a multi-GPU group (gridsync_multi.h) passes a value and gets
 * the sum (minimum, maximum) over all of them, in one cross-GPU meeting.
 *
 *   #include <gridsync/multi_allreduce.cuh>
 *
 *   __global__ void cg_step(gs_multi_view v, ...)   // on every GPU
 *   {
 *       double pq = gs_multi_allreduce_sum_f64(&v, p[i] * q[i]);  // every thread
 *       double alpha = rr / pq;                      // the same bits on every GPU
 *       ...
 *   }
 *
 * Names: gs_multi_allreduce_<op>_<type>(&view, x), op sum, min, max, type
 * f32, f64, i32, i64 (integer sums wrap), as gs_grid_allreduce_* on one
 * GPU (gridsync/allreduce.cuh); gs::multi_allreduce(&view, x, op) for any
 * operator of gridsync/reduce.cuh's kind whose value is 4 or 8 bytes.
 *
 * Contract: the view from gs_multi_barrier_device, launched with
 * gs_multi_launch; every thread of every block on every GPU calls it, the
 * same number of times, in the same sequence as the launch's gs_multi_sync
 * calls (it is one such meeting: writes before it are visible to every
 * thread of every GPU after it), with the same watchdog and reuse across
 * launches. A meeting that breaks (a GPU never arrives, the host calls the
 * meeting off) gives every thread of a GPU that GPU's own partial, op over
 * its own grid only, from then on in that launch; gs_multi_barrier_check
 * reports the break, and such a launch's results are to be discarded.
 * Deterministic: block values folded in block order on each GPU, then the
 * GPUs' partials in rank order, the same fold on every GPU: for a given
 * group, grid and block shape the result has the same bits on every run,
 * in every thread of every GPU.
 * Where the ranks have no load/store path (other nodes: the barrier's host
 * path, gs_multi_barrier_path) there is no device view at all:
 * gs_multi_barrier_device refuses with GS_ERR_NOT_SUPPORTED and the reason,
 * so no kernel can call it; combine between kernels with
 * gs_multi_reduce_sum instead.
 * How, why correct and what it costs: gs::multi_allreduce in
 * gridsync/detail/multi/multi_allreduce.cuh.
 */
#ifndef GRIDSYNC_MULTI_ALLREDUCE_CUH
#define GRIDSYNC_MULTI_ALLREDUCE_CUH

#include <gridsync/detail/multi/multi_allreduce.cuh>
#include <gridsync/multi.cuh>

/* ----------------------------------------------------------- f32 (float) */
GS_DEVICE float gs_multi_allreduce_sum_f32(gs_multi_view *v, float x)
{
    return gs::multi_allreduce(v, x, gs::sum<float>());
}
GS_DEVICE float gs_multi_allreduce_min_f32(gs_multi_view *v, float x)
{
    return gs::multi_allreduce(v, x, gs::min<float>());
}
GS_DEVICE float gs_multi_allreduce_max_f32(gs_multi_view *v, float x)
{
    return gs::multi_allreduce(v, x, gs::max<float>());
}

/* ---------------------------------------------------------- f64 (double) */
GS_DEVICE double gs_multi_allreduce_sum_f64(gs_multi_view *v, double x)
{
    return gs::multi_allreduce(v, x, gs::sum<double>());
}
GS_DEVICE double gs_multi_allreduce_min_f64(gs_multi_view *v, double x)
{
    return gs::multi_allreduce(v, x, gs::min<double>());
}
GS_DEVICE double gs_multi_allreduce_max_f64(gs_multi_view *v, double x)
{
    return gs::multi_allreduce(v, x, gs::max<double>());
}

/* ------------------------------------------------------------- i32 (int) */
GS_DEVICE int gs_multi_allreduce_sum_i32(gs_multi_view *v, int x)
{
    return gs::multi_allreduce(v, x, gs::sum<int>());
}
GS_DEVICE int gs_multi_allreduce_min_i32(gs_multi_view *v, int x)
{
    return gs::multi_allreduce(v, x, gs::min<int>());
}
GS_DEVICE int gs_multi_allreduce_max_i32(gs_multi_view *v, int x)
{
    return gs::multi_allreduce(v, x, gs::max<int>());
}

/* ------------------------------------------------------- i64 (long long) */
GS_DEVICE long long gs_multi_allreduce_sum_i64(gs_multi_view *v, long long x)
{
    return gs::multi_allreduce(v, x, gs::sum<long long>());
}
GS_DEVICE long long gs_multi_allreduce_min_i64(gs_multi_view *v, long long x)
{
    return gs::multi_allreduce(v, x, gs::min<long long>());
}
GS_DEVICE long long gs_multi_allreduce_max_i64(gs_multi_view *v, long long x)
{
    return gs::multi_allreduce(v, x, gs::max<long long>());
}

#endif /* GRIDSYNC_MULTI_ALLREDUCE_CUH */
