/// A heart-rate record as read: beat-to-beat (RR) intervals in milliseconds, in order, and the clock time of
/// its first beat when the file gave timestamps.
public struct RRRecord: Sendable, Equatable {
    /// Every interval in milliseconds, as the file gave it (before cleaning).
    public var intervalsMilliseconds: [Double]
    /// The wall-clock time at which the first interval began, when the file had a timestamp column.
    public var startClock: ClockTime?
    /// When each beat ended, seconds after the first beat began, from the file's timestamps (nil without them):
    /// where a recorder lost beats, the stamps jump further than the intervals add up to.
    public var beatSeconds: [Double]?
    /// The layout the file was read as ("one interval per line, ms", "CSV column 'RR-interval [ms]'").
    public var formatDescription: String

    public init(intervalsMilliseconds: [Double], startClock: ClockTime? = nil, beatSeconds: [Double]? = nil, formatDescription: String) {
        self.intervalsMilliseconds = intervalsMilliseconds
        self.startClock = startClock
        self.beatSeconds = beatSeconds
        self.formatDescription = formatDescription
    }

    /// The record's length in seconds: to the last stamp, or the sum of its intervals without stamps.
    public var durationSeconds: Double {
        beatSeconds?.last ?? intervalsMilliseconds.reduce(0, +) / 1000
    }
}
