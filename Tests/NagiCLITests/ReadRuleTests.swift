import Foundation
import Glibc
import NagiTestSupport
import Testing

/// Issue 46, defects 1, 2 and 8: one rule for every path nagi reads. A missing path, a folder, a pipe or device,
/// or a file without read permission is exit 66 with one line naming it, whatever option names it; nothing is
/// written, and a named pipe never makes a command wait.
@Suite("One rule for every path nagi reads")
struct ReadRuleTests {
    /// What the bad path is.
    enum Kind: String, CaseIterable, Sendable {
        case missing, folder, fifo, device, unreadable
    }

    /// One reader of a file: the path it is given (relative to the test's folder) and the command that reads it.
    struct Reader: CustomTestStringConvertible, Sendable {
        var name: String
        var path: String
        var arguments: [String]
        var testDescription: String { name }
    }

    static let readers: [Reader] = [
        Reader(name: "pattern", path: "thing.json", arguments: ["describe", "./thing.json"]),
        Reader(name: "included pattern", path: "thing.json", arguments: ["describe", "./session.json"]),
        Reader(name: "course", path: "thing.json", arguments: ["course", "show", "./thing.json"]),
        Reader(name: "soundscape", path: "thing.json", arguments: ["render", "box", "--cycles", "1", "--soundscape", "./thing.json", "-o", "out.wav"]),
        Reader(name: "bed", path: "thing.wav", arguments: ["render", "box", "--cycles", "1", "--bed", "thing.wav", "-o", "out.wav"]),
        Reader(name: "cover", path: "thing.png", arguments: ["render", "box", "--cycles", "1", "--cover", "thing.png", "-o", "out.flac"]),
        Reader(name: "cue clip", path: "pack/inhale.wav", arguments: ["render", "box", "--cycles", "1", "--cue-pack", "pack", "-o", "out.wav"]),
        Reader(name: "RR record", path: "thing.csv", arguments: ["resonance", "analyze", "thing.csv", "coherent"]),
        Reader(name: "progress record", path: "state/nagi/beginner-21.progress.json", arguments: ["course", "status", "beginner-21"]),
    ]

    /// Every reader with every kind of bad path, but a missing progress record: that is a course not begun.
    static let cases: [(Reader, Kind)] = readers.flatMap { reader in
        Kind.allCases.filter { reader.name != "progress record" || $0 != .missing }.map { (reader, $0) }
    }

    /// Makes `kind` at `path` inside `folder`.
    static func make(_ kind: Kind, at path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        switch kind {
        case .missing: break
        case .folder: try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        case .fifo: try HangTests.makeFIFO(url.path)
        case .device: try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/zero")
        case .unreadable:
            try Data("{}\n".utf8).write(to: url)
            try #require(chmod(url.path, 0) == 0)
        }
    }

