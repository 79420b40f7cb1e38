import BedSource
import Loudness

/// A bed's loudness as a session plays it: what the bed's level is matched against (EBU R128).
///
/// What is heard is measured in `excerptCount` excerpts spread evenly over it, their gating blocks pooled
/// (`GatedLoudnessMeter.integratedLoudness(of:)`), so a recording that opens quietly is judged by all of it and an
/// hour-long one costs no more than a short one; a part of 40 s or less, or a file that does not say its
/// length, is measured from its start. Measured at the recording's own rate (loudness does not depend on it,
/// so no resampling is spent on it), in the render's channels, on two threads through the decoders the caller
/// opened (and then hands on to the loudness pass).
enum BedMeasurement {
    /// Excerpts of a recording measured for its loudness, spread over the part the session plays.
    static let excerptCount = 16
    /// Each excerpt's length, seconds: 40 s measured in all (short excerpts, many of them: a recording whose
    /// level changes is sampled finely; each still holds 22 400 ms gating blocks).
    static let excerptSeconds = 2.5

    /// The integrated loudness of what a session of `heardSeconds` plays of the recording `decoders` read (its
    /// first `heardSeconds`, or all of it when shorter), LUFS, and the RMS under 15 Hz of the loudest channel over
    /// the same excerpts, dBFS (`InfrasoundMeter`: what the high-pass left that a loudness match would raise). The
    /// excerpts are split between the decoders (each a separate open of the same file, fresh at frame 0), each
    /// handed to a thread of its own (`sending`) and handed back, in order, with the result: anywhere in the
    /// recording (rewind them to read on; the loudness pass reads them next).
    /// - Throws: `BedStreamError` for a failed read or measurement.
    static func measure(
        reading decoders: sending [BedDecoder], heardSeconds: Double
    ) throws(BedStreamError) -> (loudness: Double, infrasoundDecibels: Double, decoders: [BedDecoder]) {
        guard let first = decoders.first else { return (-.infinity, -.infinity, []) }
        let spans = spans(
            heardFrames: Int64(heardSeconds * Double(first.sampleRate)), recordingFrames: first.frameCount,
            excerptFrames: Int64(excerptSeconds * Double(first.sampleRate)))
        let share = (spans.count + decoders.count - 1) / decoders.count
        // One job a decoder, even one left without excerpts (it has nothing to do), so every decoder comes back.
        let jobs = decoders.enumerated().map { index, decoder in
            let group = Array(spans.dropFirst(index * share).prefix(share))
            return { () -> (decoder: BedDecoder, measured: Result<[BedLoudness.Measurement], BedStreamError>) in
                (decoder, Result { () throws(BedStreamError) in try Self.measureExcerpts(group, reading: decoder) })
            }
        }
        let measured = ParallelRunner.run(handingOver: jobs) {}
        var measurements: [BedLoudness.Measurement] = []
        for result in measured { measurements += try result.measured.get() }
        return (
            GatedLoudnessMeter.integratedLoudness(of: measurements.map(\.meter)), InfrasoundMeter.pooled(measurements.map(\.infrasound)),
            measured.map(\.decoder)
        )
    }

    /// A measurement per excerpt of `spans`, read in order through `decoder` (one thread's, while it measures).
    private static func measureExcerpts(_ spans: [Range<Int64>], reading decoder: BedDecoder) throws(BedStreamError) -> [BedLoudness.Measurement] {
        var measurements: [BedLoudness.Measurement] = []
        for span in spans {
            // A fresh decoder already stands at frame 0 (a file that hides its length may not seek).
            if span.lowerBound > 0 { try decoder.seek(toFrame: span.lowerBound) }
            measurements.append(try BedLoudness.measure(reading: decoder, maximumFrames: span.count))
        }
        return measurements
    }

    /// The stretches of a recording measured for its loudness, in source frames: `excerptCount` excerpts of
    /// `excerptFrames`, the first at frame 0 and the last ending where the heard part ends; the whole heard part
    /// when it is no longer than all the excerpts together, or its opening that long when the recording's length
    /// is unknown (`recordingFrames` nil; reads stop at its end).
    static func spans(heardFrames: Int64, recordingFrames: Int64?, excerptFrames: Int64) -> [Range<Int64>] {
        let count = Int64(excerptCount)
        let heard = min(heardFrames, recordingFrames ?? heardFrames)
        guard recordingFrames != nil, heard > count * excerptFrames else {
            return [0..<min(heard, count * excerptFrames)]
        }
        return (0..<count).map { index in
            let start = index * (heard - excerptFrames) / (count - 1)
            return start..<(start + excerptFrames)
        }
    }
}
