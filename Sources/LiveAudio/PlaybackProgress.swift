/// Where playback is, reported after every block written and every poll while paused.
public struct PlaybackProgress: Sendable, Equatable {
    /// The session frame the listener hears now: frames written minus the device's delay, never before the first frame played.
    public var heardFrame: Int64
    /// The session frame one past the last frame the device accepted.
    public var writtenFrame: Int64
    /// True from the moment a pause is asked (while fading out) until the resume.
    public var isPaused: Bool
    /// Underruns (EPIPE) and suspends (ESTRPIPE) recovered from so far.
    public var underrunCount: Int
    /// Where the listener would be had no jump moved the place: the first frame played plus the frames heard
    /// since (`heardFrame` when there was no jump). Time played is this less the first frame.
    public var heardFrameWithoutJumps: Int64
    /// The last jump made (with the frame it was actually made at), nil before any.
    public var lastJump: PlaybackJump?
    /// How many jumps have been made.
    public var jumpCount: Int

    public init(heardFrame: Int64, writtenFrame: Int64, isPaused: Bool, underrunCount: Int, heardFrameWithoutJumps: Int64? = nil, lastJump: PlaybackJump? = nil, jumpCount: Int = 0) {
        self.heardFrame = heardFrame
        self.writtenFrame = writtenFrame
        self.isPaused = isPaused
        self.underrunCount = underrunCount
        self.heardFrameWithoutJumps = heardFrameWithoutJumps ?? heardFrame
        self.lastJump = lastJump
        self.jumpCount = jumpCount
    }
}
