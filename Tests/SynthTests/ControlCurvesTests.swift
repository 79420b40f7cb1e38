import Breath
import Foundation
import Synth
import Testing

@Suite struct ControlCurvesTests {
    let rate = 8000
    let schedule: Schedule
    let soundscape: Soundscape
    let curves: ControlCurves

    init() throws {
        schedule = try Fixtures.schedule("4-7-8", cycles: 4, sampleRate: rate)
        soundscape = try Fixtures.soundscape("horizon")
        curves = ControlCurves(schedule: schedule, soundscape: soundscape)
    }

    func phases(_ kind: PhaseKind) -> [ScheduledPhase] { schedule.phases.filter { $0.kind == kind } }

    @Test func pitchAndGainFollowTheLevel() {
        let tone = soundscape.tone
        for frame in stride(from: Int64(0), to: schedule.totalFrames, by: 97) {
            let level = curves.level(at: frame)
            #expect(level == schedule.level(at: frame))
            let expected = tone.lowFrequencyHz * pow(tone.highFrequencyHz / tone.lowFrequencyHz, level)
            #expect(abs(curves.pitchHz(at: frame) - expected) < 1e-9 * expected)
            let gain = tone.gainDecibelsExhaled + (tone.gainDecibelsInhaled - tone.gainDecibelsExhaled) * level
            #expect(abs(curves.toneGainDecibels(at: frame) - gain) < 1e-12)
        }
        let hold = phases(.holdIn)[0]
        #expect(abs(curves.pitchHz(at: hold.startFrame + 100) - tone.highFrequencyHz) < 1e-9)
        #expect(abs(curves.pitchHz(at: 0) - tone.lowFrequencyHz) < 1e-9)
        #expect(curves.skyAmount(at: hold.startFrame) == tone.skyInhaled)
        #expect(curves.skyAmount(at: 0) == tone.skyExhaled)
    }

    @Test func theSwellRisesThroughEachHoldThenEasesBack() {
        let peak = soundscape.holdSwell.peak
        for hold in phases(.holdIn) {
            #expect(curves.holdSwell(at: hold.startFrame) == 1)
            let middle = hold.startFrame + hold.frameCount / 2
            #expect(abs(curves.holdSwell(at: middle) - (1 + (peak - 1) * 0.5)) < 1e-3)
            #expect(abs(curves.holdSwell(at: hold.endFrame - 1) - peak) < 1e-3)
            // The exhale after the hold starts at the peak and is back to 1 after the swell's release.
            #expect(curves.holdSwell(at: hold.endFrame) == peak)
            let released = hold.endFrame + Int64(soundscape.holdSwell.releaseSeconds * Double(rate))
            #expect(curves.holdSwell(at: released) == 1)
            // The pitch stays put through the hold.
            #expect(curves.pitchHz(at: hold.startFrame) == curves.pitchHz(at: hold.endFrame - 1))
        }
        for inhale in phases(.inhale) {
            #expect(curves.holdSwell(at: inhale.startFrame + inhale.frameCount / 2) == 1)
        }
    }

    @Test func calmingFallsLinearlyToItsFloorAndTheEnvelopeIsSwellTimesCalming() {
        #expect(curves.calming(at: 0) == soundscape.calming.start)
        #expect(abs(curves.calming(at: schedule.totalFrames) - soundscape.calming.end) < 1e-12)
        #expect(curves.calming(at: curves.totalFrameCount) > 0)
        let middle = schedule.totalFrames / 2
        #expect(abs(curves.calming(at: middle) - (soundscape.calming.start + soundscape.calming.end) / 2) < 1e-4)
        for frame in stride(from: Int64(0), to: schedule.totalFrames, by: 113) {
            #expect(abs(curves.modulationEnvelope(at: frame) - curves.holdSwell(at: frame) * curves.calming(at: frame)) < 1e-12)
        }
    }

    @Test func theSessionFadesInDecaysAndEndsInSilence() {
        #expect(curves.fadeInGain(at: 0) == 0)
        #expect(curves.fadeInGain(at: curves.fadeInFrameCount) == 1)
        #expect(curves.sessionGainDecibels(at: 0) == 0)
        #expect(abs(curves.sessionGainDecibels(at: schedule.totalFrames) + soundscape.sessionDecayDecibels) < 1e-12)
        #expect(curves.releaseGain(at: schedule.totalFrames) == 1)
        #expect(curves.releaseGain(at: curves.silenceStartFrame) == 0)
        #expect(curves.totalFrameCount - schedule.totalFrames < Int64(15 * rate))
        #expect(curves.totalFrameCount - curves.silenceStartFrame == Int64((soundscape.envelope.silenceSeconds * Double(rate)).rounded()))
    }

    /// No curve jumps, at phase boundaries or anywhere: the largest change from one frame to the next is
    /// a small fraction of the curve's range.
    @Test func everyCurveIsContinuous() throws {
        let curves = ControlCurves(schedule: try Fixtures.schedule("4-7-8", cycles: 2, sampleRate: rate), soundscape: soundscape)
        var previous: [Double]?
        var largest = [Double](repeating: 0, count: 7)
        for frame in 0..<curves.totalFrameCount {
            let values = [
                curves.level(at: frame), curves.pitchHz(at: frame) / 100, curves.holdSwell(at: frame),
                curves.calming(at: frame), curves.envelopeGain(at: frame), curves.waterLevel(at: frame),
                curves.waterBrightness(at: frame),
            ]
            if let previous {
                for index in values.indices { largest[index] = max(largest[index], abs(values[index] - previous[index])) }
            }
            previous = values
        }
        for change in largest { #expect(change < 0.002) }
    }
}
