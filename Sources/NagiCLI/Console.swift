import NagiOptions
import FoundationEssentials
import Glibc
import NagiKit

/// Writes to the terminal's standard streams without buffering surprises.
enum Console {
    /// Writes `text` to standard output.
    static func out(_ text: String) {
        _ = FileSystem.writeAll(1, Array(text.utf8))
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
