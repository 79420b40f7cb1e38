import AudioFile

/// Why a cue pack cannot be used, with the exit code (sysexits) the command line gives for it.
public enum CuePackError: Error, Equatable, Sendable {
    /// The folder itself cannot be listed (66).
    case folderUnreadable(path: String, reason: String)
    /// A required clip has no file; `expected` reads like "DIR/inhale.*" (66).
    case clipMissing(expected: String)
    /// More than one file for one clip, e.g. inhale.wav and inhale.flac (65).
    case ambiguousClip(kind: CueKind, candidates: [String])
    /// The file cannot be opened (66), is not audio (65) or fails part way (74), from the stream reader.
    case file(AudioFileStreamError)
    /// The file is audio with no frames (65).
    case noFrames(path: String)
    /// The clip lasts longer than `CuePack.maximumClipSeconds` (65).
    case tooLong(path: String, limitSeconds: Int)
    /// More than two channels (65).
    case tooManyChannels(path: String, channelCount: Int)
    /// libsoxr failed on the clip (70, an internal error).
    case resamplingFailed(path: String, reason: String)

    /// The process exit code after sysexits.h.
    public var exitCode: Int32 {
        switch self {
        case .folderUnreadable, .clipMissing: return 66
        case .ambiguousClip, .noFrames, .tooLong, .tooManyChannels: return 65
        case .file(let error): return error.exitCode
        case .resamplingFailed: return 70
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
        case .file(let error):
            return "cue pack: " + error.message
        case .noFrames(let path):
            return "cue pack: \"\(path)\" has no audio frames"
        case .tooLong(let path, let limit):
            return "cue pack: \"\(path)\" is longer than \(limit) s"
        case .tooManyChannels(let path, let count):
            return "cue pack: \"\(path)\" has \(count) channels; a cue clip is mono or stereo"
        case .resamplingFailed(let path, let reason):
            return "cue pack: cannot resample \"\(path)\": \(reason)"
        }
    }
}

