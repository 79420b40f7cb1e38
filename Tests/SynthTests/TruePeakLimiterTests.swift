import Breath
import Foundation
import NagiDocuments
@testable import Synth
import NagiTestSupport
import Testing

/// The output stage as a listener meets it: a render far too loud for its ceiling comes out under it between
/// the samples too (read by an interpolator of its own, not the limiter's), seeks into limited stretches are
/// exact, and the limiter turns a loud onset down only within its look-ahead before it and lets go after it.
@Suite struct TruePeakLimiterTests {
    /// Horizon with its master gain raised by `decibels` (its voices then sum far over the ceiling).
    static func loudHorizon(raisedBy decibels: Double) throws -> Soundscape {
        let text = try Fixtures.soundscapeText("horizon")
        guard let key = text.range(of: "\"masterGainDecibels\":") else { throw TestFailure("horizon.json has no masterGainDecibels") }
        let rest = text[key.upperBound...].drop { $0 == " " }
        let number = rest.prefix { "+-.0123456789eE".contains($0) }
        guard let master = Double(number) else { throw TestFailure("horizon.json's masterGainDecibels is not a number") }
        let raised = text[..<key.upperBound] + " \(master + decibels)" + rest.dropFirst(number.count)
        return try Soundscape.decode(text: String(raised), file: "loud.json")
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The largest magnitude of `samples` (interleaved) and of the signal between them, by 8× band-limited
    /// interpolation with 32 Kaiser-windowed sinc taps: an estimate made independently of the limiter's own.
    /// Points whose taps' samples are all too small to reach `above` are skipped (they cannot matter).
    static func truePeak(_ samples: [Float], channels: Int, above: Double) -> Double {
        let factor = 8
        let half = 16
        var taps: [[Double]] = []
        for phase in 1..<factor {
            let fraction = Double(phase) / Double(factor)
            var row: [Double] = []
            for k in (-half + 1)...half {
                let d = fraction - Double(k)
                let t = d / Double(half + 1)
                let window = besselI0(8 * (1 - t * t).squareRoot()) / besselI0(8)
                row.append(sin(Double.pi * d) / (Double.pi * d) * window)
            }
            taps.append(row)
        }
        let bound = taps.map { $0.reduce(0) { $0 + abs($1) } }.max() ?? 1
        let frames = samples.count / channels
        var peak = 0.0
        for channel in 0..<channels {
            let signal = (0..<frames).map { Double(samples[$0 * channels + channel]) }
            var windowPeak = 0.0
            for frame in 0..<frames {
                peak = max(peak, abs(signal[frame]))
                guard frame >= half, frame + half < frames else { continue }
                if frame % half == 0 { windowPeak = signal[(frame - half)..<min(frames, frame + 2 * half)].map(abs).max() ?? 0 }
                guard windowPeak * bound > above else { continue }
                for row in taps {
                    var sum = 0.0
                    for index in 0..<row.count { sum += row[index] * signal[frame - half + 1 + index] }
                    peak = max(peak, abs(sum))
                }
            }
        }
        return 20 * log10(peak)
    }

    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0
        var term = 1.0
        for k in 1..<30 {
            term *= (x / 2) / Double(k)
            sum += term * term
        }
        return sum
    }

    @Test(arguments: [(16000, 1), (48000, 2)])
    func aRenderFarTooLoudStaysUnderTheCeilingBetweenTheSamples(rate: Int, channels: Int) throws {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        let settings = RenderSettings(soundscape: try Self.loudHorizon(raisedBy: 24), channelCount: channels, cues: .chimes)
        let plan = RenderPlan(schedule: schedule, settings: settings)
        let ceiling = plan.limiterCeilingDecibels
        // Three seconds across the first boundary (its chime) and into the hold's swell.
        let renderer = Renderer(plan: plan)
        renderer.seek(toFrame: Int64(3 * rate))
        var samples = [Float](repeating: 0, count: 3 * rate * channels)
        samples.withUnsafeMutableBufferPointer { renderer.render(into: $0, frameCount: 3 * rate) }
        let measured = Self.truePeak(samples, channels: channels, above: pow(10, (ceiling - 1) / 20))
        // Limited (the mix is 20 dB and more over it) and under it, within what two interpolators differ by.
        #expect(measured <= ceiling + 0.15, "true peak \(measured) dB over the ceiling \(ceiling) dB")
        #expect(measured >= ceiling - 1, "true peak \(measured) dB: the loud render should reach the ceiling \(ceiling) dB")
        // Not clipped into a square wave: few samples sit within 0.1 dB of the largest.
        let largest = samples.map { abs($0) }.max() ?? 0
        let pinned = samples.filter { abs($0) >= largest * 0.989 }.count
        #expect(Double(pinned) / Double(samples.count) < 0.02, "\(pinned) of \(samples.count) samples at the peak")
    }

