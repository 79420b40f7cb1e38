/// Where a render plan's tables (noise loops, chimes, ticks, clips) get their memory: the heap unless the plan's
/// maker passes its own.
///
/// A plan writes a few megabytes of tables on the thread that compiles it, before the first sample, and fresh
/// memory is faulted in a 4 KiB page at a time (about 1 ms a MiB on the 2-core machine, most of a plan's first
/// touches). Asking the kernel for 2 MiB pages is a system call, which this module does not make; NagiKit's
/// `PageArena` does, and packs the tables into a few such pages.
public protocol TableMemory: AnyObject {
    /// `byteCount` bytes, 64-byte aligned, readable and writable for as long as the allocation's `owner` lives.
    func allocate(byteCount: Int) -> TableAllocation
}

/// Memory from a `TableMemory`: where it starts, and the object that keeps it.
public struct TableAllocation {
    /// The first byte, 64-byte aligned.
    public let start: UnsafeMutableRawPointer
    /// Kept by whatever uses the memory; the memory is freed once no owner is left.
    public let owner: AnyObject

    public init(start: UnsafeMutableRawPointer, owner: AnyObject) {
        self.start = start
        self.owner = owner
    }

    /// `byteCount` bytes of its own from the heap, freed with its owner.
    public static func heap(byteCount: Int) -> TableAllocation {
        let block = HeapBlock(byteCount: byteCount)
        return TableAllocation(start: block.start, owner: block)
    }

    /// One heap allocation, freed in deinit.
    private final class HeapBlock {
        let start: UnsafeMutableRawPointer

        init(byteCount: Int) {
            // 64-byte alignment keeps SIMD loads of the first element on one cache line.
            start = UnsafeMutableRawPointer.allocate(byteCount: max(1, byteCount), alignment: 64)
        }

        deinit { start.deallocate() }
    }
}
