/// A sliced write's sample buffers, allocated once: a worker renders into the one of the slice it took while the
/// writer reads others (`SlicePipeline` keeps them apart).
///
/// Not zeroed: a slice is rendered whole before any of it is written, so no sample is read before it is
/// written. Zeroing them touched every page (4 MiB for two workers) on the thread that starts the pipeline,
/// before any worker ran; untouched, each buffer's pages are faulted in by the worker that first renders into
/// it, on its own core.
///
/// In huge pages where the kernel gives them (`PageMapping`): renderer r's buffers 2r and 2r + 1 (1 MiB each in
/// stereo at 2¹⁷ frames) fill one 2 MiB page, faulted once instead of 512 times.
final class SliceBuffers: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Float>
    private let samplesPerBuffer: Int
    /// The storage's mapping; nil when the kernel refused one and the storage is the heap's.
    private let mapping: PageMapping?

    /// `count` buffers of `samples` floats each.
    init(count: Int, samples: Int) {
        samplesPerBuffer = samples
        let floatCount = count * samples
        mapping = PageMapping(byteCount: floatCount * MemoryLayout<Float>.stride)
        if let mapping {
            storage = UnsafeMutableBufferPointer(start: mapping.start.bindMemory(to: Float.self, capacity: floatCount), count: floatCount)
        } else {
            storage = .allocate(capacity: floatCount)
        }
    }

    deinit { if mapping == nil { storage.deallocate() } }

    /// Buffer `index`.
    func buffer(_ index: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(rebasing: storage[(index * samplesPerBuffer)..<((index + 1) * samplesPerBuffer)])
    }
}
