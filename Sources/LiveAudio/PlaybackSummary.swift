/// How a `PlaybackLoop.run` ended.
public struct PlaybackSummary: Sendable, Equatable {
    /// Whether the session reached its end or was stopped.
    public var endedBy: PlaybackEnding
    /// The last session frame heard (one past it), after the final drain.
    public var heardFrame: Int64
    /// Underruns (EPIPE) and suspends (ESTRPIPE) recovered from.
    public var underrunCount: Int
    /// The first frame played plus all the frames heard, whatever jumps moved the place (`heardFrame` when
    /// there was no jump).
    public var heardFrameWithoutJumps: Int64

    public init(endedBy: PlaybackEnding, heardFrame: Int64, underrunCount: Int, heardFrameWithoutJumps: Int64? = nil) {
        self.endedBy = endedBy
        self.heardFrame = heardFrame
        self.underrunCount = underrunCount
        self.heardFrameWithoutJumps = heardFrameWithoutJumps ?? heardFrame
    }
}

/// The reason a `PlaybackLoop.run` returned.
public enum PlaybackEnding: Sendable, Equatable {
    /// The source reached `totalFrameCount` and everything was heard.
    case finished
    /// A stop was asked; the sound faded out and drained first.
    case stopped(reason: StopReason)
}
