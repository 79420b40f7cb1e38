import Loudness
import Synth

/// What was metered of each slice in a sliced write's buffers, one entry a buffer: the slice's loudness from
/// rest (`LoudnessSlice`) and its largest sample magnitude, measured on the thread that rendered it so the
/// writing thread only completes them in order (`MeteredWriter.write(slice:)`).
final class SliceMeters: @unchecked Sendable {
    // @unchecked: entry k is written by the one worker that rendered into buffer k and read by the writer only
    // after the pipeline handed that buffer over under its lock (as `SliceBuffers`).
    private let slices: [LoudnessSlice]
    private let peaks: UnsafeMutableBufferPointer<Float>

    /// `count` entries for the slices of `meter`'s stream.
    init(meter: GatedLoudnessMeter, count: Int) {
        slices = (0..<count).map { _ in meter.makeSlice() }
        peaks = .allocate(capacity: count)
        peaks.initialize(repeating: 0)
    }

    deinit { peaks.deallocate() }

    /// Meters `samples`, the stream's frames from `firstFrame` on, into entry `index`.
    func measure(_ samples: UnsafeBufferPointer<Float>, firstFrame: Int64, into index: Int) {
        let slice = slices[index]
        slice.measure(samples, firstFrame: firstFrame)
        peaks[index] = slice.largestMagnitude(of: samples)
    }

    /// Entry `index`'s loudness slice.
    func slice(_ index: Int) -> LoudnessSlice { slices[index] }

    /// Entry `index`'s largest sample magnitude.
    func peak(_ index: Int) -> Float { peaks[index] }
}
