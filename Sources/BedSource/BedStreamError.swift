import AudioFile

/// Why a bed recording cannot be used, with the exit code (sysexits) the command line gives for it.
public enum BedStreamError: Error, Equatable, Sendable {
    /// Missing or unreadable (66), not audio (65) or a read failing part way (74), from the stream reader.
    case file(AudioFileStreamError)
    /// The file is audio with no frames (65).
    case noFrames(path: String)
    /// More than eight channels (65).
    case tooManyChannels(path: String, channelCount: Int)
    /// libsoxr failed (70, an internal error).
    case resamplingFailed(path: String, reason: String)
    /// libebur128 failed (70, an internal error).
    case measurementFailed(path: String, reason: String)

    /// The process exit code after sysexits.h.
    public var exitCode: Int32 {
        switch self {
        case .file(let error): return error.exitCode
        case .noFrames, .tooManyChannels: return 65
        case .resamplingFailed, .measurementFailed: return 70
        }
    }

    /// One line for a human.
    public var message: String {
        switch self {
        case .file(let error): return "bed: " + error.message
        case .noFrames(let path): return "bed: \"\(path)\" has no audio frames"
        case .tooManyChannels(let path, let count): return "bed: \"\(path)\" has \(count) channels (at most 8)"
        case .resamplingFailed(let path, let reason): return "bed: cannot resample \"\(path)\": \(reason)"
        case .measurementFailed(let path, let reason): return "bed: cannot measure \"\(path)\": \(reason)"
        }
    }
}