    @Test func seeksIntoLimitedStretchesAreExact() throws {
        let rate = 16000
        let schedule = try Fixtures.schedule("4-2-4", cycles: 1, sampleRate: rate)
        let settings = RenderSettings(soundscape: try Self.loudHorizon(raisedBy: 18), channelCount: 2, cues: .both, count: .ticks)
        let plan = RenderPlan(schedule: schedule, settings: settings)
        let reference = Fixtures.render(Renderer(plan: plan))
        let unlimited = Fixtures.render(Renderer(plan: RenderPlan(
            schedule: schedule, settings: RenderSettings(soundscape: try Self.loudHorizon(raisedBy: 0), channelCount: 2, cues: .both, count: .ticks))))
        // The loud render is limited: it is not the calibrated one 18 dB up.
        let gain = Float(pow(10, 18.0 / 20))
        #expect(zip(reference, unlimited).contains { abs($0 - $1 * gain) > 0.01 })
        let renderer = Renderer(plan: plan)
        var generator = SeededGenerator(seed: 0x11A17)
        for _ in 0..<16 {
            let frame = Int.random(in: 0..<Int(renderer.totalFrameCount), using: &generator)
            let frames = Int.random(in: 1...4000, using: &generator)
            renderer.seek(toFrame: Int64(frame))
            let samples = SeekTests.pull(renderer, frames: frames, generator: &generator)
            let wanted = SeekTests.expected(reference, from: frame, frames: frames, channels: 2)
            let difference = SeekTests.firstDifference(samples, wanted, channels: 2)
            #expect(difference == nil, "seek to \(frame): first difference at +\(difference ?? 0)")
        }
    }

    /// The interpolation in the C kernel's AVX lanes gives Swift's loops' gains to the bit: a signal that crosses the
    /// knee often (tones, noise, silence), limited both ways in the renderer's blocks at rates with 3 to 23
    /// phases, mono and stereo.
    @Test(.enabled(if: SynthKernel.lanesAvailable, "this machine has no AVX"), arguments: [(48000, 2), (8000, 1), (44100, 2), (16000, 1), (96000, 2), (192000, 1)])
    func vectorInterpolationLimitsAsSwiftsLoopsDo(rate: Int, channels: Int) {
        let blockFrames = Renderer.controlBlockFrames
        var generator = SeededGenerator(seed: UInt64(rate + channels))
        let blocks = 400
        var input = [Float](repeating: 0, count: blocks * blockFrames * channels)
        for index in input.indices {
            let frame = index / channels
            let section = frame / 997 % 4
            let tone = Float(sin(Double(frame) * (0.05 + 0.9 * Double(section) / 4)))
            let noise = Float.random(in: -1...1, using: &generator)
            input[index] = [0.9 * tone, 1.3 * noise, 0, 0.6 * tone + 0.5 * noise][section]
        }
        func limited(vector: Bool) -> (samples: [UInt32], smallestGain: Float) {
            let limiter = TruePeakLimiter(knee: 0.5, ceiling: 0.8, sampleRate: rate, channelCount: channels, blockFrames: blockFrames)
            limiter.usesVectorInterpolation = vector
            var output = [Float](repeating: 0, count: input.count)
            let blockSamples = blockFrames * channels
            for block in 0..<blocks {
                input.withUnsafeBufferPointer { source in
                    guard let base = source.baseAddress else { return }
                    limiter.chunkInput.update(from: base + block * blockSamples, count: blockSamples)
                }
                output.withUnsafeMutableBufferPointer { destination in
                    limiter.process(blockCount: 1, output: destination.baseAddress.map { $0 + block * blockSamples })
                }
            }
            return (output.map(\.bitPattern), limiter.smallestNeededGain)
        }
        let swift = limited(vector: false)
        let lanes = limited(vector: true)
        #expect(swift.smallestGain < 0.7, "the signal should be limited, smallest gain \(swift.smallestGain)")
        #expect(lanes.smallestGain.bitPattern == swift.smallestGain.bitPattern)
        let firstDifference = lanes.samples.indices.first { lanes.samples[$0] != swift.samples[$0] }
        #expect(firstDifference == nil, "first difference at sample \(firstDifference ?? 0)")
    }

