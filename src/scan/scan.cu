/*
 * scan.cu - gs_scan: the host side of the single-pass prefix scan and the
 * registry of its kernels.
 *
 * Every operator is one line of `ops` below: its name and, per element
 * type (src/core/dtype_element.cuh) and tiling (short, latency or
 * bandwidth: chosen from n), an instantiation of the agent
 * (gridsync/detail/scan/single_pass_scan.cuh) on its functor (scan_kernels.cuh
 * says which, and which translation unit instantiates it), plus
 * the bandwidth tiling's resident kernel (gridsync/detail/scan/resident_scan.cuh:
 * the same tiles and bits, two tiles a block in shared memory and a warp
 * that looks back while the others work), which runs instead
 * on sm_90 and later, and the short and latency tilings' one-tile kernels
 * (gridsync/detail/scan/single_tile_scan.cuh: the same tiles and bits, one tile
 * a block), which run instead where the grid has one block per tile;
 * inclusive and exclusive are one kernel (an argument).
 * A call: checks (the cheap ones before any CUDA call, so that bad input
 * fails the same with or without a GPU), a workspace for the stream with
 * descriptors for its tiles (src/runtime/workspace.c), one launch. The grid
 * is at most one wave of the kernel (from its occupancy) and never more
 * blocks than tiles; the results do not depend on it.
 *
 * Time-outs: a look-back that gives up writes the fault record of its
 * stream's workspace (host-mapped; gridsync/detail/core/fault_record.h); the
 * next gs_scan on that stream, in any thread, and gs_scan_check of that
 * stream report it, like CUDA's asynchronous errors. Scans captured into
 * graphs share one record, which gs_scan_check of any stream reports.
 */
#include <stdio.h>
#include <stdint.h>

#include <gridsync/detail/reduce/reduce_ops.cuh>
#include <gridsync/detail/scan/resident_scan.cuh>
#include <gridsync/detail/scan/single_pass_scan.cuh>
#include <gridsync/detail/scan/single_tile_scan.cuh>

#include "../core/dtype_element.cuh"
#include "../core/error.h"
#include "../runtime/kernel_shape.h"
#include "../runtime/timeout.h"
#include "../runtime/workspace.h"
#include "scan_kernels.cuh"

/* The kernels of u32, u64, f16 and bf16: instantiated in scan_kernels_added.cu */
GS__SCAN_ADDED_TYPES(GS__SCAN_KERNELS_OF, extern)

