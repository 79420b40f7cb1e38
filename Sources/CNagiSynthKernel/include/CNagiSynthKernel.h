#ifndef CNAGI_SYNTH_KERNEL_H
#define CNAGI_SYNTH_KERNEL_H

/// A block parameter: its value at the block's first frame and its change per frame.
typedef struct {
    float value;
    float slope;
} nagi_synth_ramp;

/// One control block of the plain kernel (no beat), as Swift's `SynthKernel.Block` holds it.
typedef struct {
    float tone_phase;
    nagi_synth_ramp tone_increment, sky, tone_gain;
    float trail_phase;
    nagi_synth_ramp trail_increment, trail_gain, dark_gain, bright_gain, rain_gain;
    /// Where this block's reads start in the water and rain tables (the mid and the side signal's).
    long water_mid, water_side, rain_mid, rain_side;
} nagi_synth_block;

/// The render's constants and tables, as Swift's `SynthKernel.Constants` and `SynthKernel.Tables` hold them.
typedef struct {
    /// The dark tone polynomial c0...c4, sky minus dark c0...c4, the pad's c0...c3.
    float water[5], sky_difference[5], trail[4];
    float water_width, rain_width;
    const float *ramp, *triangle, *water_dark, *water_bright, *rain, *guide;
} nagi_synth_render;

/// Whether this machine runs `nagi_synth_render_lanes` (an x86_64 with AVX, which the operating system saves).
int nagi_synth_lanes_available(void);

/// Swift's `SynthKernel.render` without a beat, in AVX's eight Float lanes: `frame_count` frames into `output`
/// (interleaved when `stereo`), with `mid` and `pad_cosine` (frame_count Floats each) as scratch; then, unless
/// `bed` is NULL, the bed's frames (interleaved like `output`) scaled by `bed_gain` added as `BedVoice.mix` adds
/// them, in the same pass.
///
/// In C because Swift reaches AVX only with whole-module CPU flags, and a binary built so would not start on
/// a machine without it. Each frame's arithmetic is Swift's, operation for operation and in its order, with
/// no fused multiply-adds (the target adds AVX only, and contraction is off), so the output is Swift's loop's
/// to the bit: the tests compare the two on every branch.
///
/// Only when `nagi_synth_lanes_available()`; otherwise it traps.
void nagi_synth_render_lanes(const nagi_synth_block *block, const nagi_synth_render *render, long frame_count,
                             float *output, float *mid, float *pad_cosine, int stereo, int rain,
                             const float *bed, nagi_synth_ramp bed_gain);

/// Taps per interpolated point of the true-peak limiter (frames n − 5 … n + 6 for the points after frame n).
#define NAGI_SYNTH_INTERPOLATION_TAPS 12

/// `TruePeakLimiter.estimateGains`'s interpolation of one run, in AVX's eight Float lanes: for each of `phases`
/// phases (`NAGI_SYNTH_INTERPOLATION_TAPS` taps each, in `taps`), each of the `count` interleaved samples from
/// `samples` (of `channels` channels; samples from 5 frames before to 6 frames after the run are read) gets the
/// sum of each tap times its sample, added in tap order from zero, and `magnitudes` (laid out as `samples`) is
/// raised to that sum's magnitude where it is larger. Swift's operations in Swift's order, without fused
/// multiply-adds, so the magnitudes are its loop's to the bit (the tests compare the two).
///
/// Only when `nagi_synth_lanes_available()` and `count` is a multiple of 8 (the limiter's runs are whole eights
/// of frames); otherwise it traps.
void nagi_synth_interpolation_peaks(const float *samples, long count, long channels, const float *taps, long phases,
                                    float *magnitudes);

#endif
