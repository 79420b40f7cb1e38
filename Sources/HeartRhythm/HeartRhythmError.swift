import NagiBase

/// Why a heart-rate record cannot be read or analysed: one line naming the fault.
public struct HeartRhythmError: Error, Sendable, Equatable {
    /// The line a user reads (without a program prefix).
    public var message: String
    /// What kind of fault it is; every fault of a record's content is bad data.
    public var category: FaultCategory

    /// A fault of the record's content (or of what was asked of it).
    public static func badData(_ message: String) -> HeartRhythmError {
        HeartRhythmError(message: message, category: .badData)
    }

    /// A fault of the request itself (an option value that cannot apply to this record).
    public static func usage(_ message: String) -> HeartRhythmError {
        HeartRhythmError(message: message, category: .usage)
    }
}
