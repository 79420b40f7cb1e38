import AudioFile
import Breath
import Glibc
import NagiDocuments

/// The tags nagi gives every file it writes, whoever writes it: its version as the encoder, the genre, the year
/// and a comment naming the pattern, its breaths and the soundscape.
public enum SoundtrackTags {
    /// nagi's version, as `nagi --version` prints it and the encoder tag names it.
    public static let version = "0.1.0"

    /// The encoder tag: "nagi 0.1.0".
    public static let encoder = "nagi \(version)"

    /// The genre unless a course names its own.
    public static let defaultGenre = "Meditation"

    /// "4-7-8 · 19 breaths · horizon": the pattern, its breaths and the soundscape.
    public static func comment(pattern: String, schedule: Schedule, soundscape: String) -> String {
        "\(pattern) · \(NumberText.count(schedule.breathCount, "breath")) · \(soundscape)"
    }

    /// The year now, UTC ("2026"): the date tag.
    public static var currentYear: String {
        var now = time(nil)
        var parts = tm()
        guard gmtime_r(&now, &parts) != nil else { return "" }
        return String(Int(parts.tm_year) + 1900)
    }
}
