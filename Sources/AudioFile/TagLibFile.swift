import CTagLib
import Glibc

/// A finished audio file's tags through TagLib (the `CTagLib` shim): written before the file is published,
/// read back for `nagi describe FILE`.
public enum TagLibFile {
    /// Writes `tags` into the file at `path` (TagLib rewrites it in place; the caller fsyncs it after).
    /// `frameCount` and `sampleRate` place the chapters; the last one ends at the file's end. A WAV file's
    /// `cueFrames` (its cue points, in order) that start a chapter get the chapter's title as labelled text.
    /// - Throws: `.writeFailed` naming `reportedPath` and TagLib's reason.
    static func write(_ tags: AudioTags, to path: String, reportedPath: String, format: AudioFileFormat, sampleRate: Int, frameCount: Int64, cueFrames: [Int64] = []) throws(AudioFileError) {
        guard let tagLibFormat = format.tagLibFormat else { return }
        try write(fields: fields(of: tags, format: format, sampleRate: sampleRate), chapters: id3Chapters(of: tags, format: format, sampleRate: sampleRate, frameCount: frameCount), cover: tags.cover, cueLabels: format == .wav ? cueLabels(of: tags, cueFrames: cueFrames) : [], replacing: true, path: path, reportedPath: reportedPath, format: tagLibFormat)
    }

    /// (cue ID, chapter title) for every cue point where a chapter starts; IDs count from 1 in `cueFrames` order,
    /// as `CuePointList` numbers them.
    static func cueLabels(of tags: AudioTags, cueFrames: [Int64]) -> [(cueID: UInt32, text: String)] {
        var titles: [Int64: String] = [:]
        for chapter in tags.chapters { titles[chapter.startFrame] = chapter.title }
        return cueFrames.enumerated().compactMap { index, frame in
            titles[frame].map { (UInt32(index + 1), $0) }
        }
    }

    /// Sets the album gains in a file already tagged, keeping everything else.
    /// - Throws: `.writeFailed` naming `reportedPath`.
    static func addAlbumGain(_ gain: ReplayGain, to path: String, reportedPath: String, format: AudioFileFormat) throws(AudioFileError) {
        guard let tagLibFormat = format.tagLibFormat else { return }
        try write(fields: gain.albumFields(for: format), chapters: [], cover: nil, cueLabels: [], replacing: false, path: path, reportedPath: reportedPath, format: tagLibFormat)
    }

    /// Gives the published file at `path` the album gains of `gain`, unless it has them already (returns false).
    /// The file is copied beside itself, tagged, fsynced and renamed over the original, then the folder fsynced:
    /// a failure leaves the track as it was and no copy behind.
    /// - Throws: `.writeFailed` naming `path`, `.cannotRead` when it cannot be read.
    public static func setAlbumGain(_ gain: ReplayGain, inPublishedFile path: String, format: AudioFileFormat) throws(AudioFileError) -> Bool {
        let wanted = gain.albumFields(for: format)
        let present = try read(path: path, format: format)
        if wanted.allSatisfy({ field in present.contains { $0.key == field.key && $0.value == field.value } }) { return false }
        let copyPath = OutputTarget.temporaryPath(for: path, pid: getpid())
        do {
            try FileCopy.copy(path, to: copyPath)
            try addAlbumGain(gain, to: copyPath, reportedPath: path, format: format)
            try FileCopy.syncAndReplace(copyPath, over: path)
        } catch {
            unlink(copyPath)
            throw error
        }
        return true
    }

    /// Every item TagLib reads back from the file at `path`, in the order it gives them: property names
    /// ("TITLE", "REPLAYGAIN_TRACK_GAIN", "CHAPTER001NAME") and nagi's ":LENGTH_MILLISECONDS" and ":PICTURE".
    /// - Throws: `.cannotRead` naming the file and TagLib's reason.
    public static func read(path: String, format: AudioFileFormat) throws(AudioFileError) -> [(key: String, value: String)] {
        guard let tagLibFormat = format.tagLibFormat else {
            throw .cannotRead(path: path, reason: "raw PCM has no tags")
        }
        final class Collected { var items: [(key: String, value: String)] = [] }
        let collected = Collected()
        var error = [CChar](repeating: 0, count: 512)
        let status = withExtendedLifetime(collected) {
            nagi_tag_read(path, tagLibFormat, Unmanaged.passUnretained(collected).toOpaque(), { context, key, value in
                guard let context, let key, let value else { return }
                Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue().items.append((String(cString: key), String(cString: value)))
            }, &error, error.count)
        }
        guard status == 0 else { throw .cannotRead(path: path, reason: Self.text(error)) }
        return collected.items
    }

