import Foundation
import Locking
import NagiCLI
import NagiTestSupport

/// `nagi serve ARGUMENTS` run by the command line's own entry (`NagiCommandLine.run`) on a thread of this process:
/// what it prints, the certificate and token it makes, the URL it serves, all as the binary would, over a real
/// loopback socket, with its own HOME, XDG folders and TMPDIR; stopped as SIGTERM would stop it, through the run's
/// stop request. `ServeProcess` stays for what needs a process of its own (real signals, its own CPU and memory).
final class CommandLineServer: LoopbackServer {
    /// The folder everything of this server lives in (HOME): `config/`, `state/`, `tmp/`, `runtime/`, `output/`.
    let home: TemporaryFolder
    /// The first line it printed: `http://HOST:PORT/` or `https://…` (with `?token=…` when there is one).
    let url: String
    let port: UInt16
    let token: String?
    private let output = CapturedOutput()
    private let error = CapturedOutput()
    /// The signal the run is asked to stop by, once asked.
    private let stopRequest = Locked<Int32?>(nil)
    /// The run's exit status, once it has returned.
    private let exitStatus = Locked<Int32?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `nagi serve ARGUMENTS` (standard output a terminal when `standardOutputIsTerminal`; `environment`
    /// added to the test's own) and waits until it says it serves.
    /// - Throws: when it returns or says nothing in `seconds`, with what it said.
    init(_ arguments: [String] = ["--listen", "127.0.0.1:0"], standardOutputIsTerminal: Bool = false, environment: [String: String] = [:], home: TemporaryFolder? = nil, seconds: Double = 20) throws {
        let home = try home ?? ServeProcess.makeHome()
        self.home = home
        let stopRequest = stopRequest
        let context = CommandContext(
            standardOutput: output, standardError: error, standardOutputIsTerminal: standardOutputIsTerminal,
            environment: ServeProcess.environment(home).merging(environment) { $1 }, stopSignal: { stopRequest.withLock { $0 } })
        let (exitStatus, finished) = (exitStatus, finished)
        Thread.detachNewThread {
            let status = NagiCommandLine.run(["serve"] + arguments, context: context)
            exitStatus.withLock { $0 = status }
            finished.signal()
        }
        let error = error
        _ = Poll.until(seconds: seconds, every: 0.01) { error.text.contains("serving on") || exitStatus.withLock { $0 } != nil }
        let firstLine = output.text.split(separator: "\n").first.map(String.init)
        guard error.text.contains("serving on"), let firstLine, let port = ServeProcess.port(in: firstLine) else {
            stopRequest.withLock { $0 = SIGTERM }
            throw ServeStartError(message: "nagi serve \(arguments.joined(separator: " ")) did not serve; it said: \(error.text)")
        }
        url = firstLine
        self.port = port
        token = firstLine.range(of: "?token=").map { String(firstLine[$0.upperBound...]) }
    }

    deinit {
        _ = stop()
    }

    /// What it printed on standard output so far.
    var standardOutput: String { output.text }

    /// What it printed on standard error so far.
    var standardError: String { error.text }

    /// Asks the run to stop as `signal` would and waits up to `seconds` for it to return; its exit status, nil when
    /// it did not return.
    func stop(_ signal: Int32 = SIGTERM, seconds: Double = 10) -> Int32? {
        stopRequest.withLock { $0 = $0 ?? signal }
        if let status = exitStatus.withLock({ $0 }) { return status }
        guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
        return exitStatus.withLock { $0 }
    }
}
