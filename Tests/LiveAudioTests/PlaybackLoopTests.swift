import NagiBase
import Glibc
@testable import LiveAudio
import Testing

/// The write loop against a fake sink: sample continuity, fades, faults, pause and stop.
///
/// At 8000 Hz the default fades are 320 frames in (40 ms) and 1600 frames out (200 ms); blocks are 256 frames,
/// so poll n comes just before frame n · 256 is rendered.
struct PlaybackLoopTests {
    static let sampleRate = 8000
    static let blockFrameCount = 256
    static let fadeIn = 320
    static let fadeOut = 1600

    struct Setup {
        let source: IndexedFrameSource
        let sink: FakeSink
        let loop: PlaybackLoop
    }

    static func setup(
        totalFrameCount: Int64 = 20_000,
        faults: [(frame: Int, kind: FakeSink.FaultKind)] = [],
        startFrame: Int64 = 0
    ) -> Setup {
        let source = IndexedFrameSource(sampleRate: sampleRate, totalFrameCount: totalFrameCount, startFrame: startFrame)
        let sink = FakeSink(channelCount: 2, sampleRate: sampleRate, faults: faults)
        let loop = PlaybackLoop(
            source: source,
            sink: sink,
            blockFrameCount: blockFrameCount,
            pausedPollInterval: .milliseconds(1)
        )
        return Setup(source: source, sink: sink, loop: loop)
    }

    @Test func defaultFadesFollowTheSampleRate() {
        let setup = Self.setup()
        #expect(setup.loop.fadeInFrameCount == Self.fadeIn)
        #expect(setup.loop.fadeOutFrameCount == Self.fadeOut)
    }

    @Test func uninterruptedPlaybackDeliversEverySampleUnchangedThenDrains() throws {
        let setup = Self.setup(totalFrameCount: 10_001)
        var reports: [PlaybackProgress] = []
        let summary = try setup.loop.run(control: { nil }, observer: { reports.append($0) })

        #expect(setup.sink.samples == setup.source.expectedSamples(0..<10_001))
        let trace = GainTrace(output: setup.sink.samples, channelCount: 2)
        #expect(trace.firstAlteredFrame(in: 0..<trace.frameCount) == nil)
        #expect(setup.sink.events.last == .drained)
        #expect(setup.sink.events.filter { $0 == .drained }.count == 1)
        #expect(summary == PlaybackSummary(endedBy: .finished, heardFrame: 10_001, underrunCount: 0))
        #expect(reports.last?.writtenFrame == 10_001)
        #expect(reports.allSatisfy { !$0.isPaused })
    }

    @Test func shortWritesAreCompletedWithTheRestOfTheBlock() throws {
        let faults: [(frame: Int, kind: FakeSink.FaultKind)] = [
            (frame: 100, kind: .shortWrite), (frame: 101, kind: .shortWrite), (frame: 700, kind: .shortWrite),
            (frame: 5_000, kind: .shortWrite),
        ]
        let setup = Self.setup(totalFrameCount: 8_000, faults: faults)
        let summary = try setup.loop.run(control: { nil }, observer: { _ in })

        #expect(setup.sink.samples == setup.source.expectedSamples(0..<8_000))
        #expect(setup.sink.events.contains(.wrote(frameCount: 100)), "the fault did cut a write short")
        #expect(!setup.sink.events.contains { if case .recovered = $0 { true } else { false } })
        #expect(summary.underrunCount == 0)
    }

