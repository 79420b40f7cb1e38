import Breath
import Foundation
import NagiDocuments
import Synth
import Testing

/// What the pulling players rely on: exact length, silence at the end, determinism, block-size
/// independence, a bounded, finite output.
@Suite struct RendererContractTests {
    @Test func theRenderIsTheScheduleThenAReleaseThenSilence() throws {
        let rate = 16000
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        let soundscape = try Fixtures.soundscape("horizon")
        let renderer = Renderer(schedule: schedule, soundscape: soundscape, channelCount: 2, cuesEnabled: true, seed: 3)
        let release = Int64((soundscape.envelope.releaseSeconds * Double(rate)).rounded())
        let silence = Int64((soundscape.envelope.silenceSeconds * Double(rate)).rounded())
        #expect(renderer.totalFrameCount == schedule.totalFrames + release + silence)
        // The CLI's file size and progress use the plan's exact count, known before rendering.
        #expect(RenderPlan.totalFrameCount(schedule: schedule, soundscape: soundscape) == renderer.totalFrameCount)
        #expect(renderer.totalFrameCount - schedule.totalFrames < Int64(15 * rate))
        #expect(renderer.sampleRate == rate && renderer.channelCount == 2 && renderer.nextFrame == 0)
        let samples = Fixtures.render(renderer)
        #expect(renderer.nextFrame == renderer.totalFrameCount)
        // Starts from silence and fades in over the first inhale; the inhale's cue sounds from frame 0.
        let cueless = Fixtures.render(schedule, soundscape, cues: false, seed: 3)
        #expect(cueless[0] == 0 && cueless[1] == 0)
        #expect(samples[0] != 0)
        let left = SignalAnalysis.channel(samples, 0, of: 2)
        #expect(SignalAnalysis.rmsDecibels(left, 0..<(rate / 10)) < SignalAnalysis.rmsDecibels(left, (3 * rate)..<(3 * rate + rate / 10)) - 12)
        // The last phase's sound carries on into the release, then exactly 0.8 s of digital silence.
        let silenceStart = Int(schedule.totalFrames + release)
        #expect(SignalAnalysis.rmsDecibels(left, (Int(schedule.totalFrames) - rate / 10)..<Int(schedule.totalFrames)) > -40)
        #expect(left[silenceStart...].allSatisfy { $0 == 0 })
        #expect(left[silenceStart - rate / 10..<silenceStart].contains { $0 != 0 })
        // Frames asked for past the end are silence, and the count keeps going.
        var extra = [Float](repeating: 1, count: 2 * 100)
        extra.withUnsafeMutableBufferPointer { renderer.render(into: $0, frameCount: 100) }
        #expect(extra.allSatisfy { $0 == 0 })
        #expect(renderer.nextFrame == renderer.totalFrameCount + 100)
    }

    @Test func theSameSeedRendersTheSameSamplesAndAnotherSeedChangesOnlyTheNoise() throws {
        let schedule = try Fixtures.schedule("4-4-4-4", cycles: 1, sampleRate: 16000)
        let soundscape = try Fixtures.soundscape("rain")
        let first = Fixtures.render(schedule, soundscape, seed: 11)
        let again = Fixtures.render(schedule, soundscape, seed: 11)
        let other = Fixtures.render(schedule, soundscape, seed: 12)
        #expect(first == again)
        #expect(first != other)
        let differing = zip(first, other).filter { $0 != $1 }.count
        #expect(differing > first.count / 2)
        // The seed feeds the noise beds only: the tone, pad and cues are the same for every seed.
        let voices: Voices = [.tone, .trail, .cues]
        #expect(Fixtures.render(schedule, soundscape, seed: 11, voices: voices) == Fixtures.render(schedule, soundscape, seed: 12, voices: voices))
    }

    @Test func blockSizesDoNotChangeTheOutput() throws {
        let schedule = try Fixtures.schedule("2-1-2", cycles: 2, sampleRate: 16000)
        let soundscape = try Fixtures.soundscape("horizon")
        let reference = Fixtures.render(schedule, soundscape, blockSize: 4096)
        for blockSize in [1, 7, 63, 64, 65, 1000, 44100] {
            #expect(Fixtures.render(schedule, soundscape, blockSize: blockSize) == reference, "block size \(blockSize)")
        }
        // Irregular sizes, as a live player pulls them.
        let renderer = Renderer(schedule: schedule, soundscape: soundscape, channelCount: 2, cuesEnabled: true, seed: 1)
        var samples: [Float] = []
        var sizes = SplitSizes(seed: 5)
        var buffer = [Float](repeating: 0, count: 2 * 3000)
        while renderer.nextFrame < renderer.totalFrameCount {
            let frames = min(sizes.next(), Int(renderer.totalFrameCount - renderer.nextFrame))
            buffer.withUnsafeMutableBufferPointer { renderer.render(into: $0, frameCount: frames) }
            samples += buffer[0..<(2 * frames)]
        }
        #expect(samples == reference)
    }

