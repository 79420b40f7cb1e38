/// What a cover picture's bytes hold, found by walking the whole file's structure: a PNG's chunks, each with its
/// length and CRC, from IHDR to IEND; a JPEG's segments and entropy-coded scans from SOI to EOI. Nothing is
/// decompressed, but a picture cut short, with a chunk damaged or without its image data is told apart from a
/// whole one (a signature and a header alone prove nothing: issue 46).
enum CoverImageStructure: Equatable {
    /// Not this format at all: its signature is missing.
    case otherFormat
    /// This format, damaged: why, naming the format.
    case damaged(String)
    /// A whole picture of this size, in pixels.
    case whole(width: Int, height: Int)

    // MARK: - PNG

    /// The eight bytes every PNG begins with.
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Walks a PNG: the signature, an IHDR chunk of 13 bytes first, every chunk within the file and matching its
    /// CRC, at least one IDAT, and IEND (what follows IEND is not read).
    static func png(_ bytes: [UInt8]) -> CoverImageStructure {
        guard bytes.count >= 8, Array(bytes[0..<8]) == pngSignature else { return .otherFormat }
        var offset = 8
        var size: (width: Int, height: Int)?
        var hasImageData = false
        while true {
            guard offset + 12 <= bytes.count else { return .damaged("the PNG is cut short at byte \(offset), before its IEND chunk") }
            let length = bigEndian(bytes, at: offset, count: 4)
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                return .damaged("the PNG has no chunk at byte \(offset) (a damaged file)")
            }
            guard length <= 0x7FFF_FFFF, offset + 12 + length <= bytes.count else {
                return .damaged("the PNG is cut short in its \(type) chunk at byte \(offset)")
            }
            let crc = crc32(bytes[(offset + 4)..<(offset + 8 + length)])
            guard crc == UInt32(bigEndian(bytes, at: offset + 8 + length, count: 4)) else {
                return .damaged("the PNG's \(type) chunk at byte \(offset) fails its CRC check (a damaged file)")
            }
            if size == nil {
                guard type == "IHDR", length == 13 else { return .damaged("the PNG does not begin with its IHDR header") }
                let width = bigEndian(bytes, at: offset + 8, count: 4)
                let height = bigEndian(bytes, at: offset + 12, count: 4)
                guard width > 0, height > 0 else { return .damaged("the PNG's header gives it \(width)x\(height) pixels") }
                size = (width, height)
            }
            if type == "IDAT" { hasImageData = true }
            if type == "IEND" {
                guard hasImageData, let size else { return .damaged("the PNG ends without image data (no IDAT chunk)") }
                return .whole(width: size.width, height: size.height)
            }
            offset += 12 + length
        }
    }

    /// CRC-32 as PNG (and zlib) computes it: polynomial 0xEDB88320, reflected, inverted before and after.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    // MARK: - JPEG

    /// Walks a JPEG: SOI, then marker segments that each fit the file, a frame header (SOF) giving the size before
    /// the first scan, each scan's entropy-coded data up to the next marker, and EOI after at least one scan.
    static func jpeg(_ bytes: [UInt8]) -> CoverImageStructure {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .otherFormat }
        var offset = 2
        var size: (width: Int, height: Int)?
        var hasScan = false
        while true {
            guard offset < bytes.count, bytes[offset] == 0xFF else {
                return offset >= bytes.count
                    ? .damaged("the JPEG is cut short at byte \(offset), before its end marker (EOI)")
                    : .damaged("the JPEG has no marker at byte \(offset) (a damaged file)")
            }
            // Fill bytes (0xFF) may precede a marker.
            while offset + 1 < bytes.count, bytes[offset + 1] == 0xFF { offset += 1 }
            guard offset + 1 < bytes.count else { return .damaged("the JPEG is cut short at byte \(offset), before its end marker (EOI)") }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xD9:
                guard hasScan, let size else { return .damaged("the JPEG ends before any image data (no scan)") }
                return .whole(width: size.width, height: size.height)
            case 0x01, 0xD0...0xD7:
                // TEM and restart markers stand alone.
                offset += 2
                continue
            case 0x00, 0xD8:
                return .damaged("the JPEG has a stray marker 0xFF\(String(marker, radix: 16, uppercase: true)) at byte \(offset) (a damaged file)")
            default:
                break
            }
            guard offset + 4 <= bytes.count else { return .damaged("the JPEG is cut short at byte \(offset), before its end marker (EOI)") }
            let length = bigEndian(bytes, at: offset + 2, count: 2)
            guard length >= 2, offset + 2 + length <= bytes.count else {
                return .damaged("the JPEG is cut short in the segment at byte \(offset)")
            }
            // SOF0 ... SOF15 but DHT (C4), JPG (C8) and DAC (CC) hold the frame's size.
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard length >= 8 else { return .damaged("the JPEG's frame header at byte \(offset) is too short") }
                let height = bigEndian(bytes, at: offset + 5, count: 2)
                let width = bigEndian(bytes, at: offset + 7, count: 2)
                guard width > 0, height > 0 else { return .damaged("the JPEG's frame header gives it \(width)x\(height) pixels") }
                size = (width, height)
            }
            offset += 2 + length
            if marker == 0xDA {
                guard size != nil else { return .damaged("the JPEG has a scan before its frame header (SOF)") }
                hasScan = true
                // Entropy-coded data: 0xFF appears only as 0xFF00 (a stuffed byte) or a restart marker until the
                // next marker.
                while offset + 1 < bytes.count, !(bytes[offset] == 0xFF && bytes[offset + 1] != 0x00 && !(0xD0...0xD7).contains(bytes[offset + 1])) {
                    offset += 1
                }
                if offset + 1 >= bytes.count { return .damaged("the JPEG is cut short in its image data, before its end marker (EOI)") }
            }
        }
    }

    /// The unsigned big-endian number in `count` bytes at `offset`.
    private static func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
