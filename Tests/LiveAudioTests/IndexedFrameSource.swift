import NagiBase
import LiveAudio

/// A deterministic source whose samples encode their frame index, so any skipped or repeated frame shows.
///
/// Channel 0 is positive and rises by one step per frame; channel 1 is negative and jumps pseudo-randomly, so the
/// ratio between the channels differs from frame to frame: a gain applied to a whole frame keeps it, a frame taken
/// from elsewhere does not. Every value lies in [0.25, 0.75) in magnitude and is exact in Float.
final class IndexedFrameSource: FrameReader {
    let channelCount: Int
    let sampleRate: Int
    let totalFrameCount: Int64
    private(set) var nextFrame: Int64
    private(set) var renderCallCount = 0
    var frameCount: Int64? { totalFrameCount }

    init(channelCount: Int = 2, sampleRate: Int, totalFrameCount: Int64, startFrame: Int64 = 0) {
        precondition(channelCount == 1 || channelCount == 2)
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.totalFrameCount = totalFrameCount
        self.nextFrame = startFrame
    }

    static func sample(frame: Int64, channel: Int) -> Float {
        let step = channel == 0 ? frame % 1_048_576 : (frame * 7919 + 12_345) % 1_048_576
        let magnitude = 0.25 + Float(step) / 2_097_152
        return channel == 0 ? magnitude : -magnitude
    }

    func read(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        let frameCount = buffer.count / channelCount
        precondition(nextFrame + Int64(frameCount) <= totalFrameCount, "rendered past the session's end")
        var index = 0
        for offset in 0..<frameCount {
            for channel in 0..<channelCount {
                buffer[index] = Self.sample(frame: nextFrame + Int64(offset), channel: channel)
                index += 1
            }
        }
        nextFrame += Int64(frameCount)
        renderCallCount += 1
        return frameCount
    }

    func seek(toFrame frame: Int64) {
        precondition(frame >= 0 && frame <= totalFrameCount)
        nextFrame = frame
    }

    /// The samples of frames `range`, interleaved.
    func expectedSamples(_ range: Range<Int64>) -> [Float] {
        var samples: [Float] = []
        for frame in range {
            for channel in 0..<channelCount {
                samples.append(Self.sample(frame: frame, channel: channel))
            }
        }
        return samples
    }
}
