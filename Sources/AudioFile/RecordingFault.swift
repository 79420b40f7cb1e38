/// Why a user's recording (a bed, a cue clip) cannot be used, with the exit code (sysexits) the command line
/// gives for it. Every part that reads a recording refuses it for the same reasons; `Use` only words them.
public enum RecordingFault<Use: RecordingUse>: Error, Equatable, Sendable {
    /// Missing or unreadable (66), not audio (65) or a read failing part way (74), from the stream reader.
    case file(AudioFileStreamError)
    /// The file is audio with no frames (65).
    case noFrames(path: String)
    /// The recording lasts longer than its use allows (65).
    case tooLong(path: String, limitSeconds: Int)
    /// More channels than its use allows (65).
    case tooManyChannels(path: String, channelCount: Int)
    /// libsoxr failed (70, an internal error).
    case resamplingFailed(path: String, reason: String)
    /// libebur128 failed (70, an internal error).
    case measurementFailed(path: String, reason: String)

    /// The process exit code after sysexits.h.
    public var exitCode: Int32 {
        switch self {
        case .file(let error): return error.exitCode
        case .noFrames, .tooLong, .tooManyChannels: return 65
        case .resamplingFailed, .measurementFailed: return 70
        }
    }

    /// One line for a human, beginning with what the recording was for ("bed: …").
    public var message: String {
        let subject = Use.subject
        switch self {
        case .file(let error): return subject + ": " + error.message
        case .noFrames(let path): return "\(subject): \"\(path)\" has no audio frames"
        case .tooLong(let path, let limit): return "\(subject): \"\(path)\" is longer than \(limit) s"
        case .tooManyChannels(let path, let count): return "\(subject): \"\(path)\" has \(count) channels" + Use.channelRule
        case .resamplingFailed(let path, let reason): return subject + ": " + FileFaultText.cannot("resample", path, reason)
        case .measurementFailed(let path, let reason): return subject + ": " + FileFaultText.cannot("measure", path, reason)
        }
    }
}
