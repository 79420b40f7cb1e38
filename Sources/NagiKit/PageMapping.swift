import CNagiSystem

/// One mapping of whole 2 MiB-aligned huge pages the kernel is asked to back as such (`nagi_map_large_pages`),
/// unmapped in deinit: its one owner.
///
/// Fresh memory in 4 KiB pages costs a fault each on first touch: about 1 ms a MiB on the 2-core machine,
/// against 0.1 ms in 2 MiB pages (a C loop touching 8 MiB), and unmapping them costs a tenth of that again. A render touches
/// megabytes of fresh tables and slice buffers, so its memory of that kind is mapped here. Where the kernel has
/// no huge page to give (none free, or transparent huge pages off), the same mapping works in 4 KiB pages.
final class PageMapping: @unchecked Sendable {
    /// A huge page's size on x86-64 and most 64-bit systems Linux runs on.
    static let hugePageByteCount = 2 << 20

    /// The first byte, on a huge page's boundary. Zeroed by the kernel; immutable, so shared freely.
    let start: UnsafeMutableRawPointer
    /// Bytes mapped: the size asked for rounded up to whole huge pages (a huge page is faulted whole, so a
    /// partial one would cost its memory anyway).
    let byteCount: Int

    /// A mapping of at least `byteCount` bytes, or nil when the kernel refuses one (the caller falls back to
    /// the heap).
    init?(byteCount: Int) {
        let pages = max(1, (byteCount + Self.hugePageByteCount - 1) / Self.hugePageByteCount)
        let rounded = pages * Self.hugePageByteCount
        guard let start = nagi_map_large_pages(rounded) else { return nil }
        self.start = start
        self.byteCount = rounded
    }

    deinit { nagi_unmap_large_pages(start, byteCount) }
}
