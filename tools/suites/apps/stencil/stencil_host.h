/*
 * stencil_host.h - the 2-D heat stencil's host side (stencil_body.cuh
 * includes it at its end): the CPU's solve (FP64 reference, float replica
 * of the GPU's bits) and the error and its bound (the split into tiles is
 * the library's gs_halo_split_2d). No includes of gridsync or the CUDA runtime.
 */
#ifndef GS_BENCH_APPS_STENCIL_HOST_H
#define GS_BENCH_APPS_STENCIL_HOST_H

#include <math.h>
#include <stddef.h>

/* The CPU's solve in T: double is the reference, float the replica that
 * must match the GPU's bits. Returns x or y, whichever holds the result. */
template <class T>
static T *gs_stencil_cpu(const float *u0, int w, int h, int steps, T *x, T *y)
{
    const size_t n = (size_t)w * (size_t)h;
    for (size_t i = 0; i < n; ++i)
        x[i] = (T)u0[i];
    for (int s = 0; s < steps; ++s) {
        for (int r = 0; r < h; ++r) {
            const T *p = x + (size_t)r * w;
            T *q = y + (size_t)r * w;
            for (int c = 0; c < w; ++c) {
                T up = r > 0 ? p[c - w] : T(0), down = r + 1 < h ? p[c + w] : T(0);
                T left = c > 0 ? p[c - 1] : T(0), right = c + 1 < w ? p[c + 1] : T(0);
                if (sizeof(T) == sizeof(float))
                    q[c] = (T)gs_stencil_cell((float)p[c], (float)up, (float)down, (float)left,
                                              (float)right);
                else
                    q[c] = T(0.5) * p[c] + T(0.125) * ((up + down) + (left + right));
            }
        }
        T *swap = x;
        x = y;
        y = swap;
    }
    return x;
}

/* The largest |gpu - ref| over the largest |ref| (NaN if the GPU's field
 * holds a NaN: the poison of a cell never written). */
static inline double gs_stencil_error(const float *gpu, const double *ref, size_t n)
{
    double diff = 0.0, scale = 0.0;
    for (size_t i = 0; i < n; ++i) {
        double d = fabs((double)gpu[i] - ref[i]);
        if (d != d)
            return d;
        diff = d > diff ? d : diff;
        scale = fabs(ref[i]) > scale ? fabs(ref[i]) : scale;
    }
    return scale > 0.0 ? diff / scale : diff;
}

/* The bound on gs_stencil_error: each step rounds a cell four times (three
 * adds, the fma), each by at most 2^-24 of the largest value of the field,
 * which the averaging never increases (weights >= 0 summing to <= 1), and
 * the averaging never amplifies an earlier error; so after `steps` steps
 * |gpu - ref| <= 4 * steps * 2^-24 * max|u0|. Over max|ref| (the field
 * decays), as gs_stencil_error measures. */
static inline double gs_stencil_bound(int steps, const float *u0, const double *ref, size_t n)
{
    double m0 = 0.0, mn = 0.0;
    for (size_t i = 0; i < n; ++i) {
        m0 = fabs((double)u0[i]) > m0 ? fabs((double)u0[i]) : m0;
        mn = fabs(ref[i]) > mn ? fabs(ref[i]) : mn;
    }
    double abs_bound = 4.0 * steps * ldexp(1.0, -24) * m0;
    return mn > 0.0 ? abs_bound / mn : abs_bound;
}

#endif /* GS_BENCH_APPS_STENCIL_HOST_H */
