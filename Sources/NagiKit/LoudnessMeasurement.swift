/// What a loudness target's first pass measured of a soundtrack, and the one gain it chose.
public struct LoudnessMeasurement: Sendable, Equatable {
    /// The calibrated render's integrated loudness, LUFS (−∞ for a silent render).
    public var measuredLUFS: Double
    /// Its sample peak, dBFS.
    public var peakDecibels: Double
    /// The gain the soundtrack is rendered with, dB.
    public var gainDecibels: Double
    /// The target asked for, LUFS.
    public var targetLUFS: Double

    /// The loudness the soundtrack reaches, LUFS.
    public var reachedLUFS: Double { measuredLUFS + gainDecibels }
    /// Whether the target was out of reach under the true-peak limit.
    public var fallsShort: Bool { reachedLUFS < targetLUFS - 0.05 }
}
