import AudioFile
import Foundation
import NagiCLI
import NagiTestSupport
import Synchronization
import Testing

/// `NagiCommandLine.run(_:context:)`: the command line inside a host process, each run with its own streams,
/// environment and stop request.
@Suite("The command line run in process")
struct InProcessRunTests {
    @Test("runs side by side each read their own XDG folders: a user preset in one is unknown to the other")
    func ownEnvironments() throws {
        let mine = try NagiProcess.temporaryFolder()
        let patterns = mine.appendingPathComponent("config/nagi/patterns")
        try FileManager.default.createDirectory(at: patterns, withIntermediateDirectories: true)
        try #"{"description": "Mine.", "cycles": 2, "phases": [{"kind": "inhale", "seconds": 3}, {"kind": "exhale", "seconds": 3}]}"#
            .write(to: patterns.appendingPathComponent("mine.json"), atomically: true, encoding: .utf8)
        let other = try NagiProcess.temporaryFolder()
        let results = Mutex<[String: NagiProcess.Result]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let home = index.isMultiple(of: 2) ? mine : other
            let result = NagiInProcess.run(["describe", "mine", "--json"], home: home)
            results.withLock { $0["\(index)"] = result }
        }
        for (key, result) in results.withLock({ $0 }) {
            if let index = Int(key), index.isMultiple(of: 2) {
                #expect(result.status == 0 && result.standardOutput.contains("\"totalFrames\":576000"), "\(result.standardError)")
            } else {
                #expect(result.status == 66 && result.standardError.contains("no pattern named 'mine'"), "\(result.status) \(result.standardError)")
                #expect(result.standardOutput.isEmpty)
            }
        }
    }

    @Test("a stop request from the host ends a long render with the signal's code and leaves no file")
    func hostStopsRender() throws {
        let folder = try NagiProcess.temporaryFolder()
        let target = folder.appendingPathComponent("long.flac").path
        let asked = Atomic<Int32>(0)
        let output = CapturedOutput()
        let error = CapturedOutput()
        let context = CommandContext(standardOutput: output, standardError: error, environment: ["HOME": folder.path], stopSignal: {
            let signal = asked.load(ordering: .relaxed)
            return signal != 0 ? signal : nil
        })
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { asked.store(15, ordering: .relaxed) }
        let start = Date()
        let status = NagiCommandLine.run(["render", "coherent", "--minutes", "600", "-o", target, "--threads", "1"], context: context)
        #expect(status == 143, "\(error.text)")
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(NagiProcess.names(in: folder).filter { $0.contains("long") }.isEmpty, "\(NagiProcess.names(in: folder))")
    }

    @Test("audio on standard output is refused in process with one line and nothing written; text there reaches the host's sink")
    func audioNotOnAHostsOutput() throws {
        let folder = try NagiProcess.temporaryFolder()
        let refused = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", "-"], home: folder)
        #expect(refused.status == 64)
        #expect(refused.standardError.hasPrefix("nagi: error: -o -: ") && refused.standardError.split(separator: "\n").count == 1, "\(refused.standardError)")
        #expect(refused.standardOutput.isEmpty)
        #expect(NagiProcess.names(in: folder).isEmpty)
        let audio = folder.appendingPathComponent("box.wav").path
        let labels = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", audio, "--labels", "-", "--quiet"], home: folder)
        #expect(labels.status == 0, "\(labels.standardError)")
        #expect(labels.standardOutput.hasPrefix("0.000000\t4.000000\tinhale\n"), "\(labels.standardOutput)")
        #expect(NagiProcess.names(in: folder) == ["box.wav"])
    }

    @Test("what a render prints reaches its own standard error, and its file is the binary's")
    func sameFileAsTheBinary() throws {
        let folder = try NagiProcess.temporaryFolder()
        let inside = folder.appendingPathComponent("inside.wav").path
        let outside = folder.appendingPathComponent("outside.wav").path
        let result = NagiInProcess.run(["render", "4-7-8", "--cycles", "1", "-o", inside], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("wrote \(inside)"), "\(result.standardError)")
        let binary = try NagiProcess.run(["render", "4-7-8", "--cycles", "1", "-o", outside, "--quiet"], in: folder)
        #expect(binary.status == 0)
        #expect(try AudioFileReader.readFloat(path: inside) == AudioFileReader.readFloat(path: outside))
    }
}
