/*
 * gridsync.h - public host API of gridsync (C17).
 *
 * gridsync is a toolkit for synchronization on NVIDIA GPUs: grid-wide
 * barriers that are safe to launch and cannot hang the GPU, and the kernels
 * built on them. This header is plain C; it compiles with a C17 compiler and
 * with nvcc. Kernels that synchronize include <gridsync/barrier.cuh>.
 *
 * Conventions (after NCCL and cuBLAS):
 *   - every host function returns a gs_status; GS_SUCCESS is 0;
 *   - gs_status_string() names a status, gs_last_error_detail() gives the
 *     sentence behind the last failure of the calling thread;
 *   - objects are opaque handles created and destroyed by the host.
 */
#ifndef GRIDSYNC_H
#define GRIDSYNC_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gridsync/barrier_view.h"
#include "gridsync/halo_view.h"
#include "gridsync/signal_view.h"

/* GS_API marks what libgridsync exports: the library is built with hidden
 * visibility (-fvisibility=hidden), so its dynamic symbol table holds these
 * declarations and nothing of its internals. */
#ifndef GS_API
#if defined(__GNUC__) || defined(__clang__)
#define GS_API __attribute__((visibility("default")))
#else
#define GS_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- version
 * The version lives here and nowhere else: CMake's project() (cmake/version.cmake)
 * and everything else that needs it read these three lines. 0.x releases
 * may change the ABI at each minor version (see CHANGELOG.md). */
#define GS_VERSION_MAJOR 0
#define GS_VERSION_MINOR 1
#define GS_VERSION_PATCH 0

/* A version as one integer, as NCCL's NCCL_VERSION: major * 10000 +
 * minor * 100 + patch (0.1.0 is 100, 1.2.3 is 10203); compare with
 * GS_VERSION_CODE, or with gs_get_version() for the library loaded. */
#define GS_VERSION(major, minor, patch) ((major) * 10000 + (minor) * 100 + (patch))
#define GS_VERSION_CODE GS_VERSION(GS_VERSION_MAJOR, GS_VERSION_MINOR, GS_VERSION_PATCH)

#define GS__STRINGIFY(x) #x
#define GS__VERSION_TEXT(major, minor, patch)                                          \
    GS__STRINGIFY(major) "." GS__STRINGIFY(minor) "." GS__STRINGIFY(patch)
/* "0.1.0" */
#define GS_VERSION_STRING GS__VERSION_TEXT(GS_VERSION_MAJOR, GS_VERSION_MINOR, GS_VERSION_PATCH)

/* ------------------------------------------------------------------ status */

typedef enum gs_status {
    GS_SUCCESS = 0,
    GS_ERR_INVALID_ARGUMENT = 1, /* NULL pointer, size out of range, unknown name */
    GS_ERR_CUDA = 2,             /* a CUDA runtime call failed (detail names it) */
    GS_ERR_NO_DEVICE = 3,        /* no usable CUDA device */
    GS_ERR_NOT_CORESIDENT = 4,   /* the grid cannot be resident all at once */
    GS_ERR_BARRIER_TIMEOUT = 5,  /* a grid barrier waited longer than its time-out */
    GS_ERR_OUT_OF_MEMORY = 6,    /* a device or host allocation failed */
    GS_ERR_NOT_SUPPORTED = 7,    /* the device lacks a feature the call needs */
    GS_ERR_INTERNAL = 8,         /* a gridsync bug: please report it */
    GS_ERR_BUSY = 9,             /* the object is in use by unfinished work on another stream */
    GS_ERR_MISUSE = 10           /* a kernel used a primitive wrongly (detail says which, how) */
} gs_status;

/* Short constant name of a status, e.g. "GS_ERR_NOT_CORESIDENT". */
GS_API const char *gs_status_string(gs_status status);

/* The sentence explaining the last failure in the calling thread: which CUDA
 * call failed and why, how many blocks fit, which blocks never arrived at a
 * barrier. Empty string when the thread has seen no failure. */
GS_API const char *gs_last_error_detail(void);

/* Forget the calling thread's last error detail. */
GS_API void gs_clear_error(void);

/* The version of the library loaded, as text: "0.1.0". */
GS_API const char *gs_version(void);

/* The version of the library loaded as GS_VERSION_CODE (it may differ from
 * the header the program was compiled with); GS_ERR_INVALID_ARGUMENT when
 * `version` is NULL. As NCCL's ncclGetVersion. */
