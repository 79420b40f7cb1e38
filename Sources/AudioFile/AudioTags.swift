import CSndFile
import FoundationEssentials
import NagiBase

/// What nagi writes into a file's tags: text, the cover, chapters and loudness gains. Files go through TagLib
/// (`TagLibFile`), in full Unicode: ID3v2.4 UTF-8 frames in MP3, Vorbis comments in FLAC, Ogg and Opus, RIFF INFO
/// plus an `id3 ` chunk in WAV. A stream (a pipe, standard output) cannot be re-opened by TagLib and carries the
/// text tags libsndfile can write into it (`sndfileTexts`).
public struct AudioTags: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var comment: String?
    /// 1-based position of the track in its album or course.
    public var trackNumber: Int?
    /// How many tracks the album or course has; written as "N/M" together with `trackNumber`.
    public var trackCount: Int?
    /// Disc "N/M"; nagi writes 1/1 for a course.
    public var discNumber: Int?
    public var discCount: Int?
    /// The year or ISO date ("2026").
    public var date: String?
    public var genre: String?
    /// What made the file ("nagi 1.4.0"): ID3v2 TSSE, Vorbis ENCODER, RIFF ISFT.
    public var encoder: String?
    /// The front cover.
    public var cover: CoverArt?
    /// Chapters, in order, the first at frame 0 (at most `AudioChapter.maximumCount`).
    public var chapters: [AudioChapter]
    /// Gains, known once the file's audio is written (`AudioFileWriter.tags`).
    public var gain: ReplayGain?

    /// The longest text nagi writes into one tag, in UTF-8 bytes. libsndfile drops longer RIFF INFO strings when
    /// it reads a WAV file back (they must fit its 8 KiB buffer); 1000 keeps every format well inside its limits.
    public static let maximumTextByteCount = 1000

    public init(
        title: String? = nil, artist: String? = nil, album: String? = nil, comment: String? = nil,
        trackNumber: Int? = nil, trackCount: Int? = nil, discNumber: Int? = nil, discCount: Int? = nil,
        date: String? = nil, genre: String? = nil, encoder: String? = nil, cover: CoverArt? = nil,
        chapters: [AudioChapter] = [], gain: ReplayGain? = nil
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.comment = comment
        self.trackNumber = trackNumber
        self.trackCount = trackCount
        self.discNumber = discNumber
        self.discCount = discCount
        self.date = date
        self.genre = genre
        self.encoder = encoder
        self.cover = cover
        self.chapters = chapters
        self.gain = gain
    }

    /// True when no tag would be written.
    public var isEmpty: Bool { texts.isEmpty && cover == nil && chapters.isEmpty && gain == nil }

    /// The text tags by name, as messages call them, with their TagLib property names; empty strings count as
    /// absent.
    var texts: [(name: String, property: String, text: String)] {
        var texts: [(name: String, property: String, text: String)] = []
        func add(_ name: String, _ property: String, _ text: String?) {
            if let text, !text.isEmpty { texts.append((name, property, text)) }
        }
        add("title", "TITLE", title)
        add("artist", "ARTIST", artist)
        add("album", "ALBUM", album)
        add("comment", "COMMENT", comment)
        add("track number", "TRACKNUMBER", trackText)
        add("disc number", "DISCNUMBER", Self.countText(discNumber, discCount))
        add("date", "DATE", date)
        add("genre", "GENRE", genre)
        add("encoder", "ENCODING", encoder)
        for chapter in chapters { add("chapter", "", chapter.title) }
        return texts
    }

    /// The tags libsndfile writes into a stream or a WAV file's RIFF INFO list (slot, name, text). MP3 streams keep
    /// only text LAME's ID3 writer can hold (Latin-1); a file's MP3 tags go through TagLib and keep every
    /// character. libsndfile appends its own name to the software string ("nagi 1.4.0 (libsndfile-1.2.2)").
    func sndfileTexts(for format: AudioFileFormat) -> [(type: Int32, name: String, text: String)] {
        var result: [(type: Int32, name: String, text: String)] = []
        func add(_ type: Int, _ name: String, _ text: String?) {
            guard let text, !text.isEmpty else { return }
            if format == .mp3, text.data(using: .isoLatin1) == nil { return }
            result.append((Int32(type), name, text))
        }
        add(SF_STR_TITLE, "title", title)
        add(SF_STR_ARTIST, "artist", artist)
        add(SF_STR_ALBUM, "album", album)
        add(SF_STR_COMMENT, "comment", comment)
        add(SF_STR_TRACKNUMBER, "track number", trackText)
        add(SF_STR_DATE, "date", date)
        add(SF_STR_GENRE, "genre", genre)
        add(SF_STR_SOFTWARE, "encoder", encoder)
        return result
    }

    /// "N/M", "N", or nil.
    var trackText: String? { Self.countText(trackNumber, trackCount) }

    private static func countText(_ number: Int?, _ count: Int?) -> String? {
        guard let number else { return nil }
        if let count { return "\(number)/\(count)" }
        return "\(number)"
    }

    /// Throws `.unsupported` when these tags cannot be written as given: numbering, NUL, the control and invisible
    /// characters `DisplayText` refuses, over-long text, more than `AudioChapter.maximumCount` chapters or chapters
    /// out of order.
    func validate(for format: AudioFileFormat) throws {
        if let trackNumber, trackNumber < 1 {
            throw AudioFileError.unsupported("track number \(trackNumber): track numbers start at 1")
        }
        if let trackCount {
            guard let trackNumber else {
                throw AudioFileError.unsupported("a track count (\(trackCount)) needs a track number")
            }
            guard trackCount >= trackNumber else {
                throw AudioFileError.unsupported(
                    "track \(trackNumber) of \(trackCount): the number exceeds the count")
            }
        }
        for (name, _, text) in texts {
            if text.utf8.contains(0) {
                throw AudioFileError.unsupported("the \(name) tag contains a NUL character")
            }
            if let hidden = DisplayText.firstHidden(in: text) {
                throw AudioFileError.unsupported(
                    "the \(name) tag \"\(Self.escaped(text))\" contains a control character or an invisible one (\(DisplayText.codePoint(hidden))); tags hold one line of visible text")
            }
            if text.utf8.count > Self.maximumTextByteCount {
                throw AudioFileError.unsupported(
                    "the \(name) tag is \(text.utf8.count) bytes long; nagi writes at most \(Self.maximumTextByteCount)")
            }
        }
        if chapters.count > AudioChapter.maximumCount {
            throw AudioFileError.unsupported("\(chapters.count) chapters: a file holds at most \(AudioChapter.maximumCount)")
        }
        if zip(chapters, chapters.dropFirst()).contains(where: { $0.startFrame >= $1.startFrame }) || (chapters.first?.startFrame ?? 0) < 0 {
            throw AudioFileError.unsupported("chapters must start in order, each after the one before")
        }
    }

    /// Control and invisible characters shown as \u{1B}, so the message stays one line and shows them.
    private static func escaped(_ text: String) -> String {
        text.unicodeScalars.map { DisplayText.isHidden($0) ? "\\u{\(String($0.value, radix: 16, uppercase: true))}" : String($0) }.joined()
    }

    /// The bytes handed to `sf_set_string` for `format`: UTF-8, or Latin-1 for MP3 (LAME's ID3 writer reads
    /// Latin-1, and libsndfile's MP3 reader converts it back to UTF-8). NUL-terminated.
    static func cString(_ text: String, for format: AudioFileFormat) -> [CChar] {
        let bytes: [UInt8]
        if format == .mp3, let latin1 = text.data(using: .isoLatin1) {
            bytes = Array(latin1)
        } else {
            bytes = Array(text.utf8)
        }
        return bytes.map { CChar(bitPattern: $0) } + [0]
    }

    /// Parses "N/M" or "N" as read back from a file; nil parts for anything else.
    static func parseTrack(_ text: String?) -> (number: Int?, count: Int?) {
        guard let text else { return (nil, nil) }
        let parts = text.split(separator: "/", maxSplits: 1).map { $0.filter { $0 != " " && $0 != "\t" } }
        let number = parts.first.flatMap { Int($0) }
        let count = parts.count > 1 ? Int(parts[1]) : nil
        return (number, number == nil ? nil : count)
    }
}
