import BedSource

/// A bed's decoder (libsndfile, folded to the render's channels) as a `PassReader`, so that decoding can run on
/// a read-ahead thread of its own, apart from the resampling.
final class DecodedBed: PassReader {
    let channelCount: Int
    private(set) var failure: BedStreamError?
    private let decoder: BedDecoder

    init(_ decoder: BedDecoder) {
        self.decoder = decoder
        channelCount = decoder.channelCount
    }

    func read(into output: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        guard failure == nil else { return 0 }
        do {
            return try decoder.read(into: UnsafeMutableBufferPointer(start: output, count: frameCount * channelCount))
        } catch {
            failure = error
            return 0
        }
    }

    func rewind() {
        guard failure == nil else { return }
        do { try decoder.rewind() } catch { failure = error }
    }
}
