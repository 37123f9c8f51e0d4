/* convert.c - the scalar format conversions of the public API.
 *
 * The encoders are the same inline functions (internal.h) that the op loops use, so the
 * exhaustive test of ptort_f32_to_e4m3 / ptort_f32_to_e2m1 covers the kernels' code.
 */
#include "internal.h"

float ptort_f16_to_f32(uint16_t h)
{
    return u2f(f16_bits_to_f32_bits(h));
}

uint16_t ptort_f32_to_f16(float f)
{
    return f32_to_f16_bits(f);
}

float ptort_bf16_to_f32(uint16_t b)
{
    return u2f((uint32_t)b << 16);
}

uint16_t ptort_f32_to_bf16(float f)
{
    return f32_to_bf16_bits(f);
}

uint8_t ptort_f32_to_e4m3(float f)
{
    return e4m3_encode(f);
}

uint8_t ptort_f32_to_e2m1(float f)
{
    return e2m1_encode(f);
}

/* e4m3: bias 7, subnormals k * 2^-9, 0x7F/0xFF NaN, no infinities. */
float e4m3_decode(uint8_t c)
{
    uint32_t sign = (uint32_t)(c & 0x80u) << 24;
    uint32_t e = (c >> 3) & 0xFu, m = c & 0x7u;
    if (e == 0xF && m == 0x7)
        return u2f(sign | 0x7FC00000u);
    if (e == 0)
        return u2f(sign | f2u((float)m * 0x1p-9f));
    return u2f(sign | ((e + 120u) << 23) | (m << 20));
}

/* e5m2: bias 15, subnormals k * 2^-16, exponent 31 = Inf (m = 0) or NaN. */
float e5m2_decode(uint8_t c)
{
    uint32_t sign = (uint32_t)(c & 0x80u) << 24;
    uint32_t e = (c >> 2) & 0x1Fu, m = c & 0x3u;
    if (e == 0x1F)
        return u2f(sign | (m ? 0x7FC00000u : 0x7F800000u));
    if (e == 0)
        return u2f(sign | f2u((float)m * 0x1p-16f));
    return u2f(sign | ((e + 112u) << 23) | (m << 21));
}

float ptort_e4m3_to_f32(uint8_t code)
{
    return e4m3_decode(code);
}

float ptort_e5m2_to_f32(uint8_t code)
{
    return e5m2_decode(code);
}

float ptort_e2m1_to_f32(uint8_t code)
{
    static const float mag[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
    float v = mag[code & 7u];
    return code & 8u ? -v : v;
}

float ptort_e8m0_to_f32(uint8_t code)
{
    if (code == 0xFF)
        return u2f(0x7FC00000u);
    if (code == 0)
        return u2f(0x00400000u);              /* 2^-127 is an fp32 subnormal */
    return u2f((uint32_t)code << 23);
}
