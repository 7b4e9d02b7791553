/*
 * gridsync/allreduce.cuh - grid all-reduce: every thread of the grid
 * passes a value and gets the sum (minimum, maximum) over all of them, in
 * one grid barrier.
 *
 *   #include <gridsync/allreduce.cuh>
 *
 *   __global__ void cg_step(gs_grid_barrier bar, ...)
 *   {
 *       double pq = gs_grid_allreduce_sum_f64(&bar, p[i] * q[i]);   // every thread
 *       double alpha = rr / pq;
 *       ...
 *   }
 *
 * Names: gs_grid_allreduce_<op>_<type>(&view, v), op sum, min, max, type
 * f32, f64, i32, i64 (integer sums wrap); gs::grid_allreduce(&view, v, op)
 * for any operator of gridsync/reduce.cuh's kind.
 *
 * Contract: every thread of every block calls it, the same number of
 * times; it counts as one barrier of the view (it is a complete grid
 * barrier: writes before it are visible to every block after it), with the
 * grid barrier's reuse and watchdog. It meets on the flip counter whatever
 * method the view carries.
 * Deterministic: for a given grid and block shape the result has the same
 * bits on every run and in every thread (the order of the operations is
 * fixed by the shapes, never by timing).
 * How, why correct and what it costs: gs::grid_allreduce in
 * gridsync/detail/scoped/grid_allreduce.cuh.
 *
 * NVRTC: no #include of the C library or the CUDA runtime here or below.
 */
#ifndef GRIDSYNC_ALLREDUCE_CUH
#define GRIDSYNC_ALLREDUCE_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/scoped/grid_allreduce.cuh>

/* ---------------------------------------------------------- f32 (float) */
GS_DEVICE float gs_grid_allreduce_sum_f32(gs_grid_barrier *b, float v)
{
    return gs::grid_allreduce(b, v, gs::sum<float>());
}
GS_DEVICE float gs_grid_allreduce_min_f32(gs_grid_barrier *b, float v)
{
    return gs::grid_allreduce(b, v, gs::min<float>());
}
GS_DEVICE float gs_grid_allreduce_max_f32(gs_grid_barrier *b, float v)
{
    return gs::grid_allreduce(b, v, gs::max<float>());
}

/* --------------------------------------------------------- f64 (double) */
GS_DEVICE double gs_grid_allreduce_sum_f64(gs_grid_barrier *b, double v)
{
    return gs::grid_allreduce(b, v, gs::sum<double>());
}
GS_DEVICE double gs_grid_allreduce_min_f64(gs_grid_barrier *b, double v)
{
    return gs::grid_allreduce(b, v, gs::min<double>());
}
GS_DEVICE double gs_grid_allreduce_max_f64(gs_grid_barrier *b, double v)
{
    return gs::grid_allreduce(b, v, gs::max<double>());
}

/* ------------------------------------------------------------ i32 (int) */
GS_DEVICE int gs_grid_allreduce_sum_i32(gs_grid_barrier *b, int v)
{
    return gs::grid_allreduce(b, v, gs::sum<int>());
}
GS_DEVICE int gs_grid_allreduce_min_i32(gs_grid_barrier *b, int v)
{
    return gs::grid_allreduce(b, v, gs::min<int>());
}
GS_DEVICE int gs_grid_allreduce_max_i32(gs_grid_barrier *b, int v)
{
    return gs::grid_allreduce(b, v, gs::max<int>());
}

/* ------------------------------------------------------ i64 (long long) */
GS_DEVICE long long gs_grid_allreduce_sum_i64(gs_grid_barrier *b, long long v)
{
    return gs::grid_allreduce(b, v, gs::sum<long long>());
}
GS_DEVICE long long gs_grid_allreduce_min_i64(gs_grid_barrier *b, long long v)
{
    return gs::grid_allreduce(b, v, gs::min<long long>());
}
GS_DEVICE long long gs_grid_allreduce_max_i64(gs_grid_barrier *b, long long v)
{
    return gs::grid_allreduce(b, v, gs::max<long long>());
}

#endif /* GRIDSYNC_ALLREDUCE_CUH */
