/*
 * cg_reference.c - the host side of the CG application: the right-hand
 * side, the CPU reference (the same iteration as every GPU version, in
 * FP64, sums in index order) and the measures the bench checks the GPU's
 * answers with (suites/apps/cg/cg.h).
 */
#include "suites/apps/cg/cg.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

void gs_cg_rhs(double *b, long long n)
{
    for (long long i = 0; i < n; ++i) {
        uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 32;
        b[i] = 1.0 + (double)(h >> 11) * 0x1p-53;
    }
}

/* (A p)_i at row y, column c: the 5-point Laplacian with a zero boundary. */
static double a_at(int nx, int ny, const double *p, int y, int c)
{
    long long i = (long long)y * nx + c;
    double v = 4.0 * p[i];
    if (y > 0)
        v -= p[i - nx];
    if (y < ny - 1)
        v -= p[i + nx];
    if (c > 0)
        v -= p[i - 1];
    if (c < nx - 1)
        v -= p[i + 1];
    return v;
}

/* q = A p. */
static void apply(int nx, int ny, const double *p, double *q)
{
    for (int y = 0; y < ny; ++y)
        for (int c = 0; c < nx; ++c)
            q[(long long)y * nx + c] = a_at(nx, ny, p, y, c);
}

static double dot(const double *a, const double *b, long long n)
{
    double s = 0.0;
    for (long long i = 0; i < n; ++i)
        s += a[i] * b[i];
    return s;
}

int gs_cg_reference(int nx, int ny, const double *b, double tol, int max_iters, double *x)
{
    const long long n = (long long)nx * ny;
    double *r = malloc(3 * (size_t)n * sizeof *r);
    if (!r)
        return -1;
    double *p = r + n, *q = p + n;
    for (long long i = 0; i < n; ++i) {
        x[i] = 0.0;
        r[i] = p[i] = b[i];
    }
    double rr = dot(r, r, n);
    const double goal = tol >= 0.0 ? tol * tol * rr : -1.0;
    int it = 0;
    while (it < max_iters && !(rr <= goal)) {
        apply(nx, ny, p, q);
        double pq = dot(p, q, n), alpha = pq != 0.0 ? rr / pq : 0.0;
        for (long long i = 0; i < n; ++i) {
            x[i] = fma(alpha, p[i], x[i]);
            r[i] = fma(-alpha, q[i], r[i]);
        }
        double rr_new = dot(r, r, n), beta = rr != 0.0 ? rr_new / rr : 0.0;
        for (long long i = 0; i < n; ++i)
            p[i] = fma(beta, p[i], r[i]);
        rr = rr_new;
        ++it;
    }
    free(r);
    return it;
}

double gs_cg_residual(int nx, int ny, const double *b, const double *x)
{
    double rr = 0.0, bb = 0.0;
    for (int y = 0; y < ny; ++y)
        for (int c = 0; c < nx; ++c) {
            long long i = (long long)y * nx + c;
            double d = b[i] - a_at(nx, ny, x, y, c);
            rr += d * d;
            bb += b[i] * b[i];
        }
    return sqrt(rr / bb);
}

double gs_cg_rel_diff(const double *x, const double *y, long long n)
{
    double dd = 0.0, yy = 0.0;
    for (long long i = 0; i < n; ++i) {
        dd += (x[i] - y[i]) * (x[i] - y[i]);
        yy += y[i] * y[i];
    }
    return yy > 0.0 ? sqrt(dd / yy) : sqrt(dd);
}

double gs_cg_lambda_min(int nx, int ny)
{
    const double pi = 3.14159265358979323846;
    double sx = sin(pi / (2.0 * (nx + 1))), sy = sin(pi / (2.0 * (ny + 1)));
    return 4.0 * sx * sx + 4.0 * sy * sy;
}
