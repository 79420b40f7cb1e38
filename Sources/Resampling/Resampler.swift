/// Resamples a whole clip at once, at libsoxr's high quality.
public enum Resampler {
    /// `samples` (interleaved, `channelCount` channels) taken from `inputRate` to `outputRate`: exactly
    /// round(frames × outputRate / inputRate) frames, aligned with the input (libsoxr compensates its delay).
    /// The same rates give the samples back unchanged.
    /// - Throws: `ResamplingError`.
    public static func resample(
        _ samples: [Float], channelCount: Int, from inputRate: Int, to outputRate: Int
    ) throws(ResamplingError) -> [Float] {
        let stream = try StreamingResampler(channelCount: channelCount, inputRate: inputRate, outputRate: outputRate)
        precondition(samples.count % channelCount == 0, "a partial frame")
        if inputRate == outputRate { return samples }
        let inputFrames = samples.count / channelCount
        let expectedFrames = Int((Double(inputFrames) * Double(outputRate) / Double(inputRate)).rounded())
        var output: [Float] = []
        output.reserveCapacity((expectedFrames + 64) * channelCount)
        try samples.withUnsafeBufferPointer { input throws(ResamplingError) in
            try stream.process(input, appendingTo: &output)
        }
        try stream.finish(appendingTo: &output)
        let producedFrames = output.count / channelCount
        if producedFrames > expectedFrames {
            output.removeSubrange((expectedFrames * channelCount)...)
        } else if producedFrames < expectedFrames {
            output.append(contentsOf: repeatElement(0, count: (expectedFrames - producedFrames) * channelCount))
        }
        return output
    }
}
