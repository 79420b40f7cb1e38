/// The sample format nagi asks an ALSA device for.
public enum PCMSampleFormat: Sendable, Equatable {
    /// 32-bit float, native byte order: the renderer's own samples, unchanged.
    case float32
    /// 16-bit signed integers.
    case signed16
    /// 24-bit precision in a 32-bit word: S32_LE (left-aligned) or S24_LE (low three bytes), whichever the device takes.
    case signed24in32
}
