import NagiTestSupport
import Foundation

/// Runs a bash pipeline with the built nagi as `$NAGI`, so tests use real pipes into real readers (sox, ffmpeg,
/// python3, head) as a user's shell would.
enum Pipeline {
    struct Result {
        var status: Int32
        /// What bash itself printed on standard error (each command's own is redirected by the script).
        var standardError: String
    }

    /// Runs `script` in `folder` (HOME too). Bash's own output goes outside `folder`, whose contents tests check.
    static func run(_ script: String, in folder: URL, timeout: Double = 120) throws -> Result {
        let logFolder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: logFolder) }
        let errorPath = logFolder.appendingPathComponent("stderr").path
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8", "NAGI": NagiProcess.executableURL.path]
        let child = try ChildProcess("/bin/bash", ["-c", script], environment: environment, workingDirectory: folder.path, standardErrorPath: errorPath)
        let finished = child.wait(seconds: timeout)
        if !finished {
            child.signal(SIGKILL)
            _ = child.wait(seconds: 10)
        }
        let errorText = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return Result(status: finished ? (child.exitStatus ?? -1) : -1, standardError: errorText)
    }

    /// The bytes of `name` in `folder`.
    static func bytes(_ name: String, in folder: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// Little-endian 16-bit PCM as libsndfile reads it to Float (divided by 32768).
    static func floats(fromPCM16 bytes: [UInt8]) -> [Float] {
        stride(from: 0, to: bytes.count - 1, by: 2).map { index in
            Float(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)) / 32768
        }
    }
}
