/*
 * gridsync/detail/reduce/reduce_ops.cuh - the reduction operators sum, min, max,
 * argmin and argmax as small functor types, generic over the element type
 * (float, double, int, unsigned int, long long, unsigned long long, __half,
 * __nv_bfloat16: gridsync/detail/core/element_types.cuh; any other type stops
 * the compilation with one sentence). Public as gs::sum<T>, gs::min<T>,
 * gs::max<T>, gs::argmin<T>, gs::argmax<T> (see gridsync/reduce.cuh); what
 * every operator provides:
 *
 *   typedef ... value_type;   the element type T
 *   typedef ... accumulator;  what is combined: T; float for a sum of
 *                             16-bit floats; argmin's value and index
 *   static accumulator identity();                   op(identity(), a) == a
 *   accumulator operator()(accumulator a, accumulator b) const;   associative
 *   static accumulator lift(T v, long long index);   what element `index` contributes
 *   static T to_value(accumulator a);   sum, min, max: the element a scan
 *                                       writes for a (rounded to 16 bits
 *                                       for a sum of 16-bit floats)
 *
 * NaN rule (min, max): NaN propagates. If any input is NaN the result is NaN,
 * whatever the order of evaluation, so results do not depend on the
 * reduction's shape (fminf/fmaxf would ignore NaNs instead). Integer sums
 * wrap modulo 2^32 / 2^64 (computed unsigned: no undefined behaviour). Min
 * and max of 16-bit floats are exact: they return one of the inputs (a NaN
 * comes out as the canonical NaN on sm_80 and later).
 *
 * argmin, argmax: the accumulator is gs::arg<T>, a value and its index. The
 * result is the first (lowest-index) NaN if there is one (NaN propagates, as
 * for min and max), otherwise the smallest (largest) value, and among equal
 * values (-0 and +0 are equal) the lowest index. That is a total order on
 * (value, index), so the result does not depend on the evaluation order
 * either. The identity has index -1 (compared as unsigned: after every real
 * index) and value +inf (-inf), or the largest (smallest) integer: what an
 * empty input gives.
 */
#ifndef GRIDSYNC_DETAIL_REDUCE_OPS_CUH
#define GRIDSYNC_DETAIL_REDUCE_OPS_CUH

#include <gridsync/detail/core/element_types.cuh>
#include <gridsync/detail/core/memory_order.cuh>
#include <gridsync/detail/core/value_traits.cuh>

