import NagiBase
import Glibc

/// The write loop: pulls blocks from a source, writes them to a sink, and owns pausing, fades, recovery and stopping.
///
/// The source is a `FrameReader` that cannot throw (the renderer: a failure under it is its owner's to report):
/// frames are its own, from `nextFrame` to its `frameCount` (an unknown one: until a read comes back short).
///
/// What reaches the sink is bit for bit what the source rendered, except inside fades, where a raised-cosine gain
/// is applied on top. Every rendered frame reaches the sink exactly once and in order: a pause, an underrun or a
/// stop never skips or repeats a frame, so the listener's place in the session is always `writtenFrame - delay`.
///
/// A jump (`PlaybackCommand.jump`) is the one exception to "in order": at its frame the source is sought, with a
/// short fade either side, and the heard frame follows the jump once the device has played up to it.
///
/// Buffers are allocated once here; `run` allocates nothing per block.
public final class PlaybackLoop {
    /// Frames rendered and written per block; the control is polled once per block.
    public let blockFrameCount: Int
    /// Length of the fade-in after a resume or a recovered underrun (default 40 ms).
    public let fadeInFrameCount: Int
    /// Length of the fade-out before a pause or a stop (default 200 ms, at most 250 ms).
    public let fadeOutFrameCount: Int
    /// How long to sleep between polls of the control while paused.
    public let pausedPollInterval: Duration
    /// Length of the fades either side of a jump (default 10 ms).
    public let jumpFadeFrameCount: Int

    private let source: any FrameReader<Never>
    private let sink: any PCMSink
    private let channelCount: Int
    /// Samples in one block (`blockFrameCount * channelCount`).
    private let blockSampleCount: Int
    /// The block as the source rendered it.
    private let renderedSamples: UnsafeMutablePointer<Float>
    /// The block with a fade applied, when one is running.
    private let fadedSamples: UnsafeMutablePointer<Float>

    /// - Parameters:
    ///   - fadeInFrameCount: nil for 40 ms at the source's rate.
    ///   - fadeOutFrameCount: nil for 200 ms at the source's rate; must not exceed 250 ms so a stop ends within 300 ms.
    /// - Precondition: the source and the sink agree on channel count and sample rate.
    public init(
        source: any FrameReader<Never>,
        sink: any PCMSink,
        blockFrameCount: Int = 1024,
        fadeInFrameCount: Int? = nil,
        fadeOutFrameCount: Int? = nil,
        pausedPollInterval: Duration = .milliseconds(20),
        jumpFadeFrameCount: Int? = nil
    ) {
        let sampleRate = source.sampleRate
        precondition(source.channelCount > 0 && sampleRate > 0, "source must have channels and a sample rate")
        precondition(
            sink.channelCount == source.channelCount && sink.sampleRate == sampleRate,
            "sink and source must agree on channel count and sample rate"
        )
        precondition(blockFrameCount > 0, "blockFrameCount must be positive")
        let fadeIn = fadeInFrameCount ?? sampleRate * 40 / 1000
        let fadeOut = fadeOutFrameCount ?? sampleRate * 200 / 1000
        precondition(fadeIn >= 1 && fadeOut >= 1, "fades must last at least one frame")
        precondition(fadeOut <= sampleRate / 4, "fade-out must not exceed 250 ms")
        precondition(pausedPollInterval > .zero, "a paused loop must sleep between polls")

        self.source = source
        self.sink = sink
        self.channelCount = source.channelCount
        self.blockFrameCount = blockFrameCount
        self.fadeInFrameCount = fadeIn
        self.fadeOutFrameCount = fadeOut
        self.pausedPollInterval = pausedPollInterval
        self.jumpFadeFrameCount = max(1, jumpFadeFrameCount ?? sampleRate / 100)
        blockSampleCount = blockFrameCount * source.channelCount
        renderedSamples = .allocate(capacity: blockSampleCount)
        renderedSamples.initialize(repeating: 0, count: blockSampleCount)
        fadedSamples = .allocate(capacity: blockSampleCount)
        fadedSamples.initialize(repeating: 0, count: blockSampleCount)
    }

