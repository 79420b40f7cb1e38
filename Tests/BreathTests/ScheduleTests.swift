import NagiTestSupport
import Testing
@testable import Breath

@Suite("Schedule: exact frame boundaries")
struct ScheduleTests {
    /// The boundary formula written independently with 128-bit-safe arithmetic via Double-free integer math.
    static func expectedFrame(_ microseconds: Int64, _ rate: Int) -> Int64 {
        let product = microseconds.multipliedFullWidth(by: Int64(rate))
        let (quotient, remainder) = Int64(1_000_000).dividingFullWidth((product.high, product.low))
        // Round half up.
        return remainder * 2 >= 1_000_000 ? quotient + 1 : quotient
    }

    @Test("boundaries match round(cumulative µs × rate / 10⁶) for random patterns, rates and lengths up to 24 h")
    func randomBoundariesAreExact() throws {
        var generator = SeededGenerator(seed: 42)
        let rates = [8000, 11025, 22050, 44100, 48000, 88200, 96000, 176_400, 192_000]
        for trial in 0..<60 {
            let phaseCount = Int.random(in: 1...4, using: &generator)
            let kinds: [PhaseKind] = [.inhale, .holdIn, .exhale, .holdOut]
            var phases: [Phase] = []
            for index in 0..<phaseCount {
                // Lengths with microsecond detail, 0.2 s to 20 s.
                let microseconds = Int64.random(in: 200_000...20_000_000, using: &generator)
                phases.append(Phase(kind: kinds[index], durationMicroseconds: microseconds))
            }
            let pattern = Pattern(phases: phases)
            let maxCycles = Int(Microseconds.sessionLimit / pattern.cycleMicroseconds)
            let cycles = trial % 5 == 0 ? maxCycles : Int.random(in: 1...min(400, maxCycles), using: &generator)
            let rate = rates[trial % rates.count]
            let schedule = try Schedule(session: Session(pattern: pattern, length: .cycles(cycles)), sampleRate: rate)
            #expect(schedule.phases.count == cycles * phaseCount)
            var cumulative: Int64 = 0
            var previousEnd: Int64 = 0
            for phase in schedule.phases {
                #expect(phase.startMicroseconds == cumulative)
                #expect(phase.startFrame == Self.expectedFrame(cumulative, rate))
                #expect(phase.startFrame == previousEnd)
                cumulative += phase.durationMicroseconds
                #expect(phase.endFrame == Self.expectedFrame(cumulative, rate))
                previousEnd = phase.endFrame
            }
            #expect(schedule.totalFrames == Self.expectedFrame(cumulative, rate))
            #expect(schedule.totalMicroseconds == cumulative)
        }
    }

    @Test("a 24-hour session at 192 kHz ends exactly on its frame, with no drift")
    func dayLongSessionIsExact() throws {
        let pattern = try InlinePattern.parse("4-7-8")
        // 24 h / 19 s is 4547.37 cycles; 4547 cycles fit.
        let schedule = try Schedule(session: Session(pattern: pattern, length: .cycles(4547)), sampleRate: 192_000)
        #expect(schedule.totalMicroseconds == 4547 * 19_000_000)
        #expect(schedule.totalFrames == 4547 * 19 * 192_000)
        let last = try #require(schedule.phases.last)
        #expect(last.startFrame == (4547 * 19 - 8) * 192_000)
    }

    @Test("boundaries at 44.1 kHz round half up from the session start, not phase by phase")
    func roundingDoesNotAccumulate() throws {
        // 1.00001 s at 44100 Hz is 44100.441 frames: adding rounded lengths would lose 0.441 frames per phase.
        let pattern = Pattern(phases: [Phase(kind: .inhale, durationMicroseconds: 1_000_010), Phase(kind: .exhale, durationMicroseconds: 1_000_010)])
        let schedule = try Schedule(session: Session(pattern: pattern, length: .cycles(1000)), sampleRate: 44100)
        #expect(schedule.totalFrames == 88_200_882)
        #expect(schedule.phases[1].startFrame == 44100)
        #expect(schedule.phases[2].startFrame == 88201)
    }

    @Test("sample rates outside 8000...192000 Hz are refused", arguments: [0, 7999, 192_001, -48000])
    func rateOutOfRange(rate: Int) throws {
        let session = Session(pattern: try InlinePattern.parse("4-4"), length: .cycles(1))
        #expect(throws: BreathError.self) { try Schedule(session: session, sampleRate: rate) }
    }

    @Test("phaseIndex finds the phase sounding at a frame, skipping zero-length phases")
    func phaseLookup() throws {
        let pattern = Pattern(phases: [
            Phase(kind: .inhale, durationMicroseconds: 1_000_000),
            Phase(kind: .holdIn, durationMicroseconds: 1),
            Phase(kind: .exhale, durationMicroseconds: 1_000_000),
        ])
        let schedule = try Schedule(session: Session(pattern: pattern, length: .cycles(2)), sampleRate: 8000)
        #expect(schedule.phases[1].frameCount == 0)
        #expect(schedule.phaseIndex(containing: 0) == 0)
        #expect(schedule.phaseIndex(containing: 7999) == 0)
        #expect(schedule.phaseIndex(containing: 8000) == 2)
        #expect(schedule.phaseIndex(containing: 16000) == 3)
        #expect(schedule.phaseIndex(containing: schedule.totalFrames + 10) == schedule.phases.count - 1)
    }
}
