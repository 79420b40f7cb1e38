import AudioFile
import Loudness

/// The integrated loudness of a bed as the session hears it (folded to the render's channels, through the
/// DC-blocking high-pass), for loudness matching.
public enum BedLoudness {
    /// Frames per read while measuring.
    private static let blockFrames = 9_600

    /// A meter (the one every render's loudness goes through) fed `source` from where it is for at most
    /// `maximumFrames` frames (to its end when nil). Meters of several stretches pool into one figure
    /// (`GatedLoudnessMeter.integratedLoudness(of:)`), so a recording can be measured in excerpts, on several
    /// threads.
    /// - Throws: `BedStreamError` for a read failure.
    public static func meter(reading source: FoldedFrameSource, maximumFrames: Int?) throws(BedStreamError) -> GatedLoudnessMeter {
        let meter = GatedLoudnessMeter(channelCount: source.channelCount, sampleRate: source.sampleRate)
        var block = [Float](repeating: 0, count: blockFrames * source.channelCount)
        // Measured as it is heard: through the high-pass the stream applies (at the recording's rate here).
        var filter = DCBlockingFilter(sampleRate: source.sampleRate, channelCount: source.channelCount)
        var remaining = maximumFrames ?? Int.max
        while remaining > 0 {
            let wanted = min(blockFrames, remaining)
            let frames = try block.withUnsafeMutableBufferPointer { buffer throws(BedStreamError) in
                let frames = try source.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<(wanted * source.channelCount)]))
                if let base = buffer.baseAddress { filter.process(base, frameCount: frames) }
                return frames
            }
            block.withUnsafeBufferPointer { buffer in
                meter.add(UnsafeBufferPointer(rebasing: buffer[0..<(frames * source.channelCount)]))
            }
            remaining -= frames
            if frames < wanted { break }
        }
        return meter
    }
}
