/*
 * dtype_element.cuh - the C++ element type of each gs_dtype (internal, CUDA
 * sources only), for the registries that hold a kernel per element type
 * (src/reduce/reduce.cu, src/reduce/dot.cu, src/scan/scan.cu).
 *
 * for_each_dtype(f) calls f(element<T>(), type) for every gs_dtype in
 * order, T its C++ type: a registry fills its table with it, and a gs_dtype
 * that has no element type here stops the compilation (element_of is
 * incomplete for it), so no table can miss a type.
 */
#ifndef GS_CORE_DTYPE_ELEMENT_CUH
#define GS_CORE_DTYPE_ELEMENT_CUH

#include <gridsync/detail/core/element_types.cuh>

#include "gridsync.h"

static_assert(GS_HAS_16BIT_FLOATS, "the library is compiled with cuda_fp16.h and cuda_bf16.h");

namespace gs__dtypes {

template <int D> struct element_of;
template <> struct element_of<GS_FLOAT32> { typedef float type; };
template <> struct element_of<GS_FLOAT64> { typedef double type; };
template <> struct element_of<GS_INT32> { typedef int type; };
template <> struct element_of<GS_INT64> { typedef long long type; };
template <> struct element_of<GS_UINT32> { typedef unsigned int type; };
template <> struct element_of<GS_UINT64> { typedef unsigned long long type; };
template <> struct element_of<GS_FLOAT16> { typedef __half type; };
template <> struct element_of<GS_BFLOAT16> { typedef __nv_bfloat16 type; };

/* A type as a value: f's argument. */
template <class T>
struct element {
    typedef T type;
};

template <int D = 0, class F>
void for_each_dtype(F &&f)
{
    if constexpr (D < GS_DTYPE_COUNT) {
        f(element<typename element_of<D>::type>(), (gs_dtype)D);
        for_each_dtype<D + 1>(f);
    }
}

} // namespace gs__dtypes

#endif /* GS_CORE_DTYPE_ELEMENT_CUH */
