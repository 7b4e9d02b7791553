/*
 * gridsync/detail/reduce_ops.cuh - the reduction operators sum, min and max
 * as small functor types, generic over the element type (float, double,
 * int, long long). Public as gs::sum<T>, gs::min<T>, gs::max<T> (see
 * gridsync/reduce.cuh); what every operator provides:
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
 */
#ifndef GRIDSYNC_DETAIL_REDUCE_OPS_CUH
#define GRIDSYNC_DETAIL_REDUCE_OPS_CUH

#include <gridsync/detail/memory_order.cuh>

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

} // namespace gs

#endif /* GRIDSYNC_DETAIL_REDUCE_OPS_CUH */
