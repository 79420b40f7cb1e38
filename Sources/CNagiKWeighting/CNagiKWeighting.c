#include "CNagiKWeighting.h"

// Each lane must round exactly as Swift's loop does: no multiply and add fused into one rounding.
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>

int nagi_kweighting_lanes_available(void) {
    // libgcc's check includes the operating system's saving of the AVX registers (OSXSAVE and XCR0).
    return __builtin_cpu_supports("avx") ? 1 : 0;
}

/// One frame of each segment, the first's in the low lanes, as Doubles (exact); raises `peak` to their magnitudes.
__attribute__((target("avx"), always_inline))
static inline __m256d load_frame(const float *first, const float *second, __m128i *peak, __m128i magnitude_mask) {
    // Two unaligned 8-byte loads: a frame of each segment.
    __m128 samples = _mm_castpd_ps(_mm_loadh_pd(_mm_load_sd((const double *)first), (const double *)second));
    // Magnitudes have the sign bit clear, so signed and unsigned comparisons agree (SSE4.1's pmaxsd).
    *peak = _mm_max_epi32(*peak, _mm_and_si128(_mm_castps_si128(samples), magnitude_mask));
    return _mm256_cvtps_pd(samples);
}

/// One output from the input `x`, the last four inputs and the last four outputs (newest first), in Swift's
/// `KWeighting.output` order of operations.
__attribute__((target("avx"), always_inline))
static inline __m256d output(__m256d x, __m256d x1, __m256d x2, __m256d x3, __m256d x4, __m256d y1, __m256d y2, __m256d y3, __m256d y4,
                             __m256d b0, __m256d b1, __m256d b2, __m256d b3, __m256d b4, __m256d a1, __m256d a2, __m256d a3, __m256d a4) {
    __m256d y = _mm256_mul_pd(b0, x);
    y = _mm256_add_pd(y, _mm256_mul_pd(b1, x1));
    y = _mm256_add_pd(y, _mm256_mul_pd(b2, x2));
    y = _mm256_add_pd(y, _mm256_mul_pd(b3, x3));
    y = _mm256_add_pd(y, _mm256_mul_pd(b4, x4));
    y = _mm256_sub_pd(y, _mm256_mul_pd(a4, y4));
    y = _mm256_sub_pd(y, _mm256_mul_pd(a3, y3));
    y = _mm256_sub_pd(y, _mm256_mul_pd(a2, y2));
    return _mm256_sub_pd(y, _mm256_mul_pd(a1, y1));
}

/// The loop, for AVX only (not FMA: a fused multiply-add would round differently from Swift's loop).
__attribute__((target("avx")))
static void run_lanes_avx(const double *coefficients, const float *first, const float *second, long frame_count, double *lanes, uint32_t *peak_bits) {
    const __m256d b0 = _mm256_broadcast_sd(coefficients + 0), b1 = _mm256_broadcast_sd(coefficients + 1);
    const __m256d b2 = _mm256_broadcast_sd(coefficients + 2), b3 = _mm256_broadcast_sd(coefficients + 3);
    const __m256d b4 = _mm256_broadcast_sd(coefficients + 4), a1 = _mm256_broadcast_sd(coefficients + 5);
    const __m256d a2 = _mm256_broadcast_sd(coefficients + 6), a3 = _mm256_broadcast_sd(coefficients + 7);
    const __m256d a4 = _mm256_broadcast_sd(coefficients + 8);
    __m256d x1 = _mm256_loadu_pd(lanes + 0), x2 = _mm256_loadu_pd(lanes + 4);
    __m256d x3 = _mm256_loadu_pd(lanes + 8), x4 = _mm256_loadu_pd(lanes + 12);
    __m256d y1 = _mm256_loadu_pd(lanes + 16), y2 = _mm256_loadu_pd(lanes + 20);
    __m256d y3 = _mm256_loadu_pd(lanes + 24), y4 = _mm256_loadu_pd(lanes + 28);
    __m256d sum = _mm256_loadu_pd(lanes + 32);
    __m128i peak = _mm_set1_epi32((int32_t)*peak_bits);
    const __m128i magnitude_mask = _mm_set1_epi32(0x7FFFFFFF);
    // One frame a turn: unrolled, the histories outgrow the sixteen registers and spill onto the critical path.
    for (long frame = 0; frame < frame_count; frame++) {
        __m256d x = load_frame(first + 2 * frame, second + 2 * frame, &peak, magnitude_mask);
        __m256d y = output(x, x1, x2, x3, x4, y1, y2, y3, y4, b0, b1, b2, b3, b4, a1, a2, a3, a4);
        sum = _mm256_add_pd(sum, _mm256_mul_pd(y, y));
        x4 = x3; x3 = x2; x2 = x1; x1 = x;
        y4 = y3; y3 = y2; y2 = y1; y1 = y;
    }
    _mm256_storeu_pd(lanes + 0, x1); _mm256_storeu_pd(lanes + 4, x2);
    _mm256_storeu_pd(lanes + 8, x3); _mm256_storeu_pd(lanes + 12, x4);
    _mm256_storeu_pd(lanes + 16, y1); _mm256_storeu_pd(lanes + 20, y2);
    _mm256_storeu_pd(lanes + 24, y3); _mm256_storeu_pd(lanes + 28, y4);
    _mm256_storeu_pd(lanes + 32, sum);
    // Every lane holds a candidate: the largest of the four.
    peak = _mm_max_epi32(peak, _mm_shuffle_epi32(peak, _MM_SHUFFLE(1, 0, 3, 2)));
    peak = _mm_max_epi32(peak, _mm_shuffle_epi32(peak, _MM_SHUFFLE(2, 3, 0, 1)));
    *peak_bits = (uint32_t)_mm_cvtsi128_si32(peak);
}

void nagi_kweighting_run_lanes(const double *coefficients, const float *first, const float *second, long frame_count, double *lanes, uint32_t *peak_bits) {
    if (!nagi_kweighting_lanes_available()) __builtin_trap();
    run_lanes_avx(coefficients, first, second, frame_count, lanes, peak_bits);
}

#else

int nagi_kweighting_lanes_available(void) { return 0; }

void nagi_kweighting_run_lanes(const double *coefficients, const float *first, const float *second, long frame_count, double *lanes, uint32_t *peak_bits) {
    (void)coefficients; (void)first; (void)second; (void)frame_count; (void)lanes; (void)peak_bits;
    __builtin_trap();
}

#endif
