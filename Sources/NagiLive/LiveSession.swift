import NagiKit
import FoundationEssentials
import LiveAudio
import Synth

/// A prepared soundtrack played live into a device, with what a listener may do while it plays — pause and resume
/// (with short fades), change the volume, go on to the next stage or back to the start of this one at the next
/// phase boundary (so no breath is cut), end an open hold — and what was really practised: the breaths completed,
/// each open hold's length and how it ended, when the first frame was heard.
///
/// The device is any `PCMSink`: ALSA's (`ALSAPlaybackDevice`), a server's, or a test's. What reaches it is, frame for
/// frame, what `Soundtrack.write` writes, except inside the fades of a pause, a jump or a stop. The commands and the
/// events run on the calling thread, between blocks.
public final class LiveSession {
    /// How an open hold ended.
    public enum RetentionEnding: String, Sendable {
        /// The listener ended it (enter), or skipped on from it.
        case enter
        /// It reached its longest and ended on its own.
        case maximum
        /// The session was stopped during it.
        case stop
    }

    /// One open hold, as it ended.
    public struct Retention: Sendable, Equatable {
        /// Its round, from 1 (its place among the session's open holds when it has no rounds).
        public var round: Int
        /// How long it was held, in frames.
        public var frameCount: Int64
        /// How it ended.
        public var ending: RetentionEnding
    }

    /// What a running session tells its caller.
    public enum Event {
        /// After every block and every paused poll: where the listener is, on the breathing's clock (frame 0 is the
        /// first inhale: a countdown's lead-in is before it, negative), the frames held in an open hold (nil outside
        /// one), and the volume.
        case progress(PlaybackProgress, heldFrameCount: Int64?, volumeDecibels: Double)
        /// An open hold has ended.
        case retentionEnded(Retention)
    }

    /// How a session ended.
    public struct Outcome: Sendable {
        /// Whether it played to its end (else the listener or a signal stopped it).
        public var finished: Bool
        /// The signal that stopped it, if one did.
        public var stopSignal: Int32?
        /// When its first frame was heard (the device's delay taken off), nil if none was.
        public var startedAt: Date?
        /// Every open hold, in order.
        public var retentions: [Retention]
        /// The skips made (a jump on or back).
        public var skipCount: Int
        /// The last frame heard, on the breathing's clock.
        public var heardFrame: Int64
        /// The frames heard in all, as if there had been no jumps, on the breathing's clock.
        public var heardFrameWithoutJumps: Int64
        /// Times the device ran dry and was recovered.
        public var underrunCount: Int
        /// Breaths heard to their end, counted when the place jumped (nil when it never did: then the schedule says).
        public var completedBreaths: Int?
    }

    /// The volume's range, dB.
    public static let volumeRange: ClosedRange<Double> = -30...6
    /// How far `volumeUp` and `volumeDown` move it, dB.
    public static let volumeStepDecibels = 2.0

    /// The volume one step up or down from `decibels`, kept in range.
    static func stepped(_ decibels: Double, up: Bool) -> Double {
        min(volumeRange.upperBound, max(volumeRange.lowerBound, decibels + (up ? volumeStepDecibels : -volumeStepDecibels)))
    }

    private let soundtrack: Soundtrack
    private let renderer: SoundtrackRenderer
    private let sink: any PCMSink

    /// A session of `soundtrack` into `sink`, at `volumeDecibels` (ahead of the true-peak limiter).
    /// - Throws: `.bed` when the bed cannot be opened again; `.invalidOptions` when the sink's rate or channels are
    ///   not the soundtrack's.
    public init(soundtrack: Soundtrack, sink: any PCMSink, volumeDecibels: Double = 0) throws(SoundtrackError) {
        guard sink.sampleRate == soundtrack.sampleRate, sink.channelCount == soundtrack.channelCount else {
            throw .invalidOptions("the device plays \(sink.channelCount) channels at \(sink.sampleRate) Hz, the soundtrack is \(soundtrack.channelCount) at \(soundtrack.sampleRate) Hz")
        }
        self.soundtrack = soundtrack
        self.sink = sink
        renderer = try soundtrack.makeRenderer()
        renderer.setLiveGain(decibels: min(max(volumeDecibels, Self.volumeRange.lowerBound), Self.volumeRange.upperBound))
    }

    /// The volume now, dB.
    public var volumeDecibels: Double { renderer.liveGainDecibels }

