/// One chapter of a file: where it starts (an exact frame of the schedule) and what a player shows.
public struct AudioChapter: Sendable, Equatable {
    /// The chapter's first frame.
    public var startFrame: Int64
    /// The name a player lists ("Hold", "6 breaths/min").
    public var title: String

    public init(startFrame: Int64, title: String) {
        self.startFrame = startFrame
        self.title = title
    }

    /// The most chapters nagi writes into one file. The Vorbis chapter extension numbers them with three digits
    /// (CHAPTER001 ... CHAPTER999) and ffmpeg reads no more; MP3 keeps the same bound so every format agrees.
    public static let maximumCount = 999

    /// A frame as whole milliseconds, rounded to the nearest: what the chapter fields can hold.
    public static func milliseconds(ofFrame frame: Int64, sampleRate: Int) -> Int64 {
        (frame * 1000 + Int64(sampleRate) / 2) / Int64(sampleRate)
    }

    /// "HH:MM:SS.mmm", the Vorbis chapter extension's time.
    static func clockText(milliseconds: Int64) -> String {
        func padded(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(milliseconds / 3_600_000, 2)):\(padded(milliseconds / 60_000 % 60, 2)):"
            + "\(padded(milliseconds / 1000 % 60, 2)).\(padded(milliseconds % 1000, 3))"
    }
}
