import Breath
import Foundation
import NagiBase
import NagiTestSupport
import Synth
import Testing

/// `Renderer.seek(toFrame:)` against rendering from frame 0: after a seek, every sample equals the one a
/// renderer that rendered all the frames before it writes (exact `==`, no tolerance), with every voice the
/// renderer carries state for: the tones, a gliding beat, chimes, ticks, spoken clips that duck the beds, and
/// a user's bed (streamed through the ring, and held in memory).
@Suite("Seeking the renderer")
struct SeekTests {
    static let rate = 16000

    /// A recording held in an array, read sequentially like the command line's stream: a sine and seeded
    /// noise, different in each channel, so a bed frame out of place shows in the samples. `statesLength`: it
    /// says its length (`frameCount`), as a file's header does, so the loop's memory budget can hold it.
    final class ArrayRecording: FrameReader {
        let channelCount: Int
        let sampleRate = SeekTests.rate
        let frames: Int
        let samples: [Float]
        let frameCount: Int64?
        private var position = 0
        var nextFrame: Int64 { Int64(position) }
        /// Frames handed out since the last `resetCounts`.
        private(set) var framesRead = 0
        private(set) var rewindCount = 0

        init(channelCount: Int, frames: Int, seed: UInt64, statesLength: Bool = false) {
            self.channelCount = channelCount
            self.frames = frames
            frameCount = statesLength ? Int64(frames) : nil
            var generator = SeededGenerator(seed: seed)
            samples = (0..<(frames * channelCount)).map { index in
                let frame = index / channelCount
                return 0.2 * Float(sin(Double(frame) * 0.031 * Double(1 + index % channelCount))) + 0.05 * generator.nextSignedUnit()
            }
        }

        func read(into output: UnsafeMutableBufferPointer<Float>) -> Int {
            let count = min(output.count / channelCount, frames - position)
            samples.withUnsafeBufferPointer { source in
                output.baseAddress!.update(from: source.baseAddress! + position * channelCount, count: count * channelCount)
            }
            position += count
            framesRead += count
            return count
        }

        /// The loop only ever rewinds its recording (seeks to frame 0), counted.
        func seek(toFrame frame: Int64) {
            precondition(frame == 0, "a bed recording is only rewound")
            position = 0
            rewindCount += 1
        }

        func resetCounts() {
            framesRead = 0
            rewindCount = 0
        }
    }

    /// How a case is set up: channels, beat style and the bed's length (long: streamed through the ring;
    /// short, under two crossfades: held in memory).
    struct Setup: CustomTestStringConvertible, Sendable {
        var soundscape: String
        var channels: Int
        var beat: Beat.Style
        var bedSeconds: Double
        var testDescription: String { "\(soundscape), \(channels) ch, \(beat), \(bedSeconds) s bed" }
    }

    static let setups: [Setup] = SoundscapeChoice.builtinNames.flatMap { name in
        [Setup(soundscape: name, channels: 2, beat: .binaural, bedSeconds: 7),
         Setup(soundscape: name, channels: 1, beat: .isochronic, bedSeconds: 2.5)]
    }

