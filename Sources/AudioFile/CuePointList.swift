import CSndFile

/// A variable-length `SF_CUES` block: libsndfile's `SF_CUES` type holds 100 points, but `SFC_SET_CUE` and
/// `SFC_GET_CUE` (1.2.0) take any size laid out like `SF_CUES_VAR(n)`: a `uint32_t` count, then `n` points.
final class CuePointList {
    let count: Int
    /// Bytes in the block, the `datasize` libsndfile is given.
    let byteCount: Int
    let storage: UnsafeMutableRawPointer

    private static let pointsOffset = MemoryLayout<SF_CUES>.offset(of: \SF_CUES.cue_points) ?? 4

    /// Room for `count` points, all zero.
    init(count: Int) {
        self.count = count
        byteCount = Self.pointsOffset + count * MemoryLayout<SF_CUE_POINT>.stride
        storage = .allocate(byteCount: byteCount, alignment: MemoryLayout<SF_CUES>.alignment)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        storage.storeBytes(of: UInt32(count), as: UInt32.self)
    }

    /// Points at the given frames, numbered from 1, each in the `data` chunk.
    convenience init(frames: [Int64]) {
        self.init(count: frames.count)
        // RIFF chunk ids are stored as the four ASCII bytes in file order; libsndfile wants them as a
        // little-endian int32 ('d' in the low byte).
        let dataChunkID = Int32(bitPattern: 0x6174_6164)
        let cuePoints = points
        for (index, frame) in frames.enumerated() {
            var point = SF_CUE_POINT()
            point.indx = Int32(index + 1)
            point.position = UInt32(truncatingIfNeeded: frame)
            point.fcc_chunk = dataChunkID
            point.sample_offset = UInt32(truncatingIfNeeded: frame)
            cuePoints[index] = point
        }
    }

    deinit {
        storage.deallocate()
    }

    /// The count field, as libsndfile left it after `SFC_GET_CUE`.
    var storedCount: Int {
        Int(storage.load(as: UInt32.self))
    }

    var points: UnsafeMutableBufferPointer<SF_CUE_POINT> {
        let start = (storage + Self.pointsOffset).bindMemory(to: SF_CUE_POINT.self, capacity: count)
        return UnsafeMutableBufferPointer(start: start, count: count)
    }

    /// The sample offsets of the stored points, in file order.
    var frames: [Int64] {
        points.prefix(min(storedCount, count)).map { Int64($0.sample_offset) }
    }
}
