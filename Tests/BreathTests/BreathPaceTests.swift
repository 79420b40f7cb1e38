import NagiBase
import NagiPresets
import Testing
@testable import Breath
import NagiDocuments

/// Paces stated as breaths a minute and a ratio, and the resonance-rate finder built from them.
@Suite("Breaths a minute, ratios and the resonance-rate finder")
struct BreathPaceTests {
    static let decoder = SessionDecoder(catalog: PresetCatalog(builtinFiles: BuiltinPresets.files))

    static func lengths(_ rate: String, _ ratio: String? = nil) throws -> [Int64] {
        let parsedRatio = try ratio.map { (text: String) throws(BreathPace.InvalidText) in try BreathRatio.parse(text) } ?? .even
        return try BreathPace(breathsPerMinute: rate, ratio: parsedRatio).pattern.phases.map(\.durationMicroseconds)
    }

    static func preset(_ name: String) throws -> Session {
        try decoder.resolveArgument(name) { path throws(BreathError) in
            throw BreathError.fileNotFound(path: path, reason: "no files in this test")
        }.resolved.session
    }

    @Test("6 a minute at 2:3 is a 4 s inhale and a 6 s exhale; 4 at 4:7:8:1 is 3, 5.25, 6 and 0.75 s; 1:1 by default")
    func examples() throws {
        #expect(try Self.lengths("6", "2:3") == [4_000_000, 6_000_000])
        #expect(try Self.lengths("4", "4:7:8:1") == [3_000_000, 5_250_000, 6_000_000, 750_000])
        #expect(try Self.lengths("6") == [5_000_000, 5_000_000])
        #expect(try Self.lengths("5.5") == [5_454_546, 5_454_545])
        #expect(try Self.lengths("30", "1:2") == [666_667, 1_333_333])
        #expect(try Self.lengths("1", "1.5:2.5") == [22_500_000, 37_500_000])
        let kinds = try BreathPace(breathsPerMinute: "4", ratio: BreathRatio.parse("4:7:8:1")).pattern.phases.map(\.kind)
        #expect(kinds == [.inhale, .holdIn, .exhale, .holdOut])
        // A hold of 0 is left out, as in inline patterns.
        let skipped = try BreathPace(breathsPerMinute: "6", ratio: BreathRatio.parse("4:0:6:0")).pattern.phases
        #expect(skipped.map(\.kind) == [.inhale, .exhale])
        #expect(skipped.map(\.durationMicroseconds) == [4_000_000, 6_000_000])
    }

    @Test("for every rate from 1 to 30 in steps of 0.001 the cycle is 60/N s rounded up to the µs, exact when whole, and the phases add up to it")
    func everyRateIsExactOrRoundedUp() throws {
        let ratio = try BreathRatio.parse("2:1:3:1")
        var exactCount = 0
        for milli in BreathPace.rateRange {
            let text = Microseconds.formatSeconds(milli * 1000)
            let pace = try BreathPace(breathsPerMinute: text, ratio: ratio)
            #expect(pace.milliBreathsPerMinute == milli)
            let cycle = pace.cycleMicroseconds
            // 60/N s = 6·10¹⁰ / milli µs: the smallest whole number of µs not below it.
            let exact: Int64 = 60_000_000_000
            #expect(cycle * milli >= exact && (cycle - 1) * milli < exact, "\(text)")
            if exact % milli == 0 {
                exactCount += 1
                #expect(cycle * milli == exact)
            }
            let phases = pace.pattern.phases
            #expect(phases.reduce(0) { $0 + $1.durationMicroseconds } == cycle, "\(text)")
            // Each boundary is the exact share of the cycle, within half a microsecond.
            var cumulative: Int64 = 0
            for (phase, share) in zip(phases, [2, 3, 6, 7] as [Int64]) {
                cumulative += phase.durationMicroseconds
                #expect(abs(cumulative * 7 - cycle * share) * 2 <= 7, "\(text)")
            }
        }
        // 6·10¹⁰ = 2¹¹·3·5¹⁰ has 50 divisors in 1000...30000 (6, 5, 4.8, 7.5, 12.5 ... a minute).
        #expect(exactCount == 50)
        #expect(try BreathPace(breathsPerMinute: "6").cycleMicroseconds == 10_000_000)
        #expect(try BreathPace(breathsPerMinute: "4.8").cycleMicroseconds == 12_500_000)
    }

    @Test("rates outside 1...30, finer than 0.001 or not plain decimals are refused", arguments: [
        "0", "0.999", "30.001", "31", "-6", "6.0001", "abc", "", "1e1", "6.", ".", "6,5", "６", " 6",
    ])
    func badRates(text: String) {
        #expect(throws: BreathPace.InvalidText.self) { try BreathPace(breathsPerMinute: text) }
    }

    @Test("a ratio needs two or four parts with inhale and exhale above 0", arguments: [
        "0:1", "1:0", "0:0", "1", "1:2:3", "1:2:3:4:5", "a:b", "1::2", ":1", "1:", "1:-2", "1.2345:1", "1001:1", "", "2-3", "0:4:6:2", "4:7:0:1",
    ])
    func badRatios(text: String) {
        #expect(throws: BreathPace.InvalidText.self) { try BreathRatio.parse(text) }
    }

