/*
 * gridsync/detail/core/element_types.cuh - the element types of the reductions
 * and scans (internal): which types they take, and the arithmetic each
 * operator needs on them, one traits struct per type (gs::detail::numeric).
 *
 * The types: float, double, int, unsigned int, long long, unsigned long
 * long, and the 16-bit floats __half and __nv_bfloat16 (cuda_fp16.h,
 * cuda_bf16.h). The 16-bit floats are here with nvcc always, and under
 * NVRTC where those two headers are on the include path (NVRTC has no
 * copy of its own: pass -I<CUDA>/include); __has_include finds out.
 * GS_HAS_16BIT_FLOATS says which (1 or 0; define it to 0 before the first
 * gridsync header to leave them out). Everything on them goes through the
 * CUDA intrinsics (__half2float, __hisnan, ...), never through the types'
 * operators and conversions, so that __CUDA_NO_HALF_OPERATORS__,
 * __CUDA_NO_HALF_CONVERSIONS__ and their bfloat16 twins (PyTorch's
 * extensions define them) change nothing.
 *
 * Sums of 16-bit floats accumulate in float (sum_accumulator): their
 * partial sums never round to 16 bits, and a sum past 65504 (f16's largest
 * value) stays finite. Min and max compare the values themselves (exactly:
 * every 16-bit value is a float).
 *
 * NVRTC: no #include of the C library here (cuda_fp16.h and cuda_bf16.h
 * include none under NVRTC).
 */
#ifndef GRIDSYNC_DETAIL_ELEMENT_TYPES_CUH
#define GRIDSYNC_DETAIL_ELEMENT_TYPES_CUH

#ifndef GS_HAS_16BIT_FLOATS
#if defined(__CUDACC_RTC__)
#if defined(__has_include)
#if __has_include(<cuda_fp16.h>) && __has_include(<cuda_bf16.h>)
#define GS_HAS_16BIT_FLOATS 1
#endif
#endif
#elif defined(__CUDACC__)
#define GS_HAS_16BIT_FLOATS 1
#endif
#endif
#ifndef GS_HAS_16BIT_FLOATS
#define GS_HAS_16BIT_FLOATS 0
#endif

#if GS_HAS_16BIT_FLOATS
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

/* Every element type as X(suffix, T, what its sum adds up in): the list
 * the C-style names of gridsync/reduce.cuh and gridsync/scan.cuh are made
 * from. */
#if GS_HAS_16BIT_FLOATS
#define GS__16BIT_ELEMENT_TYPES(X) X(f16, __half, float) X(bf16, __nv_bfloat16, float)
#else
#define GS__16BIT_ELEMENT_TYPES(X)
#endif
#define GS__ELEMENT_TYPES(X)                                                                   \
    X(f32, float, float)                                                                       \
    X(f64, double, double)                                                                     \
    X(i32, int, int)                                                                           \
    X(u32, unsigned int, unsigned int)                                                         \
    X(i64, long long, long long)                                                               \
    X(u64, unsigned long long, unsigned long long)                                             \
    GS__16BIT_ELEMENT_TYPES(X)

