import NagiBase

extension FaultCategory {
    /// The process exit code after sysexits.h for this kind of fault.
    package var exitCode: Int32 {
        switch self {
        case .usage: 64  // EX_USAGE
        case .badData: 65  // EX_DATAERR
        case .missingInput: 66  // EX_NOINPUT
        case .unavailable: 69  // EX_UNAVAILABLE
        case .internalFailure: 70  // EX_SOFTWARE
        case .cannotCreate: 73  // EX_CANTCREAT
        case .inputOutput: 74  // EX_IOERR
        case .readerClosed: 141  // 128 + SIGPIPE, what a shell shows for `yes | head -1`
        }
    }
}
