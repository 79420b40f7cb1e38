@testable import LiveAudio
import Testing

/// Jumps in the write loop against a fake sink: the frames on either side are the source's own, the jump happens
/// at the asked frame with a fade either side and nowhere else, and the heard frame follows it after the delay.
///
/// At 8000 Hz the jump fades are 80 frames (10 ms); blocks are 256 frames.
struct PlaybackJumpTests {
    static let fade = 80

    @Test func aJumpPlaysUpToItsFrameThenOnFromItsTargetFadingEitherSide() throws {
        let setup = PlaybackLoopTests.setup(totalFrameCount: 20_000)
        setup.sink.reportedDelayFrames = 500
        var reports: [PlaybackProgress] = []
        // Asked at poll 2 (frame 512): at frame 3000 go on from frame 12000.
        let control = ScriptedControl([2: .jump(PlaybackJump(atFrame: 3_000, toFrame: 12_000))])
        let summary = try setup.loop.run(control: control.poll, observer: { reports.append($0) })

        let samples = setup.sink.samples
        #expect(samples.count == (3_000 + 8_000) * 2, "every frame before the jump and after its target, once")
        let before = GainTrace(output: Array(samples[0..<6_000]), channelCount: 2)
        let after = GainTrace(output: Array(samples[6_000...]), channelCount: 2, firstFrame: 12_000)
        #expect(before.firstMisplacedFrame == nil && after.firstMisplacedFrame == nil)
        // Untouched but for the fades: out before the jump frame, in after the target.
        #expect(before.firstAlteredFrame(in: 0..<(3_000 - Self.fade)) == nil)
        #expect(before.gains[3_000 - 1] < 0.01, "faded out at the jump")
        #expect(before.isNonIncreasing(in: (3_000 - Self.fade)..<3_000))
        #expect(after.gains[0] < 0.1, "fading in after the jump")
        #expect(after.firstAlteredFrame(in: Self.fade..<8_000) == nil)
        let bound = GainTrace.stepBound(rampFrameCount: Self.fade)
        #expect(before.largestStep(in: 0..<3_000) <= bound && after.largestStep(in: 0..<8_000) <= bound, "no click")

        // The heard frame follows the jump once the device has played up to it, never before.
        let jumped = try #require(reports.firstIndex { $0.jumpCount == 1 })
        #expect(reports[jumped].lastJump == PlaybackJump(atFrame: 3_000, toFrame: 12_000))
        for report in reports where report.jumpCount == 1 {
            let streamHeard = report.heardFrameWithoutJumps
            #expect(report.heardFrame == (streamHeard < 3_000 ? streamHeard : streamHeard - 3_000 + 12_000), "\(report)")
        }
        #expect(summary.endedBy == .finished)
        #expect(summary.heardFrame == 20_000)
        #expect(summary.heardFrameWithoutJumps == 11_000, "the frames heard, not the session's place")
    }

    @Test func aJumpAskedTooCloseIsMadeAfterAWholeFadeAndAPausedOneAtOnce() throws {
        let setup = PlaybackLoopTests.setup(totalFrameCount: 20_000)
        // At poll 4 (frame 1024) jump "now" to 15000: made at 1024 + 80, after a whole fade-out.
        let control = ScriptedControl([4: .jump(PlaybackJump(atFrame: 0, toFrame: 15_000))])
        var last: PlaybackProgress?
        _ = try setup.loop.run(control: control.poll, observer: { last = $0 })
        #expect(last?.lastJump == PlaybackJump(atFrame: 1_024 + Int64(Self.fade), toFrame: 15_000))
        #expect(setup.sink.samples.count == (1_024 + Self.fade + 5_000) * 2)
        let trace = GainTrace(output: Array(setup.sink.samples[0..<((1_024 + Self.fade) * 2)]), channelCount: 2)
        #expect(trace.largestStep(in: 0..<trace.frameCount) <= GainTrace.stepBound(rampFrameCount: Self.fade))

        // While paused (faded out and drained) a jump is made at the frame where the pause stopped, and the
        // resume's fade-in is the only fade.
        let paused = PlaybackLoopTests.setup(totalFrameCount: 20_000)
        let pausedControl = ScriptedControl([2: .togglePause, 30: .jump(PlaybackJump(atFrame: 0, toFrame: 10_000)), 40: .togglePause])
        _ = try paused.loop.run(control: pausedControl.poll, observer: { _ in })
        let pauseEnd = 512 + PlaybackLoopTests.fadeOut
        #expect(paused.sink.samples.count == (pauseEnd + 10_000) * 2)
        let resumed = GainTrace(output: Array(paused.sink.samples[(pauseEnd * 2)...]), channelCount: 2, firstFrame: 10_000)
        #expect(resumed.firstMisplacedFrame == nil)
        #expect(resumed.firstAlteredFrame(in: PlaybackLoopTests.fadeIn..<10_000) == nil)
    }

    @Test func aJumpToTheEndFinishesThere() throws {
        let setup = PlaybackLoopTests.setup(totalFrameCount: 20_000)
        let control = ScriptedControl([1: .jump(PlaybackJump(atFrame: 4_000, toFrame: 20_000))])
        let summary = try setup.loop.run(control: control.poll, observer: { _ in })
        #expect(summary.endedBy == .finished)
        #expect(setup.sink.samples.count == 4_000 * 2)
        #expect(setup.sink.events.last == .drained)
    }
}
