/// One owned, zero-initialised allocation of Floats: tables and scratch the hot loop reads through raw
/// pointers copied into locals (no array bounds checks or copy-on-write checks per sample). Freed with its owner.
final class FloatBuffer {
    /// The first element.
    let base: UnsafeMutablePointer<Float>
    /// How many Floats.
    let count: Int
    /// What keeps the memory: its own heap block, or a share of a plan's `TableMemory`.
    private let owner: AnyObject

    /// `count` zeros from the heap, or from `memory` when given.
    init(count: Int, memory: TableMemory? = nil) {
        self.count = max(1, count)
        let byteCount = self.count * MemoryLayout<Float>.stride
        let allocation = memory?.allocate(byteCount: byteCount) ?? .heap(byteCount: byteCount)
        owner = allocation.owner
        base = allocation.start.initializeMemory(as: Float.self, repeating: 0, count: self.count)
    }

    /// The largest magnitude in the buffer.
    var peak: Float { SamplePeak.largestMagnitude(of: base, count: count) }
}
