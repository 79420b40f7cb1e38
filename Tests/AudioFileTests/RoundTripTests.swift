import CSndFile
import Foundation
import NagiTestSupport
import Testing

@testable import AudioFile

/// Every format and encoding nagi allows, written for real and read back through libsndfile.
@Suite struct RoundTripTests {
    static let tags = AudioTags(
        title: "Box breathing 4-4-4-4", artist: "nagi", album: "21 days", comment: "Breathe with eyes closed.",
        trackNumber: 3, trackCount: 21)

    /// Every allowed (format, encoding) pair; lossy formats take one (their encoding is ignored).
    static let allowedPairs: [(AudioFileFormat, SampleEncoding)] = [
        (.wav, .pcm16), (.wav, .pcm24), (.wav, .float), (.flac, .pcm16), (.flac, .pcm24),
        (.ogg, .pcm16), (.opus, .pcm16), (.mp3, .pcm16),
    ]

    @Test(arguments: allowedPairs)
    func sineReadsBackWithLengthRateChannelsAndTags(format: AudioFileFormat, encoding: SampleEncoding) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("track.\(format.fileExtension)")
        let sampleRate = 48_000
        let frames = 48_000 + 123
        let spec = AudioFileSpec(
            sampleRate: sampleRate, channelCount: 2, format: format, encoding: encoding, tags: Self.tags)
        let samples = TestSignal.sine(frames: frames, channelCount: 2, sampleRate: sampleRate)

        let writer = try AudioFileWriter(path: path, spec: spec, overwrite: false)
        try writer.write(samples)
        #expect(writer.framesWritten == Int64(frames))
        try writer.commit()

        let info = try AudioFileReader.info(path: path)
        #expect(info.frameCount == Int64(frames))
        #expect(info.sampleRate == sampleRate)
        #expect(info.channelCount == 2)
        #expect(info.format == format)
        #expect(info.tags == Self.tags)
        #expect(folder.contents == ["track.\(format.fileExtension)"])

