import Foundation
import Testing
@testable import NagiCLI
import NagiOptions

/// Bad input said for what it is: a phase shorter than a sample, a folder named as the output, a dangling symbolic
/// link as a side output, contradictory cues; each a one-line error with its exit code and nothing left on disk.
@Suite("bad input said plainly, nothing written")
struct PlainRefusalTests {
    /// The one error line of a run, checked to be one line.
    static func errorLine(_ run: NagiProcess.Result) -> String {
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
        return run.standardError
    }

    @Test("a pattern shorter than a frame: 64, the phase shorter than one sample at this rate, no file", arguments: [["render"], ["describe"], ["plot"]])
    func phaseShorterThanASample(command: [String]) throws {
        let folder = try NagiProcess.temporaryFolder()
        let path = folder.appendingPathComponent(command[0] == "plot" ? "short.svg" : "short.wav").path
        let output = command[0] == "describe" ? [] : ["-o", path]
        let run = NagiInProcess.run(command + ["0.00001-0.00001", "--cycles", "1"] + output, home: folder)
        #expect(run.status == 64)
        let line = Self.errorLine(run)
        #expect(line.contains("shorter than one sample at 48000 Hz"), "\(line)")
        #expect(!line.contains("chapter"), "\(line)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("-o naming a folder: 73, it is a folder, the folder left empty", arguments: ["out", "out.wav"])
    func outputIsAFolder(name: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let target = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        for force in [[], ["--force"]] {
            let run = NagiInProcess.run(["render", "4-7-8", "--cycles", "1", "--format", "wav", "-o", target.path, "--quiet"] + force, home: folder)
            #expect(run.status == 73)
            let line = Self.errorLine(run)
            #expect(line.contains("'\(target.path)' is a folder"), "\(line)")
            #expect(!line.lowercased().contains("sndfile") && !line.contains("Is a directory"), "\(line)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        }
    }

    @Test("a dangling symbolic link as a side output: 73 with or without --force, the link kept, nothing made where it points", arguments: ["--labels", "--cue-sheet"])
    func danglingLinkSideOutput(option: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        let pointedAt = elsewhere.appendingPathComponent("made.txt").path
        let link = folder.appendingPathComponent(option == "--cue-sheet" ? "side.cue" : "side.txt").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pointedAt)
        let audio = folder.appendingPathComponent("out.wav").path
        for force in [[], ["--force"]] {
            let run = NagiInProcess.run(["render", "4-7-8", "--cycles", "1", "-o", audio, option, link, "--quiet"] + force, home: folder)
            #expect(run.status == 73, "\(option) \(force): \(run.standardError)")
            #expect(Self.errorLine(run).contains("symbolic link to a file that does not exist"), "\(run.standardError)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == pointedAt, "the link was replaced")
            #expect(!FileManager.default.fileExists(atPath: pointedAt), "a file was made where the link points")
            #expect(!FileManager.default.fileExists(atPath: audio), "the audio was written")
        }
    }

    @Test("a dangling symbolic link as play's --log: refused before anything plays, nothing made where it points")
    func danglingLinkLog() throws {
        let folder = try NagiProcess.temporaryFolder()
        let pointedAt = folder.appendingPathComponent("missing/log.jsonl").path
        let link = folder.appendingPathComponent("log.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pointedAt)
        let plain = folder.appendingPathComponent("nowhere.jsonl").path
        let made = folder.appendingPathComponent("made.jsonl").path
        let secondLink = folder.appendingPathComponent("second.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: secondLink, withDestinationPath: made)
        for path in [link, secondLink] {
            #expect(throws: NagiError.self) { _ = try RetentionLog(path: path) }
        }
        #expect(!FileManager.default.fileExists(atPath: made), "the log followed the link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: secondLink) == made)
        // A plain new path is still a log.
        _ = try RetentionLog(path: plain)
        #expect(FileManager.default.fileExists(atPath: plain))
    }

    @Test("--cues voice --no-cues: describe refuses it with render's sentence")
    func contradictoryCues() throws {
        let render = NagiInProcess.run(["render", "box", "--cues", "voice", "--no-cues", "-o", "-"])
        let describe = NagiInProcess.run(["describe", "box", "--cues", "voice", "--no-cues"])
        #expect(render.status == 64 && describe.status == 64)
        #expect(Self.errorLine(describe) == Self.errorLine(render))
        #expect(describe.standardError.contains("'--cues' and '--no-cues' cannot be used together"))
        // Alone, --no-cues is --cues none: no words.
        #expect(NagiInProcess.run(["describe", "box", "--no-cues"]).standardOutput == NagiInProcess.run(["describe", "box", "--cues", "none"]).standardOutput)
    }
}