GS_API gs_status gs_get_version(int *version);

/* ------------------------------------------------------------------ device */

typedef struct gs_device_info {
    int ordinal;
    char name[256];
    int cc_major, cc_minor;
    int sm_count;
    int sm_clock_khz;          /* maximum SM clock */
    int mem_clock_khz;         /* peak memory clock */
    int mem_bus_width_bits;
    double mem_bandwidth_gbs;  /* theoretical: 2 x clock x bus width */
    size_t global_mem_bytes;
    int l2_bytes;
    size_t smem_per_sm_bytes;
    size_t smem_per_block_bytes;       /* default limit, without opt-in */
    size_t smem_per_block_optin_bytes; /* after cudaFuncSetAttribute */
    int max_threads_per_sm;
    int max_threads_per_block;
    int max_blocks_per_sm;
    int regs_per_sm;
    int warp_size;
    int cooperative_launch;    /* device supports cooperative launches */
    int driver_version;        /* e.g. 13000 */
    int runtime_version;
} gs_device_info;

/* Number of CUDA devices; GS_ERR_NO_DEVICE (count 0) when there is none. */
GS_API gs_status gs_device_count(int *count);

/* Properties of device `ordinal`. */
GS_API gs_status gs_device_query(int ordinal, gs_device_info *info);

/* ------------------------------------------------------------ co-residency */

/* The largest grid of the kernel `func` with `block_threads` threads per
 * block and `dynamic_smem` bytes of dynamic shared memory that the current
 * device can hold resident all at once (occupancy per SM x SMs). `func` is a
 * driver function handle: from cudaGetFuncBySymbol, or cuModuleGetFunction /
 * cuLibraryGetKernel for kernels compiled at run time (NVRTC). */
GS_API gs_status gs_max_coresident_blocks_func(cudaFunction_t func, int block_threads,
                                               size_t dynamic_smem, int *max_blocks);

/* Internal, used by the inline functions below: record why looking up
 * `kernel` in the calling program's CUDA runtime failed, or why a runtime
 * call made there failed. */
GS_API gs_status gs__kernel_lookup_failed(const void *kernel, int cuda_error);
GS_API gs_status gs__runtime_call_failed(const char *call, int cuda_error);

/* Resolve a __global__ function pointer in the CUDA runtime that the calling
 * program links (static or shared): kernels are registered with the runtime
 * of the program that defines them, so this lookup is compiled into the
 * caller, here, and the library works with the driver handle it returns. */
static inline gs_status gs__kernel_func(const void *kernel, cudaFunction_t *func)
{
    cudaError_t err;
    *func = NULL;
    if (!kernel)
        return gs__kernel_lookup_failed(kernel, 0);
    err = cudaGetFuncBySymbol(func, kernel);
    if (err != cudaSuccess) {
        (void)cudaGetLastError(); /* the failed lookup is ours, not the caller's error */
        return gs__kernel_lookup_failed(kernel, (int)err);
    }
    return GS_SUCCESS;
}

/* What a launch of `kernel` on `*stream` from the calling file means: the
 * driver handle (gs__kernel_func), and the stream, the calling thread's own
 * for 0 where this file is compiled with a per-thread default stream. */
static inline gs_status gs__launch_target(const void *kernel, cudaFunction_t *func,
                                          cudaStream_t *stream)
{
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
    if (*stream == 0) /* this file's default stream is its thread's own */
        *stream = cudaStreamPerThread;
#else
    (void)stream;
#endif
    return gs__kernel_func(kernel, func);
}

/* The largest grid of `kernel` (a __global__ function pointer) with
 * `block_threads` threads per block and `dynamic_smem` bytes of dynamic
 * shared memory that the current device can hold resident all at once
 * (occupancy per SM x SMs). Works whichever CUDA runtime the program links
 * (nvcc's default static one, or the shared one). */
static inline gs_status gs_max_coresident_blocks(const void *kernel, int block_threads,
                                                 size_t dynamic_smem, int *max_blocks)
{
    cudaFunction_t func;
    gs_status st = gs__kernel_func(kernel, &func);
    if (st != GS_SUCCESS)
        return st;
    return gs_max_coresident_blocks_func(func, block_threads, dynamic_smem, max_blocks);
}

/* ----------------------------------------------------------- grid barriers */