namespace gs {
namespace detail {

/* The operators on plain values: an element of type T contributes itself,
 * widened to the accumulator A where that differs (a 16-bit float's sum
 * adds in float); to_value turns an accumulator back into an element, as a
 * scan writes it (rounded to the nearest 16-bit float; else itself). */
template <class T, class A = T>
struct on_values : check_reduction_type<T> {
    typedef T value_type;
    typedef A accumulator;
    static __device__ __forceinline__ A lift(T v, long long) { return convert<A, T>::from(v); }
    static __device__ __forceinline__ T to_value(A a) { return convert<T, A>::from(a); }
};

} // namespace detail

/* Sum; identity 0. Integer sums wrap; sums of 16-bit floats accumulate in
 * float (accumulator: float). */
template <class T>
struct sum : detail::on_values<T, typename detail::sum_accumulator<T>::type> {
    typedef typename detail::sum_accumulator<T>::type accumulator;
    static __device__ __forceinline__ accumulator identity()
    {
        return detail::numeric<accumulator>::zero();
    }
    __device__ __forceinline__ accumulator operator()(accumulator a, accumulator b) const
    {
        return detail::numeric<accumulator>::add(a, b);
    }
};

/* Minimum; identity +inf (largest integer). NaN propagates. */
template <class T>
struct min : detail::on_values<T> {
    static __device__ __forceinline__ T identity() { return detail::numeric<T>::highest(); }
    __device__ __forceinline__ T operator()(T a, T b) const
    {
        return detail::numeric<T>::minimum(a, b);
    }
};

/* Maximum; identity -inf (smallest integer). NaN propagates. */
template <class T>
struct max : detail::on_values<T> {
    static __device__ __forceinline__ T identity() { return detail::numeric<T>::lowest(); }
    __device__ __forceinline__ T operator()(T a, T b) const
    {
        return detail::numeric<T>::maximum(a, b);
    }
};

/* A value and its index: what argmin and argmax combine. Its layout (index,
 * then the value at offset 8, 16 bytes) is gridsync.h's gs_reduce_arg. */
template <class T>
struct arg {
    long long index;
    T value;
};

namespace detail {

/* Whether b comes before a in argmin's order (Smaller) or argmax's: NaN
 * first, then the smaller (larger) value, then the lower index as unsigned
 * (the identity's -1 last). For integers the NaN tests fold away. */
template <bool Smaller, class T>
GS_DEVICE bool arg_before(const arg<T> &b, const arg<T> &a)
{
    if constexpr (!is_reduction_type<T>::value) {
        return false; /* check_reduction_type has said why */
#if GS_HAS_16BIT_FLOATS
    } else if constexpr (sizeof(T) == 2) {
        /* a 16-bit float in float's order: widened exactly (a NaN stays a
         * NaN); the types' own operators may be switched off */
        return arg_before<Smaller>(arg<float>{b.index, convert<float, T>::from(b.value)},
                                   arg<float>{a.index, convert<float, T>::from(a.value)});
#endif
    } else {
        bool b_nan = b.value != b.value, a_nan = a.value != a.value;
        if (b_nan != a_nan)
            return b_nan;
        if (!b_nan && b.value != a.value)
            return Smaller ? b.value < a.value : b.value > a.value;
        return (unsigned long long)b.index < (unsigned long long)a.index;
    }
}

/* argmin and argmax differ only in the order and the identity's value. */
template <class T, bool Smaller>
struct arg_extreme : check_reduction_type<T> {
    typedef T value_type;
    typedef arg<T> accumulator;
    static __device__ __forceinline__ arg<T> identity()
    {
        return arg<T>{-1ll, Smaller ? numeric<T>::highest() : numeric<T>::lowest()};
    }
    static __device__ __forceinline__ arg<T> lift(T v, long long index) { return arg<T>{index, v}; }
    __device__ __forceinline__ arg<T> operator()(arg<T> a, arg<T> b) const
    {
        return arg_before<Smaller>(b, a) ? b : a;
    }
};

/* A value and its index move as two values. */
template <class T>
struct value_traits<arg<T>> {
    static __device__ __forceinline__ arg<T> shuffle_down(unsigned int mask, arg<T> v,
                                                         unsigned int delta)
    {
        return arg<T>{__shfl_down_sync(mask, v.index, delta), __shfl_down_sync(mask, v.value, delta)};
    }
    static __device__ __forceinline__ arg<T> shuffle_up(unsigned int mask, arg<T> v,
                                                       unsigned int delta)
    {
        return arg<T>{__shfl_up_sync(mask, v.index, delta), __shfl_up_sync(mask, v.value, delta)};
    }
    static __device__ __forceinline__ arg<T> shuffle(unsigned int mask, arg<T> v, int src)
    {
        return arg<T>{__shfl_sync(mask, v.index, src), __shfl_sync(mask, v.value, src)};
    }
    static __device__ __forceinline__ arg<T> load_cg(const arg<T> *p)
    {
        return arg<T>{__ldcg(&p->index), __ldcg(&p->value)};
    }
};

} // namespace detail

/* The first smallest value and its index; NaN first. */
template <class T>
struct argmin : detail::arg_extreme<T, true> {};

/* The first largest value and its index; NaN first. */
template <class T>
struct argmax : detail::arg_extreme<T, false> {};

} // namespace gs

#endif /* GRIDSYNC_DETAIL_REDUCE_OPS_CUH */
