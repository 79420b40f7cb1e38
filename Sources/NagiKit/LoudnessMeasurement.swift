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
    /// How much less loud the limiter leaves the render at that gain than the gain alone would, LU (0 when it
    /// leaves it alone; measured by a second pass when it does not).
    public var limiterLossDecibels: Double = 0

    public init(measuredLUFS: Double, peakDecibels: Double, gainDecibels: Double, targetLUFS: Double, limiterLossDecibels: Double = 0) {
        self.measuredLUFS = measuredLUFS
        self.peakDecibels = peakDecibels
        self.gainDecibels = gainDecibels
        self.targetLUFS = targetLUFS
        self.limiterLossDecibels = limiterLossDecibels
    }

    /// The loudness the soundtrack reaches, LUFS.
    public var reachedLUFS: Double { measuredLUFS + gainDecibels - limiterLossDecibels }
    /// Whether the target was out of reach under the true-peak limit.
    public var fallsShort: Bool { reachedLUFS < targetLUFS - 0.05 }
}
