/// A front-cover picture for a file's tags: PNG or JPEG bytes, checked, at most `maximumByteCount`.
public struct CoverArt: Sendable, Equatable, CustomStringConvertible {
    public let bytes: [UInt8]
    /// "image/png" or "image/jpeg".
    public let mimeType: String
    /// Pixels, read from the image's header.
    public let width: Int
    public let height: Int

    /// The largest cover nagi embeds: a cover is copied into every track of an album, and 4 MiB keeps an ID3v2
    /// frame and a FLAC picture block well inside their limits (16 MiB).
    public static let maximumByteCount = 4 * 1024 * 1024

    /// Checks `bytes` as a whole PNG or JPEG picture (`CoverImageStructure`: every PNG chunk and its CRC up to IEND,
    /// every JPEG segment and scan up to EOI).
    /// - Throws: `.badCover` naming `path` when the bytes are not a PNG or JPEG image, are damaged or cut short, or
    ///   are too large.
    public init(bytes: [UInt8], path: String) throws(AudioFileError) {
        guard bytes.count <= Self.maximumByteCount else {
            throw .badCover(path: path, reason: "it is over \(Self.maximumByteCount) bytes; a cover may hold at most \(Self.maximumByteCount) (4 MiB)")
        }
        let png = CoverImageStructure.png(bytes)
        let structure = png == .otherFormat ? CoverImageStructure.jpeg(bytes) : png
        switch structure {
        case .otherFormat:
            throw .badCover(path: path, reason: "it is not a PNG or JPEG image")
        case let .damaged(reason):
            throw .badCover(path: path, reason: reason)
        case let .whole(width, height):
            mimeType = png == .otherFormat ? "image/jpeg" : "image/png"
            (self.width, self.height) = (width, height)
        }
        self.bytes = bytes
    }

    /// Reads and checks the picture at `path`, under `InputFile`'s rule: a missing path, a folder, a pipe or a
    /// device is refused before a byte is read, and a FIFO never blocks.
    /// - Throws: `.cannotRead` when it cannot be read, `.readFailed` when a read fails part way, `.badCover` when
    ///   it is no whole PNG or JPEG or too large.
    public init(contentsOf path: String) throws(AudioFileError) {
        let bytes: [UInt8]
        do {
            // One byte past the limit is enough to know it is too large, whatever the file's real size.
            bytes = try InputFile.read(path, limit: Self.maximumByteCount)
        } catch {
            switch error {
            case let .refused(path, reason): throw .cannotRead(path: path, reason: reason)
            case let .readFailed(path, reason): throw .readFailed(path: path, reason: reason)
            }
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Short, so that a fingerprint or a log line never carries the picture itself.
    public var description: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return "\(mimeType) \(width)x\(height) \(bytes.count) bytes \(String(hash, radix: 16))"
    }
}
