/*
 * gridsync/detail/core/value_traits.cuh - how the reductions and scans move a
 * value they combine (internal): shuffles down, up and from one lane of the
 * warp, and an L2-coherent load (ld.global.cg). The general form covers the
 * element types (gridsync/detail/core/element_types.cuh: CUDA's shuffles and
 * __ldcg take each of them, the 16-bit floats through cuda_fp16.h's and
 * cuda_bf16.h's overloads); a compound accumulator (argmin's value and
 * index) specializes it.
 */
#ifndef GRIDSYNC_DETAIL_VALUE_TRAITS_CUH
#define GRIDSYNC_DETAIL_VALUE_TRAITS_CUH

#include <gridsync/detail/core/element_types.cuh>

namespace gs {
namespace detail {

template <class T>
struct value_traits {
    static __device__ __forceinline__ T shuffle_down(unsigned int mask, T v, unsigned int delta)
    {
        return __shfl_down_sync(mask, v, delta);
    }
    static __device__ __forceinline__ T shuffle_up(unsigned int mask, T v, unsigned int delta)
    {
        return __shfl_up_sync(mask, v, delta);
    }
    /* the value of lane `src` */
    static __device__ __forceinline__ T shuffle(unsigned int mask, T v, int src)
    {
        return __shfl_sync(mask, v, src);
    }
    /* ld.global.cg: from L2, never a stale L1 line (another block wrote it) */
    static __device__ __forceinline__ T load_cg(const T *p) { return __ldcg(p); }
};

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_VALUE_TRAITS_CUH */
