import Foundation
import NagiKit
import NagiTestSupport
import Testing

/// Issue 21 item 8: the loudness pass tells its caller how far it has got, so a long session's first pass is
/// not seconds of nothing.
@Suite("Loudness pass progress")
struct LoudnessProgressTests {
    @Test("prepare reports the pass from near 0 to exactly 1, rising, on the calling thread; nothing without a target")
    func passReportsProgress() throws {
        var request = SoundtrackRequest(schedule: try KitFixtures.schedule("box", cycles: 12, sampleRate: 16_000), soundscape: try BuiltinLibrary.soundscape(named: "horizon"))
        let caller = Thread.current
        var fractions: [Double] = []
        var offCaller = 0
        _ = try Soundtrack.prepare(request, loudnessProgress: { _ in fractions.append(-1) })
        #expect(fractions.isEmpty, "no target, no pass: \(fractions)")

        request.loudnessTargetLUFS = -18
        let loud = try Soundtrack.prepare(request, loudnessProgress: { fraction in
            if Thread.current != caller { offCaller += 1 }
            fractions.append(fraction)
        })
        #expect(loud.loudness != nil)
        #expect(offCaller == 0)
        // 12 cycles of box at 16 kHz: 3.1 M frames in 8192-frame blocks, reported at most every 1 %.
        #expect(fractions.count >= 10 && fractions.count <= 102, "\(fractions.count) reports")
        #expect(fractions.first.map { $0 > 0 && $0 < 0.2 } == true, "\(fractions.prefix(3))")
        #expect(fractions.last == 1)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 < $1 }, "rising: \(fractions)")

        fractions = []
        let calibrated = try Soundtrack.prepare({ var plain = request; plain.loudnessTargetLUFS = nil; return plain }())
        _ = try calibrated.reachingLoudness(targetLUFS: -18, progress: { fractions.append($0) })
        #expect(fractions.last == 1 && fractions.count >= 10, "\(fractions)")
    }
}