/* gs_barrier_method (auto, then every method of the registry
 * GS_BARRIER_METHODS) and gs_grid_barrier (the view a kernel receives) are
 * defined in gridsync/barrier_view.h, included above. */

/* "auto", or the method's name in GS_BARRIER_METHODS ("lock", "tree", ...);
 * "unknown" past the last method. */
GS_API const char *gs_barrier_method_name(gs_barrier_method method);

/* Parse a method name; GS_ERR_INVALID_ARGUMENT for an unknown one. */
GS_API gs_status gs_barrier_method_parse(const char *name, gs_barrier_method *method);

typedef struct gs_barrier *gs_barrier_t;

#define GS_BARRIER_DEFAULT_TIMEOUT_NS 2000000000ull /* 2 s */

/* Create a barrier on the current device. Its state serves any grid that
 * can be co-resident on that device, for any number of barriers and
 * launches, with no reset in between.
 * The environment variable GRIDSYNC_BARRIER_TIMEOUT, read here, overrides
 * every time-out of the barrier (the default and gs_barrier_set_timeout):
 * seconds (0.001 .. 3600), or "off" (or 0) for waits without a bound. Turn
 * it up or off when a healthy phase can take longer than the time-out: under
 * a debugger, MPS or time-slicing. With it off, a block that never arrives
 * hangs the kernel until the process is killed. A malformed value makes
 * this call fail with GS_ERR_INVALID_ARGUMENT. */
GS_API gs_status gs_barrier_create(gs_barrier_t *barrier, gs_barrier_method method);

/* Waits for the barrier's last launch and for the last replay launched so
 * far of a graph that captured a launch of it, then frees it. A graph that
 * captured a launch must not be launched after this (its kernels would use
 * freed state). */
GS_API gs_status gs_barrier_destroy(gs_barrier_t barrier);

/* Bound on every wait of this barrier (default 2 s, at least 1 ms; see
 * gs_barrier_create for GRIDSYNC_BARRIER_TIMEOUT, which wins over it). */
GS_API gs_status gs_barrier_set_timeout(gs_barrier_t barrier, double seconds);

/* Tuning knobs of the tree method: grids of at most `flat_max` blocks use
 * one counter, larger ones arrive in groups of `group_size` blocks. Zero keeps
 * the default, which `gridsync bench barrier` measured as fastest. */
GS_API gs_status gs_barrier_set_tree_params(gs_barrier_t barrier, unsigned int flat_max,
                                            unsigned int group_size);

/* Method used for a grid of `blocks` blocks (resolves AUTO). */
GS_API gs_barrier_method gs_barrier_method_for(gs_barrier_t barrier, unsigned int blocks);

/* The view to pass to kernels launched with `blocks` blocks. */
GS_API gs_status gs_barrier_device(gs_barrier_t barrier, unsigned int blocks,
                                   gs_grid_barrier *view);

/* Wait for `stream`, for the barrier's last launch and for the last replay
 * launched so far of a graph that captured a launch of it, then report the
 * barrier's watchdog: GS_SUCCESS, or GS_ERR_BARRIER_TIMEOUT with a detail
 * such as
 *   "barrier #5: 1055/1056 blocks arrived; missing: block 17".
 * After a time-out the state is re-armed so the next launch works. While a
 * check waits, gs_launch on the barrier returns GS_ERR_BUSY (from any
 * thread), and so does a second check; launch graphs that hold the barrier
 * before the check or after it, not during it. */
GS_API gs_status gs_barrier_check(gs_barrier_t barrier, cudaStream_t stream);

/* ------------------------------------------------------------------ signals */

/* A set of 64-bit counters that blocks publish and wait on (device API:
 * gridsync/signal.cuh). Created zeroed on the current device; the values
 * only grow, across any number of launches, with no reset needed. */
typedef struct gs_signals *gs_signals_t;

/* `count` counters (1 .. 2^24). The time-out of every wait is the grid
 * barrier's default (2 s; GRIDSYNC_BARRIER_TIMEOUT overrides it here too). */
GS_API gs_status gs_signals_create(gs_signals_t *signals, unsigned int count);
GS_API gs_status gs_signals_destroy(gs_signals_t signals);
GS_API gs_status gs_signals_set_timeout(gs_signals_t signals, double seconds);

/* The view to pass to kernels. */
GS_API gs_status gs_signals_device(gs_signals_t signals, gs_signal_set *view);

/* Zero every counter and the watchdog record, in stream order (a memset:
 * it can be captured into a CUDA graph). */
