/*
 * gridsync/detail/reduce/single_pass_input.cuh - where a single pass reads its
 * elements and what each contributes (internal; the agent is in
 * gridsync/detail/reduce/single_pass.cuh).
 *
 * An input reads one array (reduce, argmin) or two of the same length (a
 * dot) as 16-byte vectors when every array is 16-byte aligned, and element
 * by element otherwise. A transform turns the element(s) at an index into
 * what the reduction combines:
 *   lift<Op>   Op::lift(v, index): the value itself (sum, min, max), or the
 *              value with its index (argmin, argmax);
 *   product    x * y (a dot), in the sum's accumulator.
 * Kernels take an input by value; its layout is that of an array of its
 * pointers, which is how the host passes it (one_input: {in},
 * two_inputs: {x, y}).
 */
#ifndef GRIDSYNC_DETAIL_SINGLE_PASS_INPUT_CUH
#define GRIDSYNC_DETAIL_SINGLE_PASS_INPUT_CUH

#include <gridsync/detail/core/element_types.cuh>

namespace gs {
namespace detail {

/* The 16-byte vector of an element type: 4 elements of 4 bytes, 2 of 8,
 * or 8 of 2 (16-bit floats, in a uint4: element 2k in the low half of
 * word k, as the GPU's little-endian memory holds them). */
template <class T> struct vector16;
template <> struct vector16<float> { typedef float4 type; };
template <> struct vector16<double> { typedef double2 type; };
template <> struct vector16<int> { typedef int4 type; };
template <> struct vector16<unsigned int> { typedef uint4 type; };
template <> struct vector16<long long> { typedef longlong2 type; };
template <> struct vector16<unsigned long long> { typedef ulonglong2 type; };
#if GS_HAS_16BIT_FLOATS
template <> struct vector16<__half> { typedef uint4 type; };
template <> struct vector16<__nv_bfloat16> { typedef uint4 type; };
#endif

/* Component J of a vector. */
template <int J, class V>
static __device__ __forceinline__ auto component(const V &v)
{
    if constexpr (J == 0)
        return v.x;
    else if constexpr (J == 1)
        return v.y;
    else if constexpr (J == 2)
        return v.z;
    else
        return v.w;
}

/* Element J of T's 16-byte vector. */
template <int J, class T, class V>
static __device__ __forceinline__ T element(const V &v)
{
#if GS_HAS_16BIT_FLOATS
    if constexpr (sizeof(T) == 2) {
        const unsigned int word = component<J / 2>(v);
        return bits16<T>::from((unsigned short)(J % 2 ? word >> 16 : word & 0xffffu));
    } else
#endif
        return component<J>(v);
}

#if GS_HAS_16BIT_FLOATS
/* Two 16-bit floats as one word of their vector: a in the low half. */
template <class T>
static __device__ __forceinline__ unsigned int pair16(T a, T b)
{
    return (unsigned int)bits16<T>::to(a) | ((unsigned int)bits16<T>::to(b) << 16);
}
#endif

/* One array. */
template <class T>
struct one_input {
    typedef typename vector16<T>::type vector;
    static constexpr int width = (int)(sizeof(vector) / sizeof(T)); /* elements per vector */
    struct item {
        vector v;
    };
    const T *in;

    __device__ __forceinline__ bool aligned() const { return ((unsigned long long)in & 15ull) == 0ull; }
    /* vector i, streaming (ld.global.cs: read once, evict first) */
    __device__ __forceinline__ item load(long long i) const
    {
        return item{__ldcs((const vector *)in + i)};
    }
    /* f(index, element J of the item) */
    template <int J, class F>
    __device__ __forceinline__ auto apply(const item &it, long long index, F f) const
    {
        return f(index, element<J, T>(it.v));
    }
    /* f(index, element `index`), read element by element */
    template <class F>
    __device__ __forceinline__ auto apply_at(long long index, F f) const
    {
        return f(index, in[index]);
    }
};

/* Two arrays of one length, read in step. */
template <class T>
struct two_inputs {
    typedef typename vector16<T>::type vector;
    static constexpr int width = (int)(sizeof(vector) / sizeof(T));
    struct item {
        vector x, y;
    };
    const T *x, *y;

    __device__ __forceinline__ bool aligned() const
    {
        return (((unsigned long long)x | (unsigned long long)y) & 15ull) == 0ull;
    }
    __device__ __forceinline__ item load(long long i) const
    {
        return item{__ldcs((const vector *)x + i), __ldcs((const vector *)y + i)};
    }
    template <int J, class F>
    __device__ __forceinline__ auto apply(const item &it, long long index, F f) const
    {
        return f(index, element<J, T>(it.x), element<J, T>(it.y));
    }
    template <class F>
    __device__ __forceinline__ auto apply_at(long long index, F f) const
    {
        return f(index, x[index], y[index]);
    }
};

/* An element's contribution through the operator: Op::lift(v, index). */
template <class Op>
struct lift {
    __device__ __forceinline__ typename Op::accumulator operator()(long long index,
                                                                   typename Op::value_type v) const
    {
        return Op::lift(v, index);
    }
};

/* A pair's product: the terms of a dot, in the sum's accumulator (float
 * for 16-bit floats: widened exactly, multiplied, rounded once, then
 * summed; integer products wrap). */
template <class T>
struct product {
    typedef typename sum_accumulator<T>::type A;
    __device__ __forceinline__ A operator()(long long, T x, T y) const
    {
        return numeric<A>::mul(convert<A, T>::from(x), convert<A, T>::from(y));
    }
};

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_SINGLE_PASS_INPUT_CUH */
