import AudioFile
import Foundation
import NagiTestSupport
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
    static var executableURL: URL { NagiBinary.url }

    /// Runs nagi with `arguments` in `directory`, with `environment` added to a clean one
    /// (HOME and XDG folders point into temporary folders unless given).
    ///
    /// Through ChildProcess (posix_spawn, waitpid) with output to files: Foundation's Process could miss a
    /// signalled child's exit, and under ThreadSanitizer its run loop crashed the test runner.
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], timeout: TimeInterval = 120) throws -> Result {
        // Output goes outside `directory`, whose contents tests check.
        let outputFolder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: outputFolder) }
        let home = directory ?? TemporaryFolder.root
        // The runtime folder is for the pulse plugin's hook that alsa-lib runs on any device open (RuntimeFolder).
        var variables = ["PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "XDG_STATE_HOME": home.appendingPathComponent("state").path, "XDG_RUNTIME_DIR": outputFolder.path, "LANG": "C.UTF-8"]
        variables.merge(environment) { $1 }
        let outputPath = outputFolder.appendingPathComponent("stdout").path
        let errorPath = outputFolder.appendingPathComponent("stderr").path
        let child = try ChildProcess(executableURL.path, arguments, environment: variables, workingDirectory: directory?.path, standardOutputPath: outputPath, standardErrorPath: errorPath)
        if !child.wait(seconds: timeout) {
            child.signal(SIGKILL)
            Issue.record("nagi \(arguments.joined(separator: " ").prefix(200)) did not finish in \(timeout) s")
            _ = child.wait(seconds: 10)
        }
        let output = FileManager.default.contents(atPath: outputPath) ?? Data()
        let error = FileManager.default.contents(atPath: errorPath) ?? Data()
        return Result(status: child.exitStatus ?? -1, standardOutput: String(decoding: output, as: UTF8.self), standardError: String(decoding: error, as: UTF8.self))
    }

    /// The names in `folder`, sorted; empty when it does not exist.
    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// A fresh empty temporary folder, removed when the test process exits (`TemporaryFolder.makeURL`).
    static func temporaryFolder() throws -> URL {
        try TemporaryFolder.makeURL()
    }

    /// Plays `options` (`--bits float` among them) into ALSA's `file:` device and renders the same options to
    /// `render.wav` in `folder`, expecting both to succeed: what reached the device and what the file holds,
    /// as interleaved Float samples, for tests that live equals rendered.
    static func playedAndRendered(_ options: [String], in folder: URL) throws -> (played: [Float], rendered: [Float]) {
        let capture = folder.appendingPathComponent("capture.raw").path
        let played = try run(["play"] + options + ["--device", "file:'\(capture)',raw", "--quiet"], in: folder)
        #expect(played.status == 0, "\(played.standardError)")
        let rendered = try run(["render"] + options + ["-o", "render.wav", "--quiet"], in: folder)
        #expect(rendered.status == 0, "\(rendered.standardError)")
        let expected = try AudioFileReader.readFloat(path: folder.appendingPathComponent("render.wav").path)
        let data = try Data(contentsOf: URL(fileURLWithPath: capture))
        return (data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, expected)
    }
}
