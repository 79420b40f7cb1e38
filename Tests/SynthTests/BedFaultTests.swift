import Breath
import NagiBase
import Synth
import Testing

/// The bed voice when its recording misbehaves: a recording that fails part way, or gives nothing after a
/// rewind, must neither hang the renderer nor disturb the rest of the mix.
@Suite("A failing bed recording")
struct BedFaultTests {
    /// A square wave at ±0.25 that stops for good after `framesBeforeFault` frames: every read after
    /// it, and every pass after a rewind, gives nothing (what the command line's reader does after a failure).
    final class FailingRecording: FrameReader {
        let channelCount: Int
        let sampleRate = 48_000
        let frameCount: Int64? = nil
        let framesBeforeFault: Int
        /// Frames given since the last rewind (never more after the fault, whatever the rewinds).
        private(set) var nextFrame: Int64 = 0
        private(set) var framesGiven = 0
        private(set) var rewindCount = 0

        init(channelCount: Int, framesBeforeFault: Int) {
            self.channelCount = channelCount
            self.framesBeforeFault = framesBeforeFault
        }

        func read(into output: UnsafeMutableBufferPointer<Float>) -> Int {
            let count = min(output.count / channelCount, framesBeforeFault - framesGiven)
            for index in 0..<(count * channelCount) { output[index] = index % 2 == 0 ? 0.25 : -0.25 }
            framesGiven += count
            nextFrame += Int64(count)
            return count
        }

        /// The loop only ever rewinds its recording (seeks to frame 0), counted.
        func seek(toFrame frame: Int64) {
            precondition(frame == 0, "a bed recording is only rewound")
            nextFrame = 0
            rewindCount += 1
        }
    }

    @Test("a recording that fails after 5 s: the render finishes, the bed sounds before and is silent after")
    func failsPartWay() throws {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1)
        let soundscape = try Fixtures.soundscape()
        let recording = FailingRecording(channelCount: 2, framesBeforeFault: 5 * 48_000)
        let bedSettings = RenderSettings(soundscape: soundscape, channelCount: 2, cues: .none, bed: BedMix(path: "fails.wav", gainDecibels: -20))
        let with = Fixtures.render(Renderer(schedule: schedule, settings: bedSettings, bed: recording))
        let without = Fixtures.render(Renderer(schedule: schedule, settings: RenderSettings(soundscape: soundscape, channelCount: 2, cues: .none)))
        #expect(with.count == without.count)
        func differenceEnergy(_ seconds: Range<Double>) -> Float {
            let frames = Int(seconds.lowerBound * 48_000)..<Int(seconds.upperBound * 48_000)
            return frames.reduce(0) { sum, frame in
                let difference = with[2 * frame] - without[2 * frame]
                return sum + difference * difference
            }
        }
        // Before the fault the bed is there; from a second after it (the seam's fade is over) nothing is.
        #expect(differenceEnergy(2..<4) > 1)
        #expect(differenceEnergy(8..<18) == 0)
        // It tried to loop once and gave up, rather than spinning on empty passes.
        #expect(recording.rewindCount == 1)
    }

    @Test("a recording with no frames at all leaves the render exactly as without a bed")
    func emptyRecording() throws {
        let schedule = try Fixtures.schedule("4-4-4-4", cycles: 1)
        let soundscape = try Fixtures.soundscape()
        let recording = FailingRecording(channelCount: 1, framesBeforeFault: 0)
        let with = Fixtures.render(Renderer(schedule: schedule, settings: RenderSettings(soundscape: soundscape, channelCount: 1, bed: BedMix(path: "empty.wav", gainDecibels: 0)), bed: recording))
        let without = Fixtures.render(Renderer(schedule: schedule, settings: RenderSettings(soundscape: soundscape, channelCount: 1)))
        #expect(with == without)
    }
}
