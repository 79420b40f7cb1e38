import Glibc

/// The device side of playback, behind a protocol so tests can inject faults (short writes, EPIPE, ESTRPIPE, ENODEV, EINTR).
///
/// A sink is used from one thread at a time: the thread running `PlaybackLoop.run`.
public protocol PCMSink: AnyObject {
    /// The device name, for error messages.
    var deviceName: String { get }
    /// Samples per frame the sink expects (interleaved).
    var channelCount: Int { get }
    /// Frames per second the sink plays.
    var sampleRate: Int { get }
    /// Writes up to `frameCount` interleaved frames, blocking until the device takes them.
    /// Returns `.written(n)` (n may be short) or `.failed(errno:)` with nothing accepted.
    func write(_ interleaved: UnsafeBufferPointer<Float>, frameCount: Int) -> PCMWriteResult
    /// Brings the device back after a failed write (snd_pcm_recover semantics: EPIPE, ESTRPIPE, EINTR).
    /// Returns false when the failure cannot be recovered from.
    func recover(from errno: Int32) -> Bool
    /// Frames written but not yet heard (snd_pcm_delay); 0 if unknown.
    func delayFrames() -> Int64
    /// Plays out everything written, returns when it has been heard, and leaves the sink ready to accept writes again.
    func drain()
    /// One line naming the failed call and the error text, for `LiveAudioError.deviceLost`.
    func describeFailure(errno: Int32) -> String
}

extension PCMSink {
    /// The default description: the C library's text for the errno.
    public func describeFailure(errno: Int32) -> String {
        "write: " + String(cString: strerror(errno))
    }
}