    deinit {
        renderedSamples.deallocate()
        fadedSamples.deallocate()
    }

    /// What a fade-out in progress will lead to.
    private enum PendingAction: Equatable {
        case none
        case pause
        case stop(StopReason)
    }

    /// The state of one `run`, kept together so the steps below can share it.
    private struct RunState {
        let startFrame: Int64
        var writtenFrame: Int64
        var underrunCount = 0
        var ramp = GainRamp.unity
        var pending = PendingAction.none
        var isWaitingPaused = false
        /// The jump asked and not yet made, with its frame moved to leave room for the fade-out.
        var jump: PlaybackJump?
        /// The fades either side of a jump, applied on top of `ramp`.
        var jumpRamp = GainRamp.unity
        /// Frames the sink has accepted since the start.
        var streamFrame: Int64 = 0
        /// Where the stream continues in the session after each jump not yet heard past: (stream frame, session
        /// frame), the first one the start or the segment heard now. A few entries at most (a jump is heard
        /// within the device's delay).
        var segments: [(streamFrame: Int64, sessionFrame: Int64)]
        var lastJump: PlaybackJump?
        var jumpCount = 0
        /// A read came back short: the source (of a length not known ahead) has ended.
        var sourceEnded = false

        init(startFrame: Int64) {
            self.startFrame = startFrame
            self.writtenFrame = startFrame
            segments = [(0, startFrame)]
            segments.reserveCapacity(8)
        }

        var isPaused: Bool { isWaitingPaused || pending == .pause }
    }

    /// Runs until the source ends (then drains) or a stop is asked (then fades out, drains and returns).
    ///
    /// Polls `control` once per block, and every `pausedPollInterval` while paused; calls `observer` after every
    /// block and every paused poll. Throws `.deviceLost` when the sink fails beyond recovery (ENODEV, or a failed
    /// recover); the sink is left as it is and should be closed.
    public func run(
        control: PlaybackControl,
        observer: (PlaybackProgress) -> Void
    ) throws(LiveAudioError) -> PlaybackSummary {
        var state = RunState(startFrame: source.nextFrame)
        let totalFrameCount = source.frameCount ?? .max

        while true {
            if let command = control(), let ending = apply(command, to: &state) {
                return finish(endedBy: ending, state: state)
            }
            if state.isWaitingPaused {
                observer(progress(of: state))
                sleep(for: pausedPollInterval)
                continue
            }
            if state.pending != .none && state.ramp.isSilent {
                // The fade-out has reached zero: let the device play it out, then stop or wait.
                sink.drain()
                if case let .stop(reason) = state.pending {
                    return finish(endedBy: .stopped(reason: reason), state: state)
                }
                state.pending = .none
                state.isWaitingPaused = true
                observer(progress(of: state))
                continue
            }
            if state.jump != nil {
                advanceJump(&state)
            }
            let remainingFrameCount = state.sourceEnded ? 0 : totalFrameCount - source.nextFrame
            if remainingFrameCount <= 0 {
                sink.drain()
                if case let .stop(reason) = state.pending {
                    return finish(endedBy: .stopped(reason: reason), state: state)
                }
                return finish(endedBy: .finished, state: state)
            }
            var frameCount = Int(min(Int64(blockFrameCount), remainingFrameCount))
            if let jump = state.jump {
                // Blocks end where the jump's fade-out begins and where the jump is made.
                let fadeStart = jump.atFrame - Int64(jumpFadeFrameCount)
                let next = source.nextFrame
                let edge = next < fadeStart ? fadeStart : jump.atFrame
                frameCount = Int(min(Int64(frameCount), edge - next))
            }
            if state.pending != .none {
                // Render no frame past the end of the fade-out: the next one belongs to the resume.
                frameCount = min(frameCount, state.ramp.remainingFrameCount)
            }
            let rendered = source.read(into: UnsafeMutableBufferPointer(start: renderedSamples, count: frameCount * channelCount))
            // Short only at the source's end (one whose length was not known ahead).
            if rendered < frameCount { state.sourceEnded = true }
            try write(frameCount: rendered, state: &state)
            observer(progress(of: state))
        }
    }

