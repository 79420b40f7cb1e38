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

    /// A jump from `atFrame` to `toFrame` (session frames).
    public init(atFrame: Int64, toFrame: Int64) {
        self.atFrame = atFrame
        self.toFrame = toFrame
    }
}
