import Foundation
import NagiTestSupport
import Testing
@testable import AudioFile

/// Issue 46, defect 14: a cover is checked as a whole image, not by its signature: a PNG's chunks with their CRCs up
/// to IEND, a JPEG's segments up to EOI.
@Suite("Cover pictures are checked whole")
struct CoverArtTests {
    /// A real picture made by ffmpeg (`name` ends in .png or .jpg), as bytes.
    static func picture(_ name: String) throws -> [UInt8] {
        let folder = try TemporaryFolder()
        let made = try Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=64x48", "-frames:v", "1", folder.file(name)])
        try #require(made.status == 0, "\(made.output)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: folder.file(name))))
    }

    @Test("whole PNG and JPEG pictures are taken, with their size")
    func wholePictures() throws {
        let png = try CoverArt(bytes: try Self.picture("c.png"), path: "c.png")
        #expect(png.mimeType == "image/png" && png.width == 64 && png.height == 48)
        let jpeg = try CoverArt(bytes: try Self.picture("c.jpg"), path: "c.jpg")
        #expect(jpeg.mimeType == "image/jpeg" && jpeg.width == 64 && jpeg.height == 48)
    }

    /// Damage done to a picture's bytes, and what the refusal must say.
    struct Damage: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var damage: @Sendable ([UInt8]) -> [UInt8]
        var testDescription: String { name }
    }

    static let damages: [Damage] = [
        Damage(name: "PNG cut to 100 bytes", file: "c.png") { Array($0.prefix(100)) },
        Damage(name: "PNG without its IEND chunk", file: "c.png") { Array($0.dropLast(12)) },
        Damage(name: "PNG with a flipped bit in its image data", file: "c.png") { bytes in
            var damaged = bytes
            damaged[damaged.count / 2] ^= 0x10
            return damaged
        },
        Damage(name: "PNG signature and IHDR only", file: "c.png") { Array($0.prefix(33)) },
        Damage(name: "JPEG cut in half", file: "c.jpg") { Array($0.prefix($0.count / 2)) },
        Damage(name: "JPEG without its EOI marker", file: "c.jpg") { Array($0.dropLast(2)) },
        Damage(name: "JPEG start and frame header only", file: "c.jpg") { bytes in
            // SOI, then the bytes up to the end of the first SOF segment.
            guard let sof = (2..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else { return bytes }
            let length = Int(bytes[sof + 2]) << 8 | Int(bytes[sof + 3])
            return Array(bytes[0..<2]) + Array(bytes[sof..<(sof + 2 + length)])
        },
    ]

    @Test("a damaged picture is refused as bad data, naming what is wrong", arguments: damages)
    func damagedPictures(damage: Damage) throws {
        let bytes = damage.damage(try Self.picture(damage.file))
        let error = try #require(throws: AudioFileError.self) { try CoverArt(bytes: bytes, path: damage.file) }
        #expect(error.category == .badData)
        guard case let .badCover(path, reason) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(path == damage.file)
        #expect(reason.contains(damage.file.hasSuffix("png") ? "PNG" : "JPEG"), "\(reason)")
    }
}