namespace gs {
namespace detail {

/* Whether A and B are one type (no <type_traits> under NVRTC). */
template <class A, class B>
struct same_type {
    static constexpr bool value = false;
};
template <class A>
struct same_type<A, A> {
    static constexpr bool value = true;
};

/* The accumulator an operator declares (reduce_ops.cuh), or void for a
 * user's own functor that declares none. */
template <class...>
struct make_void {
    typedef void type;
};
template <class Op, class = void>
struct accumulator_of {
    typedef void type;
};
template <class Op>
struct accumulator_of<Op, typename make_void<typename Op::accumulator>::type> {
    typedef typename Op::accumulator type;
};

/* First in every warp and block reduction and scan: the values combined
 * are the operator's accumulator. A __half passed to gs::sum<__half>
 * (which adds in float) would otherwise be rounded to 16 bits at every
 * step, silently. */
template <class Op, class T>
static __device__ __forceinline__ void check_combined()
{
    typedef typename accumulator_of<Op>::type A;
    static_assert(same_type<A, void>::value || same_type<A, T>::value,
                  "gridsync: the values combined must be the operator's accumulator "
                  "(Op::accumulator): float for gs::sum<__half> and gs::sum<__nv_bfloat16>, "
                  "gs::arg<T> for gs::argmin<T> and gs::argmax<T>; Op::lift(v, index) makes "
                  "one from an element");
}

/* Whether the reductions and scans take T. */
template <class T>
struct is_reduction_type {
    static constexpr bool value = false;
};
template <> struct is_reduction_type<float> { static constexpr bool value = true; };
template <> struct is_reduction_type<double> { static constexpr bool value = true; };
template <> struct is_reduction_type<int> { static constexpr bool value = true; };
template <> struct is_reduction_type<unsigned int> { static constexpr bool value = true; };
template <> struct is_reduction_type<long long> { static constexpr bool value = true; };
template <> struct is_reduction_type<unsigned long long> { static constexpr bool value = true; };
#if GS_HAS_16BIT_FLOATS
template <> struct is_reduction_type<__half> { static constexpr bool value = true; };
template <> struct is_reduction_type<__nv_bfloat16> { static constexpr bool value = true; };
#endif

/* What every operator checks of its element type, first (reduce_ops.cuh):
 * one sentence instead of errors from deep inside the arithmetic. */
template <class T>
struct check_reduction_type {
    static_assert(is_reduction_type<T>::value,
                  "gridsync: reductions take float, double, int, unsigned int, long long, "
                  "unsigned long long, __half and __nv_bfloat16");
};

/* What a sum of T adds up in: T, except float for the 16-bit floats. */
template <class T>
struct sum_accumulator {
    typedef T type;
};
#if GS_HAS_16BIT_FLOATS
template <> struct sum_accumulator<__half> { typedef float type; };
template <> struct sum_accumulator<__nv_bfloat16> { typedef float type; };
#endif

/* A value of From as a To: itself where the types are one; a 16-bit float
 * widened exactly to float, a float rounded to the nearest 16-bit value
 * (ties to even; beyond the largest finite one: infinity). */
template <class To, class From>
struct convert {
    static __device__ __forceinline__ To from(From v) { return v; }
};
#if GS_HAS_16BIT_FLOATS
template <> struct convert<float, __half> {
    static __device__ __forceinline__ float from(__half v) { return __half2float(v); }
};
template <> struct convert<__half, float> {
    static __device__ __forceinline__ __half from(float v) { return __float2half_rn(v); }
};
template <> struct convert<float, __nv_bfloat16> {
    static __device__ __forceinline__ float from(__nv_bfloat16 v) { return __bfloat162float(v); }
};
template <> struct convert<__nv_bfloat16, float> {
    static __device__ __forceinline__ __nv_bfloat16 from(float v) { return __float2bfloat16_rn(v); }
};
#endif

/* Floating min/max with NaN propagation: a NaN operand is the result. */
template <class T>
static __device__ __forceinline__ T nan_min(T a, T b)
{
    return a != a ? a : b != b ? b : b < a ? b : a;
}
template <class T>
static __device__ __forceinline__ T nan_max(T a, T b)
{
    return a != a ? a : b != b ? b : b > a ? b : a;
}

/*
 * The arithmetic of one element type:
 *   zero(), highest(), lowest()   0; +inf / the largest integer; -inf / the smallest
 *   add(a, b), mul(a, b)          integers wrap (computed unsigned: no undefined behaviour)
 *   minimum(a, b), maximum(a, b)  NaN propagates
 * The general form is for types the reductions do not take: it does
 * nothing useful and says nothing, so that an operator's one sentence
 * (check_reduction_type) is the only error.
 */
template <class T>
struct numeric {
    static __device__ __forceinline__ T zero() { return T(); }
    static __device__ __forceinline__ T highest() { return T(); }
    static __device__ __forceinline__ T lowest() { return T(); }
    static __device__ __forceinline__ T add(T a, T) { return a; }
    static __device__ __forceinline__ T mul(T a, T) { return a; }
    static __device__ __forceinline__ T minimum(T a, T) { return a; }
    static __device__ __forceinline__ T maximum(T a, T) { return a; }
};

/* Integers: wrapping sums and products, plain comparisons. U is the
 * unsigned type of T's width, in which they wrap. */
template <class T, class U, T Highest, T Lowest>
struct integer_numeric {
    static __device__ __forceinline__ T zero() { return T(0); }
    static __device__ __forceinline__ T highest() { return Highest; }
    static __device__ __forceinline__ T lowest() { return Lowest; }
    static __device__ __forceinline__ T add(T a, T b) { return (T)((U)a + (U)b); }
    static __device__ __forceinline__ T mul(T a, T b) { return (T)((U)a * (U)b); }
    static __device__ __forceinline__ T minimum(T a, T b) { return b < a ? b : a; }
    static __device__ __forceinline__ T maximum(T a, T b) { return b > a ? b : a; }
};

template <>
struct numeric<int> : integer_numeric<int, unsigned int, 0x7fffffff, -0x7fffffff - 1> {};
template <>
struct numeric<unsigned int> : integer_numeric<unsigned int, unsigned int, 0xffffffffu, 0u> {};
template <>
struct numeric<long long> : integer_numeric<long long, unsigned long long, 0x7fffffffffffffffll,
                                            -0x7fffffffffffffffll - 1ll> {};
template <>
struct numeric<unsigned long long>
    : integer_numeric<unsigned long long, unsigned long long, 0xffffffffffffffffull, 0ull> {};

template <>
struct numeric<float> {
    static __device__ __forceinline__ float zero() { return 0.0f; }
    static __device__ __forceinline__ float highest() { return __int_as_float(0x7f800000); }
    static __device__ __forceinline__ float lowest() { return __int_as_float((int)0xff800000); }
    static __device__ __forceinline__ float add(float a, float b) { return a + b; }
    static __device__ __forceinline__ float mul(float a, float b) { return a * b; }
    /* sm_80 and later have a NaN-propagating min/max instruction
     * (min.NaN.f32): one instruction instead of three compares and selects. */
    static __device__ __forceinline__ float minimum(float a, float b)
    {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        float r;
        asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
        return r;
#else
        return nan_min(a, b);
#endif
    }
    static __device__ __forceinline__ float maximum(float a, float b)
    {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        float r;
        asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
        return r;
#else
        return nan_max(a, b);
#endif
    }
};

template <>
struct numeric<double> {
    static __device__ __forceinline__ double zero() { return 0.0; }
    static __device__ __forceinline__ double highest()
    {
        return __longlong_as_double(0x7ff0000000000000ll);
    }
    static __device__ __forceinline__ double lowest()
    {
        return __longlong_as_double((long long)0xfff0000000000000ull);
    }
    static __device__ __forceinline__ double add(double a, double b) { return a + b; }
    static __device__ __forceinline__ double mul(double a, double b) { return a * b; }
    static __device__ __forceinline__ double minimum(double a, double b) { return nan_min(a, b); }
    static __device__ __forceinline__ double maximum(double a, double b) { return nan_max(a, b); }
};

#if GS_HAS_16BIT_FLOATS
/* The bits of a 16-bit float, and back. */
template <class T> struct bits16;
template <> struct bits16<__half> {
    static __device__ __forceinline__ unsigned short to(__half v) { return __half_as_ushort(v); }
    static __device__ __forceinline__ __half from(unsigned short b) { return __ushort_as_half(b); }
};
template <> struct bits16<__nv_bfloat16> {
    static __device__ __forceinline__ unsigned short to(__nv_bfloat16 v)
    {
        return __bfloat16_as_ushort(v);
    }
    static __device__ __forceinline__ __nv_bfloat16 from(unsigned short b)
    {
        return __ushort_as_bfloat16(b);
    }
};

/* The 16-bit floats' min and max: infinities from their bits, and
 * __hmin_nan / __hmax_nan (min.NaN.f16 / .bf16 on sm_80 and later, the
 * same rule emulated before; exact, a NaN result is the canonical NaN).
 * Their sums and products are float's (sum_accumulator, product). */
template <class T, unsigned short Inf>
struct half_numeric {
    static __device__ __forceinline__ T highest() { return bits16<T>::from(Inf); }
    static __device__ __forceinline__ T lowest()
    {
        return bits16<T>::from((unsigned short)(Inf | 0x8000u));
    }
    static __device__ __forceinline__ T minimum(T a, T b) { return __hmin_nan(a, b); }
    static __device__ __forceinline__ T maximum(T a, T b) { return __hmax_nan(a, b); }
};

template <> struct numeric<__half> : half_numeric<__half, 0x7c00u> {};
template <> struct numeric<__nv_bfloat16> : half_numeric<__nv_bfloat16, 0x7f80u> {};
#endif

} // namespace detail
} // namespace gs

#endif /* GRIDSYNC_DETAIL_ELEMENT_TYPES_CUH */
