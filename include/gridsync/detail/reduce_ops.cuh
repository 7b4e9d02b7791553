/*
 * gridsync/detail/reduce_ops.cuh - the reduction operators sum, min, max,
 * argmin and argmax as small functor types, generic over the element type
 * (float, double, int, long long). Public as gs::sum<T>, gs::min<T>,
 * gs::max<T>, gs::argmin<T>, gs::argmax<T> (see gridsync/reduce.cuh); what
 * every operator provides:
 *
 *   typedef ... value_type;   the element type T
 *   typedef ... accumulator;  what is combined (T here; argmin's value and index)
 *   static accumulator identity();                   op(identity(), a) == a
 *   accumulator operator()(accumulator a, accumulator b) const;   associative
 *   static accumulator lift(T v, long long index);   what element `index` contributes
 *
 * NaN rule (min, max): NaN propagates. If any input is NaN the result is NaN,
 * whatever the order of evaluation, so results do not depend on the
 * reduction's shape (fminf/fmaxf would ignore NaNs instead). Integer sums
 * wrap modulo 2^32 / 2^64 (computed unsigned: no undefined behaviour).
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

#include <gridsync/detail/memory_order.cuh>
#include <gridsync/detail/value_traits.cuh>

namespace gs {
namespace detail {

GS_DEVICE float add(float a, float b) { return a + b; }
GS_DEVICE double add(double a, double b) { return a + b; }
GS_DEVICE int add(int a, int b) { return (int)((unsigned int)a + (unsigned int)b); }
GS_DEVICE long long add(long long a, long long b)
{
    return (long long)((unsigned long long)a + (unsigned long long)b);
}

/* Floating min/max with NaN propagation: a NaN operand is the result. */
template <class T>
GS_DEVICE T nan_min(T a, T b)
{
    return a != a ? a : b != b ? b : b < a ? b : a;
}
template <class T>
GS_DEVICE T nan_max(T a, T b)
{
    return a != a ? a : b != b ? b : b > a ? b : a;
}
/* sm_80 and later have a NaN-propagating min/max instruction (min.NaN.f32):
 * one instruction instead of three compares and selects. */
GS_DEVICE float minimum(float a, float b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return nan_min(a, b);
#endif
}
GS_DEVICE double minimum(double a, double b) { return nan_min(a, b); }
GS_DEVICE int minimum(int a, int b) { return b < a ? b : a; }
GS_DEVICE long long minimum(long long a, long long b) { return b < a ? b : a; }
GS_DEVICE float maximum(float a, float b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
#else
    return nan_max(a, b);
#endif
}
GS_DEVICE double maximum(double a, double b) { return nan_max(a, b); }
GS_DEVICE int maximum(int a, int b) { return b > a ? b : a; }
GS_DEVICE long long maximum(long long a, long long b) { return b > a ? b : a; }

/* The largest and smallest values: +-inf for floating types. */
GS_DEVICE float highest(float) { return __int_as_float(0x7f800000); }
GS_DEVICE double highest(double) { return __longlong_as_double(0x7ff0000000000000ll); }
GS_DEVICE int highest(int) { return 0x7fffffff; }
GS_DEVICE long long highest(long long) { return 0x7fffffffffffffffll; }
GS_DEVICE float lowest(float) { return __int_as_float((int)0xff800000); }
GS_DEVICE double lowest(double) { return __longlong_as_double((long long)0xfff0000000000000ull); }
GS_DEVICE int lowest(int) { return -0x7fffffff - 1; }
GS_DEVICE long long lowest(long long) { return -0x7fffffffffffffffll - 1ll; }

/* The operators on plain values: accumulator and element are one type, and
 * an element contributes itself. */
template <class T>
struct on_values {
    typedef T value_type;
    typedef T accumulator;
    static __device__ __forceinline__ T lift(T v, long long) { return v; }
};

} // namespace detail

/* Sum; identity 0. Integer sums wrap. */
template <class T>
struct sum : detail::on_values<T> {
    static __device__ __forceinline__ T identity() { return T(0); }
    __device__ __forceinline__ T operator()(T a, T b) const { return detail::add(a, b); }
};

/* Minimum; identity +inf (largest integer). NaN propagates. */
template <class T>
struct min : detail::on_values<T> {
    static __device__ __forceinline__ T identity() { return detail::highest(T()); }
    __device__ __forceinline__ T operator()(T a, T b) const { return detail::minimum(a, b); }
};

/* Maximum; identity -inf (smallest integer). NaN propagates. */
template <class T>
struct max : detail::on_values<T> {
    static __device__ __forceinline__ T identity() { return detail::lowest(T()); }
    __device__ __forceinline__ T operator()(T a, T b) const { return detail::maximum(a, b); }
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
    bool b_nan = b.value != b.value, a_nan = a.value != a.value;
    if (b_nan != a_nan)
        return b_nan;
    if (!b_nan && b.value != a.value)
        return Smaller ? b.value < a.value : b.value > a.value;
    return (unsigned long long)b.index < (unsigned long long)a.index;
}

/* argmin and argmax differ only in the order and the identity's value. */
template <class T, bool Smaller>
struct arg_extreme {
    typedef T value_type;
    typedef arg<T> accumulator;
    static __device__ __forceinline__ arg<T> identity()
    {
        return arg<T>{-1ll, Smaller ? highest(T()) : lowest(T())};
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
