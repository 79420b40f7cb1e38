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