    /// Plays until the end, a `stop` command, or `stopSignal` returning a signal number (polled between blocks: it
    /// must be cheap, as reading a flag a signal handler set). `commands` is asked for the listener's commands
    /// between blocks (nil: none now); `events` hears where the listener is and each open hold as it ends.
    /// - Throws: `.writeFailed` when the device is lost beyond recovery; `.bed` when the bed failed part way.
    public func run(
        commands: () -> LiveKey? = { nil }, stopSignal: () -> Int32? = { nil }, events: (Event) -> Void = { _ in }
    ) throws(SoundtrackError) -> Outcome {
        let schedule = soundtrack.schedule
        let rate = soundtrack.sampleRate
        // The breathing's clock: the countdown's lead-in is not practice.
        let leadInFrames = soundtrack.plan.guide.framing.leadInFrameCount
        let loop = PlaybackLoop(source: renderer, sink: sink)
        let navigator = LiveNavigator(schedule: schedule, leadFrameCount: Int64(loop.jumpFadeFrameCount))
        var tally = LiveTally(schedule: schedule)
        var written: Int64 = 0
        var skipCount = 0
        // A jump asked for replaces one not yet made: a skip is counted when its jump is made, not when asked.
        var lastAsked: (jump: PlaybackJump, isSkip: Bool)?
        var madeJumpCount = 0
        // The first report with a frame heard dates the session's first frame: now less the frames heard since.
        var startedAt: Date?
        func note(_ ended: Retention?) {
            if let ended { events(.retentionEnded(ended)) }
        }
        let summary: PlaybackSummary
        do {
            summary = try loop.run(control: {
                if let signal = stopSignal() { return .stop(reason: .signal(signal)) }
                while let command = commands() {
                    switch command {
                    case .togglePause: return .togglePause
                    case .stop: return .stop(reason: .user)
                    case .volumeUp, .volumeDown:
                        renderer.setLiveGain(decibels: Self.stepped(renderer.liveGainDecibels, up: command == .volumeUp))
                    case .nextStage, .stageStart, .endHold:
                        // Decided on the breathing's clock; nothing to skip during the countdown's lead-in.
                        if written >= leadInFrames, let jump = navigator.jump(for: command, nextFrame: written - leadInFrames) {
                            let asked = PlaybackJump(atFrame: jump.atFrame + leadInFrames, toFrame: jump.toFrame + leadInFrames)
                            lastAsked = (asked, command != .endHold)
                            return .jump(asked)
                        }
                    }
                }
                return nil
            }, observer: { progress in
                if startedAt == nil, progress.heardFrameWithoutJumps > 0 {
                    startedAt = Date(timeIntervalSinceNow: -Double(progress.heardFrameWithoutJumps) / Double(rate))
                }
                written = progress.writtenFrame
                if progress.jumpCount > madeJumpCount {
                    if lastAsked?.isSkip == true { skipCount += progress.jumpCount - madeJumpCount }
                    madeJumpCount = progress.jumpCount
                }
                // The tally and the caller count on the breathing's clock (a jump is made on the output's).
                var breathing = progress
                breathing.heardFrame = progress.heardFrame - leadInFrames
                breathing.heardFrameWithoutJumps = progress.heardFrameWithoutJumps - leadInFrames
                breathing.lastJump = progress.lastJump.map { PlaybackJump(atFrame: $0.atFrame - leadInFrames, toFrame: $0.toFrame - leadInFrames) }
                note(tally.follow(breathing))
                events(.progress(breathing, heldFrameCount: tally.heldFrameCount, volumeDecibels: renderer.liveGainDecibels))
            })
        } catch {
            throw .writeFailed(reason: error.message)
        }
        // The last frames heard (after the drain), then the hold a stop cut short.
        let last = PlaybackProgress(
            heardFrame: summary.heardFrame - leadInFrames, writtenFrame: summary.heardFrame - leadInFrames, isPaused: false,
            underrunCount: summary.underrunCount, heardFrameWithoutJumps: summary.heardFrameWithoutJumps - leadInFrames, lastJump: nil, jumpCount: 0)
        note(tally.follow(last) ?? (summary.endedBy == .finished ? nil : tally.stopped()))
        if let failure = renderer.bedFailure { throw failure }
        var outcome = Outcome(
            finished: summary.endedBy == .finished, stopSignal: nil, startedAt: startedAt, retentions: tally.retentions, skipCount: skipCount,
            heardFrame: summary.heardFrame - leadInFrames, heardFrameWithoutJumps: summary.heardFrameWithoutJumps - leadInFrames,
            underrunCount: summary.underrunCount, completedBreaths: tally.hasJumped ? tally.completedBreaths : nil)
        if case let .stopped(reason: .signal(signal)) = summary.endedBy { outcome.stopSignal = signal }
        return outcome
    }
}
