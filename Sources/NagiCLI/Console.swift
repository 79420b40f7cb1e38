import NagiSystem
import NagiOptions
import FoundationEssentials
import Glibc
import NagiKit
import Synchronization

/// Writes to the terminal's standard streams without buffering surprises.
enum Console {
    /// The errno of the first write to standard output that failed (a full disk, /dev/full, a reader gone), 0
    /// while every write went out.
    private static let standardOutputErrno = Atomic<Int32>(0)

    /// Writes `text` to standard output. After a write has failed nothing more is written (a gap would pass for
    /// whole output); the command's end reports the failure (`takeStandardOutputFault`).
    static func out(_ text: String) {
        guard standardOutputErrno.load(ordering: .relaxed) == 0 else { return }
        if !FileSystem.writeAll(1, Array(text.utf8)) {
            standardOutputErrno.store(errno != 0 ? errno : EIO, ordering: .relaxed)
        }
    }

    /// What a failed write to standard output makes of the command, clearing it: 74 with the system's words, or
    /// the quiet 141 when its reader has gone (EPIPE), as for `render -o -`; nil when every write went out.
    static func takeStandardOutputFault() -> CLIError? {
        let code = standardOutputErrno.exchange(0, ordering: .relaxed)
        guard code != 0 else { return nil }
        if code == EPIPE { return .audioFile(.readerClosed(path: "standard output")) }
        return .io("cannot write to standard output: \(Errno(code).description)")
    }

    /// Writes `text` to standard error.
    static func err(_ text: String) {
        _ = FileSystem.writeAll(2, Array(text.utf8))
    }

    /// Prints the one-line error for `error` on standard error; nothing when standard output's reader went away
    /// (`nagi render -o - | head -c 1000`): that ends quietly, with exit code 141.
    static func report(_ error: CLIError) {
        if case .audioFile(.readerClosed) = error { return }
        err("nagi: error: \(ErrorLine.printable(error.message))\n")
    }

    /// Whether standard error is a terminal (progress bars go there only then).
    static var standardErrorIsTerminal: Bool { isatty(2) == 1 }

    /// Whether standard output is a terminal.
    static var standardOutputIsTerminal: Bool { isatty(1) == 1 }
}
