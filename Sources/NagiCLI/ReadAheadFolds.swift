import BedSource

/// A bed's folded frames decoded on a read-ahead thread, handed to the resampling `BedStream` as its source:
/// FLAC decoding and libsoxr then run on two cores instead of one.
final class ReadAheadFolds: FoldedFrameSource {
    let path: String
    let channelCount: Int
    let sampleRate: Int
    private let prefetcher: BedPrefetcher

    /// Starts decoding `decoder` ahead on a thread of its own.
    init(_ decoder: BedDecoder) {
        path = decoder.path
        channelCount = decoder.channelCount
        sampleRate = decoder.sampleRate
        prefetcher = BedPrefetcher(reading: DecodedBed(decoder))
    }

    func read(into output: UnsafeMutableBufferPointer<Float>) throws(BedStreamError) -> Int {
        guard let target = output.baseAddress else { return 0 }
        let frames = prefetcher.read(into: target, frameCount: output.count / channelCount)
        if let failure = prefetcher.failure { throw failure }
        return frames
    }

    func rewind() throws(BedStreamError) {
        prefetcher.rewind()
    }
}
