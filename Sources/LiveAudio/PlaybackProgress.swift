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
}
