/// Folds 1 to 8 interleaved channels into 1 or 2.
enum ChannelDownmix {
    /// Mono: the mean of all channels. Stereo: mono is copied to both sides, stereo kept, and wider layouts
    /// fold even-numbered channels (0, 2, ...: front left, centre, ... in WAV order) left and odd-numbered right,
    /// each side the mean of its channels, so no layout can clip.
    static func fold(
        _ input: UnsafeBufferPointer<Float>, sourceChannelCount: Int, frameCount: Int,
        into output: UnsafeMutableBufferPointer<Float>, outputChannelCount: Int
    ) {
        if outputChannelCount == 1 {
            let scale = 1 / Float(sourceChannelCount)
            for frame in 0..<frameCount {
                var sum: Float = 0
                for channel in 0..<sourceChannelCount { sum += input[frame * sourceChannelCount + channel] }
                output[frame] = sum * scale
            }
            return
        }
        if sourceChannelCount == 1 {
            for frame in 0..<frameCount {
                output[2 * frame] = input[frame]
                output[2 * frame + 1] = input[frame]
            }
            return
        }
        let leftCount = (sourceChannelCount + 1) / 2
        let rightCount = sourceChannelCount / 2
        let leftScale = 1 / Float(leftCount)
        let rightScale = 1 / Float(rightCount)
        for frame in 0..<frameCount {
            var left: Float = 0
            var right: Float = 0
            var channel = 0
            while channel < sourceChannelCount {
                left += input[frame * sourceChannelCount + channel]
                if channel + 1 < sourceChannelCount { right += input[frame * sourceChannelCount + channel + 1] }
                channel += 2
            }
            output[2 * frame] = left * leftScale
            output[2 * frame + 1] = right * rightScale
        }
    }
}
