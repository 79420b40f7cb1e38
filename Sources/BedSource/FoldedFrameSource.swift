/// A recording's frames folded to the render's 1 or 2 channels, at `sampleRate`: what a `BedStream` resamples
/// and what `BedLoudness` meters. `BedDecoder` reads them from the file at the recording's own rate (the
/// command line can put a read-ahead thread between it and the resampler, so that decoding and resampling run
/// on different cores); a `BedStream` hands them out at the session's rate.
public protocol FoldedFrameSource: AnyObject {
    /// The file, for messages.
    var path: String { get }
    /// Interleaved channels per frame: 1 or 2.
    var channelCount: Int { get }
    /// The rate the frames come at, Hz.
    var sampleRate: Int { get }

    /// Fills `output` with interleaved frames from the current position; returns how many it wrote, fewer than
    /// asked only at the recording's end (0 once it is over, until `rewind`).
    /// - Throws: `BedStreamError` for a failed read.
    func read(into output: UnsafeMutableBufferPointer<Float>) throws(BedStreamError) -> Int

    /// Back to the recording's first frame.
    /// - Throws: `BedStreamError` when the seek fails.
    func rewind() throws(BedStreamError)
}
