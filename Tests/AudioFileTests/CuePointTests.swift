import CSndFile
import NagiTestSupport
import Testing

@testable import AudioFile

@Suite struct CuePointTests {
    /// Writes `cueFrames` into a WAV file of `frames` quiet frames and returns its path.
    private func writeWAV(
        in folder: TemporaryFolder, frames: Int, cueFrames: [Int64], tags: AudioTags = AudioTags()
    ) throws -> String {
        let path = folder.file("cues.wav")
        let spec = AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav, tags: tags, cueFrames: cueFrames)
        let writer = try AudioFileWriter(path: path, spec: spec, overwrite: false)
        try writer.write(TestSignal.sine(frames: frames, channelCount: 2, sampleRate: 48_000, amplitude: 0.1))
        try writer.commit()
        return path
    }

    @Test func twoHundredFiftyCuePointsReadBackThroughSFC_GET_CUE() throws {
        let folder = try TemporaryFolder()
        // Phase starts of an uneven pattern: more than the 100 SF_CUES holds.
        let cueFrames = (0..<250).map { Int64($0) * 4_800 + Int64($0 % 7) * 11 }
        let path = try writeWAV(in: folder, frames: 250 * 4_800, cueFrames: cueFrames)

        #expect(try AudioFileReader.info(path: path).cueFrames == cueFrames)

        // The same through the raw commands, sized for all points.
        var info = SF_INFO()
        let handle = try #require(sf_open(path, Int32(SFM_READ), &info))
        defer { sf_close(handle) }
        var count: UInt32 = 0
        #expect(sf_command(handle, Int32(SFC_GET_CUE_COUNT), &count, 4) == SF_TRUE)
        #expect(count == 250)
        let cues = CuePointList(count: Int(count))
        #expect(sf_command(handle, Int32(SFC_GET_CUE), cues.storage, Int32(cues.byteCount)) == SF_TRUE)
        #expect(cues.storedCount == 250)
        #expect(cues.points[249].sample_offset == UInt32(cueFrames[249]))
        #expect(cues.points[249].indx == 250)
    }

    @Test func theMostCuePointsLibsndfileReadsBackDoReadBackWithLongTags() throws {
        let folder = try TemporaryFolder()
        let count = AudioFileSpec.maximumCuePointCount
        let cueFrames = (0..<count).map { Int64($0) * 96 }
        let long = String(repeating: "x", count: AudioTags.maximumTextByteCount)
        let tags = AudioTags(title: long, artist: long, album: long, comment: long, trackNumber: 1, trackCount: 1)
        let path = try writeWAV(in: folder, frames: count * 96, cueFrames: cueFrames, tags: tags)
        let info = try AudioFileReader.info(path: path)
        #expect(info.cueFrames == cueFrames)
        #expect(info.tags == tags)
    }

    @Test func chapterTitlesBecomeCueLabelsThatFFprobeReadsAsChapterNames() throws {
        let folder = try TemporaryFolder()
        let cueFrames: [Int64] = [0, 4_800, 9_601, 14_400]
        // Chapters at the first, third and fourth cue point: the second gets no label.
        let chapters = [AudioChapter(startFrame: 0, title: "Opening"), AudioChapter(startFrame: 9_601, title: "Round 1 — slow"), AudioChapter(startFrame: 14_400, title: "Hold")]
        let path = try writeWAV(in: folder, frames: 19_200, cueFrames: cueFrames, tags: AudioTags(title: "labels", chapters: chapters))
        #expect(try AudioFileReader.info(path: path).cueFrames == cueFrames)
        let probed = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_chapters", "-show_entries", "chapter=start:chapter_tags=title", "-of", "csv=p=0", path])
        #expect(probed.status == 0, "\(probed.output)")
        #expect(probed.output.split(separator: "\n") == ["0,Opening", "4800", "9601,Round 1 — slow", "14400,Hold"], "\(probed.output)")
    }

    @Test func theMostCuePointsWithTheMostLabelsAndLongTagsReadBack() throws {
        let folder = try TemporaryFolder()
        let count = AudioFileSpec.maximumCuePointCount
        let cueFrames = (0..<count).map { Int64($0) * 96 }
        let chapters = cueFrames.prefix(AudioChapter.maximumCount).enumerated().map { AudioChapter(startFrame: $1, title: "Stage \($0 + 1) — a long name for a stage") }
        let long = String(repeating: "x", count: AudioTags.maximumTextByteCount)
        let tags = AudioTags(title: long, artist: long, album: long, comment: long, trackNumber: 1, trackCount: 1, chapters: chapters)
        let path = try writeWAV(in: folder, frames: count * 96, cueFrames: cueFrames, tags: tags)
        let info = try AudioFileReader.info(path: path)
        #expect(info.cueFrames == cueFrames)
        #expect(info.tags == AudioTags(title: long, artist: long, album: long, comment: long, trackNumber: 1, trackCount: 1))
        let probed = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_chapters", "-show_entries", "chapter=start:chapter_tags=title", "-of", "csv=p=0", path])
        let lines = probed.output.split(separator: "\n")
        #expect(lines.map { $0.split(separator: ",", maxSplits: 1)[0] } == cueFrames.map { Substring(String($0)) })
        let titles = lines.map { $0.split(separator: ",", maxSplits: 1).dropFirst().first ?? "" }
        #expect(titles.count == count)
        #expect(titles.first == "Stage 1 — a long name for a stage" && titles[998] == "Stage 999 — a long name for a stage")
        let unlabelled = titles.dropFirst(999).filter { !$0.isEmpty }
        #expect(unlabelled.isEmpty, "\(unlabelled.prefix(3))")
    }

    @Test func moreCuePointsThanLibsndfileReadsAreRefusedBeforeCreating() throws {
        let folder = try TemporaryFolder()
        let cueFrames = (0...AudioFileSpec.maximumCuePointCount).map { Int64($0) * 96 }
        #expect {
            try writeWAV(in: folder, frames: 96, cueFrames: cueFrames)
        } throws: { error in
            guard case .unsupported(let text) = error as? AudioFileError else { return false }
            return text.contains("cue points")
        }
        #expect(folder.contents == [])
    }

    @Test func noCuePointsMeansNone() throws {
        let folder = try TemporaryFolder()
        let path = try writeWAV(in: folder, frames: 4_800, cueFrames: [])
        #expect(try AudioFileReader.info(path: path).cueFrames == [])
    }
}
