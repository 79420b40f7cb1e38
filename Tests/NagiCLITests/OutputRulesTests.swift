import NagiTestSupport
import Foundation
import Testing

@Suite("Outputs: strict formats, checked before rendering, published together")
struct OutputRulesTests {
    /// `arguments` with the value of each of `options` that is a relative path made a path in `folder`: an
    /// in-process run has no working directory of its own.
    static func absolute(_ arguments: [String], in folder: URL, options: Set<String> = ["-o", "--labels"]) -> [String] {
        arguments.indices.map { index in
            let value = arguments[index]
            guard index > 0, options.contains(arguments[index - 1]), !value.hasPrefix("/") else { return value }
            return folder.appendingPathComponent(value).path
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var mentions: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let contradictions: [Case] = [
        Case(arguments: ["render", "box", "--format", "flac", "-o", "x.wav"], mentions: "--format flac"),
        Case(arguments: ["render", "box", "--format", "wav", "-o", "x.MP3"], mentions: "x.MP3"),
        Case(arguments: ["render", "box", "-o", "out.xyz"], mentions: ".xyz"),
        Case(arguments: ["render", "box", "-o", "out"], mentions: "extension"),
        Case(arguments: ["render", "box", "-o", "dir.wav/out"], mentions: "extension"),
        Case(arguments: ["render", "box", "--format", "raw", "-o", "x.raw", "--quality", "5"], mentions: "--quality"),
        Case(arguments: ["plot", "box", "-o", "plot.png"], mentions: ".svg"),
        Case(arguments: ["plot", "box", "-o", "plot"], mentions: ".svg"),
        Case(arguments: ["plot", "box", "-o", "/dev/null"], mentions: ".svg"),
    ]

    @Test("a format the path contradicts, or a path that names no format, exits 64 before anything is written", arguments: contradictions)
    func strictFormats(testCase: Case) throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(Self.absolute(testCase.arguments, in: folder), home: folder)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: "))
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(testCase.mentions), "\(result.standardError)")
        #expect(NagiProcess.names(in: folder).isEmpty, "\(NagiProcess.names(in: folder))")
    }

    @Test("an extension that agrees with --format, any case, and .raw are accepted")
    func agreeingFormats() throws {
        let folder = try NagiProcess.temporaryFolder()
        for arguments in [["--format", "flac", "-o", "a.FLAC"], ["--format", "ogg", "-o", "b.oga"], ["-o", "c.raw", "--bits", "24"]] {
            let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--quiet"] + Self.absolute(arguments, in: folder), home: folder)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        #expect(NagiProcess.names(in: folder) == ["a.FLAC", "b.oga", "c.raw"])
        // 19.3 s of 48 kHz stereo 24-bit samples, no header.
        let rawSize = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("c.raw").path)[.size] as? Int
        #expect(rawSize == 926_400 * 2 * 3)
    }

    @Test("a --labels path that cannot be written exits 73 before rendering and leaves no audio", arguments: [
        ["--labels", "nodir/l.txt"], ["--labels", "folder"], ["--labels", "old.txt"],
    ])
    func labelsFailLeaveNoAudio(labels: [String]) throws {
        let folder = try NagiProcess.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder"), withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("old.txt"))
        let before = NagiProcess.names(in: folder)
        let started = Date()
        // An hour of audio: refused before rendering, it must end at once.
        let arguments = Self.absolute(["render", "coherent", "--minutes", "60", "-o", "a.wav"] + labels, in: folder)
        let result = NagiInProcess.run(arguments, home: folder)
        #expect(result.status == 73, "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(folder.appendingPathComponent(labels[1]).path), "\(result.standardError)")
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(NagiProcess.names(in: folder) == before, "\(NagiProcess.names(in: folder))")
        #expect(try Data(contentsOf: folder.appendingPathComponent("old.txt")) == Data("mine".utf8))
    }

    @Test("audio that cannot be written leaves no labels either")
    func audioFailLeavesNoLabels() throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(Self.absolute(["render", "box", "--cycles", "1", "-o", "nodir/a.wav", "--labels", "l.txt"], in: folder), home: folder)
        #expect(result.status == 73, "\(result.standardError)")
        #expect(NagiProcess.names(in: folder).isEmpty, "\(NagiProcess.names(in: folder))")
    }

    @Test("Ctrl-C mid-render leaves neither the audio nor the labels nor a temporary file")
    func interruptedLeavesNeither() throws {
        let folder = try NagiProcess.temporaryFolder()
        let process = try ChildProcess(NagiProcess.executableURL.path, ["render", "coherent", "--minutes", "300", "-o", "long.wav", "--labels", "long.txt"], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], workingDirectory: folder.path)
        // Both temporary files exist while rendering.
        #expect(Poll.until(seconds: 30) { NagiProcess.names(in: folder).count == 2 })
        #expect(NagiProcess.names(in: folder).allSatisfy { $0.hasPrefix(".") && $0.contains(".nagi-partial-") }, "\(NagiProcess.names(in: folder))")
        process.signal(SIGINT)
        #expect(process.wait(seconds: 60))
        #expect(process.exitStatus == 130)
        #expect(NagiProcess.names(in: folder).isEmpty, "\(NagiProcess.names(in: folder))")
    }
}