    /// Updates the state for a command; returns an ending when the loop must return at once.
    private func apply(_ command: PlaybackCommand, to state: inout RunState) -> PlaybackEnding? {
        switch command {
        case .togglePause:
            if state.isWaitingPaused {
                state.isWaitingPaused = false
                state.ramp = ramp(from: 0, to: 1)
                return nil
            }
            switch state.pending {
            case .none:
                state.pending = .pause
                state.ramp = ramp(from: state.ramp.currentGain, to: 0)
            case .pause:
                // Changed their mind during the fade-out: rise again from where the gain is.
                state.pending = .none
                state.ramp = ramp(from: state.ramp.currentGain, to: 1)
            case .stop:
                break
            }
            return nil
        case let .jump(asked):
            // Room for the fade-out before the jump while sound plays; none needed when it is silent already.
            let earliest = source.nextFrame + (state.isWaitingPaused || state.ramp.isSilent ? 0 : Int64(jumpFadeFrameCount))
            let end = source.frameCount ?? .max
            let atFrame = min(max(asked.atFrame, earliest), end)
            state.jump = PlaybackJump(atFrame: atFrame, toFrame: min(max(0, asked.toFrame), end))
            return nil
        case let .stop(reason):
            if state.isWaitingPaused {
                // Already faded out and drained.
                return .stopped(reason: reason)
            }
            switch state.pending {
            case .none:
                state.ramp = ramp(from: state.ramp.currentGain, to: 0)
                state.pending = .stop(reason)
            case .pause:
                // The fade-out toward the pause already runs; it now leads to the stop.
                state.pending = .stop(reason)
            case .stop:
                break
            }
            return nil
        }
    }

    /// Starts a pending jump's fade-out when its frame is near, and makes the jump when its frame is reached.
    private func advanceJump(_ state: inout RunState) {
        guard let jump = state.jump else { return }
        let next = source.nextFrame
        if next >= jump.atFrame {
            source.seek(toFrame: jump.toFrame)
            state.sourceEnded = false
            state.writtenFrame = jump.toFrame
            // Segments the device has played past are never looked up again (what is heard only moves on): the
            // list stays as short as the jumps within the device's delay, and its reserved capacity is enough.
            let heardStream = max(0, state.streamFrame - max(0, sink.delayFrames()))
            while state.segments.count > 1 && state.segments[1].streamFrame <= heardStream { state.segments.removeFirst() }
            state.segments.append((state.streamFrame, jump.toFrame))
            state.jump = nil
            state.lastJump = jump
            state.jumpCount += 1
            let gain = state.jumpRamp.currentGain
            state.jumpRamp = gain >= 1 ? .unity : GainRamp(from: gain, to: 1, frameCount: jumpFadeFrameCount)
        } else if next >= jump.atFrame - Int64(jumpFadeFrameCount), state.jumpRamp.endGain != 0 {
            state.jumpRamp = GainRamp(from: state.jumpRamp.currentGain, to: 0, frameCount: Int(jump.atFrame - next))
        }
    }

