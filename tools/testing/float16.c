/* float16.c - binary16 and bfloat16 to and from double (float16.h). Both
 * are IEEE-style formats: a sign, E exponent bits (bias 2^(E-1) - 1) and F
 * fraction bits; binary16 has E = 5, F = 10, bfloat16 E = 8, F = 7. */
#include "testing/float16.h"

#include <math.h>

/* A format: its fraction bits and its exponent bias (the largest finite
 * exponent; the smallest normal one is 1 - bias). */
typedef struct small_float {
    int fraction_bits, bias;
} small_float;

static const small_float f16 = {10, 15};
static const small_float bf16 = {7, 127};

static double to_double(small_float f, uint16_t bits)
{
    const int exponent_mask = 2 * f.bias + 1;
    const int e = (bits >> f.fraction_bits) & exponent_mask;
    const double fraction = (double)(bits & ((1u << f.fraction_bits) - 1u));
    double a;
    if (e == exponent_mask)
        a = fraction != 0.0 ? NAN : INFINITY;
    else if (e == 0) /* subnormal: fraction x 2^(1 - bias - F) */
        a = ldexp(fraction, 1 - f.bias - f.fraction_bits);
    else
        a = ldexp(fraction + ldexp(1.0, f.fraction_bits), e - f.bias - f.fraction_bits);
    return bits & 0x8000u ? -a : a;
}

static uint16_t from_double(small_float f, double x)
{
    const uint16_t sign = signbit(x) ? 0x8000u : 0u;
    const unsigned int exponent_mask = 2u * (unsigned int)f.bias + 1u;
    const uint16_t infinity = (uint16_t)(exponent_mask << f.fraction_bits);
    if (isnan(x))
        return (uint16_t)(sign | infinity | (1u << (f.fraction_bits - 1)));
    const double a = fabs(x);
    if (isinf(a))
        return (uint16_t)(sign | infinity);
    int e = 0;
    (void)frexp(a, &e); /* a = m 2^e, m in [0.5, 1): a's exponent is e - 1 */
    /* the unit of the last place at a's exponent, no smaller than the
     * subnormals' */
    const int exponent = a == 0.0 || e - 1 < 1 - f.bias ? 1 - f.bias : e - 1;
    const double q = nearbyint(ldexp(a, f.fraction_bits - exponent)); /* ties to even */
    /* q in [0, 2^(F+1)]: 2^(F+1) carries into the next exponent */
    const double significand = ldexp(q, exponent - f.fraction_bits);
    int e2 = 0;
    (void)frexp(significand, &e2);
    if (significand == 0.0)
        return sign;
    if (e2 - 1 > f.bias)
        return (uint16_t)(sign | infinity);
    if (e2 - 1 < 1 - f.bias) /* subnormal: the fraction is the count of units */
        return (uint16_t)(sign | (uint16_t)ldexp(significand, f.bias - 1 + f.fraction_bits));
    const unsigned int biased = (unsigned int)(e2 - 1 + f.bias);
    const double units = ldexp(significand, f.fraction_bits - (e2 - 1)); /* 2^F .. 2^(F+1) */
    const unsigned int fraction = (unsigned int)(units - ldexp(1.0, f.fraction_bits));
    return (uint16_t)(sign | (biased << f.fraction_bits) | fraction);
}

double gs_f16_to_double(uint16_t bits) { return to_double(f16, bits); }
double gs_bf16_to_double(uint16_t bits) { return to_double(bf16, bits); }
uint16_t gs_f16_from_double(double x) { return from_double(f16, x); }
uint16_t gs_bf16_from_double(double x) { return from_double(bf16, x); }