    /// Irregular block sizes from 1 to 3000 frames.
    struct SplitSizes {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 1 + Int((state >> 33) % 3000)
        }
    }

    @Test(arguments: SoundscapeChoice.builtinNames)
    func everySoundscapeStaysFiniteAndBelowMinusOneDecibel(name: String) throws {
        let soundscape = try Fixtures.soundscape(name)
        let ceiling = Float(pow(10, -1.0 / 20))
        // A steady pattern, and a quick one that keeps every cue overlapping the next.
        for pattern in ["4-7-8", "0.5-0.5"] {
            let schedule = try Fixtures.schedule(pattern, seconds: 20, sampleRate: 48000)
            let samples = Fixtures.render(schedule, soundscape)
            #expect(samples.allSatisfy { $0.isFinite })
            let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
            #expect(peak <= ceiling, "\(name) \(pattern): peak \(20 * log10(Double(peak))) dBFS")
            #expect(peak > ceiling / 100, "\(name) \(pattern): the render should not be near silent")
        }
    }

    @Test func theLimiterHoldsTheCeilingWhateverTheMasterGain() throws {
        // +24 dB drives every voice far past the knee: the limiter must still hold −1 dBFS.
        let text = try Fixtures.soundscapeText("horizon").replacingOccurrences(
            of: #""masterGainDecibels": -?[0-9.]+"#, with: #""masterGainDecibels": 24"#, options: .regularExpression)
        let soundscape = try Soundscape.decode(text: text, file: "loud.json")
        #expect(soundscape.masterGainDecibels == 24)
        let samples = Fixtures.render(try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: 16000), soundscape)
        let peak = samples.reduce(Float(0)) { max($0, abs($1)) }
        #expect(samples.allSatisfy { $0.isFinite })
        #expect(peak <= Float(pow(10, soundscape.limiter.ceilingDecibels / 20)))
        #expect(peak > Float(pow(10, soundscape.limiter.kneeDecibels / 20)), "the loud render must reach the limiter")
    }

    @Test func stereoIsMonoCompatible() throws {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: 16000)
        let soundscape = try Fixtures.soundscape("rain")
        let stereo = Fixtures.render(schedule, soundscape, channels: 2)
        let mono = Fixtures.render(schedule, soundscape, channels: 1)
        let left = SignalAnalysis.channel(stereo, 0, of: 2)
        let right = SignalAnalysis.channel(stereo, 1, of: 2)
        let sum = zip(left, right).map { ($0 + $1) / 2 }
        // The mono render is the stereo render's mid, and folding down loses at most 1 dB.
        #expect(zip(sum, mono).allSatisfy { abs($0 - $1) < 1e-6 })
        let range = 0..<left.count
        #expect(SignalAnalysis.rmsDecibels(sum, range) > SignalAnalysis.rmsDecibels(left, range) - 1)
        #expect(left != right, "stereo should have some width")
    }

    @Test func lowSampleRatesAndVanishingPhasesRenderCleanly() throws {
        // 10 µs holds vanish at 8 kHz: zero-length phases get no cue and cause no click or NaN.
        let pattern = try InlinePattern.parse("3-0.00001-3-0.00001")
        let schedule = try Schedule(session: Session(pattern: pattern, length: .cycles(2)), sampleRate: 8000)
        #expect(schedule.phases.contains { $0.frameCount == 0 })
        let soundscape = try Fixtures.soundscape("night")
        let samples = Fixtures.render(schedule, soundscape, channels: 1)
        #expect(samples.allSatisfy { $0.isFinite })
        #expect(samples.reduce(Float(0)) { max($0, abs($1)) } <= Float(pow(10, -1.0 / 20)))
        let withoutCues = Fixtures.render(schedule, soundscape, channels: 1, cues: false)
        // Cues sound only at the starts of phases that last.
        for phase in schedule.phases where phase.frameCount > 0 {
            let start = Int(phase.startFrame)
            #expect(samples[start..<(start + 40)] != withoutCues[start..<(start + 40)])
        }
    }
}
