import AudioFile
import Loudness
import Synth

/// The file being written and, for a file that gets gain tags, the meter its audio goes through on the way.
final class MeteredWriter {
    /// Frames rendered per block when one renderer renders alone (the cancellation is asked between blocks).
    static let blockFrameCount = 8192

    let writer: AudioFileWriter
    private let meter: GatedLoudnessMeter?
    /// What the renderers do to each slice before it is written (metering, conversion).
    let finishing: SliceFinishing
    /// The largest magnitude written so far (metered files only).
    private(set) var samplePeak: Float = 0
    private let channelCount: Int

    /// `writer`'s file, metered by `meter` (nil: not metered) from slices measured into `sliceBufferCount`
    /// entries of `sliceMeters`.
    init(_ writer: AudioFileWriter, meter: GatedLoudnessMeter?, sliceBufferCount: Int) {
        self.writer = writer
        self.meter = meter
        channelCount = writer.spec.channelCount
        finishing = SliceFinishing(
            meters: meter.map { SliceMeters(meter: $0, count: sliceBufferCount) }, converts: writer.takesConvertedPCM16,
            channelCount: channelCount)
    }

    /// Meters (when metering) and writes a slice, `samples`, finished (`finishing.finish`) in buffer `index`,
    /// block by block; asks `cancel` before each block.
    /// - Throws: `.cancelled`, the writer's failure as data.
    func write(slice samples: UnsafeBufferPointer<Float>, finishedIn index: Int, cancel: Cancellation) throws(SoundtrackError) {
        if let meter, let sliceMeters = finishing.meters {
            meter.add(sliceMeters.slice(index), samples: samples)
            samplePeak = max(samplePeak, sliceMeters.peak(index))
        }
        guard let base = samples.baseAddress else { return }
        let frames = samples.count / channelCount
        // Frames from `floatFrames` on are 16-bit samples already, from the float frame `floatFrames`'s address on.
        let floatFrames = finishing.floatFrameCount(buffer: index, frameCount: frames)
        let converted = UnsafeRawPointer(base + floatFrames * channelCount)
        // The same calls however the slices were rendered, so an encoder sees the same input.
        let blockFrames = writer.preferredWriteFrameCount
        var done = 0
        while done < frames {
            if cancel.isCancelled { throw .cancelled }
            let count = min(blockFrames, frames - done)
            do {
                if floatFrames == frames {
                    try writer.write(UnsafeBufferPointer(start: base + done * channelCount, count: count * channelCount))
                } else {
                    let floatCount = max(0, min(count, floatFrames - done))
                    let convertedStart = max(done, floatFrames) - floatFrames
                    try writer.write(
                        UnsafeBufferPointer(start: base + done * channelCount, count: floatCount * channelCount),
                        thenConverted: converted + convertedStart * channelCount * MemoryLayout<Int16>.stride,
                        count: (count - floatCount) * channelCount)
                }
            } catch let error as AudioFileError {
                throw .output(error)
            } catch {
                throw .writeFailed(reason: "\(error)")
            }
            done += count
        }
    }
}
