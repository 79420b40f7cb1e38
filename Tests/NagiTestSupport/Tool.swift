import Foundation

/// Runs a command-line tool (sox, ffmpeg, flite, a test binary) to its end and gives its exit status and
/// what it printed, standard output then standard error.
///
/// Through `ChildProcess` (posix_spawn, waitpid, output to files) rather than Foundation's `Process`, whose
/// run loop crashed the test runner under ThreadSanitizer.
public enum Tool {
    public static func run(_ tool: String, _ arguments: [String], timeoutSeconds: Double = 600) throws -> (status: Int32, output: String) {
        let folder = try TemporaryFolder()
        let outputPath = folder.file("stdout")
        let errorPath = folder.file("stderr")
        let child = try ChildProcess(
            tool, arguments, environment: ProcessInfo.processInfo.environment,
            standardOutputPath: outputPath, standardErrorPath: errorPath)
        guard child.wait(seconds: timeoutSeconds), let status = child.exitStatus else {
            child.signal(SIGKILL)
            _ = child.wait(seconds: 10)
            throw POSIXError(.ETIMEDOUT)
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return (status, output + error)
    }
}
