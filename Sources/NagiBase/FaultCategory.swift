/// What kind of fault an error is, in words every library of nagi shares: the libraries say which, and only the
/// command line turns it into an exit code (sysexits). An app reads it to decide what to tell its user.
public enum FaultCategory: Sendable, Equatable {
    /// A bad request: an impossible option or combination, a malformed value.
    case usage
    /// Bad content in a file or a value: the data must change.
    case badData
    /// Something named does not exist or cannot be opened.
    case missingInput
    /// A device or service is not there.
    case unavailable
    /// A library below failed in a way the input does not explain.
    case internalFailure
    /// The output cannot be created.
    case cannotCreate
    /// Reading or writing failed part way.
    case inputOutput
    /// The reader of a stream went away.
    case readerClosed
}
