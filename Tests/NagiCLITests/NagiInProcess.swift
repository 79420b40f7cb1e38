import Foundation
import NagiCLI
import NagiTestSupport

/// Runs the command line inside the test process (`NagiCommandLine.run(_:context:)`), capturing what it prints:
/// the same code as the `nagi` binary, without starting one. For tests of text, exit codes and files; a test
/// whose point is a real process (signals, pipes, ALSA, the terminal) uses `NagiProcess`.
///
/// No working directory of its own (the test process has one for all tests, side by side): give paths absolute.
enum NagiInProcess {
    /// Runs `arguments` with HOME (and the XDG config and state folders under it) in `home`, or in the test run's
    /// temporary root, and `environment` added; returns the exit code and what it wrote, as `NagiProcess` does.
    static func run(_ arguments: [String], home: URL? = nil, environment: [String: String] = [:]) -> NagiProcess.Result {
        let home = home ?? TemporaryFolder.root
        var variables = ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LANG": "C.UTF-8"]
        variables.merge(environment) { $1 }
        let output = CapturedOutput()
        let error = CapturedOutput()
        let status = NagiCommandLine.run(arguments, context: CommandContext(standardOutput: output, standardError: error, environment: variables))
        return NagiProcess.Result(status: status, standardOutput: output.text, standardError: error.text)
    }
}
