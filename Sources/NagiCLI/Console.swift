import NagiSystem
import NagiOptions
import Glibc
import NagiKit

/// The current run's standard streams (`CommandContext.current`): the process's descriptors for `nagi`, a
/// caller's sinks for a run in process.
enum Console {
    /// Writes `text` to standard output. After a write has failed nothing more is written (a gap would pass for
    /// whole output); the command's end reports the failure (`takeStandardOutputFault`).
    static func out(_ text: String) {
        CommandContext.current.out(text)
    }

    /// What a failed write to standard output makes of the command, clearing it: 74 with the system's words, or
    /// the quiet 141 when its reader has gone (EPIPE), as for `render -o -`; nil when every write went out.
    static func takeStandardOutputFault() -> NagiError? {
        let code = CommandContext.current.standardOutputErrno.exchange(0, ordering: .relaxed)
        guard code != 0 else { return nil }
        if code == EPIPE { return .audioFile(.readerClosed(path: "standard output")) }
        return .io("cannot write to standard output: \(Errno(code).description)")
    }

    /// Writes `text` to standard error.
    static func err(_ text: String) {
        CommandContext.current.err(text)
    }

    /// Prints the one-line error for `error` on standard error; nothing when standard output's reader went away
    /// (`nagi render -o - | head -c 1000`): that ends quietly, with exit code 141.
    static func report(_ error: NagiError, in context: CommandContext = .current) {
        if case .audioFile(.readerClosed) = error { return }
        context.err("nagi: error: \(ErrorLine.printable(error.message))\n")
    }

    /// Whether standard error is a terminal (progress bars go there only then).
    static var standardErrorIsTerminal: Bool { CommandContext.current.standardErrorIsTerminal }

    /// Whether standard output is a terminal.
    static var standardOutputIsTerminal: Bool { CommandContext.current.standardOutputIsTerminal }

    /// The current run's stop request as NagiKit's cancellation token.
    static var cancellation: Cancellation { CommandContext.current.cancellation }

    /// Installs SIGINT and SIGTERM handlers when the run is the process's own.
    static func installStopHandlers() { CommandContext.current.installStopHandlers() }
}
