#ifndef CNAGI_PCM_H
#define CNAGI_PCM_H

#include <stdint.h>

/// Converts `count` float samples to 16-bit PCM: scaled by 32768, rounded to nearest (ties to even),
/// saturated to -32768 ... 32767; NaN becomes 0 and the infinities saturate.
///
/// In C for the one instruction pair Swift cannot name: SSE2's rounding conversion and saturating pack
/// (cvtps2dq, packssdw): eight samples in about fourteen instructions, where Swift's loop took about twenty for
/// four. Other machines take the scalar loop.
void nagi_convert_pcm16(const float *source, long count, int16_t *target);

/// Converts `count` float samples at `samples` as `nagi_convert_pcm16` does, to the same values, leaving the
/// 16-bit results at the start of the same memory (its first 2 * count bytes; the rest is left as it was).
void nagi_convert_pcm16_in_place(float *samples, long count);

#endif
