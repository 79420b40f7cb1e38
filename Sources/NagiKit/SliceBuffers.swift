/// A sliced write's sample buffers, allocated once: a worker renders into the one of the slice it took while the
/// writer reads others (`SlicePipeline` keeps them apart).
///
/// Not zeroed: a slice is rendered whole before any of it is written, so no sample is read before it is
/// written. Zeroing them touched every page (4 MiB for two workers) on the thread that starts the pipeline,
/// before any worker ran; untouched, each buffer's pages are faulted in by the worker that first renders into
/// it, on its own core.
final class SliceBuffers: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Float>
    private let samplesPerBuffer: Int

    /// `count` buffers of `samples` floats each.
    init(count: Int, samples: Int) {
        samplesPerBuffer = samples
        storage = .allocate(capacity: count * samples)
    }

    deinit { storage.deallocate() }

    /// Buffer `index`.
    func buffer(_ index: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(rebasing: storage[(index * samplesPerBuffer)..<((index + 1) * samplesPerBuffer)])
    }
}
