import Foundation
import NagiTestSupport
import Testing

@testable import AudioFile

@Suite struct QualityTests {
    private func fileSize(format: AudioFileFormat, quality: Double?, sampleRate: Int = 48_000) throws -> Int {
        let folder = try TemporaryFolder()
        let path = folder.file("q.\(format.fileExtension)")
        let writer = try AudioFileWriter(
            path: path,
            spec: AudioFileSpec(sampleRate: sampleRate, channelCount: 2, format: format, quality: quality),
            overwrite: false)
        try writer.write(TestSignal.noisySine(frames: sampleRate * 3, channelCount: 2, sampleRate: sampleRate))
        try writer.commit()
        #expect(try AudioFileReader.info(path: path).frameCount == Int64(sampleRate * 3))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? Int) ?? 0
    }

    /// 1 is best: for a lossy format, more quality spends more bits.
    @Test(arguments: [AudioFileFormat.ogg, .opus, .mp3])
    func higherQualityMakesLargerLossyFiles(format: AudioFileFormat) throws {
        let low = try fileSize(format: format, quality: 0)
        let middle = try fileSize(format: format, quality: 0.5)
        let best = try fileSize(format: format, quality: 1)
        #expect(low < middle, "\(format): q0 \(low) B, q0.5 \(middle) B")
        #expect(middle < best, "\(format): q0.5 \(middle) B, q1 \(best) B")
    }

    /// FLAC is lossless: quality is compression effort, 1 the smallest file.
    @Test func flacQualityOneCompressesMost() throws {
        let fastest = try fileSize(format: .flac, quality: 0)
        let smallest = try fileSize(format: .flac, quality: 1)
        #expect(smallest < fastest, "q0 \(fastest) B, q1 \(smallest) B")
    }

    @Test func mp3QualityZeroWorksAtEveryRate() throws {
        for rate in [8_000, 22_050, 44_100] {
            #expect(try fileSize(format: .mp3, quality: 0, sampleRate: rate) > 0)
        }
    }
}
