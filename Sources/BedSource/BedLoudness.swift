import AudioFile
import NagiBase
import Loudness

/// The integrated loudness of a bed as the session hears it (folded to the render's channels, through the
/// DC-blocking high-pass), for loudness matching.
public enum BedLoudness {
    /// Frames per read while measuring.
    private static let blockFrames = 9_600

    /// What a stretch of a bed measured: its loudness meter and how much of it lies under 15 Hz.
    public struct Measurement {
        /// The gating blocks of the integrated loudness.
        public var meter: GatedLoudnessMeter
        /// The energy under 15 Hz.
        public var infrasound: InfrasoundMeter
    }

    /// A loudness meter (the one every render's loudness goes through) and an `InfrasoundMeter` (what the high-pass
    /// left under 15 Hz), fed the filtered frames of `source` from where it is for at most `maximumFrames` frames (to
    /// its end when nil). Measurements of several stretches pool into one figure
    /// (`GatedLoudnessMeter.integratedLoudness(of:)`, `InfrasoundMeter.pooled`), so a recording can be measured in
    /// excerpts, on several threads.
    /// - Throws: `BedStreamError` for a read failure.
    public static func measure(reading source: any FrameReader<BedStreamError>, maximumFrames: Int?) throws(BedStreamError) -> Measurement {
        let meter = GatedLoudnessMeter(channelCount: source.channelCount, sampleRate: source.sampleRate)
        var infrasound = InfrasoundMeter(sampleRate: source.sampleRate, channelCount: source.channelCount)
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
                let filtered = UnsafeBufferPointer(rebasing: buffer[0..<(frames * source.channelCount)])
                meter.add(filtered)
                infrasound.add(filtered)
            }
            remaining -= frames
            if frames < wanted { break }
        }
        return Measurement(meter: meter, infrasound: infrasound)
    }
}
