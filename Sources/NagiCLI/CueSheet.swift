import FilePaths
import NagiOptions
import AudioFile
import NagiDocuments
import NagiKit

/// A CD-style cue sheet for one rendered file: a track at each chapter, so a cue-aware player (foobar2000,
/// DeaDBeeF) lists the phases or stages. Cue times count 75 frames a second: each INDEX is the chapter's exact
/// frame rounded down to 1/75 s. At most 99 tracks (two digits); a file with more chapters gets one track.
enum CueSheet {
    /// The sheet for `fileName` (as the sheet refers to it) of `format`.
    static func text(fileName: String, format: AudioFileFormat, tags: AudioTags, sampleRate: Int) -> String {
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

    /// How the sheet at `sheetPath` names `audioPath`: the bare file name when both are in one folder (the usual
    /// case, and what players expect), else the path as given.
    static func reference(to audioPath: String, from sheetPath: String) -> String {
        let audioFolder = FilePath(audioPath).parent.string, sheetFolder = FilePath(sheetPath).parent.string
        let name = FilePath(audioPath).lastComponent
        return audioFolder == sheetFolder ? name : audioPath
    }

    /// The most tracks a cue sheet numbers (two digits).
    static let maximumTrackCount = 99

    /// "MM:SS:FF" with 75 cue frames a second (minutes may pass 99).
    static func cueTime(frame: Int64, sampleRate: Int) -> String {
        let cueFrames = frame * 75 / Int64(sampleRate)
        return "\(twoDigits(Int(cueFrames / 75 / 60))):\(twoDigits(Int(cueFrames / 75 % 60))):\(twoDigits(Int(cueFrames % 75)))"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// A double-quoted field; a quote inside becomes an apostrophe (cue sheets have no escape).
    private static func quoted(_ text: String) -> String {
        "\"" + String(text.map { $0 == "\"" ? "'" : $0 }) + "\""
    }
}
