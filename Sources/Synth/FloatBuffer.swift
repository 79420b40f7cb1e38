/// One owned allocation of Floats: tables and scratch the hot loop reads through raw pointers copied into locals
/// (no array bounds checks or copy-on-write checks per sample). Freed in deinit.
///
/// The one pointer wrapper of the render path marked `@unchecked Sendable` (so the types that hold their samples
/// in it are checked `Sendable`: a plan, a held bed, a sliced write's buffers). Safe because `base` and `count`
/// never change and the Floats are never written through a path the compiler could check: whoever writes them
/// publishes them first. A plan's and a held bed's tables are filled before their owner's init returns and only
/// read after; a renderer's scratch belongs to its renderer, which is not `Sendable` and so stays on one thread;
/// a sliced write's buffers are handed between threads under the pipeline's lock (`SlicePipeline`).
public final class FloatBuffer: @unchecked Sendable {
    /// The first element.
    public let base: UnsafeMutablePointer<Float>
    /// How many Floats.
    public let count: Int

    /// `count` Floats (at least one), zeroed unless `zeroed` is false: a buffer every sample of which is written
    /// before it is read (a sliced write's) is left untouched, so its pages are faulted in by the thread that
    /// first writes them, on its own core.
    public init(count: Int, zeroed: Bool = true) {
        self.count = max(1, count)
        // 64-byte alignment keeps SIMD loads of the first element on one cache line.
        let raw = UnsafeMutableRawPointer.allocate(byteCount: self.count * MemoryLayout<Float>.stride, alignment: 64)
        base = zeroed ? raw.initializeMemory(as: Float.self, repeating: 0, count: self.count) : raw.bindMemory(to: Float.self, capacity: self.count)
    }

    deinit { base.deallocate() }

    /// The largest magnitude in the buffer.
    public var peak: Float { SamplePeak.largestMagnitude(of: base, count: count) }
}