namespace {

using gs__scan::kernel_of;
using gs__scan::kernel_rows;
using gs__scan::one_tile_row;
using gs__scan::resident_row;

/* An operator: its name and its kernels per row and element type
 * (gs_dtype's order). */
struct scan_op_entry {
    const char *name;
    const void *kernels[kernel_rows][GS_DTYPE_COUNT];
};

/* The kernels of one row, per element type. */
template <template <class> class Op, int Row>
void kernels_of(const void *(&row)[GS_DTYPE_COUNT])
{
    gs__dtypes::for_each_dtype([&](auto element, gs_dtype type) {
        typedef Op<typename decltype(element)::type> op;
        static_assert(2 * gs::detail::scan_tile_state<typename op::accumulator>::words * 8 <=
                          GS_SCAN_TILE_BYTES,
                      "a tile's descriptors fit");
        row[type] = kernel_of<op, Row>();
    });
}

template <template <class> class Op>
scan_op_entry entry(const char *name)
{
    scan_op_entry e = {name, {}};
    kernels_of<Op, gs::detail::scan_short>(e.kernels[gs::detail::scan_short]);
    kernels_of<Op, gs::detail::scan_latency>(e.kernels[gs::detail::scan_latency]);
    kernels_of<Op, gs::detail::scan_bandwidth>(e.kernels[gs::detail::scan_bandwidth]);
    kernels_of<Op, resident_row>(e.kernels[resident_row]);
    kernels_of<Op, one_tile_row + gs::detail::scan_short>(
        e.kernels[one_tile_row + gs::detail::scan_short]);
    kernels_of<Op, one_tile_row + gs::detail::scan_latency>(
        e.kernels[one_tile_row + gs::detail::scan_latency]);
    return e;
}

/* In the order of gs_scan_op. */
const scan_op_entry ops[] = {
    entry<gs::sum>("sum"),
    entry<gs::min>("min"),
    entry<gs::max>("max"),
};
static_assert(sizeof ops / sizeof ops[0] == GS_SCAN_OP_COUNT, "one entry per gs_scan_op");

/* How n elements of `type` are tiled: which tiling
 * (gridsync/detail/scan/single_pass_scan.cuh decides, from n and the type
 * alone), its elements and its kernel's threads. */
struct scan_tiling {
    int kind; /* gs::detail::scan_tiling_kind */
    long long tile_items;
    int threads;
    int resident_bytes;   /* the resident kernel's shared memory; 0: the tiling has none */
    int resident_threads; /* ... and its threads */
};

template <class T, int Tiling>
scan_tiling tiling_as()
{
    typedef gs::detail::scan_policy<T, Tiling> policy;
    return {Tiling, policy::tile_items, policy::threads,
            policy::resident ? gs::detail::scan_resident_bytes<policy, T>() : 0,
            gs::detail::scan_resident_threads<policy>()};
}

template <class T>
scan_tiling tiling_of(long long n)
{
    switch (gs::detail::scan_tiling_of<T>(n)) {
    case gs::detail::scan_short: return tiling_as<T, gs::detail::scan_short>();
    case gs::detail::scan_latency: return tiling_as<T, gs::detail::scan_latency>();
    default: return tiling_as<T, gs::detail::scan_bandwidth>();
    }
}

scan_tiling tiling_for(gs_dtype type, long long n)
{
    scan_tiling t = {};
    gs__dtypes::for_each_dtype([&](auto element, gs_dtype d) {
        if (d == type)
            t = tiling_of<typename decltype(element)::type>(n);
    });
    return t;
}

/* ------------------------------------------------------- the fault record */

/* GS_ERR_BARRIER_TIMEOUT with the sentence for a fault taken from a record
 * (gs__ws_fault_take): `where` the scan ran ("on this stream", "in a CUDA
 * graph"). */
gs_status fault_report(const char *who, const char *where, const gs__ws_fault *f)
{
    if (!f->described)
        return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                        "%s: %u more scan%s %s gave up after the one last reported (a tile "
                        "waited longer than the time-out, GRIDSYNC_BARRIER_TIMEOUT); their "
                        "output is partly unwritten",
                        who, f->later, f->later == 1 ? "" : "s", where);
    char later[128] = "";
    if (f->later)
        snprintf(later, sizeof later, "; %u later scan%s %s gave up too", f->later,
                 f->later == 1 ? "" : "s", where);
    return gs__fail(GS_ERR_BARRIER_TIMEOUT,
                    "%s: an earlier scan %s (call #%u on its workspace) gave up: tile %u of %u "
                    "waited longer than the time-out for the tiles before it "
                    "(GRIDSYNC_BARRIER_TIMEOUT); that scan's output from tile %u on is not "
                    "written%s",
                    who, where, f->call, f->where, f->of, f->where, later);
}

/* ------------------------------------------------------------ the checks */

