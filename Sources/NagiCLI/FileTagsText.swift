import NagiSystem
import NagiDocuments
import NagiOptions
import AudioFile
import NagiKit

/// `nagi describe FILE`: a file's tags, chapters, gains and cover as TagLib reads them, so that an export can be
/// checked as a player sees it.
enum FileTagsText {
    /// The format of `path` when it names an existing audio file nagi writes (not raw PCM), else nil.
    static func audioFormat(of path: String) -> AudioFileFormat? {
        guard let fileExtension = OutputChoice.extensionText(of: path), let format = AudioFileFormat(fileExtension: fileExtension),
              format != .raw, FileKind.of(path) == .regularFile else { return nil }
        return format
    }

    /// The text printed for the file at `path`.
    /// - Throws: 65 "not audio" when libsndfile cannot decode it (`checkDecodes`), `.audioFile(.cannotRead)` when
    ///   TagLib cannot read it.
    static func text(path: String, format: AudioFileFormat) throws(NagiError) -> String {
        try checkDecodes(path)
        let items: [(key: String, value: String)]
        do {
            items = try TagLibFile.read(path: path, format: format)
        } catch {
            throw .audioFile(error)
        }
        var tags: [[String]] = []
        var chapterStarts: [String: String] = [:], chapterNames: [String: String] = [:]
        var pictures: [String] = []
        var length = ""
        for (key, value) in items {
            if key == ":LENGTH_MILLISECONDS", let milliseconds = Int64(value) {
                length = Microseconds.formatClock(milliseconds * 1000)
            } else if key == ":PICTURE" {
                pictures.append(value)
            } else if key.hasPrefix("CHAPTER"), key.hasSuffix("NAME") {
                chapterNames[String(key.dropLast(4))] = value
            } else if key.hasPrefix("CHAPTER") {
                chapterStarts[key] = value
            } else {
                tags.append([key.lowercased(), TerminalText.printable(value)])
            }
        }
        var text = "\(TerminalText.printable(path)): \(format.rawValue)\(length.isEmpty ? "" : ", \(length)")\n"
        text += TextTable.render([["tag", "value"]] + tags, rightAligned: [])
        if !chapterStarts.isEmpty {
            let rows = chapterStarts.keys.sorted().enumerated().map { index, key in
                [String(index + 1), chapterStarts[key] ?? "", TerminalText.printable(chapterNames[key] ?? "")]
            }
            text += "\(NumberText.count(rows.count, "chapter"))\n" + TextTable.render([["#", "start", "title"]] + rows, rightAligned: [0])
        } else {
            text += "no chapters\n"
        }
        if format == .wav, let info = try? AudioFileReader.info(path: path) {
            text += "\(NumberText.count(info.cueFrames.count, "cue point"))\n"
        }
        text += pictures.isEmpty ? "no cover\n" : pictures.map { "cover: \($0) bytes\n" }.joined()
        return text
    }

    /// Refuses a file no player could play although TagLib would describe it (garbage named .mp3, an empty .flac, a
    /// sparse .wav of zeros): libsndfile must open it as audio and decode its first frames. Not audio, no frames or
    /// damaged at once is 65; a path `InputFile` refuses 66; a failing read 74.
    static func checkDecodes(_ path: String) throws(NagiError) {
        do throws(AudioFileStreamError) {
            let stream = try AudioFileStream(path: path)
            var block = [Float](repeating: 0, count: 4096 * stream.channelCount)
            let frames = try block.withUnsafeMutableBufferPointer { buffer throws(AudioFileStreamError) in
                try stream.read(into: buffer)
            }
            guard frames > 0 else { throw .notAudio(path: path, reason: "it holds no audio frames") }
        } catch {
            switch error {
            case let .notAudio(path, reason), let .damaged(path, reason):
                throw .data("'\(path)' is not audio nagi can decode: \(reason)")
            case .cannotOpen: throw .noInput(error.message)
            case .readFailed: throw .io(error.message)
            }
        }
    }
}
