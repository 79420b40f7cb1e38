import BedSource

/// A recording read pass after pass by a read-ahead thread (`BedPrefetcher`): reads come back short only at a
/// pass's end, and a failure is kept rather than thrown, to be reported where the renderer reaches it.
protocol PassReader: AnyObject {
    /// Interleaved channels per frame.
    var channelCount: Int { get }
    /// The first read or rewind failure, if any; reads give nothing after it.
    var failure: BedStreamError? { get }

    /// Writes up to `frameCount` frames into `output`; fewer only at the pass's end (0 until `rewind`).
    func read(into output: UnsafeMutablePointer<Float>, frameCount: Int) -> Int

    /// Starts the next pass from the recording's first frame.
    func rewind()
}
