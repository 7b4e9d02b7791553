/*
 * gridsync/detail/barrier/barrier_dispatch.cuh - from a method to its code
 * (internal): gs_grid_sync's run-time dispatch and the fixed-method entry
 * points, over the specializations of gs::detail::barrier_method (one per
 * method of GS_BARRIER_METHODS, each in its own header, included below).
 *
 * A method listed without a specialization does not compile (the check
 * below, and the dispatch instantiates every method). A view carrying a
 * method this build does not know (a view not filled by gs_barrier_device)
 * is a reported error: thread 0 of each block raises the watchdog record
 * with GS_REC_KIND_BAD_METHOD, the grid leaves, gs_barrier_check says why.
 * It never runs another method instead.
 */
#ifndef GRIDSYNC_DETAIL_BARRIER_DISPATCH_CUH
#define GRIDSYNC_DETAIL_BARRIER_DISPATCH_CUH

#include <gridsync/barrier_view.h>
#include <gridsync/detail/barrier/barrier_flags.cuh>
#include <gridsync/detail/barrier/barrier_flip.cuh>
#include <gridsync/detail/barrier/barrier_lock.cuh>
#include <gridsync/detail/barrier/barrier_lockfree.cuh>
#include <gridsync/detail/barrier/barrier_method.cuh>
#include <gridsync/detail/barrier/barrier_tree.cuh>
#include <gridsync/detail/barrier/barrier_wait.cuh>

#define GS__BARRIER_METHOD_HAS_CODE(constant, name)                                         \
    static_assert(sizeof(gs::detail::barrier_method<constant>) > 0,                         \
                  "barrier method " name " has no gs::detail::barrier_method specialization");
GS_BARRIER_METHODS(GS__BARRIER_METHOD_HAS_CODE)
#undef GS__BARRIER_METHOD_HAS_CODE

namespace gs {
namespace detail {

/* Whether the view's method takes inline path `path` for a grid of n
 * blocks (never, for a method this build does not know: the call reports
 * it). Written as an OR over the methods, each term folding to a constant
 * or one compare, so that the choice compiles to two loop-invariant
 * predicates, as a hand-written condition would. Method values run from 1
 * to GS_BARRIER_METHOD_COUNT - 1. */
template <int Method = 1>
static __device__ __forceinline__ bool takes_path(const gs_grid_barrier *b, unsigned int n,
                                                  barrier_path path)
{
    if constexpr (Method == GS_BARRIER_METHOD_COUNT)
        return false;
    else
        return (b->method == Method & barrier_method<Method>::inline_path(b, n) == path) |
               takes_path<Method + 1>(b, n, path);
}

/* The watchdog's record says which method the view carried; every block
 * leaves at its first barrier. */
static __device__ __forceinline__ int unknown_method(const gs_grid_barrier *b)
{
    if (gs__thread_rank() == 0u)
        gs__raise(b->state, GS_REC_KIND_BAD_METHOD, b->count, gs__block_rank(), b->method);
    return 1;
}

/* The out-of-line part of the view's method. Methods that are always
 * inline (out_of_line_part == false) have none: the call is never made for
 * them, so their code stays out of this function. */
template <int Method = 1>
static __device__ __forceinline__ int out_of_line_for(const gs_grid_barrier *b)
{
    if constexpr (Method == GS_BARRIER_METHOD_COUNT)
        return unknown_method(b);
    else if constexpr (!barrier_method<Method>::out_of_line_part)
        return out_of_line_for<Method + 1>(b);
    else
        return b->method == Method ? barrier_method<Method>::out_of_line(b)
                                   : out_of_line_for<Method + 1>(b);
}

} // namespace detail
} // namespace gs

/* The methods' out-of-line parts (every path_call of an inline_path), in one
 * function, so that a kernel pays their registers once. */
static __device__ __noinline__ int gs__sync_out_of_line(gs__view_core core)
{
    gs_grid_barrier view = gs__view_of(core);
    return gs::detail::out_of_line_for(&view);
}

namespace gs {
namespace detail {

/* Count the barrier, run it, leave the kernel on the watchdog's verdict
 * (block-uniform). */
template <int Method>
static __device__ __forceinline__ void grid_sync_with(gs_grid_barrier *b)
{
    b->count += 1u;
    if (barrier_method<Method>::sync(b))
        asm volatile("exit;");
}

/* gs_grid_sync: the view's method, its inline path when it has one (the
 * block barrier, flip's counter), the call otherwise. */
static __device__ __forceinline__ void grid_sync_any(gs_grid_barrier *b)
{
    unsigned int n = gs__grid_blocks();
    int give_up = 0;
    b->count += 1u;
    if (n > b->capacity) /* methods with per-block words index past the state */
        gs__leave_oversized(b->state, b->count, b->method);
    if (takes_path(b, n, path_block_barrier))
        __syncthreads();
    else if (takes_path(b, n, path_flip_counter))
        give_up = gs__sync_flip(b);
    else
        give_up = gs__sync_out_of_line(gs__core_of(b));
    if (give_up)
        asm volatile("exit;");
}

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_BARRIER_DISPATCH_CUH */
