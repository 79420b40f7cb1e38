import AudioFile
import Loudness
import Synth

/// The file being written and, for a file that gets gain tags, the meter its audio goes through on the way.
final class MeteredWriter {
    let writer: AudioFileWriter
    private let meter: GatedLoudnessMeter?
    /// The largest magnitude written so far (metered files only).
    private(set) var samplePeak: Float = 0

    init(_ writer: AudioFileWriter, meter: GatedLoudnessMeter?) {
        self.writer = writer
        self.meter = meter
    }

    /// Meters (when metering) and writes `block`.
    /// - Throws: `.writeFailed` when the meter fails, the writer's failure as data.
    func write(_ block: UnsafeBufferPointer<Float>) throws(SoundtrackError) {
        if let meter {
            meter.add(block)
            samplePeak = max(samplePeak, SamplePeak.largestMagnitude(of: block))
        }
        do {
            try writer.write(block)
        } catch let error as AudioFileError {
            throw .output(error)
        } catch {
            throw .writeFailed(reason: "\(error)")
        }
    }
}
