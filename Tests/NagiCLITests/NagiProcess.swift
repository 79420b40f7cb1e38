import Foundation
import Testing

/// Runs the built `nagi` binary as a user would, capturing its output and exit code.
struct NagiProcess {
    /// What one run produced.
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The `nagi` executable next to the test bundle in the build products folder.
    static var executableURL: URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // The test binary lives inside nagiPackageTests.xctest on some layouts.
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("nagi").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("nagi")
    }

    /// Runs nagi with `arguments` in `directory`, with `environment` added to a clean one
    /// (HOME and XDG folders point into a temporary folder unless given).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], timeout: TimeInterval = 120) throws -> Result {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        let home = directory ?? FileManager.default.temporaryDirectory
        var variables = ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "XDG_STATE_HOME": home.appendingPathComponent("state").path, "LANG": "C.UTF-8"]
        variables.merge(environment) { $1 }
        process.environment = variables
        if let directory { process.currentDirectoryURL = directory }
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes concurrently so a large output cannot block the child.
        nonisolated(unsafe) var outputData = Data()
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            outputData = outputPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errorData = errorPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        if !waitForExit(process, seconds: timeout) {
            process.terminate()
            Issue.record("nagi \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
            process.waitUntilExit()
        }
        group.wait()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self), standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Waits up to `seconds` for `process` to exit; true if it did. Waits on another thread, since polling
    /// `isRunning` from a test's task can miss the exit.
    static func waitForExit(_ process: Process, seconds: Double) -> Bool {
        let exited = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            process.waitUntilExit()
            exited.signal()
        }
        return exited.wait(timeout: .now() + seconds) == .success
    }

    /// A fresh empty temporary folder.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nagi-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
