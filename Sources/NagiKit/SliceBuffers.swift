/// A sliced write's sample buffers, allocated once and zeroed: a worker renders into the one of the slice it
/// took while the writer reads others (`SlicePipeline` keeps them apart).
final class SliceBuffers: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Float>
    private let samplesPerBuffer: Int

    /// `count` buffers of `samples` floats each.
    init(count: Int, samples: Int) {
        samplesPerBuffer = samples
        storage = .allocate(capacity: count * samples)
        storage.initialize(repeating: 0)
    }

    deinit { storage.deallocate() }

    /// Buffer `index`.
    func buffer(_ index: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(rebasing: storage[(index * samplesPerBuffer)..<((index + 1) * samplesPerBuffer)])
    }
}
