import CSndFile
import FoundationEssentials
import Glibc

/// Text tags written into an audio file. Every format nagi writes stores all of them (WAV as RIFF INFO, FLAC and
/// Ogg as Vorbis comments, MP3 as ID3); MP3 text is limited to Latin-1 (see `AudioFileFormat.supportsUnicodeTags`).
public struct AudioTags: Sendable, Equatable {
    public var title: String?
    public var artist: String?
    public var album: String?
    public var comment: String?
    /// 1-based position of the track in its album or course.
    public var trackNumber: Int?
    /// How many tracks the album or course has; written as "N/M" together with `trackNumber`.
    public var trackCount: Int?

    /// The longest text nagi writes into one tag, in UTF-8 bytes. libsndfile drops longer RIFF INFO strings when
    /// it reads a WAV file back (they must fit its 8 KiB buffer); 1000 keeps every format well inside its limits.
    public static let maximumTextByteCount = 1000

    public init(
        title: String? = nil, artist: String? = nil, album: String? = nil, comment: String? = nil,
        trackNumber: Int? = nil, trackCount: Int? = nil
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.comment = comment
        self.trackNumber = trackNumber
        self.trackCount = trackCount
    }

    /// True when no tag would be written.
    public var isEmpty: Bool { sndfileTexts.isEmpty }

    /// The tags as libsndfile string slots and text; empty strings count as absent.
    var sndfileTexts: [(type: Int32, name: String, text: String)] {
        var texts: [(type: Int32, name: String, text: String)] = []
        func add(_ type: Int, _ name: String, _ text: String?) {
            if let text, !text.isEmpty { texts.append((Int32(type), name, text)) }
        }
        add(SF_STR_TITLE, "title", title)
        add(SF_STR_ARTIST, "artist", artist)
        add(SF_STR_ALBUM, "album", album)
        add(SF_STR_COMMENT, "comment", comment)
        add(SF_STR_TRACKNUMBER, "track number", trackText)
        return texts
    }

    /// "N/M", "N", or nil.
    var trackText: String? {
        guard let trackNumber else { return nil }
        if let trackCount { return "\(trackNumber)/\(trackCount)" }
        return "\(trackNumber)"
    }

    /// Throws `.unsupported` when `format` cannot store these tags as given.
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
        for (_, name, text) in sndfileTexts {
            if text.utf8.contains(0) {
                throw AudioFileError.unsupported("the \(name) tag contains a NUL character")
            }
            if text.utf8.count > Self.maximumTextByteCount {
                throw AudioFileError.unsupported(
                    "the \(name) tag is \(text.utf8.count) bytes long; nagi writes at most \(Self.maximumTextByteCount)")
            }
            if !format.supportsUnicodeTags, text.data(using: .isoLatin1) == nil {
                throw AudioFileError.unsupported(
                    "the \(name) tag \"\(text)\" has characters MP3 tags cannot hold here (libsndfile writes ID3 text "
                        + "as Latin-1 only); use ogg, opus or flac, or a Latin-1 \(name)")
            }
        }
    }

    /// The bytes handed to `sf_set_string` for `format`: UTF-8, or Latin-1 for MP3 (LAME's ID3 writer reads
    /// Latin-1, and libsndfile's MP3 reader converts it back to UTF-8). NUL-terminated.
    static func cString(_ text: String, for format: AudioFileFormat) -> [CChar] {
        let bytes: [UInt8]
        if !format.supportsUnicodeTags, let latin1 = text.data(using: .isoLatin1) {
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
