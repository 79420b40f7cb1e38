import AudioFile
import NagiBase

/// Why a cue pack cannot be used, and what kind of fault that is.
public enum CuePackError: Error, Equatable, Sendable {
    /// The folder itself cannot be listed (66).
    case folderUnreadable(path: String, reason: String)
    /// A required clip has no file; `expected` reads like "DIR/inhale.*", `ignored` the files of that name whose
    /// extension names no audio format (`DIR/inhale.txt`) (66).
    case clipMissing(expected: String, ignored: [String] = [])
    /// More than one file for one clip, e.g. inhale.wav and inhale.flac (65).
    case ambiguousClip(kind: CueKind, candidates: [String])
    /// A clip's file cannot be used: missing, a folder, a pipe or a device (66, `InputFile`'s rule), not audio, no
    /// frames, too long or more than two channels (65), a read failing part way (74), libsoxr failing (70).
    case clip(RecordingFault<CueClipUse>)

    /// What kind of fault this is (the command line maps it to an exit code).
    public var category: FaultCategory {
        switch self {
        case .folderUnreadable, .clipMissing: return .missingInput
        case .ambiguousClip: return .badData
        case .clip(let fault): return fault.category
        }
    }

    /// One line for a human.
    public var message: String {
        switch self {
        case .folderUnreadable(let path, let reason):
            return "cue pack '\(path)': \(reason)"
        case .clipMissing(let expected, let ignored):
            let note = ignored.isEmpty ? "" : "; " + ignored.map { "'\($0)'" }.joined(separator: ", ") + (ignored.count == 1 ? " is not" : " are not") + " audio"
            return "cue pack: no clip '\(expected)' (wav, flac, ogg, opus, mp3, aiff or another audio format libsndfile reads\(note))"
        case .ambiguousClip(let kind, let candidates):
            let names = candidates.map { "'\($0)'" }
            let listed = names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
            return "cue pack: \(listed) are \(names.count == 2 ? "both" : "all") \(kind.rawValue) clips; keep one"
        case .clip(let fault):
            return fault.message
        }
    }
}