GS_API gs_status gs_signals_reset(gs_signals_t signals, cudaStream_t stream);

/* Wait for `stream`, then report the set's watchdog: GS_SUCCESS;
 * GS_ERR_BARRIER_TIMEOUT naming the counter, the waiting block, the value
 * seen and the value expected; or GS_ERR_MISUSE (a store below a counter's
 * value, an index past the set). Either error re-arms the set (zeroes it). */
GS_API gs_status gs_signals_check(gs_signals_t signals, cudaStream_t stream);

/* gs_launch for a driver function handle (see gs_max_coresident_blocks_func):
 * kernels compiled at run time (NVRTC, CuPy, numba-cuda) launch this way. */
GS_API gs_status gs_launch_func(cudaFunction_t func, dim3 grid, dim3 block, size_t dynamic_smem,
                                cudaStream_t stream, void **args, gs_barrier_t barrier);

/* Launch `kernel` so that every block is resident at once: refuses a grid
 * larger than the co-resident maximum for this kernel, block size and
 * dynamic shared memory with GS_ERR_NOT_CORESIDENT ("1100 blocks requested,
 * at most 1056 fit: 132 SMs x 8 blocks of 256 threads"), then launches
 * cooperatively so that the driver guarantees co-scheduling. `args` is the
 * kernel's argument array as for cudaLaunchKernel. Works whichever CUDA
 * runtime the program links. Asynchronous: use gs_barrier_check() to wait
 * and collect a watchdog report.
 * `barrier` may be NULL; if given, it is checked before anything is
 * launched: the grid must fit its capacity, it must belong to the current
 * device, a time-out of an earlier launch must have been collected with
 * gs_barrier_check (GS_ERR_BARRIER_TIMEOUT otherwise), and no launch of it
 * may still be running on another stream (GS_ERR_BUSY: two grids at once
 * would mix their arrivals; launches on one stream are ordered and fine).
 * Inside a stream capture the last check is left to the graph's order. */
static inline gs_status gs_launch(const void *kernel, dim3 grid, dim3 block, size_t dynamic_smem,
                                  cudaStream_t stream, void **args, gs_barrier_t barrier)
{
    cudaFunction_t func;
    gs_status st = gs__launch_target(kernel, &func, &stream);
    if (st != GS_SUCCESS)
        return st;
    return gs_launch_func(func, grid, block, dynamic_smem, stream, args, barrier);
}

/* Explain why `blocks` cannot be resident: fills `buf` with
 * "N blocks requested, at most M fit: S SMs x P blocks of T threads".
 * Pure arithmetic, exposed for tests and tools. */
GS_API void gs_format_coresidency(char *buf, size_t len, long long requested, int sm_count,
                                  int blocks_per_sm, int block_threads);

/* -------------------------------------------------------------- reductions */

/* Element types of the reductions, dot products and scans. The 16-bit
 * floats are IEEE binary16 (CUDA's __half, torch.float16) and bfloat16
 * (__nv_bfloat16, torch.bfloat16); they are summed in float (fp32
 * accumulation), never rounded to 16 bits along the way:
 *   - gs_reduce sum and gs_dot of GS_FLOAT16 or GS_BFLOAT16 return a float
 *     (the fp32 sum itself: a 16-bit result would keep 11 or 8 of its
 *     bits, and f16 ends at 65504: 65,520 ones would sum to inf);
 *   - gs_scan of them writes 16-bit elements, each the fp32 prefix rounded
 *     to the nearest 16-bit value (an f16 prefix past 65504 is inf);
 *   - min, max, argmin and argmax return 16-bit values, exactly as in the
 *     input (a NaN result of min and max is the canonical NaN).
 * gs_reduce_result_type names a reduction's result type. */
typedef enum gs_dtype {
    GS_FLOAT32 = 0,
    GS_FLOAT64 = 1,
    GS_INT32 = 2,
    GS_INT64 = 3,
    GS_UINT32 = 4,   /* unsigned int */
    GS_UINT64 = 5,   /* unsigned long long */
    GS_FLOAT16 = 6,  /* IEEE binary16 (__half) */
    GS_BFLOAT16 = 7, /* bfloat16 (__nv_bfloat16) */
    GS_DTYPE_COUNT = 8
} gs_dtype;