    /// The files a reader needs around its bad path: a session including it, a cue pack's other clips.
    static func prepare(_ reader: Reader, in folder: URL) throws {
        try #"{"stages": [{"pattern": "./thing.json", "cycles": 1}]}"#.write(to: folder.appendingPathComponent("session.json"), atomically: true, encoding: .utf8)
        if reader.name == "cue clip" {
            let pack = folder.appendingPathComponent("pack")
            try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
            for name in ["hold", "exhale"] {
                let made = try Tool.run("/usr/bin/sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", pack.appendingPathComponent("\(name).wav").path, "synth", "0.2", "sine", "440"])
                try #require(made.status == 0, "\(made.output)")
            }
        }
    }

    /// Runs nagi in `folder` as NagiProcess does, but without root's power to read any file (CAP_DAC_OVERRIDE,
    /// CAP_DAC_READ_SEARCH) when the tests run as root, so that a file without read permission is one for nagi too.
    /// Waits at most `timeout` seconds, then kills it and records the hang.
    static func runWithoutOverride(_ arguments: [String], in folder: URL, timeout: Double = 20) throws -> NagiProcess.Result {
        let logs = try TemporaryFolder()
        var command = [NagiProcess.executableURL.path] + arguments
        if getuid() == 0 {
            try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "setpriv (util-linux) drops root's file access for this test")
            command = ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search"] + command
        }
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path, "XDG_RUNTIME_DIR": logs.path, "LANG": "C.UTF-8"]
        let child = try ChildProcess(command[0], Array(command.dropFirst()), environment: environment, workingDirectory: folder.path, standardOutputPath: logs.file("stdout"), standardErrorPath: logs.file("stderr"))
        if !child.wait(seconds: timeout) {
            child.signal(SIGKILL)
            _ = child.wait(seconds: 10)
            Issue.record("nagi \(arguments.joined(separator: " ")) still ran after \(timeout) s")
        }
        let read = { (name: String) in (try? String(contentsOfFile: logs.file(name), encoding: .utf8)) ?? "" }
        return NagiProcess.Result(status: child.exitStatus ?? -1, standardOutput: read("stdout"), standardError: read("stderr"))
    }

    /// Every name under `folder`, recursively, without following links.
    static func tree(_ folder: URL) -> [String] {
        (FileManager.default.subpaths(atPath: folder.path) ?? []).sorted()
    }

    @Test("a missing path, a folder, a FIFO, a device or an unreadable file is 66 for every reader, one line naming it, nothing written, no wait",
          arguments: cases)
    func everyReaderFollowsTheRule(reader: Reader, kind: Kind) throws {
        let folder = try NagiProcess.temporaryFolder()
        try Self.prepare(reader, in: folder)
        try Self.make(kind, at: reader.path, in: folder)
        let before = Self.tree(folder)
        let result = try Self.runWithoutOverride(reader.arguments, in: folder)
        #expect(result.status == 66, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: ") && result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        let name = reader.path.split(separator: "/").last.map(String.init) ?? reader.path
        #expect(result.standardError.contains(kind == .missing && reader.name == "cue clip" ? "inhale" : name), "\(result.standardError)")
        switch kind {
        case .folder, .fifo, .device: #expect(result.standardError.contains("not a regular file"), "\(result.standardError)")
        case .unreadable: #expect(result.standardError.contains("Permission denied"), "\(result.standardError)")
        case .missing: break
        }
        #expect(result.standardOutput.isEmpty)
        #expect(Self.tree(folder) == before)
    }

    @Test("--cover naming a FIFO is refused at once like a FIFO bed (66), from the command line and from a course's \"cover\"")
    func coverFIFO() throws {
        let folder = try NagiProcess.temporaryFolder()
        try HangTests.makeFIFO(folder.appendingPathComponent("c.png").path)
        let render = try NagiProcess.run(["render", "box", "--cycles", "1", "--cover", "c.png", "-o", "o.flac"], in: folder, timeout: 20)
        #expect(render.status == 66, "\(render.standardError)")
        #expect(render.standardError == "nagi: error: cannot read 'c.png': not a regular file (a named pipe)\n")
        #expect(NagiProcess.names(in: folder) == ["c.png"])

        let course = #"{"name": "piped", "title": "Piped", "cover": "c.png", "lessons": [{"title": "One", "pattern": "2-2", "cycles": 1}]}"#
        try course.write(to: folder.appendingPathComponent("course.json"), atomically: true, encoding: .utf8)
        let export = try NagiProcess.run(["course", "export", "./course.json", "-o", "album", "--format", "flac"], in: folder, timeout: 20)
        #expect(export.status == 66, "\(export.standardError)")
        #expect(export.standardError.contains("c.png") && export.standardError.contains("not a regular file"), "\(export.standardError)")
        #expect(NagiProcess.names(in: folder) == ["c.png", "course.json"])
    }

    @Test("play --log naming a FIFO or a folder is refused before anything plays, without waiting for a reader", arguments: ["fifo", "folder"])
    func logNotARegularFile(kind: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let log = folder.appendingPathComponent("l")
        if kind == "fifo" {
            try HangTests.makeFIFO(log.path)
        } else {
            try FileManager.default.createDirectory(at: log, withIntermediateDirectories: false)
        }
        let result = try NagiProcess.run(["play", "wim-hof", "--cycles", "1", "--retention", "open", "--log", "l", "--device", "file:'\(folder.appendingPathComponent("capture.raw").path)',raw", "--quiet"], in: folder, timeout: 20)
        #expect(result.status == 73, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: ") && result.standardError.contains("'l'") && result.standardError.contains("not a regular file"), "\(result.standardError)")
        #expect(NagiProcess.names(in: folder) == ["l"])
    }

    @Test("--cue-pack takes a folder: a missing path, a file, a FIFO, a device or an unreadable folder is 66", arguments: ["missing", "file", "fifo", "device", "unreadable"])
    func cuePackFolder(kind: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let pack = folder.appendingPathComponent("pack")
        switch kind {
        case "file": try Data("x".utf8).write(to: pack)
        case "fifo": try HangTests.makeFIFO(pack.path)
        case "device": try FileManager.default.createSymbolicLink(atPath: pack.path, withDestinationPath: "/dev/zero")
        case "unreadable":
            try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: false)
            try #require(chmod(pack.path, 0) == 0)
        default: break
        }
        let before = Self.tree(folder)
        let result = try Self.runWithoutOverride(["render", "box", "--cycles", "1", "--cue-pack", "pack", "-o", "out.wav"], in: folder)
        #expect(result.status == 66, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: ") && result.standardError.contains("pack") && result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(Self.tree(folder) == before)
        chmod(pack.path, 0o755)
    }

    @Test("--help states the rule where it lists the exit codes")
    func helpStatesTheRule() throws {
        let help = NagiInProcess.run(["--help"])
        #expect(help.status == 0)
        let flat = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("66 a path nagi reads that is missing, a folder, a pipe, socket or device, or not readable"), "\(flat)")
    }
}
