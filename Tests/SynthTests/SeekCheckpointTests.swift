import Breath
import NagiTestSupport
import Synth
import Testing

/// `Renderer.prepareControl(frameCount:checkpointAt:)` and `seek(from:)`, as a sliced write uses them: renderers
/// that take turns over consecutive slices, each computing its slice's control ahead and handing the next slice's
/// checkpoint on, write exactly (`==`) what one renderer writes from frame 0, with every voice that keeps state
/// (the tones' and the beat's phases, chimes, ticks, ducking clips, a streamed or held bed), and across a
/// countdown, the ending and the closing silence. A renderer's own output does not change because it led.
@Suite("Seeking from a checkpoint")
struct SeekCheckpointTests {
    /// `renderers` render consecutive slices of random lengths, in turns picked by `generator` (sometimes the same
    /// renderer twice running), as `SlicePipeline` does: a renderer not already at the slice's first frame seeks
    /// from the checkpoint the slice before left; each prepares its slice's control and hands the next checkpoint on
    /// before it renders. Returns the samples (past the end, silence) and how many slices were sought from a
    /// checkpoint that carried the synthesis.
    static func renderInTurns(
        _ renderers: [Renderer], sliceFrames: ClosedRange<Int>, generator: inout SeededGenerator
    ) -> (samples: [Float], seeks: Int) {
        let total = Int(renderers[0].totalFrameCount)
        var samples: [Float] = []
        var checkpoint: Renderer.SeekCheckpoint?
        var first = 0
        var seeks = 0
        while first < total {
            let renderer = renderers[Int.random(in: 0..<renderers.count, using: &generator)]
            let frames = min(Int.random(in: sliceFrames, using: &generator), total + 100 - first)
            if let checkpoint, renderer.nextFrame != Int64(first) {
                #expect(checkpoint.frame == Int64(first))
                renderer.seek(from: checkpoint)
                seeks += 1
            }
            #expect(renderer.nextFrame == Int64(first))
            checkpoint = renderer.prepareControl(frameCount: frames, checkpointAt: Int64(first + frames))
            samples += SeekTests.pull(renderer, frames: frames, generator: &generator)
            first += frames
        }
        return (samples, seeks)
    }

    @Test("two and three renderers taking turns over slices give the render from zero", arguments: SeekTests.setups)
    func turnsMatchRenderingFromZero(setup: SeekTests.Setup) throws {
        let reference = Fixtures.render(try SeekTests.renderer(setup))
        for count in [2, 3] {
            var generator = SeededGenerator(seed: 0xC4EC &+ UInt64(count) &+ UInt64(setup.channels) &* 7 &+ UInt64(setup.soundscape.count))
            let renderers = try (0..<count).map { _ in try SeekTests.renderer(setup) }
            let (samples, seeks) = Self.renderInTurns(renderers, sliceFrames: 700...30_000, generator: &generator)
            #expect(seeks >= 5, "the turns should seek")
            let difference = SeekTests.firstDifference(
                samples, SeekTests.expected(reference, from: 0, frames: samples.count / setup.channels, channels: setup.channels),
                channels: setup.channels)
            #expect(difference == nil, "\(setup.testDescription), \(count) renderers: first difference at frame \(difference ?? 0)")
        }
    }

    @Test("across a countdown, the ending's bell and the closing silence, slices short and long")
    func turnsAcrossTheFraming() throws {
        let schedule = try Fixtures.schedule("4-4-4-4", cycles: 1, sampleRate: SeekTests.rate)
        var settings = RenderSettings(soundscape: try Fixtures.soundscape("horizon"), channelCount: 2, seed: 5, cues: .both, count: .ticks)
        settings.countdownSeconds = 3
        settings.endBell = true
        settings.beat = Beat(style: .binaural, startHz: 6, endHz: 3)
        let reference = Fixtures.render(Renderer(schedule: schedule, settings: settings))
        // Slices shorter than the countdown (several sought inside it, to the synthesis's frame 0) and longer.
        for range in [300...9_000, 20_000...60_000] {
            var generator = SeededGenerator(seed: UInt64(range.lowerBound))
            let renderers = (0..<2).map { _ in Renderer(schedule: schedule, settings: settings) }
            let (samples, _) = Self.renderInTurns(renderers, sliceFrames: range, generator: &generator)
            #expect(SeekTests.matches(samples, reference, from: 0, channels: 2), "slices of \(range) frames")
        }
    }

    @Test("a renderer that led renders the same, reads its lead on a plain seek forward, and drops it on a seek back")
    func leadingChangesNothing() throws {
        let setup = SeekTests.setups[0]
        let reference = Fixtures.render(try SeekTests.renderer(setup))
        let renderer = try SeekTests.renderer(setup)
        var generator = SeededGenerator(seed: 99)
        // Led further than it renders, then led again from the lead's end.
        _ = renderer.prepareControl(frameCount: 40_000, checkpointAt: 40_000)
        var samples = SeekTests.pull(renderer, frames: 10_000, generator: &generator)
        _ = renderer.prepareControl(frameCount: 50_000, checkpointAt: 60_000)
        samples += SeekTests.pull(renderer, frames: 20_000, generator: &generator)
        #expect(SeekTests.matches(samples, reference, from: 0, channels: setup.channels))
        // A plain seek forward inside the lead, and one past it.
        for frame in [45_000, 95_000] {
            renderer.seek(toFrame: Int64(frame))
            #expect(SeekTests.matches(SeekTests.pull(renderer, frames: 3_000, generator: &generator), reference, from: frame, channels: setup.channels),
                    "plain seek to \(frame) after leading")
            _ = renderer.prepareControl(frameCount: 30_000, checkpointAt: Int64(frame + 30_000))
        }
        // Back, with a lead left over.
        renderer.seek(toFrame: 5_000)
        #expect(SeekTests.matches(SeekTests.pull(renderer, frames: 3_000, generator: &generator), reference, from: 5_000, channels: setup.channels))
    }

    @Test("a checkpoint the lead did not pass is a plain seek; one handed to a renderer already past it seeks back")
    func checkpointsFromAnyPlace() throws {
        let setup = SeekTests.setups[1]
        let reference = Fixtures.render(try SeekTests.renderer(setup))
        var generator = SeededGenerator(seed: 3)
        // The checkpoint for a frame whose seek target the leader's synthesis has passed (it carries no synthesis).
        let leader = try SeekTests.renderer(setup)
        _ = SeekTests.pull(leader, frames: 24_000, generator: &generator)
        let here = leader.prepareControl(frameCount: 0, checkpointAt: 24_000)
        // And one ahead, handed to a renderer that has already rendered past it (a seek back from a checkpoint).
        let ahead = leader.prepareControl(frameCount: 8_000, checkpointAt: 30_000)
        let follower = try SeekTests.renderer(setup)
        _ = SeekTests.pull(follower, frames: 50_000, generator: &generator)
        for checkpoint in [ahead, here] {
            follower.seek(from: checkpoint)
            let frame = Int(checkpoint.frame)
            #expect(SeekTests.matches(SeekTests.pull(follower, frames: 5_000, generator: &generator), reference, from: frame, channels: setup.channels),
                    "from the checkpoint at \(frame)")
        }
    }
}
