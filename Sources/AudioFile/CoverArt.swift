import Glibc

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

    /// Checks `bytes` as a PNG or JPEG picture.
    /// - Throws: `.badCover` naming `path` when the bytes are not a PNG or JPEG image, or are too large.
    public init(bytes: [UInt8], path: String) throws(AudioFileError) {
        guard bytes.count <= Self.maximumByteCount else {
            throw .badCover(path: path, reason: "it is \(bytes.count) bytes; a cover may hold at most \(Self.maximumByteCount) (4 MiB)")
        }
        if let size = Self.pngSize(bytes) {
            mimeType = "image/png"
            (width, height) = size
        } else if let size = Self.jpegSize(bytes) {
            mimeType = "image/jpeg"
            (width, height) = size
        } else {
            throw .badCover(path: path, reason: "it is not a PNG or JPEG image")
        }
        self.bytes = bytes
    }

    /// Reads and checks the picture at `path`.
    /// - Throws: `.cannotRead` when it cannot be read, `.badCover` when it is no PNG or JPEG or too large.
    public init(contentsOf path: String) throws(AudioFileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: "open: \(SystemErrorText.errno(errno))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotRead(path: path, reason: "fstat: \(SystemErrorText.errno(errno))") }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .badCover(path: path, reason: "it is not a regular file") }
        // One byte past the limit is enough to know it is too large, whatever the file's real size.
        let limit = Self.maximumByteCount + 1
        var bytes = [UInt8](repeating: 0, count: min(Int(status.st_size), limit))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .cannotRead(path: path, reason: "read: \(SystemErrorText.errno(errno))") }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        if filled == bytes.count, Int(status.st_size) > Self.maximumByteCount {
            throw .badCover(path: path, reason: "it is \(status.st_size) bytes; a cover may hold at most \(Self.maximumByteCount) (4 MiB)")
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

    /// Width and height from a PNG's IHDR chunk, or nil when the bytes are not a PNG.
    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        return width > 0 && height > 0 ? (width, height) : nil
    }

    /// Width and height from a JPEG's start-of-frame segment, or nil when the bytes are not a JPEG.
    static func jpegSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2 else { return nil }
            // SOF0 ... SOF15 but DHT (C4), JPG (C8) and DAC (CC) hold the frame's size.
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return width > 0 && height > 0 ? (width, height) : nil
            }
            index += 2 + length
        }
        return nil
    }
}
