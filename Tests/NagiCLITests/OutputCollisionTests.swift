import Foundation
import Testing

/// Issue 46, defect 3: `-o`, `--labels` and `--cue-sheet` naming one file (under any spelling) is refused with 64
/// before anything is written; an existing file stays as it was, even with `--force`.
@Suite("render's outputs never name the same file")
struct OutputCollisionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var options: [String]
        /// The file made before the run, with "precious" in it, if any.
        var existing: String?
        var testDescription: String { options.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(options: ["--labels", "a.txt", "--cue-sheet", "a.txt", "-o", "o.wav"]),
        Case(options: ["--labels", "a.txt", "--cue-sheet", "a.txt", "-o", "o.wav", "--force"], existing: "a.txt"),
        Case(options: ["--labels", "x.wav", "-o", "x.wav", "--force"], existing: "x.wav"),
        Case(options: ["--cue-sheet", "x.flac", "-o", "x.flac", "--force"], existing: "x.flac"),
        Case(options: ["--labels", "./sub/../a.txt", "--cue-sheet", "a.txt", "-o", "o.wav"]),
        Case(options: ["--labels", "link.txt", "--cue-sheet", "a.txt", "-o", "o.wav", "--force"], existing: "a.txt"),
    ]

    @Test("two outputs naming one file exit 64 before anything is written", arguments: cases)
    func sameFileIsRefused(testCase: Case) throws {
        let folder = try NagiProcess.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.txt").path, withDestinationPath: "a.txt")
        if let existing = testCase.existing {
            try "precious\n".write(to: folder.appendingPathComponent(existing), atomically: true, encoding: .utf8)
        }
        let before = NagiProcess.names(in: folder)
        // Every path in the case is a path in the folder, given absolute: an in-process run has no working directory.
        let options = testCase.options.indices.map { index in
            index > 0 && ["--labels", "--cue-sheet", "-o"].contains(testCase.options[index - 1]) ? folder.appendingPathComponent(testCase.options[index]).path : testCase.options[index]
        }
        let result = NagiInProcess.run(["render", "box", "--cycles", "1"] + options, home: folder)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: ") && result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("same file"), "\(result.standardError)")
        #expect(NagiProcess.names(in: folder) == before)
        if let existing = testCase.existing {
            #expect(try String(contentsOf: folder.appendingPathComponent(existing), encoding: .utf8) == "precious\n")
        }
    }

    @Test("distinct outputs are all written")
    func distinctOutputsWork() throws {
        let folder = try NagiProcess.temporaryFolder()
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--labels", path("a.txt"), "--cue-sheet", path("a.cue"), "-o", path("a.wav"), "--quiet"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(NagiProcess.names(in: folder) == ["a.cue", "a.txt", "a.wav"])
    }
}
