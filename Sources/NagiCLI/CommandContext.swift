import CNagiSystem
import NagiKit
import NagiOptions
import NagiSystem
import Synchronization

/// What one run of the command line works with beyond its arguments: where its standard output and error go,
/// whether each is a terminal, its environment variables and its stop request. The `nagi` process runs with
/// `process`; a test or an app runs the command line in process with a context of its own (after
/// swift-argument-parser's commands, whose I/O is the caller's), and many such runs can go side by side.
///
/// A run's context is bound to its task (`current`) rather than passed through every function: what a command
/// prints reaches its own streams from anywhere in it. Work a command hands to threads of its own takes the
/// context along (`CourseExport` does; a thread that did not would write to the process's streams).
public final class CommandContext: Sendable {
    /// Where standard output goes.
    public let standardOutput: any CommandOutput
    /// Where standard error goes.
    public let standardError: any CommandOutput
    /// Whether standard output is a terminal: `render` refuses to write audio there, `play` draws its view there.
    public let standardOutputIsTerminal: Bool
    /// Whether standard error is a terminal: progress bars are drawn there only then.
    public let standardErrorIsTerminal: Bool
    /// The environment variables the run reads (`HOME`, `XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `TMPDIR`); nil for
    /// the process's own.
    public let environment: [String: String]?
    /// The signal that asked the run to stop (SIGINT, SIGTERM), nil while none has: checked between blocks of work.
    public let stopSignal: @Sendable () -> Int32?
    /// Whether the run installs SIGINT and SIGTERM handlers (only the process: a host keeps its own).
    let ownsSignals: Bool
    /// The errno of the first write to standard output that failed, 0 while every write went out.
    let standardOutputErrno = Atomic<Int32>(0)

    /// A context for a run in process: its own streams (not terminals unless said), its own `environment`, and
    /// `stopSignal` for the host to ask it to stop (a cancelled run ends with code 130 for SIGINT, 143 for SIGTERM).
    public convenience init(
        standardOutput: any CommandOutput, standardError: any CommandOutput,
        standardOutputIsTerminal: Bool = false, standardErrorIsTerminal: Bool = false,
        environment: [String: String], stopSignal: @escaping @Sendable () -> Int32? = { nil }
    ) {
        self.init(standardOutput: standardOutput, standardError: standardError, standardOutputIsTerminal: standardOutputIsTerminal, standardErrorIsTerminal: standardErrorIsTerminal, environment: Optional(environment), stopSignal: stopSignal, ownsSignals: false)
    }

    private init(standardOutput: any CommandOutput, standardError: any CommandOutput, standardOutputIsTerminal: Bool, standardErrorIsTerminal: Bool, environment: [String: String]?, stopSignal: @escaping @Sendable () -> Int32?, ownsSignals: Bool) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardOutputIsTerminal = standardOutputIsTerminal
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.environment = environment
        self.stopSignal = stopSignal
        self.ownsSignals = ownsSignals
    }

    /// The `nagi` process's own: descriptors 1 and 2, its environment, SIGINT and SIGTERM.
    public static let process: CommandContext = {
        let output = FileDescriptorOutput(descriptor: 1)
        let error = FileDescriptorOutput(descriptor: 2)
        return CommandContext(
            standardOutput: output, standardError: error, standardOutputIsTerminal: output.isTerminal, standardErrorIsTerminal: error.isTerminal,
            environment: nil, stopSignal: {
                let signal = nagi_stop_signal()
                return signal != 0 ? signal : nil
            }, ownsSignals: true)
    }()

    /// The context of the run on this task: `process` outside `NagiCommandLine.run(_:context:)`.
    @TaskLocal static var current: CommandContext = .process

    /// Runs `body` with this context (and its environment) as the current one: on the run's task, or on a thread
    /// the run started.
    func bound<Success>(_ body: () throws(NagiError) -> Success) throws(NagiError) -> Success {
        let outcome = Self.$current.withValue(self) {
            ProcessEnvironment.$bound.withValue(environment) {
                Result { () throws(NagiError) in try body() }
            }
        }
        return try outcome.get()
    }

    /// Whether standard output is the process's own descriptor: only then can audio stream there (`render -o -`).
    var standardOutputIsProcesses: Bool { standardOutput is FileDescriptorOutput }

    /// The run's stop request as NagiKit's cancellation token.
    var cancellation: Cancellation {
        let stopSignal = self.stopSignal
        return Cancellation { stopSignal() != nil }
    }

    /// Installs the stop handlers when the run owns the process's signals (a command that can run long calls this
    /// before it starts).
    func installStopHandlers() {
        if ownsSignals { nagi_install_stop_handlers() }
    }

    /// Writes `text` to standard output. After a write has failed nothing more is written (a gap would pass for
    /// whole output); the run's end reports the failure (`takeStandardOutputFault`).
    func out(_ text: String) {
        guard standardOutputErrno.load(ordering: .relaxed) == 0 else { return }
        let code = standardOutput.write(Array(text.utf8))
        if code != 0 { standardOutputErrno.store(code, ordering: .relaxed) }
    }

    /// Writes `text` to standard error.
    func err(_ text: String) {
        _ = standardError.write(Array(text.utf8))
    }
}
