import NagiBase
import AudioFile
import NagiDocuments
import NagiKit

/// A CD-style cue sheet for one rendered file: a track at each chapter, so a cue-aware player (foobar2000,
/// DeaDBeeF) lists the phases or stages. Cue times count 75 frames a second: each INDEX is the chapter's exact
/// frame rounded down to 1/75 s. At most 99 tracks (two digits); a file with more chapters gets one track.
package enum CueSheet {
    /// The sheet for `fileName` (as the sheet refers to it) of `format`.
    package static func text(fileName: String, format: AudioFileFormat, tags: AudioTags, sampleRate: Int) -> String {
        var text = ""
        if let genre = tags.genre { text += "REM GENRE \(quoted(genre))\n" }
        if let date = tags.date, !date.isEmpty { text += "REM DATE \(date)\n" }
        if let comment = tags.comment { text += "REM COMMENT \(quoted(comment))\n" }
        if let artist = tags.artist { text += "PERFORMER \(quoted(artist))\n" }
        if let title = tags.title { text += "TITLE \(quoted(title))\n" }
        text += "FILE \(quoted(fileName)) \(format == .mp3 ? "MP3" : "WAVE")\n"
        // More chapters than a sheet numbers give one track for the whole file, not a list that stops early.
        let whole = [AudioChapter(startFrame: 0, title: tags.title ?? "nagi")]
        let chapters = tags.chapters.isEmpty || tags.chapters.count > maximumTrackCount ? whole : tags.chapters
        for (index, chapter) in chapters.enumerated() {
            text += "  TRACK \(twoDigits(index + 1)) AUDIO\n"
            text += "    TITLE \(quoted(chapter.title))\n"
            if let artist = tags.artist { text += "    PERFORMER \(quoted(artist))\n" }
            text += "    INDEX 01 \(cueTime(frame: chapter.startFrame, sampleRate: sampleRate))\n"
        }
        return text
    }

    /// The sheet of an album of several files (a course's tracks, as `course export` names them): one track a file,
    /// titled as the file's own tags say, each starting at the file's first frame; the album's title and artist from
    /// the first file's tags. At most 99 files are listed (two digits).
    package static func albumText(files: [(fileName: String, format: AudioFileFormat, tags: AudioTags)]) -> String {
        var text = ""
        if let first = files.first?.tags {
            if let genre = first.genre { text += "REM GENRE \(quoted(genre))\n" }
            if let artist = first.artist { text += "PERFORMER \(quoted(artist))\n" }
            if let album = first.album ?? first.title { text += "TITLE \(quoted(album))\n" }
        }
        for (index, file) in files.prefix(maximumTrackCount).enumerated() {
            text += "FILE \(quoted(file.fileName)) \(file.format == .mp3 ? "MP3" : "WAVE")\n"
            text += "  TRACK \(twoDigits(index + 1)) AUDIO\n"
            text += "    TITLE \(quoted(file.tags.title ?? file.fileName))\n"
            if let artist = file.tags.artist { text += "    PERFORMER \(quoted(artist))\n" }
            text += "    INDEX 01 00:00:00\n"
        }
        return text
    }

    /// How the sheet at `sheetPath` names `audioPath`: the bare file name when both are in one folder (the usual
    /// case, and what players expect), else the path as given.
    package static func reference(to audioPath: String, from sheetPath: String) -> String {
        let audioFolder = FilePath(audioPath).parent.string, sheetFolder = FilePath(sheetPath).parent.string
        let name = FilePath(audioPath).lastComponent
        return audioFolder == sheetFolder ? name : audioPath
    }

    /// The most tracks a cue sheet numbers (two digits).
    package static let maximumTrackCount = 99

    /// "MM:SS:FF" with 75 cue frames a second (minutes may pass 99).
    package static func cueTime(frame: Int64, sampleRate: Int) -> String {
        let cueFrames = frame * 75 / Int64(sampleRate)
        return "\(twoDigits(Int(cueFrames / 75 / 60))):\(twoDigits(Int(cueFrames / 75 % 60))):\(twoDigits(Int(cueFrames % 75)))"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// A double-quoted field; a quote inside becomes an apostrophe (cue sheets have no escape).
    private static func quoted(_ text: String) -> String {
        "\"" + String(text.map { $0 == "\"" ? "'" : $0 }) + "\""
    }
}
