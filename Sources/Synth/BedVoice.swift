import NagiBase

/// The user's recording as a voice of the mix: the looped recording, scaled per block by the bed's gain (its
/// loudness match, the session's envelope and decay, the hold swell and any ducking under speech) and added
/// to every channel after the fused kernel, before the limiter.
final class BedVoice {
    private let loop: any FrameReader<Never>
    private let scratch: FloatBuffer
    private let channelCount: Int

    /// A voice reading `frames` of `channelCount` channels (a loop of its own recording, or a loop shared with
    /// other renderers: endless, so every read fills what it asks), one control block of `blockFrames` at a time.
    init(frames: any FrameReader<Never>, channelCount: Int, blockFrames: Int) {
        loop = frames
        self.channelCount = channelCount
        scratch = FloatBuffer(count: blockFrames * channelCount)
    }

    /// Moves the bed to its frame `frame` (the session's frame: the recording's place follows the session's
    /// clock), so the next `add` gives what it would have there after every frame before it.
    func seek(toFrame frame: Int64) {
        loop.seek(toFrame: frame)
    }

    /// The next `frameCount` frames of the bed (interleaved), where they lie or read into the voice's scratch;
    /// valid until the next call. Read even when silent, so the recording's place follows the session's clock.
    /// A held recording's frames are read where they lie: copying them first cost a pass over every bed frame.
    func nextFrames(frameCount: Int) -> UnsafePointer<Float> {
        if let inPlace = loop.nextFramesInPlace(frameCount: frameCount) { return inPlace }
        _ = loop.read(into: UnsafeMutableBufferPointer(start: scratch.base, count: frameCount * channelCount))
        return UnsafePointer(scratch.base)
    }

    /// Adds `samples` (`frameCount` frames from `nextFrames`) into the interleaved `output`, scaled by `gain`
    /// (`offsets` holds 0, 1, 2, …): `output + bed × (value + offset × slope)` for each sample, the expression the
    /// lane kernel's bed pass (`SynthKernel.renderInLanes`) rounds the same way. No peak comes back: the limiter
    /// after it finds the mix's own (a pass over the bed for a bound nobody read cost a bed render 2 to 3 %).
    func mix(_ samples: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, frameCount: Int, gain: Ramp, offsets: UnsafePointer<Float>) {
        if channelCount == 2 {
            // Four frames at a time in SIMD lanes (the scalar loop was not vectorised: `output` might alias
            // `samples`); each sample is the same expression as in the scalar loop, so the same bits.
            var n = 0
            let value = SIMD4<Float>(repeating: gain.value)
            let slope = SIMD4<Float>(repeating: gain.slope)
            while n + 4 <= frameCount {
                let factors = value + UnsafeRawPointer(offsets + n).loadUnaligned(as: SIMD4<Float>.self) * slope
                let spread = SIMD8<Float>(lowHalf: factors.spreadLow, highHalf: factors.spreadHigh)
                let bed = UnsafeRawPointer(samples + 2 * n).loadUnaligned(as: SIMD8<Float>.self)
                let mixed = UnsafeRawPointer(output + 2 * n).loadUnaligned(as: SIMD8<Float>.self) + bed * spread
                UnsafeMutableRawPointer(output + 2 * n).storeBytes(of: mixed, as: SIMD8<Float>.self)
                n += 4
            }
            while n < frameCount {
                let factor = gain.at(offsets[n])
                output[2 * n] += samples[2 * n] * factor
                output[2 * n + 1] += samples[2 * n + 1] * factor
                n += 1
            }
        } else {
            for n in 0..<frameCount {
                output[n] += samples[n] * gain.at(offsets[n])
            }
        }
    }
}

private extension SIMD4<Float> {
    /// The first two lanes, each twice: a stereo frame's gain for both its samples.
    var spreadLow: SIMD4<Float> { SIMD4(self[0], self[0], self[1], self[1]) }
    /// The last two lanes, each twice.
    var spreadHigh: SIMD4<Float> { SIMD4(self[2], self[2], self[3], self[3]) }
}
