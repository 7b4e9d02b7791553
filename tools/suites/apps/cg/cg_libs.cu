/*
 * cg_libs.cu - the peers "cuBLAS+cuSPARSE stream" and "cuBLAS+cuSPARSE
 * graph": conjugate gradient as most users write it, a kernel per
 * operation. The matrix is the 5-point Laplacian in CSR (built on the GPU);
 * an iteration is
 *
 *   cusparseSpMV q = A p; cublasDdot (p, q); alpha kernel;
 *   cublasDaxpy x += alpha p; cublasDaxpy r -= alpha q; cublasDdot (r, r);
 *   beta kernel; cublasDscal p *= beta; cublasDaxpy p += r
 *
 * with cuBLAS in device pointer mode (the scalars stay on the GPU, the
 * host never waits inside an iteration), so that an iteration can be
 * captured into a CUDA graph: "stream" launches the timed iterations one
 * operation at a time, "graph" replays a graph of them (the timer's
 * graph_batch). A solve reads rr back after every iteration (outside any
 * timing) to stop at the tolerance.
 */
#include <cublas_v2.h>
#include <cusparse.h>

#include "gridsync_internal.h"
#include "suites/apps/cg/cg.h"

#define BLAS_TRY(call)                                                                     \
    do {                                                                                   \
        cublasStatus_t s_ = (call);                                                        \
        if (s_ != CUBLAS_STATUS_SUCCESS)                                                   \
            return gs__fail(GS_ERR_CUDA, "%s failed: %s", #call, cublasGetStatusName(s_)); \
    } while (0)
#define SPARSE_TRY(call)                                                                   \
    do {                                                                                   \
        cusparseStatus_t s_ = (call);                                                      \
        if (s_ != CUSPARSE_STATUS_SUCCESS)                                                 \
            return gs__fail(GS_ERR_CUDA, "%s failed: %s", #call, cusparseGetErrorName(s_)); \
    } while (0)

/* The device scalars. */
enum { S_PQ, S_RR, S_RR_NEW, S_ALPHA, S_NALPHA, S_BETA, S_ONE, S_COUNT };

static __global__ void alpha_kernel(double *s)
{
    double a = s[S_PQ] != 0.0 ? s[S_RR] / s[S_PQ] : 0.0;
    s[S_ALPHA] = a;
    s[S_NALPHA] = -a;
}

static __global__ void beta_kernel(double *s)
{
    s[S_BETA] = s[S_RR] != 0.0 ? s[S_RR_NEW] / s[S_RR] : 0.0;
    s[S_RR] = s[S_RR_NEW];
}

/* Row g of the CSR of the 5-point Laplacian starts at 5 g minus the entries
 * missing before it: two per earlier row (its first and last column), the
 * left one of this row if g is not its first, the upper ones of row 0 and
 * the lower ones of the last row. */
static __device__ long long row_start(long long g, int nx, int ny)
{
    const long long gy = g / nx, gx = g % nx;
    return 5 * g - (2 * gy + (gx > 0) + (gy > 0 ? nx : gx) + (gy == ny - 1 ? gx : 0));
}

/* The CSR, one thread per row (columns in increasing order). */
static __global__ void build_csr(int *rowptr, int *col, double *val, int nx, int ny)
{
    const long long n = (long long)nx * ny;
    for (long long g = blockIdx.x * (long long)blockDim.x + threadIdx.x; g < n;
         g += (long long)gridDim.x * blockDim.x) {
        const long long gy = g / nx, gx = g % nx;
        long long k = row_start(g, nx, ny);
        rowptr[g] = (int)k;
        if (gy > 0) {
            col[k] = (int)(g - nx);
            val[k++] = -1.0;
        }
        if (gx > 0) {
            col[k] = (int)(g - 1);
            val[k++] = -1.0;
        }
        col[k] = (int)g;
        val[k++] = 4.0;
        if (gx < nx - 1) {
            col[k] = (int)(g + 1);
            val[k++] = -1.0;
        }
        if (gy < ny - 1) {
            col[k] = (int)(g + nx);
            val[k++] = -1.0;
        }
        if (g == n - 1)
            rowptr[n] = (int)k;
    }
}

typedef struct impl {
    cublasHandle_t blas;
    cusparseHandle_t sparse;
    cusparseSpMatDescr_t a;
    cusparseDnVecDescr_t vp, vq;
    int *rowptr, *col;
    double *val, *r, *p, *q, *s;
    void *spmv_buf, *blas_ws;
} impl;

static const double one = 1.0, zero = 0.0; /* SpMV's scalars (host pointer mode) */

static void destroy(gs_cg_run *run)
{
    impl *m = (impl *)run->impl;
    if (!m)
        return;
    if (m->a)
        cusparseDestroySpMat(m->a);
    if (m->vp)
        cusparseDestroyDnVec(m->vp);
    if (m->vq)
        cusparseDestroyDnVec(m->vq);
    if (m->sparse)
        cusparseDestroy(m->sparse);
    if (m->blas)
        cublasDestroy(m->blas);
    void *device[] = {m->rowptr, m->col, m->val, m->r, m->p, m->q, m->s, m->spmv_buf, m->blas_ws};
    gs_cg_impl_free(run, device, 9);
}

static gs_status create(gs_cg_run *run)
{
    GS_TRY(gs_cg_impl_new(run, sizeof(impl)));
    impl *m = (impl *)run->impl;
    const long long n = run->n, nnz = 5 * n - 2LL * run->nx - 2LL * run->ny;
    if (nnz > 0x7fffffffLL)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "bench apps cg: %lld unknowns make %lld "
                        "nonzeros, more than a 32-bit CSR holds", n, nnz);
    const size_t bytes = (size_t)n * sizeof(double);
    GS_CUDA_TRY(cudaMalloc((void **)&m->rowptr, (size_t)(n + 1) * sizeof(int)));
    GS_CUDA_TRY(cudaMalloc((void **)&m->col, (size_t)nnz * sizeof(int)));
    GS_CUDA_TRY(cudaMalloc((void **)&m->val, (size_t)nnz * sizeof(double)));
    GS_CUDA_TRY(cudaMalloc((void **)&m->r, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&m->p, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&m->q, bytes));
    GS_CUDA_TRY(cudaMalloc((void **)&m->s, S_COUNT * sizeof(double)));
    build_csr<<<1024, 256>>>(m->rowptr, m->col, m->val, run->nx, run->ny);
    GS_CUDA_TRY(cudaGetLastError());
    GS_CUDA_TRY(cudaMemcpy(m->s + S_ONE, &one, sizeof one, cudaMemcpyHostToDevice));

    BLAS_TRY(cublasCreate(&m->blas));
    BLAS_TRY(cublasSetPointerMode(m->blas, CUBLAS_POINTER_MODE_DEVICE));
    const size_t ws = 4u << 20; /* a workspace of its own: nothing allocated while captured */
    GS_CUDA_TRY(cudaMalloc(&m->blas_ws, ws));
    BLAS_TRY(cublasSetWorkspace(m->blas, m->blas_ws, ws));
    SPARSE_TRY(cusparseCreate(&m->sparse));
    SPARSE_TRY(cusparseCreateCsr(&m->a, n, n, nnz, m->rowptr, m->col, m->val,
                                 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                 CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    SPARSE_TRY(cusparseCreateDnVec(&m->vp, n, m->p, CUDA_R_64F));
    SPARSE_TRY(cusparseCreateDnVec(&m->vq, n, m->q, CUDA_R_64F));
    size_t need = 0;
    SPARSE_TRY(cusparseSpMV_bufferSize(m->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m->a,
                                       m->vp, &zero, m->vq, CUDA_R_64F,
                                       CUSPARSE_SPMV_CSR_ALG1, &need));
    GS_CUDA_TRY(cudaMalloc(&m->spmv_buf, need ? need : 1));
    GS_CUDA_TRY(cudaDeviceSynchronize()); /* the CSR is built */
    return GS_SUCCESS;
}

/* One iteration on `stream`. */
static gs_status iteration(gs_cg_run *run, cudaStream_t stream)
{
    impl *m = (impl *)run->impl;
    const int n = (int)run->n;
    double *s = m->s;
    BLAS_TRY(cublasSetStream(m->blas, stream));
    SPARSE_TRY(cusparseSetStream(m->sparse, stream));
    SPARSE_TRY(cusparseSpMV(m->sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m->a, m->vp,
                            &zero, m->vq, CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG1, m->spmv_buf));
    BLAS_TRY(cublasDdot(m->blas, n, m->p, 1, m->q, 1, s + S_PQ));
    alpha_kernel<<<1, 1, 0, stream>>>(s);
    GS_CUDA_TRY(cudaGetLastError());
    BLAS_TRY(cublasDaxpy(m->blas, n, s + S_ALPHA, m->p, 1, run->x, 1));
    BLAS_TRY(cublasDaxpy(m->blas, n, s + S_NALPHA, m->q, 1, m->r, 1));
    BLAS_TRY(cublasDdot(m->blas, n, m->r, 1, m->r, 1, s + S_RR_NEW));
    beta_kernel<<<1, 1, 0, stream>>>(s);
    GS_CUDA_TRY(cudaGetLastError());
    BLAS_TRY(cublasDscal(m->blas, n, s + S_BETA, m->p, 1));
    BLAS_TRY(cublasDaxpy(m->blas, n, s + S_ONE, m->r, 1, m->p, 1));
    return GS_SUCCESS;
}

/* x0 = 0, r0 = p0 = b, rr = (b, b). */
static gs_status reset(gs_cg_run *run, cudaStream_t stream)
{
    impl *m = (impl *)run->impl;
    const size_t bytes = (size_t)run->n * sizeof(double);
    GS_CUDA_TRY(cudaMemsetAsync(run->x, 0, bytes, stream));
    GS_CUDA_TRY(cudaMemcpyAsync(m->r, run->b, bytes, cudaMemcpyDeviceToDevice, stream));
    GS_CUDA_TRY(cudaMemcpyAsync(m->p, run->b, bytes, cudaMemcpyDeviceToDevice, stream));
    BLAS_TRY(cublasSetStream(m->blas, stream));
    BLAS_TRY(cublasDdot(m->blas, (int)run->n, run->b, 1, run->b, 1, m->s + S_RR));
    return GS_SUCCESS;
}

static gs_status solve(gs_cg_run *run, cudaStream_t stream)
{
    GS_TRY(reset(run, stream));
    return gs_cg_iterate_to_tol(run, iteration, ((impl *)run->impl)->s + S_RR, stream);
}

static gs_status enqueue_stream(void *p, cudaStream_t stream)
{
    return gs_cg_iterate_timed((gs_cg_run *)p, iteration, stream);
}

static gs_status enqueue_one(void *p, cudaStream_t stream)
{
    return iteration((gs_cg_run *)p, stream);
}

extern "C" const gs_cg_version gs_cg_libs_stream = {"cuBLAS+cuSPARSE stream", create, solve,
                                                    enqueue_stream, NULL, destroy, 0};
extern "C" const gs_cg_version gs_cg_libs_graph = {"cuBLAS+cuSPARSE graph", create, solve,
                                                   enqueue_one, NULL, destroy, 1};
