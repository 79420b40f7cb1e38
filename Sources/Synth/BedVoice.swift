/// The user's recording as a voice of the mix: the looped recording, scaled per block by the bed's gain (its
/// loudness match, the session's envelope and decay, the hold swell and any ducking under speech) and added
/// to every channel after the fused kernel, before the limiter.
final class BedVoice {
    private let loop: BedLoop
    private let scratch: FloatBuffer
    private let channelCount: Int

    /// A voice for `recording`, read one control block of `blockFrames` at a time.
    init(recording: BedRecording, sampleRate: Int, blockFrames: Int) {
        loop = BedLoop(recording: recording, sampleRate: sampleRate, largestRequest: blockFrames)
        channelCount = recording.channelCount
        scratch = FloatBuffer(count: blockFrames * recording.channelCount)
    }

    /// Adds the next `frameCount` frames of the bed into the interleaved `output`, scaled by `gain` (`offsets`
    /// holds 0, 1, 2, …); returns the largest magnitude added.
    func add(into output: UnsafeMutablePointer<Float>, frameCount: Int, gain: Ramp, offsets: UnsafePointer<Float>) -> Float {
        let samples = scratch.base
        // Read even when silent, so the recording's place follows the session's clock.
        loop.read(into: samples, frameCount: frameCount)
        let gainBound = gain.largestMagnitude(frameCount: frameCount)
        if gainBound == 0 { return 0 }
        var peak: Float = 0
        if channelCount == 2 {
            for n in 0..<frameCount {
                let factor = gain.at(offsets[n])
                let left = samples[2 * n]
                let right = samples[2 * n + 1]
                output[2 * n] += left * factor
                output[2 * n + 1] += right * factor
                peak = max(peak, max(abs(left), abs(right)))
            }
        } else {
            for n in 0..<frameCount {
                let sample = samples[n]
                output[n] += sample * gain.at(offsets[n])
                peak = max(peak, abs(sample))
            }
        }
        return peak * gainBound
    }
}
