import NagiBase

/// Why a user's recording (a bed, a cue clip) cannot be used, and what kind of fault that is. Every part that reads a recording refuses it for the same reasons; `Use` only words them.
public enum RecordingFault<Use: RecordingUse>: Error, Equatable, Sendable {
    /// Missing or unreadable (66), not audio (65) or a read failing part way (74), from the stream reader.
    case file(AudioFileStreamError)
    /// The file is audio with no frames (65).
    case noFrames(path: String)
    /// The recording lasts longer than its use allows (65).
    case tooLong(path: String, limitSeconds: Int)
    /// Shorter than its use allows (65).
    case tooShort(path: String, minimumSeconds: Double)
    /// Nothing left to hear once the DC-blocking high-pass has taken its offset and infrasound away (65).
    case silent(path: String)
    /// A sample rate outside what nagi resamples and measures (65).
    case unsupportedRate(path: String, sampleRate: Int, supported: ClosedRange<Int>)
    /// More channels than its use allows (65).
    case tooManyChannels(path: String, channelCount: Int)
    /// libsoxr failed (70, an internal error).
    case resamplingFailed(path: String, reason: String)

    /// What kind of fault this is (the command line maps it to an exit code).
    public var category: FaultCategory {
        switch self {
        case .file(let error): return error.category
        case .noFrames, .tooLong, .tooShort, .silent, .unsupportedRate, .tooManyChannels: return .badData
        case .resamplingFailed: return .internalFailure
        }
    }

    /// One line for a human, beginning with what the recording was for ("bed: …").
    public var message: String {
        let subject = Use.subject
        switch self {
        case .file(let error): return subject + ": " + error.message
        case .noFrames(let path): return "\(subject): '\(path)' has no audio frames"
        case .tooLong(let path, let limit): return "\(subject): '\(path)' is longer than \(limit) s"
        case .tooShort(let path, let minimum): return "\(subject): '\(path)' is shorter than \(minimum) s"
        case .silent(let path):
            return "\(subject): '\(path)' is silent once its DC offset and infrasound (under \(Int(DCBlockingFilter.cutoffHz)) Hz) are filtered out"
        case .unsupportedRate(let path, let rate, let supported):
            return "\(subject): '\(path)' is at \(rate) Hz; recordings from \(supported.lowerBound) to \(supported.upperBound) Hz are supported"
        case .tooManyChannels(let path, let count): return "\(subject): '\(path)' has \(count) channels" + Use.channelRule
        case .resamplingFailed(let path, let reason): return subject + ": " + FileFaultText.cannot("resample", path, reason)
        }
    }
}
