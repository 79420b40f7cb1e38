/// What the person (or a signal) asks of a running `PlaybackLoop`.
public enum PlaybackCommand: Sendable, Equatable {
    /// Pause with a fade-out, or resume with a fade-in.
    case togglePause
    /// Fade out, drain and return.
    case stop(reason: StopReason)
    /// Continue at another session frame once playback reaches a frame (a skip at a phase boundary, the end of
    /// an open hold). A later jump replaces one not yet made.
    case jump(PlaybackJump)
}

/// A move of the listener's place in the session: when frame `atFrame` is reached, play on from `toFrame`.
///
/// The loop fades the sound out over the frames just before `atFrame` and in after `toFrame` (10 ms each by
/// default), so the seek makes no click; an `atFrame` closer than that to the next frame is moved later by the
/// fade's length (the frame actually used is reported in `PlaybackProgress.lastJump`).
public struct PlaybackJump: Sendable, Equatable {
    /// The session frame at which the jump happens (the first frame not played).
    public var atFrame: Int64
    /// The session frame played next.
    public var toFrame: Int64

    public init(atFrame: Int64, toFrame: Int64) {
        self.atFrame = atFrame
        self.toFrame = toFrame
    }
}

/// Why playback was stopped before the session's end.
public enum StopReason: Sendable, Equatable {
    /// The person asked (a key).
    case user
    /// A signal arrived (SIGINT, SIGTERM); the number is kept for the exit status.
    case signal(Int32)
}

/// Polled by `PlaybackLoop.run` once per block (and every poll interval while paused).
/// Returns the next command, or nil when there is none. It must not block.
public typealias PlaybackControl = () -> PlaybackCommand?