    /// Two cycles of 4-7-8 under `setup`: chimes and spoken clips on every boundary, ticks on the seconds, a
    /// beat gliding from 4 to 9 Hz, and the bed.
    static func renderer(_ setup: Setup, recording: ArrayRecording? = nil, withBeat: Bool = true) throws -> Renderer {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 2, sampleRate: rate)
        let clips = GuideClips(phrases: ["breathe in": GuideRenderTests.burst(500, seconds: 0.6),
                                         "hold": GuideRenderTests.burst(700, seconds: 0.6),
                                         "breathe out": GuideRenderTests.burst(900, seconds: 0.6)])
        var settings = RenderSettings(
            soundscape: try Fixtures.soundscape(setup.soundscape), channelCount: setup.channels, seed: 7, cues: .both, count: .ticks,
            clips: clips, bed: BedMix(path: "array.wav", gainDecibels: -6))
        if withBeat { settings.beat = Beat(style: setup.beat, startHz: 4, endHz: 9) }
        let bed = recording ?? ArrayRecording(channelCount: setup.channels, frames: Int(setup.bedSeconds * Double(rate)), seed: 3)
        return Renderer(schedule: schedule, settings: settings, bed: bed)
    }

    /// Renders `frames` frames from where `renderer` stands, in calls of random sizes from `generator`.
    static func pull(_ renderer: Renderer, frames: Int, generator: inout SeededGenerator) -> [Float] {
        var samples = [Float](repeating: .nan, count: frames * renderer.channelCount)
        samples.withUnsafeMutableBufferPointer { buffer in
            var done = 0
            while done < frames {
                let count = min(Int.random(in: 1...700, using: &generator), frames - done)
                renderer.render(into: UnsafeMutableBufferPointer(rebasing: buffer[(done * renderer.channelCount)...]), frameCount: count)
                done += count
            }
        }
        return samples
    }

    /// The reference's samples for `frames` frames from `frame` (silence past its end).
    static func expected(_ reference: [Float], from frame: Int, frames: Int, channels: Int) -> [Float] {
        (frame * channels..<(frame + frames) * channels).map { $0 < reference.count ? reference[$0] : 0 }
    }

    /// The first differing sample's frame, for the failure message.
    static func firstDifference(_ a: [Float], _ b: [Float], channels: Int) -> Int? {
        Signal.firstDifference(a, b).map { $0 / channels }
    }

    /// Whether `samples` are exactly the reference's from `frame` (compared here, so a failure prints a frame
    /// rather than thousands of samples).
    static func matches(_ samples: [Float], _ reference: [Float], from frame: Int, channels: Int) -> Bool {
        firstDifference(samples, expected(reference, from: frame, frames: samples.count / channels, channels: channels), channels: channels) == nil
    }

    @Test("20 seeks to random frames, forward and back, each exact", arguments: setups)
    func randomSeeksMatchRenderingFromZero(setup: Setup) throws {
        let reference = Fixtures.render(try Self.renderer(setup))
        let renderer = try Self.renderer(setup)
        let total = Int(renderer.totalFrameCount)
        var generator = SeededGenerator(seed: 0x5EE6 &+ UInt64(setup.channels) &* 31 &+ UInt64(setup.soundscape.count))
        var backwards = 0
        for _ in 0..<20 {
            // Mostly inside the render, sometimes just past its end.
            let frame = Int.random(in: 0..<(total + total / 20), using: &generator)
            if Int64(frame) < renderer.nextFrame { backwards += 1 }
            let frames = Int.random(in: 1...3000, using: &generator)
            renderer.seek(toFrame: Int64(frame))
            #expect(renderer.nextFrame == Int64(frame))
            let samples = Self.pull(renderer, frames: frames, generator: &generator)
            let wanted = Self.expected(reference, from: frame, frames: frames, channels: setup.channels)
            let difference = Self.firstDifference(samples, wanted, channels: setup.channels)
            #expect(difference == nil, "\(setup.testDescription): seek to \(frame), first difference at +\(difference ?? 0)")
        }
        #expect(backwards >= 3, "the random frames should include seeks back")
    }

    @Test("seeks into the beds' dip under each spoken clip, in order and back", arguments: setups)
    func seeksIntoTheDucking(setup: Setup) throws {
        let reference = Fixtures.render(try Self.renderer(setup))
        let renderer = try Self.renderer(setup)
        let schedule = try Fixtures.schedule("4-7-8", cycles: 2, sampleRate: Self.rate)
        var generator = SeededGenerator(seed: 14)
        // 0.3 s into each 0.6 s clip the beds are fully down; the last boundary first, so the rest seek back.
        for phase in schedule.phases.reversed() {
            let frame = Int(phase.startFrame) + 3 * Self.rate / 10 + 21
            renderer.seek(toFrame: Int64(frame))
            #expect(Self.matches(Self.pull(renderer, frames: 2000, generator: &generator), reference, from: frame, channels: setup.channels),
                    "\(setup.testDescription): seek to \(frame)")
        }
    }

    @Test("seek back after rendering far, into a partial block, then on across block edges", arguments: [setups[0], setups[1]])
    func seekBackIntoAPartialBlock(setup: Setup) throws {
        let reference = Fixtures.render(try Self.renderer(setup))
        let renderer = try Self.renderer(setup)
        var generator = SeededGenerator(seed: 11)
        _ = Self.pull(renderer, frames: 30 * Self.rate, generator: &generator)
        let frame = 3 * Self.rate + 37  // 37 frames into a control block
        renderer.seek(toFrame: Int64(frame))
        // A few frames inside the block first, then well past it.
        let head = Self.pull(renderer, frames: 5, generator: &generator)
        let rest = Self.pull(renderer, frames: 4000, generator: &generator)
        let channels = setup.channels
        #expect(Self.matches(head, reference, from: frame, channels: channels))
        #expect(Self.matches(rest, reference, from: frame + 5, channels: channels))
        // On a block's boundary too, back again.
        renderer.seek(toFrame: 64 * 1000)
        #expect(Self.matches(Self.pull(renderer, frames: 3000, generator: &generator), reference, from: 64 * 1000, channels: channels))
    }

    @Test("a seek past the end gives silence, and a seek back from there sounds again", arguments: [setups[0], setups[1]])
    func seekPastTheEnd(setup: Setup) throws {
        let reference = Fixtures.render(try Self.renderer(setup))
        let renderer = try Self.renderer(setup)
        let total = renderer.totalFrameCount
        var generator = SeededGenerator(seed: 12)
        renderer.seek(toFrame: total + 12_345)
        #expect(renderer.nextFrame == total + 12_345)
        let after = Self.pull(renderer, frames: 2000, generator: &generator)
        #expect(after.allSatisfy { $0 == 0 }, "silence past the end")
        // Across the end: the last frames, then silence.
        renderer.seek(toFrame: total - 100)
        #expect(Self.matches(Self.pull(renderer, frames: 300, generator: &generator), reference, from: Int(total) - 100, channels: setup.channels))
        let frame = 5 * Self.rate + 3
        renderer.seek(toFrame: Int64(frame))
        let back = Self.pull(renderer, frames: 3000, generator: &generator)
        #expect(Self.matches(back, reference, from: frame, channels: setup.channels))
        #expect(back.contains { $0 != 0 })
    }

    @Test("seek(0), fresh or after rendering, then the whole render equals a fresh renderer's", arguments: [setups[0], setups[1]])
    func seekToZeroIsFresh(setup: Setup) throws {
        let reference = Fixtures.render(try Self.renderer(setup))
        let fresh = try Self.renderer(setup)
        fresh.seek(toFrame: 0)
        #expect(Self.matches(Fixtures.render(fresh, blockSize: 1000), reference, from: 0, channels: setup.channels))
        let used = try Self.renderer(setup)
        var generator = SeededGenerator(seed: 13)
        _ = Self.pull(used, frames: 10 * Self.rate + 5, generator: &generator)
        used.seek(toFrame: 0)
        #expect(used.nextFrame == 0)
        #expect(Self.matches(Fixtures.render(used, blockSize: 777), reference, from: 0, channels: setup.channels))
    }

    @Test("a seek reads a bed held in memory not at all, a streamed one at most one pass")
    func bedSeekCost() throws {
        let rate = Double(Self.rate)
        let short = ArrayRecording(channelCount: 2, frames: Int(2.5 * rate), seed: 3)
        let inMemory = try Self.renderer(Self.setups[0], recording: short)
        short.resetCounts()
        inMemory.seek(toFrame: Int64(30 * rate))
        #expect(short.framesRead == 0 && short.rewindCount == 0)
        let long = ArrayRecording(channelCount: 2, frames: Int(7 * rate), seed: 3)
        let streamed = try Self.renderer(Self.setups[0], recording: long)
        // The first seek past the recording's end reads it through once to learn its length...
        streamed.seek(toFrame: Int64(30 * rate))
        long.resetCounts()
        // ...after which any seek back reads at most one pass.
        streamed.seek(toFrame: Int64(33 * rate))
        streamed.seek(toFrame: Int64(20 * rate))
        #expect(long.framesRead <= 2 * long.frames, "read \(long.framesRead) frames of a \(long.frames)-frame recording")
    }

    @Test("a seek ten minutes into a 48 kHz session, timed")
    func seekCost() throws {
        let schedule = try Fixtures.schedule("4-7-8", seconds: 660, sampleRate: 48000)
        var settings = RenderSettings(soundscape: try Fixtures.soundscape("rain"), channelCount: 2, cues: .both, count: .ticks)
        settings.beat = Beat(style: .binaural, startHz: 4, endHz: 9)
        let renderer = Renderer(schedule: schedule, settings: settings)
        let clock = ContinuousClock()
        let elapsed = clock.measure { renderer.seek(toFrame: 600 * 48000 + 17) }
        // Reported, not bounded: a debug build under a parallel test run on shared cores varies tenfold (release:
        // 43–80 ms here; `swift test -c release --filter seekCost` prints it).
        print("seek to 10 min at 48 kHz: \(elapsed)")
        #expect(renderer.nextFrame == 600 * 48000 + 17)
    }
}
