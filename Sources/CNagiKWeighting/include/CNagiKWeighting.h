#ifndef CNAGI_KWEIGHTING_H
#define CNAGI_KWEIGHTING_H

#include <stdint.h>

/// Doubles in the lanes' memory: eight histories of four lanes (x1 x2 x3 x4 y1 y2 y3 y4, newest first, each
/// as first segment left, first right, second left, second right), then the four lanes' running sums of
/// squared outputs.
#define NAGI_KWEIGHTING_LANE_DOUBLES 36

/// Whether this machine runs `nagi_kweighting_run_lanes` (an x86_64 with AVX, which the operating system saves).
int nagi_kweighting_lanes_available(void);

/// K-weights `frame_count` interleaved stereo frames from each of `first` and `second` (two independent
/// segments) in four Double lanes at once, continuing from the histories and running sums in `lanes`
/// (`NAGI_KWEIGHTING_LANE_DOUBLES`, updated), and raises `peak_bits` to the largest sample magnitude read;
/// `coefficients` are b0...b4 then a1...a4.
///
/// In C for AVX's four-lane Doubles, which Swift's SIMD4 does not reach without whole-module AVX flags: the
/// recurrence leaves an SSE2 loop idle between frames, and two segments at once fill it. Each lane does exactly
/// what Swift's `KWeighting` does for one channel, in its order (b0*x, + b1*x1 ... + b4*x4, - a4*y4 ... - a1*y1,
/// then sum += y*y) and without fused multiply-adds (the target adds AVX only, and contraction is off), so a
/// lane's outputs, state and sum are the Swift loop's to the bit. The sums stay in `lanes` between calls, so a
/// caller may stop at any frame (where either segment ends a piece) and read or zero one segment's pair alone:
/// how the frames are cut into calls never changes a sum's rounding. The peak is the largest of the sample
/// magnitudes' bit patterns (sign cleared) as integers, as `SamplePeak` compares them, NaN included: both
/// segments together cover a slice, and a maximum does not mind the frames they share.
///
/// Only when `nagi_kweighting_lanes_available()`; otherwise it traps.
void nagi_kweighting_run_lanes(const double *coefficients, const float *first, const float *second, long frame_count, double *lanes, uint32_t *peak_bits);

#endif
