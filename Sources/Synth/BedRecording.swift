/// A user's recording as the bed voice pulls it: interleaved frames at the session's rate in the render's
/// channel count, read from where it is. The command line implements it on a libsndfile + libsoxr stream;
/// Synth sees only this, so the DSP imports no C. Called a few thousand frames at a time, never per frame.
///
/// A read failure cannot be thrown through the pulled renderer: an implementation keeps it for its owner to
/// report after the render and answers as if the recording had ended.
public protocol BedRecording: AnyObject {
    /// Interleaved channels per frame: the render's 1 or 2.
    var channelCount: Int { get }

    /// Writes up to `frameCount` frames into `output` from the current position and returns how many it
    /// wrote: fewer only at the recording's end (0 once it is over, until `rewind`).
    func read(into output: UnsafeMutablePointer<Float>, frameCount: Int) -> Int

    /// Back to the recording's first frame.
    func rewind()

    /// About how many frames the recording gives at the session's rate, when its file says (nil: unknown). A
    /// hint for memory, never trusted for timing: the loop learns the real length by reading.
    var expectedFrameCount: Int64? { get }
}

extension BedRecording {
    public var expectedFrameCount: Int64? { nil }
}