    /// The limiter forgets: a loud burst long past (beyond its history) changes nothing in how a later one is
    /// limited, though the gains' ring has come round to the burst's places by then (the quiet frames in between
    /// must have put them back to 1).
    @Test func aBurstLongPastDoesNotChangeHowALaterOneIsLimited() {
        let rate = 48000
        let blockFrames = Renderer.controlBlockFrames
        let total = 6400
        func limited(withEarlyBurst: Bool) -> [Float] {
            let limiter = TruePeakLimiter(knee: 0.5, ceiling: 0.8, sampleRate: rate, channelCount: 1, blockFrames: blockFrames)
            let input = (0..<(total + limiter.delayFrames)).map { n -> Float in
                let loud = (withEarlyBurst && n < 1024) || (3200..<4200).contains(n)
                return (loud ? 3 : 0.1) * Float(sin(2 * Double.pi * 440 * Double(n) / Double(rate)))
            }
            var output = [Float](repeating: 0, count: input.count)
            for block in 0..<(input.count / blockFrames) {
                input.withUnsafeBufferPointer { source in
                    guard let base = source.baseAddress else { return }
                    limiter.chunkInput.update(from: base + block * blockFrames, count: blockFrames)
                }
                let outputBlock = block - limiter.delayFrames / blockFrames
                output.withUnsafeMutableBufferPointer { destination in
                    limiter.process(blockCount: 1, output: outputBlock < 0 ? nil : destination.baseAddress.map { $0 + outputBlock * blockFrames })
                }
            }
            return Array(output[0..<total])
        }
        let both = limited(withEarlyBurst: true)
        let later = limited(withEarlyBurst: false)
        // The early burst (peaks of 3) really was limited, under the ceiling of 0.8 (the inputs differ there
        // anyway, so their outputs differing would show nothing); from well past its end plus the limiter's
        // history on, the two agree.
        let burstPeak = both[0..<1024].map(abs).max() ?? 0
        #expect(burstPeak <= 0.8 && burstPeak > 0.5, "the early burst came out at \(burstPeak)")
        let from = 1024 + TruePeakLimiter.historyFrames(sampleRate: rate, blockFrames: blockFrames) + blockFrames
        let difference = (from..<total).first { both[$0] != later[$0] }
        #expect(difference == nil, "first difference at frame \(difference ?? 0), from \(from) on")
    }

    @Test func aLoudOnsetIsTurnedDownOnlyWithinTheLookAheadAndLetGoAfterTheHold() {
        let rate = 48000
        let blockFrames = 64
        let limiter = TruePeakLimiter(knee: 0.5, ceiling: 0.8, sampleRate: rate, channelCount: 1, blockFrames: blockFrames)
        // Quiet 0.1 tone, then 50 ms of a loud one (amplitude 4) from frame 4800, then quiet again.
        let total = 9600
        let onset = 4800
        let end = onset + 2400
        let input = (0..<(total + limiter.delayFrames)).map { n -> Float in
            let amplitude: Float = (onset..<end).contains(n) ? 4 : 0.1
            return amplitude * Float(sin(2 * Double.pi * 440 * Double(n) / Double(rate)))
        }
        var output = [Float](repeating: 0, count: total + limiter.delayFrames)
        let blocks = input.count / blockFrames
        for block in 0..<blocks {
            input.withUnsafeBufferPointer { source in
                limiter.chunkInput.update(from: source.baseAddress! + block * blockFrames, count: blockFrames)
            }
            output.withUnsafeMutableBufferPointer { destination in
                let outputBlock = block - limiter.delayFrames / blockFrames
                guard outputBlock >= 0 else {
                    limiter.process(blockCount: 1, output: nil)
                    return
                }
                limiter.process(blockCount: 1, output: destination.baseAddress! + outputBlock * blockFrames)
            }
        }
        // Untouched until 10 ms before the onset, and again from 40 ms after the end (20 ms hold + 5 ms kernel).
        let untouchedBefore = onset - rate / 100
        let untouchedAfter = end + 2 * rate / 50
        #expect((0..<untouchedBefore).allSatisfy { output[$0] == input[$0] })
        #expect((untouchedAfter..<total).allSatisfy { output[$0] == input[$0] })
        // Turned down before the onset already (look-ahead), and under the ceiling throughout the loud stretch.
        #expect((untouchedBefore..<onset).contains { output[$0] != input[$0] })
        #expect((onset..<end).allSatisfy { abs(output[$0]) < 0.8 })
        // Smooth: the gain never moves by more than a few percent from one frame to the next.
        let gains = (onset..<end).compactMap { abs(input[$0]) > 1 ? Double(output[$0] / input[$0]) : nil }
        let steps = zip(gains, gains.dropFirst()).map { abs($1 - $0) }
        #expect((steps.max() ?? 1) < 0.01)
    }
}