typedef enum gs_reduce_op {
    GS_REDUCE_SUM = 0,
    GS_REDUCE_MIN = 1,    /* NaN propagates: any NaN input gives NaN */
    GS_REDUCE_MAX = 2,    /* NaN propagates */
    GS_REDUCE_ARGMIN = 3, /* value and index of the first minimum (gs_reduce_arg) */
    GS_REDUCE_ARGMAX = 4, /* value and index of the first maximum (gs_reduce_arg) */
    GS_REDUCE_OP_COUNT = 5
} gs_reduce_op;

/* The result of GS_REDUCE_ARGMIN / GS_REDUCE_ARGMAX: the index of the
 * element found and its value, in the member of `value` named by the
 * element type. Ties go to the lowest index; NaN propagates as for min and
 * max: if the input holds a NaN the result is the first NaN (lowest index).
 * -0 and +0 are equal values. An empty input (n == 0) gives index -1 and
 * the identity (+inf / the largest integer for argmin, -inf / the smallest
 * for argmax). */
typedef struct gs_reduce_arg {
    long long index;
    union {
        float f32;
        double f64;
        int i32;
        long long i64;
        unsigned int u32;
        unsigned long long u64;
        uint16_t f16;  /* the bits of a binary16 value (C has no 16-bit float) */
        uint16_t bf16; /* the bits of a bfloat16 value */
    } value;
} gs_reduce_arg;

/* Bytes per element of `type` (0 for an unknown type). */
GS_API size_t gs_dtype_size(gs_dtype type);

/* "f32", "f64", "i32", "i64", "u32", "u64", "f16", "bf16"; "sum", "min",
 * "max", "argmin", "argmax". */
GS_API const char *gs_dtype_name(gs_dtype type);
GS_API const char *gs_reduce_op_name(gs_reduce_op op);

/* The type of the value gs_reduce(op, type, ...) writes: `type` itself,
 * except GS_FLOAT32 for a sum of GS_FLOAT16 or GS_BFLOAT16 (gs_dot's result
 * is a sum's); for argmin and argmax the member of gs_reduce_arg's value
 * that holds it. GS_ERR_INVALID_ARGUMENT for an unknown op or type. */
GS_API gs_status gs_reduce_result_type(gs_reduce_op op, gs_dtype type, gs_dtype *result);

/* Reduce n elements of `type` at device pointer `d_in` with `op`; n may be 0
 * (the result is the identity: 0, +inf / largest integer for min, -inf /
 * smallest for max; see gs_reduce_arg for argmin and argmax). `result`
 * points to one element of `type` (a float for a sum of 16-bit floats:
 * gs_reduce_result_type), or to one gs_reduce_arg for argmin and argmax:
 *   - in device memory: the call is asynchronous on `stream`;
 *   - in host memory (pageable or pinned) or managed memory: the call waits,
 *     and the value is there when it returns (inside a stream capture, where
 *     nothing may wait, only device and managed memory are accepted; the
 *     graph writes the value when it runs).
 * Single pass, one kernel launch: each block reduces its share,
 * publishes it and takes a ticket; the last block combines all partials in a
 * fixed order and resets the ticket. The result is identical from run to run
 * for the same n, input alignment and GPU model: the grid is one wave of the
 * GPU, and an input that is not 16-byte aligned is read element by element,
 * which splits the work differently, so a floating sum of the same values
 * may differ in its last bits between those (integer sums, min, max, argmin
 * and argmax never do). Integer sums wrap. Each stream (each thread's own for cudaStreamPerThread)
 * gets its own workspace, allocated on its first call and recycled once the
 * stream's work is done; calls inside a stream capture take theirs from the
 * graph's memory, so a graph never shares state with other work. Safe from
 * several host threads. Bad input (NULL pointers, n < 0, more elements than
 * device memory holds, host input memory, device memory of a GPU other than
 * the current one (managed memory is anyone's), unknown op or type) returns
 * GS_ERR_INVALID_ARGUMENT and launches nothing. */
GS_API gs_status gs_reduce(gs_reduce_op op, gs_dtype type, const void *d_in, long long n,
                           void *result, cudaStream_t stream);

GS_API gs_status gs_reduce_sum(gs_dtype type, const void *d_in, long long n, void *result,
                               cudaStream_t stream);
GS_API gs_status gs_reduce_min(gs_dtype type, const void *d_in, long long n, void *result,
                               cudaStream_t stream);
GS_API gs_status gs_reduce_max(gs_dtype type, const void *d_in, long long n, void *result,
                               cudaStream_t stream);
