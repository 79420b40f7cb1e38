import AudioFile

/// Why a cue pack cannot be used, with the exit code (sysexits) the command line gives for it.
public enum CuePackError: Error, Equatable, Sendable {
    /// The folder itself cannot be listed (66).
    case folderUnreadable(path: String, reason: String)
    /// A required clip has no file; `expected` reads like "DIR/inhale.*" (66).
    case clipMissing(expected: String)
    /// More than one file for one clip, e.g. inhale.wav and inhale.flac (65).
    case ambiguousClip(kind: CueKind, candidates: [String])
    /// A clip's file cannot be used: missing (66), not audio, no frames, too long or more than two channels (65),
    /// a read failing part way (74), libsoxr failing (70).
    case clip(RecordingFault<CueClipUse>)

    /// The process exit code after sysexits.h.
    public var exitCode: Int32 {
        switch self {
        case .folderUnreadable, .clipMissing: return 66
        case .ambiguousClip: return 65
        case .clip(let fault): return fault.exitCode
        }
    }

    /// One line for a human.
    public var message: String {
        switch self {
        case .folderUnreadable(let path, let reason):
            return "cue pack \"\(path)\": \(reason)"
        case .clipMissing(let expected):
            return "cue pack: no clip \"\(expected)\" (any audio format libsndfile reads)"
        case .ambiguousClip(let kind, let candidates):
            let names = candidates.map { "\"\($0)\"" }.joined(separator: " and ")
            return "cue pack: \(names) are both a \(kind.rawValue) clip; keep one"
        case .clip(let fault):
            return fault.message
        }
    }
}
