/// One owned, zero-initialised allocation of Floats: tables and scratch the hot loop reads through raw
/// pointers copied into locals (no array bounds checks or copy-on-write checks per sample). Freed in deinit.
final class FloatBuffer {
    /// The first element.
    let base: UnsafeMutablePointer<Float>
    /// How many Floats.
    let count: Int

    init(count: Int) {
        self.count = max(1, count)
        // 64-byte alignment keeps SIMD loads of the first element on one cache line.
        let raw = UnsafeMutableRawPointer.allocate(byteCount: self.count * MemoryLayout<Float>.stride, alignment: 64)
        base = raw.initializeMemory(as: Float.self, repeating: 0, count: self.count)
    }

    deinit { base.deallocate() }

    /// The largest magnitude in the buffer.
    var peak: Float { SamplePeak.largestMagnitude(of: base, count: count) }
}
