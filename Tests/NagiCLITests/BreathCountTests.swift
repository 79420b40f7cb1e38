import Foundation
import Testing

/// One breath count for a session wherever nagi states it: describe's text, its JSON and the file's comment tag.
@Suite("one breath count across describe's text, its JSON and the comment tag")
struct BreathCountTests {
    /// The breaths and breaths a minute describe's last line states ("10 breaths · 11.43 breaths/min · …").
    static func textCounts(_ arguments: [String]) throws -> (breaths: Int, perMinute: Double) {
        let result = NagiInProcess.run(["describe"] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        let line = try #require(result.standardOutput.split(separator: "\n").last.map(String.init))
        let match = try #require(line.firstMatch(of: /(\d+) breaths? · ([0-9.]+) breaths\/min/), "\(line)")
        return (try #require(Int(match.1)), try #require(Double(match.2)))
    }

    @Test("every preset: the same breaths in the text, the JSON and the comment tag; the same breaths a minute", arguments: DescribeTests.builtinPatternNames)
    func oneCount(preset: String) throws {
        let session = [preset, "--rate", "8000"]
        let text = try Self.textCounts(session)
        let json = try DescribeTests.describeJSON(session)
        #expect(json["breaths"] as? Int == text.breaths, "\(preset): JSON \(String(describing: json["breaths"])), text \(text.breaths)")
        let perMinute = try #require(json["breathsPerMinute"] as? Double)
        #expect(abs(perMinute - text.perMinute) <= 0.005, "\(preset): JSON \(perMinute)/min, text \(text.perMinute)/min")
        let totalSeconds = try #require(json["totalSeconds"] as? Double)
        #expect(abs(perMinute - Double(text.breaths) * 60 / totalSeconds) <= 1e-4, "\(preset): \(perMinute)/min is not the breaths over the length")

        let folder = try NagiProcess.temporaryFolder()
        let path = folder.appendingPathComponent("\(preset).flac").path
        let render = NagiInProcess.run(["render"] + session + ["--channels", "1", "--no-cues", "-o", path, "--quiet"], home: folder)
        #expect(render.status == 0, "\(render.standardError)")
        let comment = try #require(try TagTests.probe(path).tags.first { $0.key.lowercased() == "comment" }?.value)
        #expect(comment.contains(" · \(text.breaths) breath"), "\(preset): comment \(comment), text \(text.breaths) breaths")
        print("breaths \(preset): \(text.breaths), \(text.perMinute)/min, cycles \(json["cycles"] ?? "")")
    }

    @Test("sigh: a double inhale is one breath, 5 cycles are 5 breaths everywhere")
    func sighCountsOneBreathPerDoubleInhale() throws {
        let text = try Self.textCounts(["sigh"])
        let json = try DescribeTests.describeJSON(["sigh"])
        #expect(text.breaths == 5 && json["breaths"] as? Int == 5 && json["cycles"] as? Int == 5)
        #expect(abs(text.perMinute - 5.71) < 0.005)
    }
}
