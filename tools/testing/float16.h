/* float16.h - the 16-bit floats on the host (C has none): IEEE binary16
 * (CUDA's __half, GS_FLOAT16) and bfloat16 (__nv_bfloat16, GS_BFLOAT16) as
 * their bits, to and from double. For the CPU references and the tests
 * that fill 16-bit inputs and read 16-bit results. */
#ifndef GS_TESTING_FLOAT16_H
#define GS_TESTING_FLOAT16_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The value of 16-bit float bits, exactly (every one is a double). */
double gs_f16_to_double(uint16_t bits);
double gs_bf16_to_double(uint16_t bits);

/* x rounded to the nearest 16-bit float, ties to even, as the GPU's
 * __float2half_rn / __float2bfloat16_rn round (one rounding from x: for x
 * a float, the same result); beyond the largest finite value (f16: at or
 * past 65520) infinity; a NaN is a quiet NaN of x's sign. */
uint16_t gs_f16_from_double(double x);
uint16_t gs_bf16_from_double(double x);

#ifdef __cplusplus
}
#endif

#endif
