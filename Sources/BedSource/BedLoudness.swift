import Loudness

/// The integrated loudness of a bed as the session hears it (folded and resampled), for loudness matching.
public enum BedLoudness {
    /// Frames per read while measuring.
    private static let blockFrames = 9_600

    /// Reads `stream` from where it is for at most `maximumFrames` frames (to its end when nil), measures it
    /// with libebur128 and rewinds it, so a render can start from the first frame. LUFS; `-infinity` for a bed
    /// that stays under the absolute gate (−70 LUFS).
    /// - Throws: `BedStreamError` for a read, resampling or measurement failure.
    public static func integratedLoudness(of stream: BedStream, maximumFrames: Int? = nil) throws(BedStreamError) -> Double {
        let meter: LoudnessMeter
        // Only the integrated loudness is wanted: the true peak's oversampling would be most of the cost.
        do { meter = try LoudnessMeter(channelCount: stream.channelCount, sampleRate: stream.sampleRate, measuresTruePeak: false) } catch {
            throw .measurementFailed(path: stream.path, reason: error.message)
        }
        var block = [Float](repeating: 0, count: blockFrames * stream.channelCount)
        var remaining = maximumFrames ?? Int.max
        while remaining > 0 {
            let wanted = min(blockFrames, remaining)
            let frames = try block.withUnsafeMutableBufferPointer { buffer throws(BedStreamError) in
                try stream.read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<(wanted * stream.channelCount)]))
            }
            do {
                try block.withUnsafeBufferPointer { buffer throws(LoudnessError) in
                    try meter.add(UnsafeBufferPointer(rebasing: buffer[0..<(frames * stream.channelCount)]))
                }
            } catch { throw .measurementFailed(path: stream.path, reason: error.message) }
            remaining -= frames
            if frames < wanted { break }
        }
        try stream.rewind()
        do { return try meter.integratedLoudness() } catch {
            throw .measurementFailed(path: stream.path, reason: error.message)
        }
    }
}