    /// The text fields for `format`: TagLib property names, with chapters as Vorbis chapter fields where the
    /// format has Vorbis comments, and the encoder under ENCODER there (ID3v2 and RIFF say ENCODING: TSSE, ISFT).
    static func fields(of tags: AudioTags, format: AudioFileFormat, sampleRate: Int) -> [(key: String, value: String)] {
        let vorbisComments = format == .flac || format == .ogg || format == .opus
        var fields: [(key: String, value: String)] = []
        for (_, property, text) in tags.texts where !property.isEmpty {
            fields.append((vorbisComments && property == "ENCODING" ? "ENCODER" : property, text))
        }
        if let gain = tags.gain { fields += gain.fields(for: format) }
        if vorbisComments {
            for (index, chapter) in tags.chapters.enumerated() {
                let number = String(index + 1)
                let key = "CHAPTER" + String(repeating: "0", count: max(0, 3 - number.count)) + number
                let milliseconds = AudioChapter.milliseconds(ofFrame: chapter.startFrame, sampleRate: sampleRate)
                fields.append((key, AudioChapter.clockText(milliseconds: milliseconds)))
                fields.append((key + "NAME", chapter.title))
            }
        }
        return fields
    }

    /// Chapters with their ends, in milliseconds, for ID3v2 CHAP frames: MP3 only. A WAV file's chapters are its
    /// cue points (libsndfile writes them); CHAP frames in its id3 chunk as well would make readers such as
    /// ffmpeg list each chapter twice.
    static func id3Chapters(of tags: AudioTags, format: AudioFileFormat, sampleRate: Int, frameCount: Int64) -> [(start: UInt32, end: UInt32, title: String)] {
        guard format == .mp3 else { return [] }
        let ends = tags.chapters.dropFirst().map(\.startFrame) + [max(frameCount, tags.chapters.last?.startFrame ?? 0)]
        return zip(tags.chapters, ends).map { chapter, end in
            (UInt32(clamping: AudioChapter.milliseconds(ofFrame: chapter.startFrame, sampleRate: sampleRate)),
             UInt32(clamping: AudioChapter.milliseconds(ofFrame: end, sampleRate: sampleRate)), chapter.title)
        }
    }

    /// Hands everything to the shim as C strings that live for the call.
    private static func write(fields: [(key: String, value: String)], chapters: [(start: UInt32, end: UInt32, title: String)], cover: CoverArt?, cueLabels: [(cueID: UInt32, text: String)], replacing: Bool, path: String, reportedPath: String, format: nagi_tag_format) throws(AudioFileError) {
        // Every string is copied into one arena that outlives the call; the C structs point into it.
        var arena: [UnsafeMutablePointer<CChar>] = []
        defer { arena.forEach { free($0) } }
        func cString(_ text: String) -> UnsafePointer<CChar>? {
            guard let copy = strdup(text) else { return nil }
            arena.append(copy)
            return UnsafePointer(copy)
        }
        let cFields = fields.map { nagi_tag_field(key: cString($0.key), value: cString($0.value)) }
        let cChapters = chapters.map { nagi_tag_chapter(start_milliseconds: $0.start, end_milliseconds: $0.end, title: cString($0.title)) }
        let cLabels = cueLabels.map { nagi_tag_cue_label(cue_id: $0.cueID, text: cString($0.text)) }
        let mimeType = cover.flatMap { cString($0.mimeType) }
        var error = [CChar](repeating: 0, count: 512)
        let status = cFields.withUnsafeBufferPointer { fieldBuffer in
            cChapters.withUnsafeBufferPointer { chapterBuffer in
                (cover?.bytes ?? []).withUnsafeBufferPointer { pictureBuffer in
                    cLabels.withUnsafeBufferPointer { labelBuffer in
                        var set = nagi_tag_set(
                            fields: fieldBuffer.baseAddress, field_count: fieldBuffer.count,
                            chapters: chapterBuffer.baseAddress, chapter_count: chapterBuffer.count,
                            picture: pictureBuffer.baseAddress, picture_byte_count: pictureBuffer.count,
                            picture_mime_type: mimeType, picture_width: UInt32(clamping: cover?.width ?? 0),
                            picture_height: UInt32(clamping: cover?.height ?? 0), replaces_everything: replacing ? 1 : 0,
                            cue_labels: labelBuffer.baseAddress, cue_label_count: labelBuffer.count)
                        return nagi_tag_write(path, format, &set, &error, error.count)
                    }
                }
            }
        }
        guard status == 0 else { throw .writeFailed(path: reportedPath, reason: "tagging: \(Self.text(error))") }
    }

    private static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
