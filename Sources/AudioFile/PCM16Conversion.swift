import CNagiPCM

/// Float samples to 16-bit PCM: scaled by 32768, saturated to −32768 … 32767 and rounded to nearest, ties to
/// even — what libsndfile does for FLAC with clipping on (`SFC_SET_CLIPPING`).
///
/// Done here rather than by `sf_write_float` because libsndfile's per-sample loop took about a quarter of a
/// default render's time; this one vectorises. FLAC files come out byte for byte as before. libsndfile's WAV
/// and raw paths rounded down instead (a bias of half a step, −0.5 LSB); they now round like FLAC, so a WAV's
/// samples may be one step higher than before, never more.
public enum PCM16Conversion {
    /// Converts `count` samples from `source` into `target`; NaN becomes 0 (and ±infinity saturates, as ±1
    /// does), so the writer need not scan a block for them first.
    ///
    /// The loop is C's (`nagi_convert_pcm16`): SSE2's rounding conversion and saturating pack take eight
    /// samples in about fourteen instructions, where the same loop in Swift (which cannot name them) took about
    /// twenty for four and was an eighth of a pipe render's CPU time. The rounding is the same: to nearest, ties
    /// to even.
    public static func convert(_ source: UnsafePointer<Float>, count: Int, into target: UnsafeMutablePointer<Int16>) {
        nagi_convert_pcm16(source, count, target)
    }

    /// Converts `count` samples at `samples` as `convert(_:count:into:)` does, in place: the 16-bit results are
    /// the first `2 * count` bytes of the same memory, which stays bound to `Float` (hand the bytes to C, never
    /// read them as `Int16` from Swift). For a renderer that converts the slice it has just made while the slice
    /// is in its own core's cache, so the writer only writes.
    public static func convertInPlace(_ samples: UnsafeMutablePointer<Float>, count: Int) {
        nagi_convert_pcm16_in_place(samples, count)
    }
}
