import Breath
import Foundation
@testable import Synth
import Testing

/// Beats measured on the rendered tone: the binaural beat as the difference of the two ears' fundamentals, the
/// isochronic one as the rate of the tone's level pulses; and the loudness gain as a plain scale.
@Suite struct BeatTests {
    let rate = 48000

    /// The tone alone under `beat`, interleaved.
    func tone(_ schedule: Schedule, beat: Beat?, channels: Int) throws -> [Float] {
        var settings = RenderSettings(soundscape: try Fixtures.soundscape("horizon"), channelCount: channels, cues: .none, voices: .tone)
        settings.beat = beat
        return Fixtures.render(schedule, settings: settings)
    }

    /// Left minus right fundamental in 0.4 s windows across inhales, holds and exhales: the beat at that moment
    /// (a glide's value at the window's centre), within 0.3 Hz; their mean is the tone without a beat.
    @Test(arguments: [(8.0, 8.0), (4.0, 16.0), (30.0, 2.0)])
    func theBinauralBeatIsTheDifferenceOfTheEarsFundamentals(from startHz: Double, to endHz: Double) throws {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 2, sampleRate: rate)
        let beat = Beat(style: .binaural, startHz: startHz, endHz: endHz)
        let samples = try tone(schedule, beat: beat, channels: 2)
        let plain = try tone(schedule, beat: nil, channels: 1)
        let left = SignalAnalysis.channel(samples, 0, of: 2)
        let right = SignalAnalysis.channel(samples, 1, of: 2)
        let half = Int(0.2 * Double(rate))
        var checked = 0
        for phase in schedule.phases {
            for fraction in [0.3, 0.7] {
                let centre = Int(phase.startFrame) + Int(Double(phase.frameCount) * fraction)
                let window = (centre - half)..<(centre + half)
                let leftHz = fundamental(left, window, sampleRate: rate)
                let rightHz = fundamental(right, window, sampleRate: rate)
                let expected = beat.frequencyHz(at: Int64(centre), in: schedule)
                #expect(abs((rightHz - leftHz) - expected) <= 0.3, "\(phase.kind) at \(centre): left \(leftHz) Hz, right \(rightHz) Hz, beat \(expected) Hz")
                let plainHz = fundamental(plain, window, sampleRate: rate)
                #expect(abs((leftHz + rightHz) / 2 - plainHz) <= 0.3, "the horizon's pitch \(plainHz) Hz, the ears' mean \((leftHz + rightHz) / 2) Hz")
                checked += 1
            }
        }
        #expect(checked == 2 * schedule.phases.count)
        // The horizon still moves the pitch under the beat: the left ear's tone rises by the preset's interval.
        let soundscape = try Fixtures.soundscape("horizon")
        #expect(soundscape.tone.highFrequencyHz / soundscape.tone.lowFrequencyHz > 1.2)
    }

    /// The tone's level envelope (RMS in 5 ms windows every 1 ms) pulses at the beat's rate in mono, deep enough
    /// to hear; without a beat the same measure finds no pulse.
    @Test(arguments: [3.0, 7.0, 12.0])
    func theIsochronicToneHasLevelPulsesAtTheBeatRate(hz: Double) throws {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        let samples = try tone(schedule, beat: Beat(style: .isochronic, hz: hz), channels: 1)
        let plain = try tone(schedule, beat: nil, channels: 1)
        // The hold: 7 s of steady pitch; its middle 5 s.
        let hold = schedule.phases[1]
        let start = Int(hold.startFrame) + rate, end = Int(hold.endFrame) - rate
        let pulsed = envelope(samples, start..<end)
        let steady = envelope(plain, start..<end)
        let envelopeRate = 1000
        let measured = fundamental(pulsed.map { $0 - mean(pulsed) }, 0..<pulsed.count, sampleRate: envelopeRate)
        #expect(abs(measured - hz) <= 0.1, "pulse rate \(measured) Hz for a \(hz) Hz beat")
        let pulsedDepth = SignalAnalysis.amplitude(pulsed, 0..<pulsed.count, frequencyHz: hz, sampleRate: envelopeRate) / Double(mean(pulsed))
        let steadyDepth = SignalAnalysis.amplitude(steady, 0..<steady.count, frequencyHz: hz, sampleRate: envelopeRate) / Double(mean(steady))
        #expect(pulsedDepth > 0.5, "pulse depth \(pulsedDepth)")
        #expect(steadyDepth < 0.02, "without a beat: \(steadyDepth)")
        #expect(pulsed.min()! < 0.1 * pulsed.max()!, "the tone falls silent between pulses")
    }

    /// The pulses' edges are smooth: the largest sample-to-sample step of the pulsed tone is no larger than
    /// the steady tone's (a gated edge would step by the tone's whole amplitude).
    @Test(arguments: [10.0, 40.0])
    func theIsochronicPulsesDoNotClick(hz: Double) throws {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        let samples = try tone(schedule, beat: Beat(style: .isochronic, hz: hz), channels: 1)
        let plain = try tone(schedule, beat: nil, channels: 1)
        let steps = SignalAnalysis.largestStep(samples, 0..<samples.count)
        let plainSteps = SignalAnalysis.largestStep(plain, 0..<plain.count)
        let peak = plain.map(abs).max()!
        #expect(steps <= 1.05 * plainSteps, "pulsed step \(steps), steady step \(plainSteps)")
        #expect(plainSteps < 0.2 * peak, "the steady tone's own step \(plainSteps) against its peak \(peak)")
    }

    /// Neither ear's tone steps: each channel's largest sample-to-sample step is no larger than the tone's
    /// without a beat, allowing for the right ear running up to 20 Hz (half the 40 Hz beat) above it, a step
    /// larger by at most 20 Hz over the tone's lowest pitch (a phase wrapping by half a cycle would step by up
    /// to the tone's whole swing, ten times more).
    @Test func theBinauralEarsDoNotClick() throws {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        let samples = try tone(schedule, beat: Beat(style: .binaural, startHz: 40, endHz: 0.5), channels: 2)
        let plain = try tone(schedule, beat: nil, channels: 1)
        let plainSteps = SignalAnalysis.largestStep(plain, 0..<plain.count)
        let fastest = Float(1 + 20 / (try Fixtures.soundscape("horizon")).tone.lowFrequencyHz)
        for channel in 0..<2 {
            let ear = SignalAnalysis.channel(samples, channel, of: 2)
            let steps = SignalAnalysis.largestStep(ear, 0..<ear.count)
            #expect(steps <= 1.01 * fastest * plainSteps, "channel \(channel): step \(steps), without a beat \(plainSteps)")
        }
    }

    /// A loudness gain scales the whole render, limiter included: −6 dB is the calibrated render times 10^(−6/20)
    /// sample for sample, with the beat on.
    @Test func aLoudnessGainScalesTheRenderAsItIs() throws {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        var settings = RenderSettings(soundscape: try Fixtures.soundscape("rain"), cues: .chimes)
        settings.beat = Beat(style: .binaural, hz: 6)
        let calibrated = Fixtures.render(schedule, settings: settings)
        settings.loudnessGainDecibels = -6
        let quieter = Fixtures.render(schedule, settings: settings)
        let factor = Float(pow(10, -6.0 / 20))
        var worst: Float = 0
        for (a, b) in zip(calibrated, quieter) { worst = max(worst, abs(a * factor - b)) }
        #expect(worst < 1e-6, "largest difference \(worst)")
        #expect(calibrated.map(abs).max()! > 0.1)
    }

    /// The fundamental from rising zero crossings (interpolated), each counted only after the signal has been
    /// below −10 % of its peak since the last: a harmonic's wiggle near zero cannot add a crossing.
    func fundamental(_ samples: [Float], _ range: Range<Int>, sampleRate: Int) -> Double {
        let threshold = 0.1 * range.map { abs(samples[$0]) }.max()!
        var armed = false
        var first = -1.0, last = -1.0, count = 0
        for index in (range.lowerBound + 1)..<range.upperBound {
            if samples[index] < -threshold { armed = true }
            guard armed, samples[index - 1] < 0, samples[index] >= 0 else { continue }
            let a = Double(samples[index - 1]), b = Double(samples[index])
            let time = Double(index - 1) + a / (a - b)
            if first < 0 { first = time }
            last = time
            count += 1
            armed = false
        }
        return count > 1 ? Double(count - 1) / (last - first) * Double(sampleRate) : 0
    }

    /// RMS in 5 ms windows every 1 ms.
    func envelope(_ samples: [Float], _ range: Range<Int>) -> [Float] {
        let window = rate / 200, hop = rate / 1000
        return stride(from: range.lowerBound, to: range.upperBound - window, by: hop).map { start in
            Float(pow(10, SignalAnalysis.rmsDecibels(samples, start..<(start + window)) / 20))
        }
    }

    func mean(_ values: [Float]) -> Float { values.reduce(0, +) / Float(values.count) }
}
