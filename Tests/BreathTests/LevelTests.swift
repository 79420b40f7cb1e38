import Testing
@testable import Breath

@Suite("Easing and the horizon level")
struct LevelTests {
    static let easings: [Easing] = [.cosine, .linear, .easeInOutBezier, .cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1), .cubicBezier(x1: 1, y1: 0, x2: 0, y2: 1), .cubicBezier(x1: 0, y1: 1, x2: 1, y2: 0)]

    @Test("every easing is exactly 0 at the start, 1 at the end, and never falls", arguments: easings)
    func easingEndpointsAndMonotonicity(easing: Easing) {
        #expect(easing.value(at: 0) == 0)
        #expect(easing.value(at: 1) == 1)
        #expect(easing.value(at: -0.5) == 0)
        #expect(easing.value(at: 1.5) == 1)
        #expect(easing.value(at: .nan) == 0)
        var previous = 0.0
        for step in 1...2000 {
            let value = easing.value(at: Double(step) / 2000)
            #expect(value >= previous - 1e-12, "falls at p = \(Double(step) / 2000)")
            #expect(value >= 0 && value <= 1)
            previous = value
        }
    }

    @Test("cosine ease is (1 − cos πp)/2 and the seed Bézier is symmetric")
    func knownValues() {
        #expect(abs(Easing.cosine.value(at: 0.5) - 0.5) < 1e-12)
        #expect(abs(Easing.cosine.value(at: 0.25) - 0.1464466094067262) < 1e-12)
        #expect(abs(Easing.easeInOutBezier.value(at: 0.5) - 0.5) < 1e-9)
        #expect(abs(Easing.easeInOutBezier.value(at: 0.2) + Easing.easeInOutBezier.value(at: 0.8) - 1) < 1e-9)
        #expect(Easing.easeInOutBezier.value(at: 0.2) < 0.2)
    }

    @Test("Bézier control points outside the unit square are invalid")
    func bezierValidity() {
        #expect(Easing.easeInOutBezier.isValid)
        #expect(!Easing.cubicBezier(x1: 1.2, y1: 0, x2: 0.5, y2: 1).isValid)
        #expect(!Easing.cubicBezier(x1: 0.2, y1: .nan, x2: 0.5, y2: 1).isValid)
    }

    @Test("the level is continuous across every boundary and rises, holds and falls by phase", arguments: ["4-7-8", "4-4-4-4", "5.5-5.5", "3-0-6-2"])
    func levelContinuity(pattern: String) throws {
        let schedule = try Schedule(session: Session(pattern: try InlinePattern.parse(pattern), length: .cycles(3)), sampleRate: 48000)
        #expect(schedule.level(at: 0) == 0)
        for (index, phase) in schedule.phases.enumerated() {
            let before = schedule.level(at: phase.startFrame - 1)
            let at = schedule.level(at: phase.startFrame)
            if index > 0 { #expect(abs(before - at) < 1e-6, "jump at phase \(index)") }
            let middle = schedule.level(at: (phase.startFrame + phase.endFrame) / 2)
            let end = schedule.level(at: phase.endFrame - 1)
            switch phase.kind {
            case .inhale:
                #expect(at < middle && middle < end)
                #expect(abs(end - 1) < 1e-6)
            case .exhale:
                #expect(at > middle && middle > end)
                #expect(abs(end) < 1e-6)
            case .holdIn, .holdOut:
                #expect(at == middle && middle == end)
            }
        }
    }

    @Test("a sigh's top-up inhale starts from the level the first inhale reached")
    func sighTargets() throws {
        let pattern = Pattern(phases: [
            Phase(kind: .inhale, durationMicroseconds: 2_500_000, targetLevel: 0.75),
            Phase(kind: .inhale, durationMicroseconds: 1_000_000, targetLevel: 1),
            Phase(kind: .exhale, durationMicroseconds: 7_000_000),
        ])
        let schedule = try Schedule(session: Session(pattern: pattern, length: .cycles(2)), sampleRate: 48000)
        #expect(schedule.phases[0].endLevel == 0.75)
        #expect(schedule.phases[1].startLevel == 0.75)
        #expect(schedule.phases[1].endLevel == 1)
        #expect(abs(schedule.level(at: schedule.phases[1].startFrame) - 0.75) < 1e-9)
        #expect(schedule.phases[3].startLevel == 0)
    }
}
