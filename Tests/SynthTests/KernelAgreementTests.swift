import Breath
import Foundation
@testable import Synth
import Testing

/// The fast paths agree with their definitions: the control sequencer with `ControlCurves`, the kernel's
/// cosine with the true cosine.
@Suite struct KernelAgreementTests {
    /// The sequencer's control points (slow values interpolated every 512 frames, fast ones exact) give the
    /// curves' pitch and bed gain at every control block.
    @Test(arguments: SoundscapeChoice.builtinNames)
    func theControlSequencerAgreesWithTheCurves(name: String) throws {
        let rate = 48000
        let soundscape = try Fixtures.soundscape(name)
        let schedule = try Fixtures.schedule("4-7-8", cycles: 2, sampleRate: rate)
        let curves = ControlCurves(schedule: schedule, soundscape: soundscape)
        let waterBase = pow(10, soundscape.water.gainDecibels / 20)
        var sequencer = ControlSequencer(
            curves: curves, gains: .init(tone: 1, trail: 1, water: waterBase, rain: 0, guide: 1), slowFrames: Renderer.slowBlockFrames)
        var worstPitch = 0.0
        var worstWater = 0.0
        var worstTone = 0.0
        for frame in stride(from: Int64(0), to: schedule.totalFrames, by: Renderer.controlBlockFrames) {
            let point = sequencer.point(at: frame)
            // Gains are compared once the fade-in is over: near 0 a relative error says nothing.
            guard frame >= curves.fadeInFrameCount else { continue }
            let vibrato = pow(2, curves.vibratoCents(at: frame) / 1200)
            let pitch = point.toneIncrement * Double(rate)
            worstPitch = max(worstPitch, abs(pitch / (curves.pitchHz(at: frame) * vibrato) - 1))
            let scale = pow(10, (curves.sessionGainDecibels(at: frame) + soundscape.masterGainDecibels) / 20) * curves.envelopeGain(at: frame)
            let water = waterBase * curves.surfGain(at: frame) * scale
            if water > 1e-6 { worstWater = max(worstWater, abs((point.darkGain + point.brightGain) / water - 1)) }
            let tone = pow(10, (curves.toneGainDecibels(at: frame) + curves.tremoloDecibels(at: frame)) / 20) * scale
            if tone > 1e-6 { worstTone = max(worstTone, abs(point.toneGain / tone - 1)) }
        }
        // Slow values are sampled every 10.7 ms and interpolated (the worst case: across the kink where a hold's
        // swell starts): within 10⁻³ of the curves (−60 dB).
        #expect(worstPitch < 2e-5, "\(name): pitch off by \(worstPitch)")
        #expect(worstWater < 1e-3, "\(name): water gain off by \(worstWater)")
        #expect(worstTone < 1e-3, "\(name): tone gain off by \(worstTone)")
        #expect(worstWater > 0 || worstTone > 0, "the comparison must have run")
    }

    /// cos 2πx by the kernel's minimax polynomial stays within 6.8·10⁻⁵ of the true cosine (−83 dB), for
    /// phases near 0 and as large as the renderer ever hands it.
    @Test func theKernelsCosineIsWithinItsErrorBound() {
        var worst = 0.0
        var x: Float = -3
        while x < 3 {
            worst = max(worst, abs(Double(SynthKernel.cosine(turns: x)) - cos(2 * Double.pi * Double(x))))
            x += 1.0 / 65536
        }
        for base in [Float(1000), 65536, 1_000_000] {
            for step in 0..<4096 {
                let x = base + Float(step) / 4096
                worst = max(worst, abs(Double(SynthKernel.cosine(turns: x)) - cos(2 * Double.pi * Double(x))))
            }
        }
        #expect(worst < 6.8e-5, "largest cosine error \(worst)")
        // The bound is tight, not loose: the polynomial's own error reaches most of it.
        #expect(worst > 3e-5, "largest cosine error \(worst)")
    }
}
