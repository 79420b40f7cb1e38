import AudioFile
import Loudness
import Synth

/// The file being written and, for a file that gets gain tags, the meter its audio goes through on the way.
final class MeteredWriter {
    /// Frames rendered per block when one renderer renders alone (the cancellation is asked between blocks).
    static let blockFrameCount = 8192

    let writer: AudioFileWriter
    private let meter: GatedLoudnessMeter?
    /// What the renderers metered of the slices in their buffers (metered files only).
    let sliceMeters: SliceMeters?
    /// The largest magnitude written so far (metered files only).
    private(set) var samplePeak: Float = 0
    private let channelCount: Int

    /// `writer`'s file, metered by `meter` (nil: not metered) from slices measured into `sliceBufferCount`
    /// entries of `sliceMeters`.
    init(_ writer: AudioFileWriter, meter: GatedLoudnessMeter?, sliceBufferCount: Int) {
        self.writer = writer
        self.meter = meter
        channelCount = writer.spec.channelCount
        sliceMeters = meter.map { SliceMeters(meter: $0, count: sliceBufferCount) }
    }

    /// Meters (when metering) and writes a slice, `samples`, whose measurement is in entry `index` of
    /// `sliceMeters`, block by block; asks `cancel` before each block.
    /// - Throws: `.cancelled`, the writer's failure as data.
    func write(slice samples: UnsafeBufferPointer<Float>, measuredIn index: Int, cancel: Cancellation) throws(SoundtrackError) {
        if let meter, let sliceMeters {
            meter.add(sliceMeters.slice(index), samples: samples)
            samplePeak = max(samplePeak, sliceMeters.peak(index))
        }
        let frames = samples.count / channelCount
        // The same calls however the slices were rendered, so an encoder sees the same input.
        let blockFrames = writer.preferredWriteFrameCount
        var done = 0
        while done < frames {
            if cancel.isCancelled { throw .cancelled }
            let count = min(blockFrames, frames - done)
            do {
                try writer.write(UnsafeBufferPointer(rebasing: samples[(done * channelCount)..<((done + count) * channelCount)]))
            } catch let error as AudioFileError {
                throw .output(error)
            } catch {
                throw .writeFailed(reason: "\(error)")
            }
            done += count
        }
    }
}