/* What needs no CUDA call: the enumerations, n, NULL pointers, overlap. */
gs_status check_arguments(gs_scan_op op, gs_scan_kind kind, gs_dtype type, const void *in,
                          const void *out, long long n)
{
    if ((int)op < 0 || op >= GS_SCAN_OP_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_scan: unknown operation %d", (int)op);
    if ((int)kind < 0 || kind >= GS_SCAN_KIND_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_scan: unknown kind %d (inclusive or exclusive)",
                        (int)kind);
    if ((int)type < 0 || type >= GS_DTYPE_COUNT)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_scan: unknown element type %d", (int)type);
    if (n < 0)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_scan: length must be >= 0, got %lld", n);
    if (n == 0)
        return GS_SUCCESS;
    if (!in)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_scan: input pointer is NULL");
    if (!out)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_scan: output pointer is NULL");
    unsigned long long bytes = (unsigned long long)n * gs_dtype_size(type);
    if ((unsigned long long)n > UINT64_MAX / 16u || (uintptr_t)in > UINTPTR_MAX - bytes ||
        (uintptr_t)out > UINTPTR_MAX - bytes)
        return gs__fail(GS_ERR_INVALID_ARGUMENT, "gs_scan: %lld elements run past the end of memory",
                        n);
    uintptr_t a = (uintptr_t)in, b = (uintptr_t)out;
    if (a != b && a < b + bytes && b < a + bytes)
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_scan: input and output overlap without being the same array (output "
                        "%+lld bytes from the input); give the same pointer for an in-place "
                        "scan, or arrays apart",
                        (long long)(b - a));
    return GS_SUCCESS;
}

} // namespace

extern "C" const char *gs_scan_op_name(gs_scan_op op)
{
    return (int)op >= 0 && op < GS_SCAN_OP_COUNT ? ops[op].name : "unknown";
}

extern "C" const char *gs_scan_kind_name(gs_scan_kind kind)
{
    return kind == GS_SCAN_INCLUSIVE ? "inclusive" : kind == GS_SCAN_EXCLUSIVE ? "exclusive"
                                                                              : "unknown";
}