    @Test(arguments: [EPIPE, ESTRPIPE])
    func recoveredFailureResumesAtTheFirstUnwrittenFrameWithAFadeIn(errno code: Int32) throws {
        let failureFrame = 5_000 + 100  // mid-block: the first 100 frames of that block were taken
        let setup = Self.setup(totalFrameCount: 12_000, faults: [(frame: failureFrame, kind: .failure(errno: code))])
        let summary = try setup.loop.run(control: { nil }, observer: { _ in })

        let trace = GainTrace(output: setup.sink.samples, channelCount: 2)
        #expect(trace.frameCount == 12_000, "nothing skipped, nothing repeated")
        #expect(trace.firstMisplacedFrame == nil)
        #expect(setup.sink.events.contains(.recovered(errno: code)))
        #expect(summary.underrunCount == 1)
        #expect(summary.endedBy == .finished)

        #expect(trace.firstAlteredFrame(in: 0..<failureFrame) == nil)
        let fadeEnd = failureFrame + Self.fadeIn
        let bound = GainTrace.stepBound(rampFrameCount: Self.fadeIn)
        #expect(trace.gains[failureFrame] <= bound, "starts from silence, as the device does after the underrun")
        #expect(trace.isNonDecreasing(in: failureFrame..<fadeEnd))
        #expect(trace.largestStep(in: failureFrame..<fadeEnd) <= bound)
        #expect(trace.gains[fadeEnd - 2] < 1)
        #expect(trace.firstAlteredFrame(in: (fadeEnd - 1)..<12_000) == nil, "bit for bit once the fade-in is done")
    }

    @Test func interruptedWriteIsRetriedWithoutAFade() throws {
        let setup = Self.setup(totalFrameCount: 6_000, faults: [(frame: 3_000, kind: .failure(errno: EINTR))])
        let summary = try setup.loop.run(control: { nil }, observer: { _ in })

        #expect(setup.sink.samples == setup.source.expectedSamples(0..<6_000))
        #expect(setup.sink.events.contains(.failed(errno: EINTR)))
        #expect(summary.underrunCount == 0)
    }

