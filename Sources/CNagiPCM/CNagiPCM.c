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

/// The one loop behind both entry points, on bytes: `count` floats at `source` become int16s at `target`,
/// which may be `source` itself. Eight samples are read before their eight results are stored, at half the
/// offset, so in place a store never reaches a sample not yet read; the vector loads and stores are the
/// intrinsics' aliasing types and the tail copies bytes, so the compiler assumes the two may overlap.
static void convert_bytes(const unsigned char *source, unsigned char *target, long count) {
    long index = 0;
#if defined(__SSE2__)
    const __m128 scale = _mm_set1_ps(32768.0f);
    const __m128 highest = _mm_set1_ps(32767.0f);
    for (; index + 8 <= count; index += 8) {
        __m128 low = _mm_mul_ps(_mm_loadu_ps((const float *)(source + 4 * index)), scale);
        __m128 high = _mm_mul_ps(_mm_loadu_ps((const float *)(source + 4 * index + 16)), scale);
        // NaN to 0 (the ordered mask is all ones except for NaN), then at most 32767 (+infinity included).
        low = _mm_min_ps(_mm_and_ps(low, _mm_cmpord_ps(low, low)), highest);
        high = _mm_min_ps(_mm_and_ps(high, _mm_cmpord_ps(high, high)), highest);
        // Rounded to nearest, ties to even (the default rounding, which nothing in nagi changes); anything
        // below -2^31 (-infinity included) converts to INT32_MIN, and the pack saturates to -32768.
        __m128i packed = _mm_packs_epi32(_mm_cvtps_epi32(low), _mm_cvtps_epi32(high));
        _mm_storeu_si128((__m128i *)(target + 2 * index), packed);
    }
#endif
    for (; index < count; index++) {
        float sample;
        memcpy(&sample, source + 4 * index, sizeof sample);
        int16_t converted = convert_one(sample);
        memcpy(target + 2 * index, &converted, sizeof converted);
    }
}

void nagi_convert_pcm16(const float *source, long count, int16_t *target) {
    convert_bytes((const unsigned char *)source, (unsigned char *)target, count);
}

void nagi_convert_pcm16_in_place(float *samples, long count) {
    convert_bytes((const unsigned char *)samples, (unsigned char *)samples, count);
}