    @Test("JSON {\"bpm\", \"ratio\"} makes the same pattern; bad values are refused at their path with exit 65")
    func jsonPace() throws {
        let value = try JSONParser.parse(#"{"bpm": 6, "ratio": "2:3", "cycles": 3}"#, file: "pace.json")
        let schedule = try Schedule(session: Self.decoder.decodeDocument(value, file: "pace.json").session, sampleRate: 48_000)
        #expect(schedule.phases.map(\.durationMicroseconds) == [4_000_000, 6_000_000, 4_000_000, 6_000_000, 4_000_000, 6_000_000])
        let cases: [(text: String, path: String)] = [
            (#"{"bpm": 31}"#, "$.bpm"),
            (#"{"bpm": "6"}"#, "$.bpm"),
            (#"{"bpm": 6.0001}"#, "$.bpm"),
            (#"{"bpm": 6, "ratio": "0:1"}"#, "$.ratio"),
            (#"{"bpm": 6, "ratio": 2}"#, "$.ratio"),
            (#"{"bpm": 6, "phases": [{"kind": "inhale", "seconds": 4}]}"#, "$.bpm"),
            (#"{"bpm": 6, "rate": 1}"#, "$.rate"),
        ]
        for (text, path) in cases {
            do {
                _ = try Self.decoder.decodeDocument(JSONParser.parse(text, file: "pace.json"), file: "pace.json")
                Issue.record("accepted \(text)")
            } catch {
                // The decoder throws ContentError alone (typed throws).
                #expect(error.path == path, "\(text)")
                #expect(error.category == .badData)
            }
        }
    }

    @Test("resonance-steps: 6.5, 6, 5.5, 5 and 4.5 a minute, each step labelled and at least 2 minutes of whole breaths")
    func resonanceSteps() throws {
        let schedule = try Schedule(session: Self.preset("resonance-steps"), sampleRate: 48_000)
        let starts = schedule.phases.indices.filter { schedule.phases[$0].stageLabel != nil }
        #expect(starts.first == 0)
        #expect(starts.map { schedule.phases[$0].stageLabel } == ["6.5 breaths/min", "6 breaths/min", "5.5 breaths/min", "5 breaths/min", "4.5 breaths/min"])
        #expect(starts.map { schedule.phases[$0].stageAnnouncement } == [
            "six and a half breaths per minute", "six breaths per minute", "five and a half breaths per minute",
            "five breaths per minute", "four and a half breaths per minute",
        ])
        let rates: [Int64] = [6500, 6000, 5500, 5000, 4500]
        for (step, start) in starts.enumerated() {
            let end = step + 1 < starts.count ? starts[step + 1] : schedule.phases.count
            let phases = schedule.phases[start..<end]
            let stepMicroseconds = try #require(phases.last).endMicroseconds - (try #require(phases.first)).startMicroseconds
            let cycleMicroseconds = (60_000_000_000 + rates[step] - 1) / rates[step]
            // Whole breaths of exactly 60/N s (rounded up to the µs), inhale then exhale, 1:1.
            #expect(phases.count % 2 == 0)
            #expect(phases.enumerated().allSatisfy { $0.element.kind == ($0.offset % 2 == 0 ? .inhale : .exhale) })
            #expect(stepMicroseconds % cycleMicroseconds == 0, "whole breaths")
            // At least two minutes, and no more than the breaths that takes.
            #expect(stepMicroseconds >= 120_000_000, "step \(step): \(stepMicroseconds) µs")
            #expect(stepMicroseconds - cycleMicroseconds < 120_000_000, "step \(step): one breath too many")
            #expect(phases.allSatisfy { $0.durationMicroseconds * 2 == cycleMicroseconds || abs($0.durationMicroseconds * 2 - cycleMicroseconds) == 1 })
        }
    }

    @Test("--ratio re-paces every paced step of resonance-steps and keeps each cycle; an unpaced session has nothing to re-pace")
    func ratioRepacesSteps() throws {
        let session = try Self.preset("resonance-steps")
        let repaced = try #require(session.withRatio(BreathRatio.parse("2:3")))
        let before = try Schedule(session: session, sampleRate: 48_000)
        let after = try Schedule(session: repaced, sampleRate: 48_000)
        #expect(after.totalMicroseconds == before.totalMicroseconds)
        #expect(after.phases.map(\.stageLabel) == before.phases.map(\.stageLabel))
        for pair in stride(from: 0, to: after.phases.count, by: 2) {
            let inhale = after.phases[pair].durationMicroseconds
            let exhale = after.phases[pair + 1].durationMicroseconds
            #expect(abs(inhale * 3 - exhale * 2) <= 5, "breath \(pair / 2): \(inhale) : \(exhale)")
        }
        #expect(try Self.preset("box").withRatio(BreathRatio.parse("2:3")) == nil)
        #expect(try Self.preset("wim-hof").withRatio(BreathRatio.parse("2:3")) == nil)
    }
}
