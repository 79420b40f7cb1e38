/// A reader of interleaved Float frames, a block at a time from where it stands: nagi's one frame-pulling
/// contract. The bed's decoder, resampling stream and read-ahead, the bed as the renderer loops it (streamed or
/// held in memory, alone or shared by a sliced write's renderers) and the soundtrack renderer itself all adopt it;
/// live playback pulls it. Called a few thousand frames at a time, never per frame: one dynamic call per block,
/// while each adopter's per-frame loops stay its own.
///
/// Frames are indexed from the reader's first: `read(into:)` continues at `nextFrame` and moves it on, and
/// `seek(toFrame:)` moves it anywhere (`rewind()` is a seek to frame 0). A read writes whole frames and returns
/// how many, fewer than asked only at the reader's end (0 once it is over, until a seek); an endless reader (a
/// looped bed) always writes all it is asked for.
///
/// Failures are typed, one type per reader (`Failure`): a reader that can fail part way — a file being decoded,
/// a resampler — throws its own error type from `read` and `seek`, so the error that reaches the user names
/// the file and the step. A reader whose puller cannot take a failure in the middle of the stream declares
/// `Failure` to be `Never`: the renderer, pulled by a sound device or a writer block after block, and everything
/// it pulls. Such a reader that stands on a failing one (the bed's `BedReader`) keeps the first failure for its
/// owner to report after the render and reads on as if its frames had ended, so a failing bed turns to silence
/// rather than stopping the session. One convention, typed throws, with `Never` for what must not throw: the
/// compiler then sees that the renderer's reads cannot fail, and no caller writes a `try` that can never throw.
public protocol FrameReader<Failure>: AnyObject {
    /// What a read or a seek throws (`Never`: neither can fail).
    associatedtype Failure: Error

    /// Interleaved samples per frame.
    var channelCount: Int { get }
    /// Frames per second.
    var sampleRate: Int { get }
    /// How many frames the reader gives from frame 0 to its end, as far as it knows without reading them (nil:
    /// not known, or endless). Exact for what the reader makes itself (a renderer); a file's header's word for a
    /// recording, a hint for memory that reads (which end where the frames really do) overrule.
    var frameCount: Int64? { get }
    /// The index of the frame the next read starts at.
    var nextFrame: Int64 { get }

    /// Writes up to `output.count / channelCount` interleaved frames from `nextFrame` into `output`, moves
    /// `nextFrame` past them and returns how many it wrote: fewer only at the reader's end (0 once it is over).
    /// - Throws: `Failure` when the frames cannot be made.
    func read(into output: UnsafeMutableBufferPointer<Float>) throws(Failure) -> Int

    /// Moves to `frame` (from 0): the next read gives what reads from frame 0 would have given there.
    /// - Throws: `Failure` when the reader cannot get there.
    func seek(toFrame frame: Int64) throws(Failure)

    /// The next `frameCount` frames where they already lie in memory, moving on past them as a read would, or
    /// nil (without moving) when they do not lie in one piece there: then `read` them. A reader that holds its
    /// frames (a bed held in memory, a shared ring) saves its puller a copy of each; the default is nil. The
    /// frames stay valid until the reader's next call.
    func nextFramesInPlace(frameCount: Int) -> UnsafePointer<Float>?
}

extension FrameReader {
    /// Back to frame 0.
    /// - Throws: `Failure` when the reader cannot get there.
    public func rewind() throws(Failure) {
        try seek(toFrame: 0)
    }

    /// Reads and drops the next `frameCount` frames (fewer at the reader's end), a few thousand at a time: how a
    /// reader that can only start again from frame 0 reaches a frame mid-way, with the frames reads from its start
    /// would have given after it.
    /// - Throws: `Failure` when a read fails.
    public func skip(frameCount: Int64) throws(Failure) {
        let blockFrames = 4_096
        let scratch = UnsafeMutableBufferPointer<Float>.allocate(capacity: blockFrames * channelCount)
        defer { scratch.deallocate() }
        var skipped: Int64 = 0
        while skipped < frameCount {
            let wanted = Int(min(Int64(blockFrames), frameCount - skipped))
            let got = try read(into: UnsafeMutableBufferPointer(rebasing: scratch[0..<(wanted * channelCount)]))
            skipped += Int64(got)
            if got < wanted { return }
        }
    }

    /// Nil: the frames are read, never lent.
    public func nextFramesInPlace(frameCount: Int) -> UnsafePointer<Float>? { nil }
}
