#include "CNagiSynthKernel.h"

// Each lane must round exactly as Swift's loop does: no multiply and add fused into one rounding.
#pragma STDC FP_CONTRACT OFF

#if defined(__x86_64__)
#include <immintrin.h>

int nagi_synth_lanes_available(void) {
    // libgcc's check includes the operating system's saving of the AVX registers (OSXSAVE and XCR0).
    return __builtin_cpu_supports("avx") ? 1 : 0;
}

/// cos 2πx as Swift's `SynthKernel.cosine(turns:)` computes it (a folded quarter wave, an odd degree-5 polynomial).
__attribute__((always_inline))
static inline float cosine_turns(float x) {
    const float rounding_magic = 12582912.0f;  // 1.5·2²³: adding it rounds to an integer
    float fraction = x - ((x + rounding_magic) - rounding_magic);
    float y = 0.25f - __builtin_fabsf(fraction);
    float z = y * y;
    return ((73.58573f * z - 41.095257f) * z + 6.2812802f) * y;
}

/// What the last pass reads: where the block's loop reads start, the ramps and widths, the bed's frames.
typedef struct {
    const float *ramp, *mid, *dark_mid, *bright_mid, *dark_side, *bright_side, *rain_mid, *rain_side, *bed;
    nagi_synth_ramp dark_gain, bright_gain, rain_gain, bed_gain;
    float water_width, rain_width;
} output_pass;

/// The last pass: the water (and rain) loops crossfaded by their gains onto `mid`, the side signals for
/// stereo, then the user's bed (interleaved like `output`) scaled by its gain, as `BedVoice` adds it. Swift's
/// terms in Swift's order: `center ± side`, then `+ bed × gain`, each rounded to a Float as there. The flags
/// are constants at every call, so each combination compiles to a loop of its own.
__attribute__((target("avx"), always_inline))
static inline void write_output(const output_pass *pass, long frame_count, float *restrict output,
                                const int stereo, const int rain, const int has_bed) {
    const float *restrict ramp = pass->ramp, *restrict mid = pass->mid, *restrict bed = pass->bed;
    const float *restrict dark_mid = pass->dark_mid, *restrict bright_mid = pass->bright_mid;
    const float *restrict dark_side = pass->dark_side, *restrict bright_side = pass->bright_side;
    const float *restrict rain_mid = pass->rain_mid, *restrict rain_side = pass->rain_side;
    const nagi_synth_ramp dark_gain = pass->dark_gain, bright_gain = pass->bright_gain;
    const nagi_synth_ramp rain_gain = pass->rain_gain, bed_gain = pass->bed_gain;
    const float water_width = pass->water_width, rain_width = pass->rain_width;
    for (long n = 0; n < frame_count; n++) {
        float offset = ramp[n];
        if (stereo) {
            float dark = dark_gain.value + offset * dark_gain.slope;
            float bright = bright_gain.value + offset * bright_gain.slope;
            float center = mid[n] + dark_mid[n] * dark + bright_mid[n] * bright;
            float side = (dark_side[n] * dark + bright_side[n] * bright) * water_width;
            if (rain) {
                float wet = rain_gain.value + offset * rain_gain.slope;
                center = center + rain_mid[n] * wet;
                side = side + rain_side[n] * (wet * rain_width);
            }
            float left = center + side;
            float right = center - side;
            if (has_bed) {
                float factor = bed_gain.value + offset * bed_gain.slope;
                left = left + bed[2 * n] * factor;
                right = right + bed[2 * n + 1] * factor;
            }
            output[2 * n] = left;
            output[2 * n + 1] = right;
        } else {
            float sample = mid[n] + dark_mid[n] * (dark_gain.value + offset * dark_gain.slope)
                + bright_mid[n] * (bright_gain.value + offset * bright_gain.slope);
            if (rain) sample = sample + rain_mid[n] * (rain_gain.value + offset * rain_gain.slope);
            if (has_bed) sample = sample + bed[n] * (bed_gain.value + offset * bed_gain.slope);
            output[n] = sample;
        }
    }
}

