import NagiBase

/// What went wrong reading a user's recording as a stream, and what kind of fault each is.
public enum AudioFileStreamError: Error, Equatable, Sendable {
    /// The file does not exist, cannot be opened, or is not a regular file (EX_NOINPUT).
    case cannotOpen(path: String, reason: String)
    /// The file opened but libsndfile does not read it as audio; `reason` is libsndfile's (EX_DATAERR).
    case notAudio(path: String, reason: String)
    /// A read or seek failed part way in the system (EX_IOERR).
    case readFailed(path: String, reason: String)
    /// The file's audio is damaged part way (truncated, a lost sync); `reason` is libsndfile's (EX_DATAERR).
    case damaged(path: String, reason: String)

    /// What kind of fault this is (the command line maps it to an exit code).
    public var category: FaultCategory {
        switch self {
        case .cannotOpen: return .missingInput
        case .notAudio, .damaged: return .badData
        case .readFailed: return .inputOutput
        }
    }

    /// One line for a human.
    public var message: String {
        switch self {
        case .cannotOpen(let path, let reason): return FileFaultText.cannot("open", path, reason)
        case .notAudio(let path, let reason): return "'\(path)' is not audio libsndfile reads: \(reason)"
        case .readFailed(let path, let reason): return FileFaultText.cannot("read", path, reason)
        case .damaged(let path, let reason): return "'\(path)' is damaged part way: \(reason)"
        }
    }
}
