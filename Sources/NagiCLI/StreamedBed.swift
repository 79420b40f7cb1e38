import BedSource
import Synth

/// The renderer's bed recording on a libsndfile + libsoxr stream (`BedStream`). A mono recording under a
/// stereo render is resampled once and copied to both sides. A failure part way is kept in `failure` for the
/// job to report after the render (the renderer cannot throw) and reads as the recording's end.
final class StreamedBed: PassReader {
    let channelCount: Int
    /// The first read or rewind failure, if any.
    private(set) var failure: BedStreamError?
    private let stream: BedStream

    /// Opens `path` for a render at `sampleRate` in `channelCount` channels; with `decodesAhead`, the file is
    /// decoded on a read-ahead thread of its own while this object resamples.
    init(path: String, sampleRate: Int, channelCount: Int, decodesAhead: Bool) throws(CLIError) {
        self.channelCount = channelCount
        do throws(BedStreamError) {
            var decoder = try BedDecoder(path: path, channelCount: 1)
            if decoder.sourceChannelCount > 1 && channelCount == 2 {
                decoder = try BedDecoder(path: path, channelCount: 2)
            }
            stream = try BedStream(source: decodesAhead ? ReadAheadFolds(decoder) : decoder, sampleRate: sampleRate)
        } catch {
            throw .bed(error)
        }
    }

    func read(into output: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        guard failure == nil else { return 0 }
        let streamChannels = stream.channelCount
        // A mono stream for a stereo render lands in the second half and is spread in place (each read sample
        // sits at or after the two it fills).
        let landing = streamChannels == channelCount ? output : output + frameCount
        let frames: Int
        do {
            frames = try stream.read(into: UnsafeMutableBufferPointer(start: landing, count: frameCount * streamChannels))
        } catch {
            failure = error
            return 0
        }
        if streamChannels != channelCount {
            for n in 0..<frames {
                let sample = landing[n]
                output[2 * n] = sample
                output[2 * n + 1] = sample
            }
        }
        return frames
    }

    func rewind() {
        guard failure == nil else { return }
        do { try stream.rewind() } catch { failure = error }
    }
}
