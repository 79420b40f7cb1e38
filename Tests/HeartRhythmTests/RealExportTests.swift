import Foundation
@testable import HeartRhythm
import HeartRhythmTestSupport
import NagiTestSupport
import Testing

/// Real exports read right: stamps of a packet's arrival, Empatica E4's IBI.csv with its gaps, numbers with
/// thousands separators, dates that do not exist; and what the verdict says at the edge of the range tried and
/// of an alignment that is weak.
@Suite("Real export formats and the verdict's wording")
struct RealExportTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil))
        return Array(try Data(contentsOf: url))
    }

    static let clock = ClockTime(wallSeconds: 1_796_189_340, zoneOffsetSeconds: 0, hasDate: true)

    /// A record as an app stamping packets writes it: the strap sends a packet about once a second holding the
    /// beats since the last, 20–300 ms on its way, and each beat is stamped when its packet arrives: all with one
    /// stamp (`shared`), or a millisecond apart (as apps that keep stamps distinct do); beats ending within
    /// `dropping` are lost.
    static func receiveText(_ intervals: [Double], shared: Bool, dropping: Range<Double>?) -> String {
        var generator = SeededGenerator(seed: 1414)
        var text = "Phone timestamp;RR-interval [ms]\n"
        var elapsed = 0.0
        var nextPacket = 1.0
        var pending: [Double] = []
        func stamp(_ seconds: Double) -> String { clock.adding(seconds: seconds).isoText }
        for interval in intervals.map({ $0.rounded() }) {
            elapsed += interval / 1000
            if let dropping, dropping.contains(elapsed) { continue }
            pending.append(interval)
            if elapsed >= nextPacket {
                let arrival = elapsed + 0.02 + 0.28 * Double(generator.next() % 1000) / 1000
                for (slot, value) in pending.enumerated() { text += stamp(arrival + (shared ? 0 : 0.001 * Double(slot))) + ";\(Int(value))\n" }
                pending.removeAll()
                nextPacket = elapsed + 1
            }
        }
        return text
    }

    @Test("stamps of arrival: detected, beats placed by their intervals; LF as from the true beats, the gap kept", arguments: [true, false])
    func receiveTimeStamps(shared: Bool) throws {
        var heart = SyntheticHeart(breathing: try SyntheticHeart.breathing(), resonantRate: 5.5, seed: 2718)
        heart.ectopicChance = 0
        let intervals = heart.record().intervals.map { $0.rounded() }
        let gapStart = heart.leadSeconds + heart.breathing.steps[3].startSeconds + 50
        let text = Self.receiveText(intervals, shared: shared, dropping: gapStart..<(gapStart + 12))
        let record = try RRParser.parse(Array(text.utf8), name: "hrv-logger.csv")
        #expect(record.formatDescription.contains("stamps of the beats' arrival"), "\(record.formatDescription)")
        let analysis = ResonanceAnalysis(breathing: heart.breathing, start: .secondsIntoRecord(heart.leadSeconds))
        let report = try analysis.analyze(record)
        let truth = try analysis.analyze(RRRecord(intervalsMilliseconds: intervals, formatDescription: "true beats"))
        // The beats as the stamps placed them: what nagi did before (possible only where the stamps increase).
        let stamped = try #require(record.beatSeconds)
        var byStamps: ResonanceReport?
        if !shared {
            let lines = text.split(separator: "\n").dropFirst()
            let origin = try #require(ClockTime.parse(lines.first?.split(separator: ";").first ?? ""))
            let raw = lines.compactMap { ClockTime.parse($0.split(separator: ";")[0]) }.map { $0.seconds(since: origin) + record.intervalsMilliseconds[0] / 1000 }
            byStamps = try analysis.analyze(RRRecord(intervalsMilliseconds: record.intervalsMilliseconds, beatSeconds: raw, formatDescription: "by stamps"))
        }
        for index in [0, 1, 2, 4] {
            let placed = report.steps[index].lowFrequencyPower, true_ = truth.steps[index].lowFrequencyPower
            let before = byStamps.map { $0.steps[index].lowFrequencyPower / true_ - 1 }
            print("shared \(shared) \(report.steps[index].label): LF by intervals \(Int(placed)) ms², true \(Int(true_)) ms²\(before.map { ", by stamps \(Int(($0 * 100).rounded())) % off, peak-to-trough \(Int(byStamps?.steps[index].peakToTrough ?? 0)) bpm" } ?? "")")
            #expect(abs(placed / true_ - 1) < 0.02, "\(report.steps[index].label): \(placed) against \(true_)")
            #expect(report.steps[index].peakToTrough < 30)
        }
        #expect(report.steps[3].excludedReason?.hasPrefix("a gap of 1") == true, "\(report.steps[3].excludedReason ?? "kept")")
        #expect(report.notes.contains { $0.hasPrefix("1 gap in the record where beats were lost") }, "\(report.notes)")
        #expect(abs(stamped.last! - truth.recordSeconds) < 1.5, "placed over \(stamped.last!) s, the true beats over \(truth.recordSeconds) s")
        if let byStamps {
            #expect(byStamps.steps[0].lowFrequencyPower > 1.1 * truth.steps[0].lowFrequencyPower, "stamps raise LF: \(byStamps.steps[0].lowFrequencyPower)")
        }
    }

    @Test("the fixture of shared stamps: placed by intervals from the first stamp")
    func receiveFixture() throws {
        let record = try RRParser.parse(try Self.fixture("receive-time-stamps.txt"), name: "rr.txt")
        let seconds = try #require(record.beatSeconds)
        var expected = [0.812]
        for interval in record.intervalsMilliseconds.dropFirst() { expected.append((expected.last ?? 0) + interval / 1000) }
        #expect(zip(seconds, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(seconds)")
        // Stamps that are each beat's own (Polar's RR file) stay as they are.
        let own = try RRParser.parse(try Self.fixture("polar-sensor-logger.txt"), name: "rr.txt")
        #expect(!own.formatDescription.contains("arrival"))
    }

    @Test("Empatica E4 IBI.csv: start in Unix seconds, times since it; the gap where no beat was detected stays a gap")
    func empatica() throws {
        let record = try RRParser.parse(try Self.fixture("empatica-ibi.csv"), name: "IBI.csv")
        #expect(record.formatDescription == "Empatica E4 IBI.csv, s")
        #expect(record.intervalsMilliseconds == [796.875, 812.5, 828.125, 843.75, 875, 859.375, 843.75, 828.125])
        let seconds = try #require(record.beatSeconds)
        #expect(abs(seconds[4] - seconds[3] - 16.265625) < 1e-9)
        #expect(abs(record.durationSeconds - (27.84375 - 6.5625 + 0.796875)) < 1e-9)
        #expect(record.startClock?.isoText == "2017-05-22T07:15:30.765Z")
        // A whole session with the E4's dropouts: the record spans its clock time, and the report names each gap.
        var heart = SyntheticHeart(breathing: try SyntheticHeart.breathing(), resonantRate: 5, seed: 31)
        heart.ectopicChance = 0
        let intervals = heart.record().intervals
        var text = "1796189340.000000, IBI\n"
        var elapsed = 0.0
        let lost: [Range<Double>] = [100..<130, 400..<408, 610..<640]
        for interval in intervals {
            elapsed += interval / 1000
            if lost.contains(where: { $0.contains(elapsed) }) { continue }
            text += String(format: "%.6f,%.6f\n", elapsed, interval / 1000)
        }
        let long = try RRParser.parse(Array(text.utf8), name: "IBI.csv")
        let summed = long.intervalsMilliseconds.reduce(0, +) / 1000
        print("E4 record: \(long.durationSeconds) s by its times, \(summed) s by its intervals")
        #expect(long.durationSeconds > summed + 60)
        let report = try ResonanceAnalysis(breathing: heart.breathing, start: .secondsIntoRecord(heart.leadSeconds)).analyze(long)
        let gapNote = try #require(report.notes.first { $0.contains("gaps in the record") }, "\(report.notes)")
        #expect(gapNote.hasPrefix("3 gaps in the record where beats were lost"), "\(gapNote)")
        #expect(abs(report.recordSeconds - elapsed) < 2)
    }

    @Test("numbers with thousands separators read as numbers, quoted or not, or refused saying so; never artefacts")
    func thousandsSeparators() throws {
        let quoted = try RRParser.parse(try Self.fixture("thousands-quoted.csv"), name: "rr.csv")
        #expect(quoted.intervalsMilliseconds == [1024, 1010, 990])
        #expect(try RRParser.parse(Array("RR-interval [ms];x\n1,024;1\n1,010;2\n990;3\n".utf8), name: "rr.csv").intervalsMilliseconds == [1024, 1010, 990])
        #expect(try RRParser.parse(Array("time\tRR\n1\t812\n2\t1,024\n".utf8), name: "rr.csv").intervalsMilliseconds == [812, 1024])
        #expect(try RRParser.parse(Array("812\n1,024\n\"1,010\"\n".utf8), name: "rr.txt").intervalsMilliseconds == [812, 1024, 1010])
        // A decimal comma stays one where ; separates and nothing says milliseconds.
        #expect(try RRParser.parse(Array("time;rr\n1;0,812\n2;1,024\n".utf8), name: "rr.csv").intervalsMilliseconds == [812, 1024])
        do {
            _ = try RRParser.parse(Array("timestamp,rr\n07:30:01,1,024\n07:30:02,990\n".utf8), name: "rr.csv")
            Issue.record("an unquoted 1,024 in a comma-separated file was read")
        } catch {
            #expect(error.message.contains("thousands separator"), "\(error.message)")
            #expect(error.category == .badData)
        }
        // A record of intervals about a second, some written "1,0xx": all read, none an artefact.
        let values = (0..<120).map { index in index % 7 == 3 ? "\"1,0\(10 + index % 10)\"" : String(1005 + index % 10) }
        let record = try RRParser.parse(Array(("rr\n" + values.joined(separator: "\n")).utf8), name: "rr.csv")
        #expect(record.intervalsMilliseconds.count == 120 && record.intervalsMilliseconds.allSatisfy { (1005...1019).contains($0) })
        #expect(ArtefactCleaner().clean(record.intervalsMilliseconds).artefactIndices.isEmpty)
    }

    @Test("a date that does not exist is no clock time, and says why")
    func nonexistentDates() {
        #expect(ClockTime.parse("2025-02-30T08:16:00") == nil)
        #expect(ClockTime.parse("2025-04-31T08:16:00") == nil)
        #expect(ClockTime.parse("2024-02-29T08:16:00") != nil)
        #expect(ClockTime.parse("2100-02-29T08:16:00") == nil)
        #expect(ClockTime.nonexistentDateReason("2025-02-30T08:16:00") == "2025-02-30 does not exist: February 2025 has 28 days")
        #expect(ClockTime.nonexistentDateReason("2024-02-29T08:16:00") == nil)
        #expect(ClockTime.nonexistentDateReason("08:16:00") == nil)
    }

    @Test("the best step at the slowest or fastest pace tried: the verdict says the rate may lie beyond and names the next range", arguments: [
        (4.5, "4.5 is the slowest pace tried: the resonant rate may lie below it — try 4.5, 4 and 3.5 breaths/min next"),
        (6.5, "6.5 is the fastest pace tried: the resonant rate may lie above it — try 6.5, 7 and 7.5 breaths/min next"),
        (5.5, nil),
    ])
    func edgeOfRange(rate: Double, words: String?) throws {
        let heart = SyntheticHeart(breathing: try SyntheticHeart.breathing(), resonantRate: rate, seed: 404)
        let report = try ResonanceAnalysis(breathing: heart.breathing, start: .secondsIntoRecord(heart.leadSeconds))
            .analyze(RRRecord(intervalsMilliseconds: heart.record().intervals, formatDescription: "synthetic"))
        #expect(report.bestIndex.map { report.steps[$0].breathsPerMinute } == rate)
        if let words {
            #expect(report.verdict.hasSuffix(words), "\(report.verdict)")
        } else {
            #expect(!report.verdict.contains("pace tried"), "\(report.verdict)")
        }
    }

    @Test("an alignment is never clear below a correlation of 0.3; the runner-up is another place than the one chosen")
    func alignmentWording() throws {
        var weak = SessionAligner.Alignment(offsetSeconds: 40, correlation: 0.25, runnerUpCorrelation: 0.1, runnerUpOffsetSeconds: 200)
        #expect(weak.clarity >= 1.5)
        #expect(!weak.isClear)
        weak.correlation = 0.45
        #expect(weak.isClear)
        // A band-pass heart, where the place chosen by the heart's lag is not the highest peak.
        for seed in UInt64(1)...4 {
            var heart = SyntheticHeart(breathing: try SyntheticHeart.breathing(), resonantRate: 6, seed: 4200 &+ seed)
            heart.bandPassQuality = 3
            heart.leadSeconds = 30 + Double(seed) * 11
            let report = try ResonanceAnalysis(breathing: heart.breathing, start: .automatic)
                .analyze(RRRecord(intervalsMilliseconds: heart.record().intervals, formatDescription: "synthetic"))
            guard case let .found(alignment) = report.placement else {
                Issue.record("not found")
                continue
            }
            #expect(abs(alignment.runnerUpOffsetSeconds - alignment.offsetSeconds) > 15, "seed \(seed): runner-up at \(alignment.runnerUpOffsetSeconds) s, chosen \(alignment.offsetSeconds) s")
            #expect(alignment.offsetSeconds == report.offsetSeconds)
        }
    }
}
