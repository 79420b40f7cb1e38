import CQREncode

/// A QR code's modules (its black and white squares), made by libqrencode: what `nagi serve` draws in the terminal
/// and the studio shows as SVG, so that a phone joins by pointing its camera at the screen.
public struct QRCode: Sendable, Equatable {
    /// Modules per side (21 for version 1, 4 more per version), without the quiet zone.
    public let width: Int
    /// Whether each module is dark, row by row from the top left.
    private let darkModules: [Bool]

    /// The code of `text`'s UTF-8 bytes, in 8-bit mode at error correction level M (15 % of the code may be
    /// lost, as a screen's glare takes), in the smallest version that holds it.
    /// - Throws: `QRCodeError.cannotEncode` when the text does not fit a QR code (2331 bytes at level M).
    public init(encoding text: String) throws(QRCodeError) {
        let bytes = Array(text.utf8)
        guard let code = bytes.withUnsafeBufferPointer({ QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, QR_ECLEVEL_M) }) else {
            throw .cannotEncode(byteCount: bytes.count)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        self.width = width
        // libqrencode's bit 0 of each byte is the module's colour; the other bits say what part of the code it is.
        darkModules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module in `column` and `row` is dark; outside the code (the quiet zone) it is light.
    public func isDark(column: Int, row: Int) -> Bool {
        guard (0..<width).contains(column), (0..<width).contains(row) else { return false }
        return darkModules[row * width + column]
    }

    /// The light modules a reader needs around the code on each side.
    public static let quietZoneWidth = 4
}

/// Why a text has no QR code.
public enum QRCodeError: Error, Equatable {
    /// The text is longer than the largest code holds, or libqrencode could not allocate.
    case cannotEncode(byteCount: Int)

    /// One line saying so.
    public var message: String {
        switch self {
        case let .cannotEncode(byteCount): "a QR code cannot hold \(byteCount) bytes"
        }
    }
}