    @Test func unpluggedDeviceThrowsDeviceLost() {
        let setup = Self.setup(faults: [(frame: 3_000, kind: .failure(errno: ENODEV))])
        #expect {
            _ = try setup.loop.run(control: { nil }, observer: { _ in })
        } throws: { error in
            guard case let .deviceLost(device, reason) = error as? LiveAudioError else { return false }
            return device == "fake" && reason.contains("No such device") && (error as? LiveAudioError)?.category == .inputOutput
        }
        #expect(!setup.sink.events.contains { if case .recovered = $0 { true } else { false } })
        #expect(setup.sink.acceptedFrameCount == 3_000)
    }

    @Test func failedRecoveryThrowsDeviceLost() {
        let setup = Self.setup(faults: [(frame: 3_000, kind: .failure(errno: EPIPE))])
        setup.sink.recoverSucceeds = false
        #expect(throws: LiveAudioError.self) {
            _ = try setup.loop.run(control: { nil }, observer: { _ in })
        }
        #expect(setup.sink.events.contains(.recovered(errno: EPIPE)))
    }

    @Test func pauseFadesOutDrainsWaitsAndResumesAtTheNextFrame() throws {
        let pauseFrame = 8 * Self.blockFrameCount
        let control = ScriptedControl([8: .togglePause, 40: .togglePause])
        let setup = Self.setup(totalFrameCount: 12_000)
        var reports: [PlaybackProgress] = []
        let summary = try setup.loop.run(control: control.poll, observer: { reports.append($0) })

        let trace = GainTrace(output: setup.sink.samples, channelCount: 2)
        #expect(trace.frameCount == 12_000, "every frame delivered once")
        #expect(trace.firstMisplacedFrame == nil, "in order, none skipped")
        #expect(summary.endedBy == .finished)

        // Fade-out over the frames rendered after the pause, ending at exactly zero, then a drain.
        let silentFrame = pauseFrame + Self.fadeOut - 1
        #expect(trace.firstAlteredFrame(in: 0..<pauseFrame) == nil)
        #expect(trace.isNonIncreasing(in: pauseFrame..<(silentFrame + 1)))
        #expect(trace.largestStep(in: (pauseFrame - 1)..<(silentFrame + 1)) <= GainTrace.stepBound(rampFrameCount: Self.fadeOut))
        #expect(trace.gains[silentFrame] == 0)
        #expect(trace.gains[silentFrame - 1] > 0)
        #expect(setup.sink.framesBeforeFirstDrain == silentFrame + 1)

        // Waiting: polled, reported as paused, nothing written.
        let pausedReports = reports.filter { $0.isPaused && $0.writtenFrame == Int64(silentFrame + 1) }
        #expect(pausedReports.count >= 20)
        #expect(control.pollCount > 40)

        // Resume from the next unrendered frame, fading in from silence.
        let resumeFrame = silentFrame + 1
        let fadeEnd = resumeFrame + Self.fadeIn
        #expect(trace.gains[resumeFrame] <= GainTrace.stepBound(rampFrameCount: Self.fadeIn))
        #expect(trace.isNonDecreasing(in: resumeFrame..<fadeEnd))
        #expect(trace.largestStep(in: resumeFrame..<fadeEnd) <= GainTrace.stepBound(rampFrameCount: Self.fadeIn))
        #expect(trace.firstAlteredFrame(in: (fadeEnd - 1)..<12_000) == nil)
        #expect(reports.last?.isPaused == false)
    }

    @Test func pauseCancelledDuringItsFadeOutRisesAgainWithoutAGap() throws {
        let pauseFrame = 8 * Self.blockFrameCount
        let control = ScriptedControl([8: .togglePause, 11: .togglePause])
        let setup = Self.setup(totalFrameCount: 8_000)
        _ = try setup.loop.run(control: control.poll, observer: { _ in })

        let trace = GainTrace(output: setup.sink.samples, channelCount: 2)
        #expect(trace.frameCount == 8_000)
        #expect(trace.firstMisplacedFrame == nil)
        let turnFrame = 11 * Self.blockFrameCount
        #expect(trace.isNonIncreasing(in: pauseFrame..<turnFrame))
        let lowest = trace.gains[pauseFrame..<8_000].min() ?? 0
        #expect(lowest > 0.5, "three blocks into a 200 ms fade the sound is still there")
        #expect(trace.largestStep(in: pauseFrame..<8_000) <= GainTrace.stepBound(rampFrameCount: Self.fadeIn))
        #expect(trace.gains[7_999] == 1)
        #expect(setup.sink.events.filter { $0 == .drained }.count == 1, "only the final drain")
    }

    @Test func stopFadesToSilenceWithin300MillisecondsAndDrains() throws {
        let stopFrame = 10 * Self.blockFrameCount
        let control = ScriptedControl([10: .stop(reason: .signal(SIGINT))])
        let setup = Self.setup(totalFrameCount: 20_000)
        let summary = try setup.loop.run(control: control.poll, observer: { _ in })

        let trace = GainTrace(output: setup.sink.samples, channelCount: 2)
        #expect(trace.firstMisplacedFrame == nil)
        #expect(trace.firstAlteredFrame(in: 0..<stopFrame) == nil)
        let framesAfterStop = trace.frameCount - stopFrame
        #expect(framesAfterStop <= Self.sampleRate * 300 / 1000)
        #expect(trace.gains[trace.frameCount - 1] == 0)
        #expect(trace.isNonIncreasing(in: stopFrame..<trace.frameCount))
        #expect(trace.largestStep(in: (stopFrame - 1)..<trace.frameCount) <= GainTrace.stepBound(rampFrameCount: Self.fadeOut))
        #expect(setup.sink.events.last == .drained)
        #expect(setup.source.nextFrame == Int64(trace.frameCount), "nothing rendered past the fade")
        #expect(summary.endedBy == .stopped(reason: .signal(SIGINT)))
        #expect(summary.heardFrame == Int64(trace.frameCount))
    }

    @Test func stopWhilePausedReturnsWithoutWritingMore() throws {
        let control = ScriptedControl([4: .togglePause, 30: .stop(reason: .user)])
        let setup = Self.setup()
        let summary = try setup.loop.run(control: control.poll, observer: { _ in })

        #expect(summary.endedBy == .stopped(reason: .user))
        #expect(setup.sink.acceptedFrameCount == 4 * Self.blockFrameCount + Self.fadeOut)
        #expect(setup.sink.events.last == .drained)
        #expect(control.pollCount == 31)
    }

    @Test func stopDuringPauseFadeOutKeepsTheFadeAndStops() throws {
        let control = ScriptedControl([4: .togglePause, 6: .stop(reason: .user), 7: .togglePause])
        let setup = Self.setup()
        let summary = try setup.loop.run(control: control.poll, observer: { _ in })

        #expect(summary.endedBy == .stopped(reason: .user))
        let trace = GainTrace(output: setup.sink.samples, channelCount: 2)
        #expect(trace.frameCount == 4 * Self.blockFrameCount + Self.fadeOut, "one fade, neither restarted nor undone")
        #expect(trace.isNonIncreasing(in: (4 * Self.blockFrameCount)..<trace.frameCount))
        #expect(trace.gains[trace.frameCount - 1] == 0)
    }

    @Test func underrunDuringTheStopFadeStaysSilentThenStops() throws {
        let stopFrame = 10 * Self.blockFrameCount
        let failureFrame = stopFrame + 700
        let control = ScriptedControl([10: .stop(reason: .user)])
        let setup = Self.setup(faults: [(frame: failureFrame, kind: .failure(errno: EPIPE))])
        let summary = try setup.loop.run(control: control.poll, observer: { _ in })

        let trace = GainTrace(output: setup.sink.samples, channelCount: 2)
        #expect(trace.firstMisplacedFrame == nil)
        #expect(trace.frameCount > failureFrame)
        #expect(trace.gains[failureFrame...].allSatisfy { $0 == 0 }, "no sound comes back after the gap")
        #expect(trace.frameCount <= stopFrame + Self.fadeOut)
        #expect(summary.endedBy == .stopped(reason: .user))
        #expect(summary.underrunCount == 1)
        #expect(setup.sink.events.last == .drained)
    }

    @Test func underrunDuringTheResumeFadeInStartsTheFadeAgain() throws {
        let control = ScriptedControl([4: .togglePause, 20: .togglePause])
        let resumeFrame = 4 * Self.blockFrameCount + Self.fadeOut
        let failureFrame = resumeFrame + 100
        let setup = Self.setup(totalFrameCount: 8_000, faults: [(frame: failureFrame, kind: .failure(errno: EPIPE))])
        _ = try setup.loop.run(control: control.poll, observer: { _ in })

        let trace = GainTrace(output: setup.sink.samples, channelCount: 2)
        #expect(trace.frameCount == 8_000)
        #expect(trace.firstMisplacedFrame == nil)
        let bound = GainTrace.stepBound(rampFrameCount: Self.fadeIn)
        #expect(trace.gains[failureFrame] <= bound)
        #expect(trace.largestStep(in: failureFrame..<8_000) <= bound)
        #expect(trace.firstAlteredFrame(in: (failureFrame + Self.fadeIn - 1)..<8_000) == nil)
    }

    @Test func progressReportsTheHeardFrameBehindTheWrittenOneByTheDeviceDelay() throws {
        let setup = Self.setup(totalFrameCount: 6_000, startFrame: 1_000)
        setup.sink.reportedDelayFrames = 700
        var reports: [PlaybackProgress] = []
        let summary = try setup.loop.run(control: { nil }, observer: { reports.append($0) })

        #expect(reports.first == PlaybackProgress(heardFrame: 1_000, writtenFrame: 1_256, isPaused: false, underrunCount: 0))
        #expect(reports.dropFirst(3).allSatisfy { $0.heardFrame == $0.writtenFrame - 700 })
        #expect(reports.last?.writtenFrame == 6_000)
        #expect(summary.heardFrame == 6_000, "after the drain everything was heard")
        #expect(setup.sink.samples == setup.source.expectedSamples(1_000..<6_000))
    }
}