GS_API gs_status gs_reduce_argmin(gs_dtype type, const void *d_in, long long n,
                                  gs_reduce_arg *result, cudaStream_t stream);
GS_API gs_status gs_reduce_argmax(gs_dtype type, const void *d_in, long long n,
                                  gs_reduce_arg *result, cudaStream_t stream);

/* Dot product of n elements of x and y (device pointers, both of `type`,
 * any gs_dtype), CUDA by Example's dot (docs/tutorials.md) finished on the
 * GPU in one launch; result as for gs_reduce's sum: one element of `type`,
 * a float for GS_FLOAT16 and GS_BFLOAT16 (each product computed in float,
 * exactly but where a bf16 product leaves float's range; then summed in
 * float). Integer products and sums wrap. */
GS_API gs_status gs_dot(gs_dtype type, const void *x, const void *y, long long n, void *result,
                        cudaStream_t stream);

/* Free the cached reduction (and scan) workspaces of every stream
 * (optional; also safe to never call). Safe at any time: a workspace in use
 * is freed once its call has finished. A scan fault not reported yet
 * (gs_scan_check) is dropped with its stream's workspace. */
GS_API void gs_reduce_release_workspaces(void);

/* ------------------------------------------------------------------- scans */

typedef enum gs_scan_op {
    GS_SCAN_SUM = 0, /* integer sums wrap */
    GS_SCAN_MIN = 1, /* NaN propagates: from the first NaN on, every prefix is NaN */
    GS_SCAN_MAX = 2, /* NaN propagates */
    GS_SCAN_OP_COUNT = 3
} gs_scan_op;

typedef enum gs_scan_kind {
    GS_SCAN_INCLUSIVE = 0, /* out[i] = in[0] op ... op in[i] */
    GS_SCAN_EXCLUSIVE = 1, /* out[i] = in[0] op ... op in[i-1]; out[0] = the identity */
    GS_SCAN_KIND_COUNT = 2
} gs_scan_kind;

/* "sum", "min", "max"; "inclusive", "exclusive". */
GS_API const char *gs_scan_op_name(gs_scan_op op);
GS_API const char *gs_scan_kind_name(gs_scan_kind kind);

/* Prefix scan of n elements of `type` from device pointer `d_in` to
 * `d_out` (device or managed memory; d_out == d_in scans in place; arrays
 * that overlap otherwise are refused), any n from 0. Asynchronous on
 * `stream`; one kernel launch (single pass, decoupled look-back: each tile
 * of elements is read once and written once; on sm_90, where d_in is this
 * GPU's own memory, the launch overlaps the end of the previous kernel on
 * the stream, and the scan's first tiles are prefetched into L2 then,
 * before it waits for that kernel). The identity is 0 for sums,
 * +inf / the largest integer for min, -inf / the smallest for max.
 * Results are bitwise identical from run to run: the order of operations is
 * fixed by n alone (the prefix of tile t is always the left fold of the
 * tiles' aggregates, whatever the look-back saw). A floating sum's out[k] is
 * within gamma(d) * sum |in[j]| (j in the prefix) of the exact prefix, with
 * d = floor(k / 1024) + 64, gamma(d) = d u / (1 - d u) and u = 2^-24 (f32),
 * 2^-53 (f64); an empty prefix is the identity, combined like any other
 * (a sum's -0.0 may come out as +0.0). Sums of GS_FLOAT16 and GS_BFLOAT16
 * run in float with that bound (u = 2^-24) and tiles of the f32 scan's
 * length; each output is then the float prefix rounded to the nearest
 * 16-bit value (a further 2^-11 (f16) or 2^-8 (bf16) of its magnitude,
 * or 2^-25 absolute among f16's subnormals; beyond 65504 an f16 prefix is
 * inf); their min and max are exact.
 * Workspace: the stream's, shared with gs_reduce (allocated or grown on its
 * first call with a larger n, then reused with no clearing; a capture takes
 * its own from the graph, zeroed at each replay). Safe from several host
 * threads. Every wait between tiles is bounded (GRIDSYNC_BARRIER_TIMEOUT,
 * 2 s by default): a scan that gives up leaves the rest of its output
 * unwritten, and the next gs_scan on its stream (in any thread) or
 * gs_scan_check of its stream returns GS_ERR_BARRIER_TIMEOUT with the
 * detail (the first fault, and how many more came before the report). Bad input (NULL pointers with
 * n > 0, n < 0, host memory, device memory of a GPU other than the current
 * one (managed memory is anyone's), overlapping arrays, unknown op, kind or
 * type, more elements than device memory holds) returns
 * GS_ERR_INVALID_ARGUMENT and launches nothing. */
