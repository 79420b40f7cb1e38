import NagiBase

/// What went wrong with an audio file, and what kind of fault each is.
public enum AudioFileError: Error, Equatable, Sendable {
    /// The requested output cannot be written (format, rate, channels, quality, tags). Nothing was created.
    case unsupported(String)
    /// The target exists and replacing it was not asked for. Nothing was created.
    case targetExists(path: String)
    /// The output could not be created: missing or unwritable folder, permission, a folder in the way.
    case cannotCreate(path: String, reason: String)
    /// Writing, flushing or publishing the output failed (a full disk, an I/O error). `reason` names the C call
    /// and the system's or libsndfile's text. No target and no temporary file are left behind.
    case writeFailed(path: String, reason: String)
    /// A file could not be opened or read back.
    case cannotRead(path: String, reason: String)
    /// Reading a file failed part way in the system (an I/O error).
    case readFailed(path: String, reason: String)
    /// The reader of a pipe or standard output closed its end before the output was complete (`| head -c 1000`).
    /// Not a fault of nagi's: the command ends quietly with 141, the status of a process stopped by SIGPIPE.
    case readerClosed(path: String)
    /// A cover picture that cannot be embedded: not a PNG or JPEG image, or too large. Nothing was created.
    case badCover(path: String, reason: String)

    /// What kind of fault this is (the command line maps it to an exit code).
    public var category: FaultCategory {
        switch self {
        case .unsupported: return .usage
        case .targetExists, .cannotCreate: return .cannotCreate
        case .writeFailed, .readFailed: return .inputOutput
        case .cannotRead: return .missingInput
        case .readerClosed: return .readerClosed
        case .badCover: return .badData
        }
    }

    /// One line for a human.
    public var message: String {
        switch self {
        case .unsupported(let detail):
            return "unsupported output: \(detail)"
        case .targetExists(let path):
            return "'\(path)' already exists"
        case .cannotCreate(let path, let reason):
            return FileFaultText.cannot("create", path, reason)
        case .writeFailed(let path, let reason):
            return FileFaultText.cannot("write", path, reason)
        case .cannotRead(let path, let reason), .readFailed(let path, let reason):
            return FileFaultText.cannot("read", path, reason)
        case .readerClosed(let path):
            return "the reader of \(path) closed it before the end"
        case .badCover(let path, let reason):
            return "cannot use '\(path)' as a cover: \(reason)"
        }
    }
}
