import Synth

/// A sliced write's sample buffers, allocated once: a worker renders into the one of the slice it took while the
/// writer reads others (`SlicePipeline` keeps them apart, and hands each over under its lock).
///
/// Not zeroed: a slice is rendered whole before any of it is written, so no sample is read before it is
/// written. Zeroing them touched every page (4 MiB for two workers) on the thread that starts the pipeline,
/// before any worker ran; untouched, each buffer's pages are faulted in by the worker that first renders into
/// it, on its own core.
final class SliceBuffers: Sendable {
    private let storage: FloatBuffer
    private let samplesPerBuffer: Int

    /// `count` buffers of `samples` floats each.
    init(count: Int, samples: Int) {
        samplesPerBuffer = samples
        storage = FloatBuffer(count: count * samples, zeroed: false)
    }

    /// Buffer `index`.
    func buffer(_ index: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(start: storage.base + index * samplesPerBuffer, count: samplesPerBuffer)
    }
}