GS_API gs_status gs_scan(gs_scan_op op, gs_scan_kind kind, gs_dtype type, const void *d_in,
                         void *d_out, long long n, cudaStream_t stream);

GS_API gs_status gs_scan_inclusive_sum(gs_dtype type, const void *d_in, void *d_out, long long n,
                                       cudaStream_t stream);
GS_API gs_status gs_scan_exclusive_sum(gs_dtype type, const void *d_in, void *d_out, long long n,
                                       cudaStream_t stream);

/* Wait for `stream`, then report a scan on `stream` (of the current
 * device) that gave up waiting since the last report: GS_ERR_BARRIER_TIMEOUT
 * with the detail, or GS_SUCCESS. Scans captured into CUDA graphs share one
 * record, reported by gs_scan_check of any stream. */
GS_API gs_status gs_scan_check(cudaStream_t stream);

/* ---------------------------------------------------------- matrix multiply */

typedef enum gs_gemm_kernel {
    GS_GEMM_AUTO = 0,    /* the default: GS_GEMM_FAST, or GS_GEMM_SPLITK or GS_GEMM_STREAMK
                            where the shape's tiles of C are too few for the GPU and k is
                            long (whichever the cost model predicts faster); on sm_80+, with
                            16-byte aligned A, B, C, lda, ldb, ldc and n multiples of 4, k of
                            8, m >= 128 and n >= 256, 128 x 256 tiles (unsplit or split-k)
                            instead where they fill the SMs as well */
    GS_GEMM_FAST = 1,    /* register-tiled, double-buffered shared memory, one block per
                            tile of C (never split) */
    GS_GEMM_TILED16 = 2, /* the tutorial's 16x16 tiled kernel (the reference) */
    GS_GEMM_SPLITK = 3,  /* the fast kernel's tiles with k cut into slices, summed in a fixed
                            order (the same bits every run); the split auto would choose, at
                            least 2 slices unless k <= 8. Needs workspace memory (per stream,
                            kept for reuse): slices x the size of C, rounded up to tiles */
    GS_GEMM_STREAMK = 4, /* stream-k: the fast kernel's tiles, every tile's k steps divided
                            evenly among one wave of resident blocks, the partial tiles summed
                            in a fixed order (the same bits every run on a given GPU model).
                            Workspace: 2 tiles per resident block (35 MB on 132 SMs) */
    GS_GEMM_KERNEL_COUNT = 5
} gs_gemm_kernel;

/* "auto", "fast", "tiled16", "splitk", "streamk"; parse returns GS_ERR_INVALID_ARGUMENT
 * for other names. */
GS_API const char *gs_gemm_kernel_name(gs_gemm_kernel kernel);
GS_API gs_status gs_gemm_kernel_parse(const char *name, gs_gemm_kernel *kernel);

/* C = alpha * A * B + beta * C in FP32 (FP32 products and sums: no TF32, no
 * tensor cores; a given shape, kernel and GPU model gives the same bits on
 * every run). Row-major: A is m x k with row stride lda >= k, B is k x n
 * with ldb >= n, C is m x n with ldc >= n; device pointers. Any m, n, k >= 1.
 * beta == 0 never reads C. Asynchronous on `stream`. Bad input (sizes < 1,
 * leading dimensions smaller than the width, NULL or host pointers, device
 * memory of a GPU other than the current one, more rows than a grid can
 * hold) returns GS_ERR_INVALID_ARGUMENT and launches nothing. */
GS_API gs_status gs_sgemm(int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                          int ldb, float beta, float *c, int ldc, cudaStream_t stream);

/* gs_sgemm with a chosen kernel. */
GS_API gs_status gs_sgemm_with(gs_gemm_kernel kernel, int m, int n, int k, float alpha,
                               const float *a, int lda, const float *b, int ldb, float beta,
                               float *c, int ldc, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

/* The rest of the host API, a header per concept (each includes this one,
 * so either may be included first): */
#include "gridsync/pdl_host.h"  /* programmatic dependent launch */
#include "gridsync/halo_host.h" /* halos: tiles' edges as tagged words */

#endif /* GRIDSYNC_H */
