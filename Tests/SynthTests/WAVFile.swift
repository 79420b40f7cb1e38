import Foundation

/// A minimal WAV writer (IEEE float, interleaved) for measuring renders with ffmpeg; the product's files go
/// through the AudioFile module.
enum WAVFile {
    static func write(_ samples: [Float], channels: Int, sampleRate: Int, to url: URL) throws {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let payload = samples.count * 4
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + payload))
        data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); append(UInt32(16))
        append(UInt16(3)); append(UInt16(channels)); append(UInt32(sampleRate))
        append(UInt32(sampleRate * channels * 4)); append(UInt16(channels * 4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(payload))
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: url)
    }
}
