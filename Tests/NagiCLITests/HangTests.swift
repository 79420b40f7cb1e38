import AudioFile
import Foundation
import Glibc
import NagiTestSupport
import Testing

/// Issue 21 items 4–6: named pipes in preset folders, given by path, as a bed and as an output never hang a
/// command; a blocked wait for a pipe's reader ends on SIGINT / SIGTERM with 130 / 143 and leaves nothing.
@Suite("No hangs on named pipes")
struct HangTests {
    /// Makes a FIFO at `path`.
    static func makeFIFO(_ path: String) throws {
        try #require(mkfifo(path, 0o644) == 0, "mkfifo \(path): \(String(cString: strerror(errno)))")
    }

    @Test("a FIFO in each user preset folder is skipped: presets says so once, completion, describe, render and course list finish")
    func fifoInPresetFolders() throws {
        let folder = try NagiProcess.temporaryFolder()
        let config = folder.appendingPathComponent("config/nagi")
        for category in ["patterns", "soundscapes", "courses"] {
            let categoryFolder = config.appendingPathComponent(category)
            try FileManager.default.createDirectory(at: categoryFolder, withIntermediateDirectories: true)
            try Self.makeFIFO(categoryFolder.appendingPathComponent("piped.json").path)
        }
        let listing = try NagiProcess.run(["presets"], in: folder, timeout: 20)
        #expect(listing.status == 0, "\(listing.standardError)")
        let skippedLines = listing.standardOutput.split(separator: "\n").filter { $0.hasPrefix("Skipped") }
        #expect(skippedLines.count == 1, "\(listing.standardOutput)")
        #expect(skippedLines.first?.contains("patterns/piped.json") == true && skippedLines.first?.contains("courses/piped.json") == true, "\(skippedLines)")
        for kind in ["patterns", "soundscapes", "courses"] {
            let names = try NagiProcess.run(["presets", "--names", kind], in: folder, timeout: 20)
            #expect(names.status == 0, "\(kind): \(names.standardError)")
            #expect(!names.standardOutput.contains("piped"), "\(names.standardOutput)")
            #expect(!names.standardOutput.isEmpty)
        }
        for arguments in [["describe", "box", "--cycles", "1"], ["render", "box", "--cycles", "1", "-o", "box.wav", "--quiet"], ["course", "list"]] {
            let result = try NagiProcess.run(arguments, in: folder, timeout: 20)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
    }

    @Test("a FIFO or device given by path is refused with 66 'not a regular file', without waiting for a writer", arguments: [
        ["describe", "./pipe"], ["course", "show", "./pipe"], ["render", "box", "--cycles", "1", "--soundscape", "./pipe", "-o", "x.wav"],
        ["render", "box", "--cycles", "1", "--bed", "./pipe", "-o", "x.wav"], ["render", "box", "--cycles", "1", "--bed", "/dev/zero", "-o", "x.wav"],
    ])
    func fifoGivenByPath(arguments: [String]) throws {
        let folder = try NagiProcess.temporaryFolder()
        try Self.makeFIFO(folder.appendingPathComponent("pipe").path)
        let result = try NagiProcess.run(arguments, in: folder, timeout: 10)
        #expect(result.status == 66, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: ") && result.standardError.contains("not a regular file"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(NagiProcess.names(in: folder) == ["pipe"])
    }

    /// Starts `nagi arguments` in `folder` with output to files there under `logs`.
    static func start(_ arguments: [String], in folder: URL, logs: URL) throws -> ChildProcess {
        try ChildProcess(
            NagiProcess.executableURL.path, arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8"],
            workingDirectory: folder.path, standardOutputPath: logs.appendingPathComponent("stdout").path,
            standardErrorPath: logs.appendingPathComponent("stderr").path)
    }

    @Test("-o FIFO and --labels FIFO without a reader end on SIGINT / SIGTERM within a second, leaving nothing", arguments: [
        (["render", "box", "--cycles", "1", "--format", "wav", "-o", "out.fifo"], SIGINT),
        (["render", "box", "--cycles", "1", "--format", "flac", "-o", "out.fifo"], SIGTERM),
        (["render", "box", "--cycles", "1", "-o", "a.wav", "--labels", "out.fifo"], SIGTERM),
        (["render", "box", "--cycles", "1", "-o", "a.wav", "--labels", "out.fifo"], SIGINT),
    ])
    func blockedOutputEndsOnSignal(arguments: [String], signal: Int32) throws {
        let folder = try NagiProcess.temporaryFolder()
        let logs = try NagiProcess.temporaryFolder()
        try Self.makeFIFO(folder.appendingPathComponent("out.fifo").path)
        let child = try Self.start(arguments, in: folder, logs: logs)
        // One cycle of box renders in well under this; then it waits for a reader that never comes.
        #expect(!child.wait(seconds: 3), "it should still be waiting for a reader")
        child.signal(signal)
        let ended = child.wait(seconds: 1)
        #expect(ended, "still running a second after the signal")
        if !ended {
            child.signal(SIGKILL)
            _ = child.wait(seconds: 5)
        }
        #expect(child.exitStatus == 128 + signal)
        let standardError = (try? String(contentsOf: logs.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
        #expect(standardError.contains(signal == SIGINT ? "Ctrl-C" : "SIGTERM"), "\(standardError)")
        #expect(NagiProcess.names(in: folder) == ["out.fifo"], "\(NagiProcess.names(in: folder))")
    }

    @Test("--format wav -o p.fifo streams a WAV to the pipe's reader (--format wins over an extension naming no format)")
    func formatWinsForAPipe() throws {
        let folder = try NagiProcess.temporaryFolder()
        try Self.makeFIFO(folder.appendingPathComponent("p.fifo").path)
        let reader = try ChildProcess("/bin/sh", ["-c", "cat p.fifo > got.wav"], environment: ["PATH": "/usr/bin:/bin"], workingDirectory: folder.path)
        let result = try NagiProcess.run(["render", "box", "--cycles", "1", "--format", "wav", "-o", "p.fifo", "--quiet"], in: folder, timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(reader.wait(seconds: 10) && reader.exitStatus == 0)
        // The stream's header says "unknown length"; libsndfile reads it to the end (one cycle of box: 16 s,
        // plus 3.3 s of tail, stereo).
        let samples = try AudioFileReader.readFloat(path: folder.appendingPathComponent("got.wav").path)
        #expect(samples.count == 926_400 * 2, "\(samples.count)")

        let xyz = try NagiProcess.run(["render", "box", "--cycles", "1", "--format", "flac", "-o", "out.xyz", "--quiet"], in: folder, timeout: 60)
        #expect(xyz.status == 0, "\(xyz.standardError)")
        // ffprobe tells the format from the content, not the name.
        let probe = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", folder.appendingPathComponent("out.xyz").path])
        #expect(probe.status == 0 && probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "flac", "\(probe.output)")
    }
}
