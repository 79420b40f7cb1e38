/// Why a small text output (`PendingTextFile`) could not be written, as data: the facts and a line saying them;
/// the command line adds its advice and its exit codes.
public enum TextFileError: Error, Equatable, Sendable {
    /// A regular file is in the way and replacing it was not asked for.
    case targetExists(path: String)
    /// The file or its temporary file could not be created (`message` says why).
    case cannotCreate(String)
    /// Writing failed part way (`message` says why).
    case writeFailed(String)
    /// Waiting for a named pipe's reader was given up (the caller's stop condition).
    case cancelled

    /// One line naming the fault.
    public var message: String {
        switch self {
        case let .targetExists(path): "'\(path)' already exists"
        case let .cannotCreate(text), let .writeFailed(text): text
        case .cancelled: "stopped while waiting for a reader"
        }
    }
}
