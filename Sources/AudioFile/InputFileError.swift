import NagiBase

/// Why a file nagi reads cannot be read (`InputFile`), and what kind of fault each is.
public enum InputFileError: Error, Equatable, Sendable {
    /// The path is not a readable regular file: missing, a folder, a pipe, socket or device, or without read
    /// permission (EX_NOINPUT).
    case refused(path: String, reason: String)
    /// A read failed part way in the system (EX_IOERR).
    case readFailed(path: String, reason: String)

    /// What kind of fault this is (the command line maps it to an exit code).
    public var category: FaultCategory {
        switch self {
        case .refused: .missingInput
        case .readFailed: .inputOutput
        }
    }

    /// The path at fault.
    public var path: String {
        switch self {
        case let .refused(path, _), let .readFailed(path, _): path
        }
    }

    /// Why, without the path ("No such file or directory", "not a regular file (a named pipe)").
    public var reason: String {
        switch self {
        case let .refused(_, reason), let .readFailed(_, reason): reason
        }
    }

    /// One line for a human: `cannot read 'c.png': not a regular file (a named pipe)`.
    public var message: String {
        FileFaultText.cannot("read", path, reason)
    }
}
