import Foundation
import HeartRhythm
import HeartRhythmTestSupport
import Testing

/// `--align auto` on hearts that follow the breath with a delay (a band-pass resonance, about 10 s of group delay
/// at the resonance), and on records started after the session: found within 2 s.
@Suite("Alignment with the heart's lag, in both directions")
struct AlignmentTests {
    static func align(_ heart: SyntheticHeart) throws -> ResonanceReport {
        try ResonanceAnalysis(breathing: heart.breathing, start: .automatic)
            .analyze(RRRecord(intervalsMilliseconds: heart.record().intervals, formatDescription: "synthetic"))
    }

    @Test("a band-pass heart (Q 3: in phase at the resonance, leading below, lagging above): within 2 s in 5 of 6 or better")
    func bandPassHeart() throws {
        let breathing = try SyntheticHeart.breathing()
        var placed: [String] = []
        var within = 0, right = 0
        for (slot, rate) in [6.5, 6.0, 5.5, 5.0, 4.5, 5.5].enumerated() {
            var heart = SyntheticHeart(breathing: breathing, resonantRate: rate, seed: 4242 &+ UInt64(slot))
            heart.bandPassQuality = 3
            heart.leadSeconds = 20 + Double(slot) * 17.3
            let report = try Self.align(heart)
            let error = report.offsetSeconds - heart.leadSeconds
            placed.append("\(rate): \(NumberFormatter.localizedString(from: error as NSNumber, number: .decimal)) s")
            if abs(error) <= 2 { within += 1 }
            if report.bestIndex.map({ report.steps[$0].breathsPerMinute }) == rate { right += 1 }
        }
        #expect(within >= 5, "placed within 2 s in \(within) of 6: \(placed)")
        #expect(right >= 5, "right step in \(right) of 6")
    }

    @Test("a record started 20 s after the session (a negative offset) is placed within 2 s", arguments: [-20.0, -8.5, 0.0])
    func sessionBeforeRecord(lead: Double) throws {
        let breathing = try SyntheticHeart.breathing()
        var heart = SyntheticHeart(breathing: breathing, resonantRate: 5.5, seed: 77)
        heart.leadSeconds = lead
        let report = try Self.align(heart)
        #expect(abs(report.offsetSeconds - lead) <= 2, "found \(report.offsetSeconds) s for \(lead) s")
        #expect(report.bestIndex.map { report.steps[$0].breathsPerMinute } == 5.5, "\(report.verdict)")
    }

    @Test("the alignment is called clear on records that follow the session and not on those that do not")
    func clarityCalibrated() throws {
        let breathing = try SyntheticHeart.breathing()
        for kind in ["band-pass", "25° a breath a minute", "constant 6/min", "spontaneous 14/min"] {
            for seed in UInt64(1)...6 {
                var heart = SyntheticHeart(breathing: breathing, resonantRate: [6.5, 6, 5.5, 5, 4.5][Int(seed % 5)], seed: seed &* 7 &+ 1000)
                heart.leadSeconds = 15 + Double(seed) * 9.1
                switch kind {
                case "band-pass": heart.bandPassQuality = 3
                case "constant 6/min": heart.breathed = .constant(6)
                case "spontaneous 14/min": heart.breathed = .spontaneous(14)
                default: break
                }
                let follows = kind == "band-pass" || kind == "25° a breath a minute"
                let report: ResonanceReport
                do {
                    report = try Self.align(heart)
                } catch {
                    #expect(!follows, "\(kind), seed \(seed): \(error)")
                    continue
                }
                guard case let .found(alignment) = report.placement else {
                    Issue.record("not found")
                    continue
                }
                #expect(alignment.isClear == follows, "\(kind), seed \(seed): clarity \(alignment.clarity)")
                if !follows { #expect(!report.decision.clear, "\(kind), seed \(seed): \(report.verdict)") }
            }
        }
    }
}
