import CSndFile
import CTagLib

/// A container and codec nagi writes through libsndfile.
public enum AudioFileFormat: String, CaseIterable, Sendable {
    case wav, flac, ogg, opus, mp3
    /// Headerless PCM: the samples alone, interleaved, little-endian, 16 or 24 bit integer or 32 bit float (the
    /// `SampleEncoding`). It carries no rate, channel count, tags or cue points.
    case raw

    /// Recognises a file extension, without the dot and in any case: "wav", "wave", "flac", "ogg", "oga",
    /// "opus", "mp3", "raw".
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "wav", "wave": self = .wav
        case "flac": self = .flac
        case "ogg", "oga": self = .ogg
        case "opus": self = .opus
        case "mp3": self = .mp3
        case "raw": self = .raw
        default: return nil
        }
    }

    /// The usual extension for files of this format, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether the format loses information (its `SampleEncoding` is ignored, `quality` is a VBR quality).
    public var isLossy: Bool {
        switch self {
        case .wav, .flac, .raw: return false
        case .ogg, .opus, .mp3: return true
        }
    }

    /// Whether the format stores tags (raw PCM has nowhere to put them, so they are left out).
    public var supportsTags: Bool { self != .raw }

    /// Whether libsndfile 1.2.0 stores cue points in this format (only the WAV `cue ` chunk).
    public var supportsCuePoints: Bool { self == .wav }

    /// Whether a file's tag text may hold any Unicode character: true wherever there are tags, since files are
    /// tagged through TagLib (MP3 as ID3v2.4 UTF-8). Only a streamed MP3, tagged by LAME, keeps Latin-1 text alone.
    public var supportsUnicodeTags: Bool { supportsTags }

    /// The TagLib container, nil for raw PCM.
    var tagLibFormat: nagi_tag_format? {
        switch self {
        case .wav: return NAGI_TAG_FORMAT_WAV
        case .flac: return NAGI_TAG_FORMAT_FLAC
        case .ogg: return NAGI_TAG_FORMAT_OGG_VORBIS
        case .opus: return NAGI_TAG_FORMAT_OPUS
        case .mp3: return NAGI_TAG_FORMAT_MP3
        case .raw: return nil
        }
    }

    /// Sample rates the format can carry at all, or nil when libsndfile accepts any rate nagi allows.
    public var allowedSampleRates: [Int]? {
        switch self {
        case .opus: return [8000, 12000, 16000, 24000, 48000]
        // MPEG-1, MPEG-2 and MPEG-2.5 layer III.
        case .mp3: return [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]
        case .wav, .flac, .ogg, .raw: return nil
        }
    }

    /// The most channels the format can carry through libsndfile (nagi itself stops at 8).
    public var maximumChannelCount: Int {
        self == .mp3 ? 2 : 8
    }

    /// Reads the format back from an `SF_INFO.format` value; nil for anything nagi does not write.
    init?(sndfileFormat: Int32) {
        let major = Int(sndfileFormat) & SF_FORMAT_TYPEMASK
        let sub = Int(sndfileFormat) & SF_FORMAT_SUBMASK
        switch major {
        case SF_FORMAT_WAV, SF_FORMAT_WAVEX, SF_FORMAT_RF64: self = .wav
        case SF_FORMAT_FLAC: self = .flac
        case SF_FORMAT_OGG where sub == SF_FORMAT_VORBIS: self = .ogg
        case SF_FORMAT_OGG where sub == SF_FORMAT_OPUS: self = .opus
        case SF_FORMAT_MPEG: self = .mp3
        case SF_FORMAT_RAW: self = .raw
        default: return nil
        }
    }
}
