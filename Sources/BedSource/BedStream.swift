import AudioFile
import Resampling

/// A user's recording under the session (`--bed FILE`), folded to the output's 1 or 2 channels (`BedDecoder`)
/// and resampled in a libsoxr stream to the session rate, handed out on demand through the DC-blocking
/// high-pass (`DCBlockingFilter`, started afresh with each pass) unless its reader filters them itself.
///
/// Memory stays at a few blocks whatever the recording's length. At the end of the recording `read` returns
/// fewer frames than asked; `rewind` starts it again (the renderer crossfades the seam). One owner.
public final class BedStream: FoldedFrameSource {
    /// Folded source frames per resampler call.
    private static let blockFrames = 8_192

    public let path: String
    /// The channels handed out: 1 or 2.
    public let channelCount: Int
    public let sampleRate: Int

    private let source: FoldedFrameSource
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
        try self.init(source: BedDecoder(path: path, channelCount: channelCount), sampleRate: sampleRate)
    }

    /// Resamples `source` to `sampleRate`, checking it has frames (reading its first block); `filtersDC` false
    /// hands the frames out unfiltered, for a reader that runs the same `DCBlockingFilter` on another thread.
    /// - Throws: `BedStreamError`: no frames (65), a failed read (74), libsoxr refusing the rates.
    public init(source: FoldedFrameSource, sampleRate: Int, filtersDC: Bool = true) throws(BedStreamError) {
        self.source = source
        path = source.path
        channelCount = source.channelCount
        self.sampleRate = sampleRate
        if source.sampleRate == sampleRate {
            resampler = nil
        } else {
            do {
                resampler = try StreamingResampler(
                    channelCount: source.channelCount, inputRate: source.sampleRate, outputRate: sampleRate)
            } catch { throw .resamplingFailed(path: source.path, reason: error.message) }
        }
        filter = filtersDC ? DCBlockingFilter(sampleRate: sampleRate, channelCount: source.channelCount) : nil
        foldedBlock = [Float](repeating: 0, count: Self.blockFrames * source.channelCount)
        pending.reserveCapacity(4 * Self.blockFrames * source.channelCount)
        // A file whose header hides its length may still be empty: find out now, not mid-session.
        try refill()
        if pending.count == 0 && sourceEnded { throw .noFrames(path: path) }
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
        return written / channelCount
    }

    /// Back to the recording's first frame with a fresh resampler, to loop.
    /// - Throws: `BedStreamError` when the seek or the resampler reset fails.
    public func rewind() throws(BedStreamError) {
        try source.rewind()
        do { try resampler?.reset() } catch { throw .resamplingFailed(path: path, reason: error.message) }
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        sourceEnded = false
        filter?.reset()
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
