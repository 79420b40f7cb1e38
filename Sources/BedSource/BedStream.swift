import AudioFile
import NagiBase
import Resampling

/// A user's recording under the session (`--bed FILE`), folded to the output's 1 or 2 channels (`BedDecoder`)
/// and resampled in a libsoxr stream to the session rate, handed out on demand through the DC-blocking
/// high-pass (`DCBlockingFilter`, started afresh with each pass) unless its reader filters them itself.
///
/// Memory stays at a few blocks whatever the recording's length. At the end of the recording `read` returns
/// fewer frames than asked; `rewind` starts it again (the renderer crossfades the seam). A `FrameReader` that
/// throws `BedStreamError`, reading another (the decoder, or a read-ahead in front of it). One owner.
public final class BedStream: FrameReader {
    /// Folded source frames per resampler call.
    private static let blockFrames = 8_192

    /// The file, for messages.
    public let path: String
    /// The channels handed out: 1 or 2.
    public let channelCount: Int
    /// The session's rate, Hz: what the frames are resampled to.
    public let sampleRate: Int
    /// The frames the recording gives at `sampleRate` by its file's word: its source's count converted, rounded
    /// up (nil when the file does not say).
    public let frameCount: Int64?
    /// Frames handed out since the last seek, from where it went.
    public private(set) var nextFrame: Int64 = 0

    private let source: any FrameReader<BedStreamError>
    private let resampler: StreamingResampler?
    private var foldedBlock: [Float]
    /// Resampled frames not yet handed out, from `pendingStart` on.
    private var pending: [Float] = []
    private var pendingStart = 0
    private var sourceEnded = false
    /// The DC-blocking high-pass on what is handed out, restarted with every pass (nil: the reader's job).
    private var filter: DCBlockingFilter?

    /// Opens the recording and checks it has frames (reading its first block).
    /// - Throws: `BedStreamError`: missing or unreadable (66), not audio or no frames or more than 8 channels
    ///   (65), a failed read (74).
    public convenience init(path: String, sampleRate: Int, channelCount: Int) throws(BedStreamError) {
        try self.init(source: BedDecoder(path: path, channelCount: channelCount), path: path, sampleRate: sampleRate)
    }

    /// Resamples `source` (the recording at `path`, folded, at its own rate) to `sampleRate`, checking it has
    /// frames (reading its first block); `filtersDC` false hands the frames out unfiltered, for a reader that
    /// runs the same `DCBlockingFilter` on another thread.
    /// - Throws: `BedStreamError`: no frames (65), a failed read (74), libsoxr refusing the rates.
    public init(source: any FrameReader<BedStreamError>, path: String, sampleRate: Int, filtersDC: Bool = true) throws(BedStreamError) {
        self.source = source
        self.path = path
        channelCount = source.channelCount
        self.sampleRate = sampleRate
        frameCount = Self.frameCount(of: source, at: sampleRate)
        if source.sampleRate == sampleRate {
            resampler = nil
        } else {
            do {
                resampler = try StreamingResampler(
                    channelCount: source.channelCount, inputRate: source.sampleRate, outputRate: sampleRate)
            } catch { throw .resamplingFailed(path: path, reason: error.message) }
        }
        filter = filtersDC ? DCBlockingFilter(sampleRate: sampleRate, channelCount: source.channelCount) : nil
        foldedBlock = [Float](repeating: 0, count: Self.blockFrames * source.channelCount)
        pending.reserveCapacity(4 * Self.blockFrames * source.channelCount)
        // A file whose header hides its length may still be empty: find out now, not mid-session.
        try refill()
        if pending.count == 0 && sourceEnded { throw .noFrames(path: path) }
    }

    /// How many frames `source` gives once resampled to `sampleRate`, by its own word (nil when it does not
    /// say): its frame count converted, rounded up.
    public static func frameCount(of source: any FrameReader<BedStreamError>, at sampleRate: Int) -> Int64? {
        let sourceRate = Int64(source.sampleRate)
        return source.frameCount.map { ($0 * Int64(sampleRate) + sourceRate - 1) / sourceRate }
    }

    /// Fills `output` with interleaved frames at the session rate; returns how many frames it wrote, fewer than
    /// `output.count / channelCount` only at the end of the recording (0 once it is over, until `rewind`).
    /// - Throws: `BedStreamError` for a read or resampling failure.
    public func read(into output: UnsafeMutableBufferPointer<Float>) throws(BedStreamError) -> Int {
        let wantedSamples = output.count / channelCount * channelCount
        var written = 0
        while written < wantedSamples {
            if pendingStart == pending.count {
                if sourceEnded { break }
                try refill()
                continue
            }
            let count = min(wantedSamples - written, pending.count - pendingStart)
            pending.withUnsafeBufferPointer { source in
                guard let from = source.baseAddress, let to = output.baseAddress else { return }
                (to + written).update(from: from + pendingStart, count: count)
                filter?.process(to + written, frameCount: count / channelCount)
            }
            written += count
            pendingStart += count
        }
        nextFrame += Int64(written / channelCount)
        return written / channelCount
    }

    /// Moves to frame `frame` at the session's rate: back to the recording's first frame with a fresh resampler
    /// (to loop, at 0), then reads on to `frame` (the resampler's output depends on every frame before, so that
    /// is the exact way there).
    /// - Throws: `BedStreamError` when the seek, the resampler reset or a read fails.
    public func seek(toFrame frame: Int64) throws(BedStreamError) {
        try source.rewind()
        do { try resampler?.reset() } catch { throw .resamplingFailed(path: path, reason: error.message) }
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        sourceEnded = false
        filter?.reset()
        nextFrame = 0
        try skip(frameCount: frame)
    }

    /// Reads one block of folded frames and resamples it into `pending` (flushing the resampler at the end).
    private func refill() throws(BedStreamError) {
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        let frames = try foldedBlock.withUnsafeMutableBufferPointer { buffer throws(BedStreamError) in
            try source.read(into: buffer)
        }
        if frames == 0 { sourceEnded = true }
        guard let resampler else {
            pending.append(contentsOf: foldedBlock[0..<(frames * channelCount)])
            return
        }
        do {
            if frames > 0 {
                try foldedBlock.withUnsafeBufferPointer { folded throws(ResamplingError) in
                    try resampler.process(UnsafeBufferPointer(rebasing: folded[0..<(frames * channelCount)]), appendingTo: &pending)
                }
            } else {
                try resampler.finish(appendingTo: &pending)
            }
        } catch { throw .resamplingFailed(path: path, reason: error.message) }
    }
}
