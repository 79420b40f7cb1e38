import Foundation
import Testing

/// `--bpm` / `--ratio` in place of a pattern, and the resonance-rate finder, end to end.
@Suite("--bpm, --ratio and resonance-steps, end to end")
struct PaceOptionTests {
    /// The phases of `describe --json`.
    static func phases(_ arguments: [String]) throws -> [[String: Any]] {
        try #require(DescribeTests.describeJSON(arguments)["phases"] as? [[String: Any]])
    }

    static func frames(_ phases: [[String: Any]]) -> [Int] {
        phases.compactMap { $0["startFrame"] as? Int } + [phases.last?["endFrame"] as? Int ?? -1]
    }

    @Test("--bpm 6 --ratio 2:3 is a 4 s inhale and a 6 s exhale, on the frames describe gives")
    func sixAMinuteTwoToThree() throws {
        let phases = try Self.phases(["--bpm", "6", "--ratio", "2:3", "--cycles", "2"])
        #expect(phases.compactMap { $0["kind"] as? String } == ["inhale", "exhale", "inhale", "exhale"])
        #expect(Self.frames(phases) == [0, 192_000, 480_000, 672_000, 960_000])
    }

    @Test("--bpm 4 --ratio 4:7:8:1 is inhale, hold, exhale, hold of 3, 5.25, 6 and 0.75 s")
    func fourPartRatio() throws {
        let phases = try Self.phases(["--bpm", "4", "--ratio", "4:7:8:1", "--cycles", "1", "--rate", "44100"])
        #expect(phases.compactMap { $0["kind"] as? String } == ["inhale", "holdIn", "exhale", "holdOut"])
        #expect(phases.compactMap { $0["seconds"] as? Double } == [3, 5.25, 6, 0.75])
        #expect(Self.frames(phases) == [0, 132_300, 363_825, 628_425, 661_500])
    }

    @Test("--bpm alone is 1:1; a rate whose breath is not whole microseconds rounds the breath up and keeps the boundaries exact")
    func defaultRatioAndRounding() throws {
        let even = try Self.phases(["--bpm", "7.5", "--cycles", "1"])
        #expect(even.compactMap { $0["seconds"] as? Double } == [4, 4])
        let object = try DescribeTests.describeJSON(["--bpm", "7", "--minutes", "1"])
        // 60/7 s = 8 571 428.57 µs → 8 571 429 µs a breath, split 4 285 715 + 4 285 714 (half up); 7 breaths.
        #expect(object["cycles"] as? Int == 7)
        #expect(object["totalSeconds"] as? Double == 60.000003)
        let phases = try #require(object["phases"] as? [[String: Any]])
        #expect(phases.compactMap { $0["seconds"] as? Double }.prefix(2) == [4.285715, 4.285714])
        #expect(object["totalFrames"] as? Int == 2_880_000)
    }

    @Test("--bpm works in render and plot too: the file is as long as the schedule")
    func otherCommands() throws {
        let folder = try NagiProcess.temporaryFolder()
        let render = try NagiProcess.run(["render", "--bpm", "20", "--ratio", "1:2", "--cycles", "2", "--rate", "8000", "--quiet"], in: folder)
        #expect(render.status == 0, "\(render.standardError)")
        let written = NagiProcess.names(in: folder).filter { $0.hasSuffix(".wav") }
        #expect(written == ["20bpm-1-2.wav"])
        let plot = NagiInProcess.run(["plot", "--bpm", "6", "-o", folder.appendingPathComponent("p.svg").path], home: folder)
        #expect(plot.status == 0, "\(plot.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("p.svg").path))
    }

    @Test("a pattern with --bpm, a zero or malformed ratio, a rate out of range, or --ratio on an unpaced pattern exit 64 with one line", arguments: [
        ["describe", "4-7-8", "--bpm", "6"],
        ["render", "box", "--bpm", "6", "-o", "x.wav"],
        ["describe", "--bpm", "6", "--ratio", "0:1"],
        ["describe", "--bpm", "6", "--ratio", "2:0"],
        ["describe", "--bpm", "6", "--ratio", "0:0:0:0"],
        ["describe", "--bpm", "6", "--ratio", "2-3"],
        ["describe", "--bpm", "6", "--ratio", "1:2:3"],
        ["describe", "--bpm", "6", "--ratio", "x"],
        ["describe", "--bpm", "0"],
        ["describe", "--bpm", "0.99"],
        ["describe", "--bpm", "30.5"],
        ["describe", "--bpm", "six"],
        ["describe", "--bpm", "NaN"],
        ["describe", "box", "--ratio", "1:2"],
        ["render", "--ratio", "1:2", "-o", "x.wav"],
        ["plot", "--bpm", "100", "-o", "x.svg"],
    ])
    func refused(arguments: [String]) throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(arguments.map { $0.hasPrefix("x.") ? folder.appendingPathComponent($0).path : $0 }, home: folder)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("nagi: error: "))
        #expect(NagiProcess.names(in: folder).filter { !["config", "state"].contains($0) }.isEmpty)
    }

    @Test("resonance-steps: five labelled steps of at least 2 minutes, their words in describe, and --ratio re-paces them")
    func resonanceSteps() throws {
        let phases = try Self.phases(["resonance-steps"])
        let starts = phases.indices.filter { phases[$0]["stageLabel"] is String }
        #expect(starts.compactMap { phases[$0]["stageLabel"] as? String } == ["6.5 breaths/min", "6 breaths/min", "5.5 breaths/min", "5 breaths/min", "4.5 breaths/min"])
        #expect(starts.allSatisfy { (phases[$0]["stageAnnouncement"] as? String)?.hasSuffix("breaths per minute") == true })
        let bounds = starts.map { phases[$0]["startSeconds"] as? Double ?? -1 } + [phases.last?["endSeconds"] as? Double ?? -1]
        for step in 0..<5 {
            let seconds = bounds[step + 1] - bounds[step]
            let breath = 60 / [6.5, 6, 5.5, 5, 4.5][step]
            #expect(seconds >= 120 && seconds < 120 + breath, "step \(step): \(seconds) s")
        }
        let repaced = try Self.phases(["resonance-steps", "--ratio", "2:3"])
        #expect(repaced.count == phases.count)
        #expect(repaced.last?["endFrame"] as? Int == phases.last?["endFrame"] as? Int)
        let first = repaced.prefix(2).compactMap { $0["seconds"] as? Double }
        #expect(first == [3.692308, 5.538462])
    }

    @Test("--labels marks each resonance step with its rate, spanning the step, beside the phase lines")
    func resonanceLabels() throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(["render", "resonance-steps", "--rate", "8000", "-o", folder.appendingPathComponent("r.wav").path, "--labels", folder.appendingPathComponent("r.txt").path, "--quiet"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = try String(contentsOf: folder.appendingPathComponent("r.txt"), encoding: .utf8).split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let steps = lines.filter { $0.count == 3 && $0[2].hasSuffix("breaths/min") }
        #expect(steps.map { $0[2] } == ["6.5 breaths/min", "6 breaths/min", "5.5 breaths/min", "5 breaths/min", "4.5 breaths/min"])
        #expect(steps.map { $0[0] } == ["0.000000", "120.000010", "240.000010", "360.000011", "480.000011"])
        #expect(steps.map { $0[1] } == ["120.000010", "240.000010", "360.000011", "480.000011", "600.000017"])
        let phaseLines = lines.filter { $0.count == 3 && ["inhale", "exhale"].contains($0[2]) }
        let describe = try Self.phases(["resonance-steps"])
        #expect(phaseLines.count == describe.count)
        #expect(lines.count == describe.count + 5)
    }
}
