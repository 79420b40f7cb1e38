#include "CNagiPCM.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// One sample, as the vector loop converts it: NaN to 0, clamped, then rounded by adding 1.5 * 2^23
/// (which leaves the nearest whole number, ties to even, in the low bits of the sum).
static inline int16_t convert_one(float sample) {
    float scaled = sample * 32768.0f;
    float bounded = scaled > 32767.0f ? 32767.0f : (scaled < -32768.0f ? -32768.0f : (scaled == scaled ? scaled : 0.0f));
    union { float value; int32_t bits; } sum = { bounded + 12582912.0f };
    return (int16_t)sum.bits;
}

void nagi_convert_pcm16(const float *source, long count, int16_t *target) {
    long index = 0;
#if defined(__SSE2__)
    const __m128 scale = _mm_set1_ps(32768.0f);
    const __m128 highest = _mm_set1_ps(32767.0f);
    for (; index + 8 <= count; index += 8) {
        __m128 low = _mm_mul_ps(_mm_loadu_ps(source + index), scale);
        __m128 high = _mm_mul_ps(_mm_loadu_ps(source + index + 4), scale);
        // NaN to 0 (the ordered mask is all ones except for NaN), then at most 32767 (+infinity included).
        low = _mm_min_ps(_mm_and_ps(low, _mm_cmpord_ps(low, low)), highest);
        high = _mm_min_ps(_mm_and_ps(high, _mm_cmpord_ps(high, high)), highest);
        // Rounded to nearest, ties to even (the default rounding, which nothing in nagi changes); anything
        // below -2^31 (-infinity included) converts to INT32_MIN, and the pack saturates to -32768.
        __m128i packed = _mm_packs_epi32(_mm_cvtps_epi32(low), _mm_cvtps_epi32(high));
        _mm_storeu_si128((__m128i *)(target + index), packed);
    }
#endif
    for (; index < count; index++) target[index] = convert_one(source[index]);
}

void nagi_convert_pcm16_in_place(float *samples, long count) {
    // Eight samples read before their eight results are stored, at half the offset: a store never reaches a
    // sample not yet read. Byte copies, not typed accesses, in the tail, so the compiler sees the aliasing.
    unsigned char *bytes = (unsigned char *)samples;
    long index = 0;
#if defined(__SSE2__)
    const __m128 scale = _mm_set1_ps(32768.0f);
    const __m128 highest = _mm_set1_ps(32767.0f);
    for (; index + 8 <= count; index += 8) {
        __m128 low = _mm_mul_ps(_mm_loadu_ps((const float *)(bytes + 4 * index)), scale);
        __m128 high = _mm_mul_ps(_mm_loadu_ps((const float *)(bytes + 4 * index + 16)), scale);
        low = _mm_min_ps(_mm_and_ps(low, _mm_cmpord_ps(low, low)), highest);
        high = _mm_min_ps(_mm_and_ps(high, _mm_cmpord_ps(high, high)), highest);
        __m128i packed = _mm_packs_epi32(_mm_cvtps_epi32(low), _mm_cvtps_epi32(high));
        _mm_storeu_si128((__m128i *)(bytes + 2 * index), packed);
    }
#endif
    for (; index < count; index++) {
        float sample;
        memcpy(&sample, bytes + 4 * index, sizeof sample);
        int16_t converted = convert_one(sample);
        memcpy(bytes + 2 * index, &converted, sizeof converted);
    }
}
