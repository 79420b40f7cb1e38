/// A pulled source of interleaved Float frames (the Synth renderer conforms through an adapter in the CLI).
///
/// Frames are indexed from the session start; `render(into:frameCount:)` always continues at `nextFrame`,
/// so whoever pulls decides nothing about time except how many frames to take next.
public protocol PCMFrameSource: AnyObject {
    /// Samples per frame (interleaved).
    var channelCount: Int { get }
    /// Frames per second.
    var sampleRate: Int { get }
    /// The session's end: the index one past the last frame.
    var totalFrameCount: Int64 { get }
    /// The index of the next frame `render(into:frameCount:)` will produce.
    var nextFrame: Int64 { get }
    /// Renders the next `frameCount` frames into `buffer` (interleaved, `buffer.count >= frameCount * channelCount`)
    /// and advances `nextFrame` by `frameCount`.
    func render(into buffer: UnsafeMutableBufferPointer<Float>, frameCount: Int)
    /// Moves to `frame` (0 ... totalFrameCount): the next render continues there, as a render from frame 0 would.
    func seek(toFrame frame: Int64)
}
