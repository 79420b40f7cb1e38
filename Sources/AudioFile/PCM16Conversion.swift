/// Float samples to 16-bit PCM: scaled by 32768, saturated to −32768 … 32767 and rounded to nearest, ties to
/// even — what libsndfile does for FLAC with clipping on (`SFC_SET_CLIPPING`).
///
/// Done here rather than by `sf_write_float` because libsndfile's per-sample loop took about a quarter of a
/// default render's time; this one vectorises. FLAC files come out byte for byte as before. libsndfile's WAV
/// and raw paths rounded down instead (a bias of half a step, −0.5 LSB); they now round like FLAC, so a WAV's
/// samples may be one step higher than before, never more.
enum PCM16Conversion {
    /// Converts `count` samples from `source` into `target`; NaN becomes 0 (and ±infinity saturates, as ±1
    /// does), so the writer need not scan a block for them first.
    static func convert(_ source: UnsafePointer<Float>, count: Int, into target: UnsafeMutablePointer<Int16>) {
        for index in 0..<count {
            let scaled = source[index] * 32_768
            let bounded = scaled > 32_767 ? 32_767 : (scaled < -32_768 ? -32_768 : (scaled == scaled ? scaled : 0))
            // Adding 1.5 · 2²³ rounds to a whole number (to nearest, ties to even) and leaves it, as a
            // two's-complement offset, in the low bits of the sum's bit pattern: no call to rintf per sample.
            target[index] = Int16(truncatingIfNeeded: (bounded + 12_582_912).bitPattern)
        }
    }
}