/// The loops, each as Swift writes it; clang's vectorizer makes them eight lanes wide (`restrict`: no
/// overlap checks), and the expressions keep Swift's grouping term for term.
__attribute__((target("avx")))
static void render_avx(const nagi_synth_block *block, const nagi_synth_render *render, long frame_count,
                       float *restrict output, float *restrict mid, float *restrict pad_cosine, int stereo, int rain,
                       const float *bed, nagi_synth_ramp bed_gain) {
    const float *restrict ramp = render->ramp;
    const float *restrict triangle = render->triangle;
    const float *restrict guide = render->guide;
    const float tone_phase = block->tone_phase, tone_increment = block->tone_increment.value;
    const float tone_increment_slope = block->tone_increment.slope;
    const float trail_phase = block->trail_phase, trail_increment = block->trail_increment.value;
    const float trail_increment_slope = block->trail_increment.slope;
    for (long n = 0; n < frame_count; n++) {
        float offset = ramp[n];
        float glide = triangle[n];
        mid[n] = cosine_turns(tone_phase + offset * tone_increment + glide * tone_increment_slope);
        pad_cosine[n] = cosine_turns(trail_phase + offset * trail_increment + glide * trail_increment_slope);
    }

    const float w0 = render->water[0], w1 = render->water[1], w2 = render->water[2], w3 = render->water[3], w4 = render->water[4];
    const float d0 = render->sky_difference[0], d1 = render->sky_difference[1], d2 = render->sky_difference[2];
    const float d3 = render->sky_difference[3], d4 = render->sky_difference[4];
    const float t0 = render->trail[0], t1 = render->trail[1], t2 = render->trail[2], t3 = render->trail[3];
    const float sky = block->sky.value, sky_slope = block->sky.slope;
    const float tone_gain = block->tone_gain.value, tone_gain_slope = block->tone_gain.slope;
    const float trail_gain = block->trail_gain.value, trail_gain_slope = block->trail_gain.slope;
    for (long n = 0; n < frame_count; n++) {
        float offset = ramp[n];
        float c = mid[n];
        float c2 = c * c;
        float water = (w0 + w1 * c) + c2 * ((w2 + w3 * c) + c2 * w4);
        float sky_part = (d0 + d1 * c) + c2 * ((d2 + d3 * c) + c2 * d4);
        float tone = (water + (sky + offset * sky_slope) * sky_part) * (tone_gain + offset * tone_gain_slope);
        float p = pad_cosine[n];
        float pad = ((t0 + t1 * p) + (p * p) * (t2 + t3 * p)) * (trail_gain + offset * trail_gain_slope);
        mid[n] = tone + pad + guide[n];
    }

    const output_pass pass = {
        .ramp = ramp, .mid = mid, .bed = bed,
        .dark_mid = render->water_dark + block->water_mid, .bright_mid = render->water_bright + block->water_mid,
        .dark_side = render->water_dark + block->water_side, .bright_side = render->water_bright + block->water_side,
        .rain_mid = render->rain + block->rain_mid, .rain_side = render->rain + block->rain_side,
        .dark_gain = block->dark_gain, .bright_gain = block->bright_gain, .rain_gain = block->rain_gain, .bed_gain = bed_gain,
        .water_width = render->water_width, .rain_width = render->rain_width,
    };
    switch ((stereo ? 4 : 0) | (rain ? 2 : 0) | (bed ? 1 : 0)) {
    case 7: write_output(&pass, frame_count, output, 1, 1, 1); break;
    case 6: write_output(&pass, frame_count, output, 1, 1, 0); break;
    case 5: write_output(&pass, frame_count, output, 1, 0, 1); break;
    case 4: write_output(&pass, frame_count, output, 1, 0, 0); break;
    case 3: write_output(&pass, frame_count, output, 0, 1, 1); break;
    case 2: write_output(&pass, frame_count, output, 0, 1, 0); break;
    case 1: write_output(&pass, frame_count, output, 0, 0, 1); break;
    default: write_output(&pass, frame_count, output, 0, 0, 0); break;
    }
}

void nagi_synth_render_lanes(const nagi_synth_block *block, const nagi_synth_render *render, long frame_count,
                             float *output, float *mid, float *pad_cosine, int stereo, int rain,
                             const float *bed, nagi_synth_ramp bed_gain) {
    if (!nagi_synth_lanes_available()) __builtin_trap();
    render_avx(block, render, frame_count, output, mid, pad_cosine, stereo, rain, bed, bed_gain);
}

/// The limiter's interpolation, eight samples a turn: each point's sum kept in a register through its twelve taps
/// (Swift's loop adds each tap's products into memory, a pass over the run per tap), in the same order from zero.
__attribute__((target("avx")))
static void interpolation_peaks_avx(const float *samples, long count, long channels, const float *taps, long phases,
                                    float *magnitudes) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (long phase = 0; phase < phases; phase++) {
        const float *phase_taps = taps + phase * NAGI_SYNTH_INTERPOLATION_TAPS;
        __m256 tap[NAGI_SYNTH_INTERPOLATION_TAPS];
        for (int k = 0; k < NAGI_SYNTH_INTERPOLATION_TAPS; k++) tap[k] = _mm256_set1_ps(phase_taps[k]);
        for (long index = 0; index < count; index += 8) {
            __m256 sum = _mm256_setzero_ps();
            for (int k = 0; k < NAGI_SYNTH_INTERPOLATION_TAPS; k++) {
                __m256 x = _mm256_loadu_ps(samples + index + (k - 5) * channels);
                sum = _mm256_add_ps(sum, _mm256_mul_ps(tap[k], x));
            }
            // max(a, b) is a > b ? a : b, as Swift's choice (a NaN magnitude keeps what is there).
            __m256 magnitude = _mm256_andnot_ps(sign, sum);
            _mm256_storeu_ps(magnitudes + index, _mm256_max_ps(magnitude, _mm256_loadu_ps(magnitudes + index)));
        }
    }
}

void nagi_synth_interpolation_peaks(const float *samples, long count, long channels, const float *taps, long phases,
                                    float *magnitudes) {
    if (!nagi_synth_lanes_available() || count % 8 != 0) __builtin_trap();
    interpolation_peaks_avx(samples, count, channels, taps, phases, magnitudes);
}

#else

int nagi_synth_lanes_available(void) { return 0; }

void nagi_synth_render_lanes(const nagi_synth_block *block, const nagi_synth_render *render, long frame_count,
                             float *output, float *mid, float *pad_cosine, int stereo, int rain,
                             const float *bed, nagi_synth_ramp bed_gain) {
    (void)block; (void)render; (void)frame_count; (void)output; (void)mid; (void)pad_cosine; (void)stereo; (void)rain;
    (void)bed; (void)bed_gain;
    __builtin_trap();
}

void nagi_synth_interpolation_peaks(const float *samples, long count, long channels, const float *taps, long phases,
                                    float *magnitudes) {
    (void)samples; (void)count; (void)channels; (void)taps; (void)phases; (void)magnitudes;
    __builtin_trap();
}

#endif