        let decoded = try AudioFileReader.readFloat(path: path)
        #expect(decoded.count == samples.count)
        if format.isLossy {
            // The tone survives: same loudness within a quarter.
            let ratio = Signal.rms(decoded) / Signal.rms(samples)
            #expect(ratio > 0.75 && ratio < 1.25, "RMS ratio \(ratio)")
        } else {
            let step: Float
            switch encoding {
            case .pcm16: step = 1.0 / 32_768
            case .pcm24: step = 1.0 / 8_388_608
            case .float: step = 0
            }
            let worst = zip(decoded, samples).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= step, "largest difference \(worst), one step \(step)")
        }
    }

    @Test(arguments: [1, 2, 6, 8])
    func channelCountsReadBack(channelCount: Int) throws {
        let folder = try TemporaryFolder()
        // Raw PCM carries no rate or channel count to read back.
        for format in AudioFileFormat.allCases where channelCount <= format.maximumChannelCount && format != .raw {
            let path = folder.file("c\(channelCount).\(format.fileExtension)")
            let spec = AudioFileSpec(sampleRate: 24_000, channelCount: channelCount, format: format)
            let writer = try AudioFileWriter(path: path, spec: spec, overwrite: false)
            try writer.write(TestSignal.sine(frames: 12_000, channelCount: channelCount, sampleRate: 24_000))
            try writer.commit()
            let info = try AudioFileReader.info(path: path)
            #expect(info.channelCount == channelCount, "\(format)")
            #expect(info.frameCount == 12_000, "\(format)")
        }
    }

    @Test("a ranged read returns the same frames as a whole read, in WAV and FLAC, and stops at the end", arguments: [AudioFileFormat.wav, .flac])
    func rangedReadMatchesTheWholeRead(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("track.\(format.fileExtension)")
        let frames = 100_000
        let spec = AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: format, encoding: .pcm16, tags: AudioTags())
        let writer = try AudioFileWriter(path: path, spec: spec, overwrite: false)
        try writer.write(TestSignal.sine(frames: frames, channelCount: 2, sampleRate: 48_000))
        try writer.commit()
        let whole = try AudioFileReader.readFloat(path: path)
        for (start, count) in [(0, 10), (12_345, 4_096), (99_990, 10), (99_995, 100)] {
            let part = try AudioFileReader.readFloat(path: path, startFrame: Int64(start), frameCount: count)
            let end = min(frames, start + count)
            #expect(part == Array(whole[(2 * start)..<(2 * end)]), "frames \(start)..<\(end)")
        }
        #expect(throws: AudioFileError.self) { try AudioFileReader.readFloat(path: path, startFrame: 200_000, frameCount: 1) }
    }

    /// Writes a tenth of a second of mono sine with `tags` as `format` at `path`; the tags libsndfile reads back.
    static func tagsReadBack(_ tags: AudioTags, format: AudioFileFormat, path: String) throws -> AudioTags {
        let spec = AudioFileSpec(sampleRate: 48_000, channelCount: 1, format: format, tags: tags)
        let writer = try AudioFileWriter(path: path, spec: spec, overwrite: false)
        try writer.write(TestSignal.sine(frames: 4800, channelCount: 1, sampleRate: 48_000))
        try writer.commit()
        return try AudioFileReader.info(path: path).tags
    }

    @Test func trackNumberWithoutCountAndPartialTagsReadBack() throws {
        let folder = try TemporaryFolder()
        let tags = AudioTags(title: "Only a title", trackNumber: 7)
        for format in AudioFileFormat.allCases where format.supportsTags {
            let path = folder.file("t.\(format.fileExtension)")
            #expect(try Self.tagsReadBack(tags, format: format, path: path) == tags, "\(format)")
        }
    }

    @Test func unicodeTagsReadBackWhereTheFormatHoldsThem() throws {
        let folder = try TemporaryFolder()
        let unicode = AudioTags(title: "凪 — the sea gone still", artist: "Ärtist")
        for format in AudioFileFormat.allCases where format.supportsUnicodeTags && format.supportsTags {
            let path = folder.file("u.\(format.fileExtension)")
            #expect(try Self.tagsReadBack(unicode, format: format, path: path) == unicode, "\(format)")
        }
        // Latin-1 text stays the same text in MP3's UTF-8 frames.
        let latin1 = AudioTags(title: "Café à la mer", artist: "Ärtist")
        #expect(try Self.tagsReadBack(latin1, format: .mp3, path: folder.file("latin1.mp3")) == latin1)
    }

    @Test func anMP3FilesUnicodeTitleReadsBackThroughFFprobe() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("u.mp3")
        let tags = AudioTags(title: "凪 — the sea gone still", artist: "Ärtist")
        let writer = try AudioFileWriter(path: path, spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .mp3, tags: tags), overwrite: false)
        try writer.write(TestSignal.sine(frames: 4_800, channelCount: 2, sampleRate: 48_000))
        try writer.commit()
        let probed = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format_tags=title,artist", "-of", "default=noprint_wrappers=1", path])
        #expect(probed.status == 0, "\(probed.output)")
        #expect(probed.output.split(separator: "\n").sorted() == ["TAG:artist=Ärtist", "TAG:title=凪 — the sea gone still"], "\(probed.output)")
    }

    @Test func longTagsReadBack() throws {
        let folder = try TemporaryFolder()
        let long = String(repeating: "breathe in, hold, breathe out. ", count: 32)  // 992 bytes
        let tags = AudioTags(title: long, comment: long)
        for format in AudioFileFormat.allCases where format.supportsTags {
            let path = folder.file("long.\(format.fileExtension)")
            #expect(try Self.tagsReadBack(tags, format: format, path: path) == tags, "\(format)")
        }
    }

    @Test func emptyFileCommits() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("empty.wav")
        let writer = try AudioFileWriter(
            path: path, spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav), overwrite: false)
        try writer.commit()
        #expect(try AudioFileReader.info(path: path).frameCount == 0)
    }

    @Test func readingAMissingFileThrowsCannotRead() {
        #expect {
            try AudioFileReader.info(path: "/nonexistent-nagi-folder/none.wav")
        } throws: { error in
            guard case .cannotRead(_, let reason) = error as? AudioFileError else { return false }
            return reason.hasPrefix("sf_open: ")
        }
    }
}