extern "C" gs_status gs_scan(gs_scan_op op, gs_scan_kind kind, gs_dtype type, const void *d_in,
                             void *d_out, long long n, cudaStream_t stream)
{
    GS_TRY(check_arguments(op, kind, type, d_in, d_out, n));
    if (n == 0)
        return GS_SUCCESS;
    int dev = 0, capturing = 0;
    gs__kernel_shape shape;
    const scan_tiling tiling = tiling_for(type, n);
    const void *kernel = ops[op].kernels[tiling.kind][type];
    int smem = 0, threads = tiling.threads;
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_TRY(gs__kernel_shape_get(dev, kernel, tiling.threads, 0, &shape));
    if (tiling.resident_bytes && shape.early_launch &&
        (long long)((unsigned long long)n * gs_dtype_size(type)) >= GS_TUNE_SCAN_RESIDENT_FROM_BYTES) {
        /* sm_90 and later, past one wave of tiles: the resident kernel (the
         * same bits) where it fits. It comes from this translation unit, as
         * the register kernel does, so shape.early_launch (PTX >= 9.0 on an
         * sm_90 GPU) holds for it too. */
        gs__kernel_shape resident;
        const void *k = ops[op].kernels[resident_row][type];
        GS_TRY(gs__kernel_shape_get(dev, k, tiling.resident_threads, tiling.resident_bytes,
                                    &resident));
        if (resident.per_sm > 0) {
            kernel = k;
            shape = resident;
            smem = tiling.resident_bytes;
            threads = tiling.resident_threads;
        }
    }
    if ((unsigned long long)n > shape.total_bytes / gs_dtype_size(type))
        return gs__fail(GS_ERR_INVALID_ARGUMENT,
                        "gs_scan: %lld elements of %s exceed the device's %.1f GiB", n,
                        gs_dtype_name(type), shape.total_bytes / 1073741824.0);
    const void *pointers[2] = {d_in, d_out};
    int prefetch_input = 0;
    for (int i = 0; i < (d_in == d_out ? 1 : 2); ++i) { /* in place: one array */
        enum cudaMemoryType where = cudaMemoryTypeUnregistered;
        GS_TRY(gs__gpu_memory_on("gs_scan", i == 0 ? "the input" : "the output", pointers[i], dev,
                                 &where));
        if (i == 0) /* the L2 prefetch before the launch wait: this GPU's own memory only */
            prefetch_input = where == cudaMemoryTypeDevice;
    }
    unsigned long long timeout_ns = 0;
    GS_TRY(gs__timeout_default(&timeout_ns));
    GS_TRY(gs__is_capturing(stream, &capturing));

    /* one wave at most, never more blocks than tiles */
    long long tiles = (n + tiling.tile_items - 1) / tiling.tile_items;
    long long wave = (long long)shape.sms * (shape.per_sm > 0 ? shape.per_sm : 1);
    unsigned int blocks = (unsigned int)(tiles < wave ? tiles : wave);
    if (blocks == tiles && tiling.kind != gs::detail::scan_bandwidth)
        /* one block per tile: the one-tile kernel (the same translation
         * unit, tiles and bits; its occupancy does not matter, since no
         * block waits for another to start) */
        kernel = ops[op].kernels[one_tile_row + tiling.kind][type];
    gs__ws_lease ws;
    gs__ws_request request = gs__ws_request_for(stream, dev, capturing, "scan");
    request.counted = blocks;
    request.tagged_bytes = (size_t)tiles * GS_SCAN_TILE_BYTES;
    request.faults = 1;
    GS_TRY(gs__ws_acquire(&request, &ws));
    gs__ws_fault fault;
    if (gs__ws_fault_take(&ws, &fault)) /* an earlier scan on this stream gave up */
        return gs__ws_release(&ws, stream, fault_report("gs_scan", "on this stream", &fault));

    gs::detail::scan_args args;
    args.in = d_in;
    args.out = d_out;
    args.n = n;
    args.descriptors = (unsigned long long *)ws.tagged;
    args.counters = ws.ticket;
    args.fault = ws.fault;
    args.timeout_ns = timeout_ns;
    args.seq = ws.seq;
    args.tiles = (unsigned int)tiles;
    args.exclusive = kind == GS_SCAN_EXCLUSIVE;
    args.prefetch_input = prefetch_input;
    void *params[] = {&args};
    cudaLaunchAttribute attr[1];
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3((unsigned int)threads);
    config.dynamicSmemBytes = (size_t)smem;
    config.stream = stream;
    if (shape.early_launch) {
        attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[0].val.programmaticStreamSerializationAllowed = 1;
        config.attrs = attr;
        config.numAttrs = 1;
    }
    gs_status st = GS_SUCCESS;
    cudaError_t err = cudaLaunchKernelExC(&config, kernel, params);
    if (err != cudaSuccess)
        st = gs__cuda_fail(err, "cudaLaunchKernelExC(gs_scan)", __FILE__, __LINE__);
    return gs__ws_release(&ws, stream, st);
}

extern "C" gs_status gs_scan_inclusive_sum(gs_dtype type, const void *d_in, void *d_out,
                                           long long n, cudaStream_t stream)
{
    return gs_scan(GS_SCAN_SUM, GS_SCAN_INCLUSIVE, type, d_in, d_out, n, stream);
}

extern "C" gs_status gs_scan_exclusive_sum(gs_dtype type, const void *d_in, void *d_out,
                                           long long n, cudaStream_t stream)
{
    return gs_scan(GS_SCAN_SUM, GS_SCAN_EXCLUSIVE, type, d_in, d_out, n, stream);
}

extern "C" gs_status gs_scan_check(cudaStream_t stream)
{
    int dev = 0, found = 0, any = 0;
    gs__ws_lease held;
    gs__ws_fault fault;
    GS_CUDA_TRY(cudaStreamSynchronize(stream));
    GS_CUDA_TRY(cudaGetDevice(&dev));
    GS_TRY(gs__ws_find(stream, dev, &held, &found));
    if (found) {
        any = gs__ws_fault_take(&held, &fault);
        (void)gs__ws_release(&held, stream, GS_SUCCESS);
    }
    if (any)
        return fault_report("gs_scan_check", "on this stream", &fault);
    if (gs__ws_graph_fault_take(&fault))
        return fault_report("gs_scan_check", "in a CUDA graph", &fault);
    return GS_SUCCESS;
}
