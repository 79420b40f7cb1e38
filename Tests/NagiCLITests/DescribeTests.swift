import Breath
import Foundation
import NagiPresets
import NagiTestSupport
import Testing

@Suite("nagi describe and presets, end to end")
struct DescribeTests {
    /// Parses `describe --json` output.
    static func describeJSON(_ arguments: [String]) throws -> [String: Any] {
        let result = NagiInProcess.run(["describe"] + arguments + ["--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        return try #require(object as? [String: Any])
    }

    static var builtinPatternNames: [String] {
        BuiltinPresets.files.keys.filter { $0.hasPrefix("patterns/") }.map { String($0.dropFirst(9).dropLast(5)) }.sorted()
    }

    @Test("the required presets ship")
    func requiredPresetsExist() {
        for name in ["4-7-8", "box", "coherent", "sigh", "extended-exhale", "triangle", "resonant-6bpm", "wim-hof"] {
            #expect(Self.builtinPatternNames.contains(name), "missing preset \(name)")
        }
    }

    @Test("every built-in pattern describes, and its JSON frames follow the integer rule", arguments: builtinPatternNames)
    func everyPresetDescribes(name: String) throws {
        let object = try Self.describeJSON([name, "--rate", "44100"])
        #expect(object["sampleRate"] as? Int == 44100)
        let phases = try #require(object["phases"] as? [[String: Any]])
        #expect(!phases.isEmpty)
        var previousEnd = 0
        for phase in phases {
            let start = try #require(phase["startFrame"] as? Int)
            let end = try #require(phase["endFrame"] as? Int)
            #expect(start == previousEnd)
            #expect(end >= start)
            let endSeconds = try #require(phase["endSeconds"] as? Double)
            let endMicroseconds = Int64((endSeconds * 1_000_000).rounded())
            #expect(Int64(end) == (endMicroseconds * 44100 + 500_000) / 1_000_000)
            previousEnd = end
        }
        #expect(object["totalFrames"] as? Int == previousEnd)
        let table = NagiInProcess.run(["describe", name])
        #expect(table.status == 0)
        #expect(table.standardOutput.contains("breaths/min"))
    }

    @Test("wim-hof has fast rounds, a retention of at least 30 s and a ~15 s recovery hold")
    func wimHofShape() throws {
        let object = try Self.describeJSON(["wim-hof"])
        let phases = try #require(object["phases"] as? [[String: Any]])
        let holdOuts = phases.filter { $0["kind"] as? String == "holdOut" }.compactMap { $0["seconds"] as? Double }
        let holdIns = phases.filter { $0["kind"] as? String == "holdIn" }.compactMap { $0["seconds"] as? Double }
        #expect(holdOuts.count == 3 && holdOuts.allSatisfy { $0 >= 30 })
        #expect(holdIns.count == 3 && holdIns.allSatisfy { abs($0 - 15) <= 3 })
        #expect(phases.filter { $0["kind"] as? String == "inhale" }.count == 3 * 31)
    }

    @Test("--cycles and --minutes override the preset length; minutes round to whole cycles")
    func lengthOverrides() throws {
        #expect(try Self.describeJSON(["4-7-8", "--cycles", "3"])["totalFrames"] as? Int == 3 * 19 * 48000)
        #expect(try Self.describeJSON(["4-7-8", "--minutes", "1"])["cycles"] as? Int == 3)
        #expect(try Self.describeJSON(["4-7-8", "--minutes", "0.01"])["cycles"] as? Int == 1)
        #expect(try Self.describeJSON(["4-7-8"])["cycles"] as? Int == 16)
        // A session of repeated rounds takes the length as its number of rounds.
        #expect(try Self.describeJSON(["wim-hof", "--cycles", "1"])["totalSeconds"] as? Double == 169)
        #expect(try Self.describeJSON(["wim-hof", "--cycles", "4"])["totalSeconds"] as? Double == 4 * 169)
        #expect(try Self.describeJSON(["wim-hof", "--minutes", "6"])["totalSeconds"] as? Double == 2 * 169)
    }

    @Test("a ramp lengthens the exhale linearly from 4 to 8 s, first cycle to last")
    func rampExpands() throws {
        let object = try Self.describeJSON(["longer-exhale-ramp"])
        let phases = try #require(object["phases"] as? [[String: Any]])
        let exhales = phases.filter { $0["kind"] as? String == "exhale" }.compactMap { $0["seconds"] as? Double }
        #expect(exhales.first == 4)
        #expect(exhales.last == 8)
        #expect(object["cycles"] as? Int == 60)
        let steps = zip(exhales.dropFirst(), exhales).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 4.0 / 59) < 2e-6 })
        let inhales = phases.filter { $0["kind"] as? String == "inhale" }.compactMap { $0["seconds"] as? Double }
        #expect(inhales.allSatisfy { $0 == 4 })
    }

    @Test("a user preset in XDG_CONFIG_HOME is listed and used, and overrides a built-in")
    func userPresets() throws {
        let folder = try NagiProcess.temporaryFolder()
        let patterns = folder.appendingPathComponent("config/nagi/patterns")
        try FileManager.default.createDirectory(at: patterns, withIntermediateDirectories: true)
        try #"{"title": "Mine", "description": "My own.", "cycles": 2, "phases": [{"kind": "inhale", "seconds": 3}, {"kind": "exhale", "seconds": 3}]}"#
            .write(to: patterns.appendingPathComponent("mine.json"), atomically: true, encoding: .utf8)
        try #"{"description": "Overridden box.", "cycles": 1, "phases": [{"kind": "inhale", "seconds": 1}, {"kind": "exhale", "seconds": 1}]}"#
            .write(to: patterns.appendingPathComponent("box.json"), atomically: true, encoding: .utf8)
        let list = NagiInProcess.run(["presets"], home: folder)
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("mine") && list.standardOutput.contains("My own."))
        #expect(list.standardOutput.contains("Overridden box."))
        let described = NagiInProcess.run(["describe", "mine", "--json"], home: folder)
        #expect(described.standardOutput.contains("\"totalFrames\":576000"))
        let box = NagiInProcess.run(["describe", "box", "--json"], home: folder)
        #expect(box.standardOutput.contains("\"totalFrames\":96000"))
    }

    @Test("a copied binary still carries its presets")
    func binaryCarriesPresets() throws {
        let folder = try NagiProcess.temporaryFolder()
        let copy = folder.appendingPathComponent("nagi")
        try FileManager.default.copyItem(at: NagiProcess.executableURL, to: copy)
        let outputPath = folder.appendingPathComponent("out.json").path
        let process = try ChildProcess(copy.path, ["describe", "coherent", "--json"], environment: ["HOME": folder.path], workingDirectory: folder.path, standardOutputPath: outputPath)
        #expect(process.wait(seconds: 60))
        #expect(process.exitStatus == 0)
        #expect(try String(contentsOfFile: outputPath, encoding: .utf8).contains("\"endFrame\":264000"))
    }

    @Test("help and version")
    func helpAndVersion() throws {
        let version = NagiInProcess.run(["--version"])
        #expect(version.status == 0 && version.standardOutput.hasPrefix("nagi "))
        for arguments in [["--help"], ["help", "describe"], ["describe", "--help"]] {
            let help = NagiInProcess.run(arguments)
            #expect(help.status == 0)
            #expect(help.standardOutput.contains("USAGE"))
        }
        #expect(NagiInProcess.run(["help", "describe"]).standardOutput.contains("--minutes"))
        let unknown = NagiInProcess.run(["help", "descrbe"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("describe"))
    }

    @Test("an audio file nagi cannot decode is 65, not audio: garbage, an empty file, a sparse 2 GB WAV, in every format describe reads (issue 46)",
          arguments: ["garbage.mp3", "garbage.wav", "garbage.flac", "garbage.ogg", "garbage.opus", "empty.flac", "empty.mp3", "sparse.wav"])
    func undecodableAudio(name: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let url = folder.appendingPathComponent(name)
        if name.hasPrefix("garbage") {
            try "garbage\n".write(to: url, atomically: true, encoding: .utf8)
        } else {
            try Data().write(to: url)
            if name.hasPrefix("sparse") {
                let handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: 2 << 30)
                try handle.close()
            }
        }
        let result = NagiInProcess.run(["describe", url.path], home: folder)
        #expect(result.status == 65, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: ") && result.standardError.contains(name) && result.standardError.contains("not audio"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardOutput.isEmpty, "\(result.standardError)")
    }
}
