/// Timestamps written when a Bluetooth packet arrived rather than when the beat happened (HRV Logger, Polar
/// Sensor Logger and other apps): a packet carries up to a few intervals, so several beats share one stamp, and
/// the stamps run late by the packet's delay. Placed by such stamps, beats jitter in time by hundreds of
/// milliseconds, which adds false heart-rate swings; placed by their intervals they are exact, and the stamps only
/// anchor the start and the places where beats were lost.
public enum ReceiveStamps {
    /// The share of beats whose stamp may depart from the running sum of intervals before the stamps are taken
    /// as times of arrival: a beat's own stamps agree with its interval to a few milliseconds of rounding.
    public static let disagreeingShare = 0.05
    /// How far a stamp's step may depart from the beat's interval and still agree with it, seconds.
    public static let agreementSeconds = 0.05
    /// A stamp further ahead of the running sum than this marks beats lost (as `ResonanceAnalysis.gapSeconds`).
    public static let gapSeconds = 3.0

    /// Whether `stamps` (each beat's stamp, seconds) are times of arrival: more than `disagreeingShare` of the
    /// stamps' steps (leaving out gaps) share the previous stamp or depart from the beat's interval.
    public static func areReceiveTimes(_ stamps: [Double], intervalsMilliseconds: [Double]) -> Bool {
        guard stamps.count == intervalsMilliseconds.count, stamps.count >= 3 else { return false }
        var disagreeing = 0, compared = 0
        for index in 1..<stamps.count {
            let step = stamps[index] - stamps[index - 1]
            let interval = intervalsMilliseconds[index] / 1000
            if step - interval > gapSeconds { continue }
            compared += 1
            if abs(step - interval) > agreementSeconds { disagreeing += 1 }
        }
        return compared > 0 && Double(disagreeing) > disagreeingShare * Double(compared)
    }

    /// Each beat's end, seconds: the first at its stamp, each next one interval later, except where the stamp runs
    /// more than `gapSeconds` ahead of that sum (beats lost): there the beat is placed at its stamp, so the gap stays.
    public static func place(_ stamps: [Double], intervalsMilliseconds: [Double]) -> [Double] {
        guard let first = stamps.first else { return [] }
        var placed = [first]
        placed.reserveCapacity(stamps.count)
        for index in 1..<stamps.count {
            let summed = placed[index - 1] + intervalsMilliseconds[index] / 1000
            placed.append(stamps[index] - summed > gapSeconds ? stamps[index] : summed)
        }
        return placed
    }
}