    /// Writes the rendered block, with the current ramp applied, until the sink has accepted all of it.
    private func write(frameCount: Int, state: inout RunState) throws(LiveAudioError) {
        let channelCount = self.channelCount
        var offset = 0
        while offset < frameCount {
            let offeredFrameCount = frameCount - offset
            let offeredSampleCount = offeredFrameCount * channelCount
            let unwritten = renderedSamples + offset * channelCount
            let offered: UnsafeBufferPointer<Float>
            if state.ramp.isUnity && state.jumpRamp.isUnity {
                offered = UnsafeBufferPointer(start: unwritten, count: offeredSampleCount)
            } else {
                // Applied from the unchanged render on every attempt, so a short write or a recovery never fades twice.
                state.ramp.apply(from: unwritten, to: fadedSamples, frameCount: offeredFrameCount, channelCount: channelCount)
                if !state.jumpRamp.isUnity {
                    state.jumpRamp.apply(from: UnsafePointer(fadedSamples), to: fadedSamples, frameCount: offeredFrameCount, channelCount: channelCount)
                }
                offered = UnsafeBufferPointer(start: fadedSamples, count: offeredSampleCount)
            }
            switch sink.write(offered, frameCount: offeredFrameCount) {
            case let .written(acceptedFrameCount):
                guard acceptedFrameCount > 0 else {
                    // A blocking device never does this; a sink that does is given time instead of a busy loop.
                    sleep(for: pausedPollInterval)
                    continue
                }
                let accepted = min(acceptedFrameCount, offeredFrameCount)
                offset += accepted
                state.writtenFrame += Int64(accepted)
                state.streamFrame += Int64(accepted)
                state.ramp.advance(by: accepted)
                state.jumpRamp.advance(by: accepted)
            case let .failed(code):
                try recover(from: code, state: &state)
            }
        }
    }

    /// Handles a failed write; the frames it did not take are offered again afterwards.
    private func recover(from code: Int32, state: inout RunState) throws(LiveAudioError) {
        if code == ENODEV {
            throw .deviceLost(device: sink.deviceName, reason: sink.describeFailure(errno: code))
        }
        guard sink.recover(from: code) else {
            throw .deviceLost(device: sink.deviceName, reason: sink.describeFailure(errno: code) + ", not recoverable")
        }
        if code == EINTR {
            // A signal woke the blocking write; the device kept playing, so no gap to fade over.
            return
        }
        // The device ran dry (or slept) and was restarted from silence: continue at the first frame it did not
        // take, fading in, without catching up. During a fade-out the sound is already gone: stay silent.
        state.underrunCount += 1
        state.ramp = state.pending == .none ? ramp(from: 0, to: 1) : .silence
    }

    /// A fade from `startGain`: rises take `fadeInFrameCount` for the full way, falls `fadeOutFrameCount`, and a
    /// partial way takes that share, so a fade begun mid-fade is never steeper than a full one.
    private func ramp(from startGain: Double, to endGain: Double) -> GainRamp {
        let fullFrameCount = endGain > startGain ? fadeInFrameCount : fadeOutFrameCount
        let frameCount = Int((Double(fullFrameCount) * abs(endGain - startGain)).rounded(.up))
        return GainRamp(from: startGain, to: endGain, frameCount: frameCount)
    }

    private func progress(of state: RunState) -> PlaybackProgress {
        let heard = heardFrames(of: state)
        return PlaybackProgress(
            heardFrame: heard.session,
            writtenFrame: state.writtenFrame,
            isPaused: state.isPaused,
            underrunCount: state.underrunCount,
            heardFrameWithoutJumps: state.startFrame + heard.stream,
            lastJump: state.lastJump,
            jumpCount: state.jumpCount
        )
    }

    /// The frames heard since the start (`stream`) and the session frame heard now: the stream's place less the
    /// device's delay, mapped through the jumps made.
    private func heardFrames(of state: RunState) -> (stream: Int64, session: Int64) {
        let delay = max(0, sink.delayFrames())
        let stream = max(0, state.streamFrame - delay)
        var segment = state.segments[0]
        for candidate in state.segments where candidate.streamFrame <= stream {
            segment = candidate
        }
        return (stream, segment.sessionFrame + (stream - segment.streamFrame))
    }

    private func finish(endedBy ending: PlaybackEnding, state: RunState) -> PlaybackSummary {
        let heard = heardFrames(of: state)
        return PlaybackSummary(endedBy: ending, heardFrame: heard.session, underrunCount: state.underrunCount, heardFrameWithoutJumps: state.startFrame + heard.stream)
    }

    private func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var interval = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        // An early wake-up by a signal is welcome: the next poll sees the stop.
        _ = nanosleep(&interval, nil)
    }
}
