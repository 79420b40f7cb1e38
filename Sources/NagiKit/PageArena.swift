import Synth

/// A render plan's table memory (`TableMemory`): its noise loops and guide tables packed one after another into
/// huge-page mappings (`PageMapping`), so the few megabytes a plan compiles are faulted in a few 2 MiB pages
/// instead of about a thousand 4 KiB ones, on the thread that compiles the plan, before the first sample.
///
/// Nothing is given back before the plan goes: a table keeps its mapping alive, and a mapping goes with the last
/// table in it. For one plan's compile on one thread.
final class PageArena: TableMemory {
    /// The size of a fresh mapping: a default plan's tables (two 6 s noise loops and four chimes at 48 kHz, about
    /// 3.5 MiB) fit in one.
    static let mappingByteCount = 4 << 20

    private var mapping: PageMapping?
    /// Bytes of `mapping` handed out.
    private var usedByteCount = 0

    func allocate(byteCount: Int) -> TableAllocation {
        // Every table starts on a 64-byte line, as the heap's do.
        let needed = (max(1, byteCount) + 63) & ~63
        if let mapping, usedByteCount + needed <= mapping.byteCount {
            defer { usedByteCount += needed }
            return TableAllocation(start: mapping.start, owner: mapping)
        }
        guard let fresh = PageMapping(byteCount: max(Self.mappingByteCount, needed)) else {
            return .heap(byteCount: byteCount)
        }
        mapping = fresh
        usedByteCount = needed
        return TableAllocation(start: fresh.start, owner: fresh)
    }
}
