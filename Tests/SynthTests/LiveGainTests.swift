import Breath
import Foundation
import NagiTestSupport
@testable import Synth
import Testing

/// The listener's live volume as the output meets it: 2 dB steps measured against the same render at its own
/// volume, a ramp with no click, and +6 dB still under the true-peak ceiling.
@Suite struct LiveGainTests {
    static let rate = 16000

    /// The render of `plan`, with the volume set to each step's decibels when its frame is reached.
    static func render(_ plan: RenderPlan, startDecibels: Double, steps: [(frame: Int, decibels: Double)]) -> [Float] {
        let renderer = Renderer(plan: plan)
        renderer.setLiveGain(decibels: startDecibels)
        let total = Int(renderer.totalFrameCount)
        var samples = [Float](repeating: 0, count: total)
        var pending = steps
        samples.withUnsafeMutableBufferPointer { buffer in
            var done = 0
            while done < total {
                if let step = pending.first, step.frame <= done {
                    renderer.setLiveGain(decibels: step.decibels)
                    pending.removeFirst()
                }
                // Blocks as the playback loop pulls them, cut at the steps.
                let frames = min(1024, total - done, (pending.first?.frame ?? total) - done)
                renderer.render(into: UnsafeMutableBufferPointer(rebasing: buffer[done...]), frameCount: max(1, frames))
                done += max(1, frames)
            }
        }
        return samples
    }

    static func plan() throws -> RenderPlan {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        return RenderPlan(schedule: schedule, settings: RenderSettings(soundscape: try Fixtures.soundscape("horizon"), channelCount: 1, cues: .chimes))
    }

    @Test("each step moves the level 2.0 ± 0.2 dB, ramped over 50 ms without a click")
    func stepsAreTwoDecibelsAndRamped() throws {
        let plan = try Self.plan()
        let reference = Self.render(plan, startDecibels: 0, steps: [])
        let rate = Self.rate
        // Down and up from -10 dB: far under the limiter's knee, so the output is the reference times the gain.
        let steps: [(frame: Int, decibels: Double)] = [(3 * rate, -12), (5 * rate, -14), (7 * rate, -12), (9 * rate, -10)]
        let stepped = Self.render(plan, startDecibels: -10, steps: steps)
        let edges = [rate] + steps.map(\.frame)
        var levels: [Double] = []
        for edge in edges {
            // A steady stretch after the ramp and before the next step.
            let stretch = (edge + rate / 5)..<(edge + 2 * rate - rate / 10)
            levels.append(Signal.rmsDecibels(stepped, stretch) - Signal.rmsDecibels(reference, stretch))
        }
        #expect(abs(levels[0] - -10) < 0.2, "start \(levels[0]) dB")
        for index in 1..<levels.count {
            let step = levels[index] - levels[index - 1]
            let wanted = steps[index - 1].decibels - (index == 1 ? -10 : steps[index - 2].decibels)
            #expect(abs(step - wanted) <= 0.2, "step \(index): \(step) dB, wanted \(wanted)")
        }

        // The gain envelope across each step, read as output / reference where the reference is not near zero.
        for (index, step) in steps.enumerated() {
            let before = Float(pow(10, (index == 0 ? -10 : steps[index - 1].decibels) / 20))
            let after = Float(pow(10, step.decibels / 20))
            let window = step.frame..<(step.frame + rate / 5)
            var envelope: [(frame: Int, gain: Float)] = []
            for frame in window where abs(reference[frame]) > 0.002 {
                envelope.append((frame, stepped[frame] / reference[frame]))
            }
            let moving = envelope.filter { abs($0.gain - before) > 1e-4 && abs($0.gain - after) > 1e-4 }
            let first = try #require(moving.first?.frame, "the gain did not move at step \(index)")
            let last = try #require(moving.last?.frame)
            // 50 ms from one gain to the other (a frame or two lost where the reference crosses zero).
            #expect(abs(Double(last - first) - Double(rate) / 20) <= 4, "step \(index): ramp of \(last - first) frames")
            var changes: [Float] = []
            for pair in zip(envelope, envelope.dropFirst()) where pair.1.frame == pair.0.frame + 1 {
                changes.append(abs(pair.1.gain - pair.0.gain))
            }
            changes.sort()
            let percentile = changes[Int(Double(changes.count - 1) * 0.9999)]
            let largest = changes.last ?? 0
            #expect(largest <= percentile * 1.01 + 1e-6, "step \(index): a jump of \(largest) over the 99.99th percentile \(percentile)")
            // And no steeper than a straight 50 ms line: no click.
            #expect(largest <= abs(after - before) / Float(rate / 20) * 1.05 + 1e-6, "step \(index): \(largest) per frame")
        }
    }

    @Test("at +6 dB the output is louder and still under the true-peak ceiling")
    func raisedVolumeStaysUnderTheCeiling() throws {
        let plan = try Self.plan()
        let reference = Self.render(plan, startDecibels: 0, steps: [])
        let raised = Self.render(plan, startDecibels: 0, steps: [(Self.rate, 2), (2 * Self.rate, 4), (3 * Self.rate, 6)])
        let ceiling = plan.limiterCeilingDecibels
        let measured = TruePeakLimiterTests.truePeak(raised, channels: 1, above: pow(10, (ceiling - 1) / 20))
        #expect(measured <= ceiling + 0.15, "true peak \(measured) dB over the ceiling \(ceiling) dB")
        let stretch = (4 * Self.rate)..<(10 * Self.rate)
        let gained = Signal.rmsDecibels(raised, stretch) - Signal.rmsDecibels(reference, stretch)
        #expect(gained > 3, "+6 dB raised the level by only \(gained) dB")
    }

    @Test("the countdown and the end bell follow the volume down, and no higher than 0 dB (they pass no limiter)")
    func framingFollowsTheVolumeDownOnly() throws {
        let schedule = try Fixtures.schedule("2-2", cycles: 1, sampleRate: Self.rate)
        var settings = RenderSettings(soundscape: try Fixtures.soundscape("horizon"), channelCount: 1, cues: .chimes)
        (settings.countdownSeconds, settings.endBell) = (2, true)
        let plan = RenderPlan(schedule: schedule, settings: settings)
        let plain = Self.render(plan, startDecibels: 0, steps: [])
        let quiet = Self.render(plan, startDecibels: -10, steps: [])
        let loud = Self.render(plan, startDecibels: 6, steps: [])
        let framing = SessionFraming(schedule: schedule, settings: settings)
        let leadIn = 0..<Int(framing.leadInFrameCount)
        let ending = Int(framing.endingStartFrame)..<plain.count
        for range in [leadIn, ending] {
            #expect(plain[range].contains { $0 != 0 }, "the ticks and the bell sound")
            #expect(abs(Signal.rmsDecibels(quiet, range) - Signal.rmsDecibels(plain, range) + 10) < 0.01)
            #expect(Array(loud[range]) == Array(plain[range]), "+6 dB leaves them as rendered")
        }
    }
}
