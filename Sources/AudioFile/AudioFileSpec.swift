import CSndFile

/// Everything that decides the bytes of an output file except the samples.
public struct AudioFileSpec: Sendable, Equatable {
    /// Frames per second.
    public var sampleRate: Int
    public var channelCount: Int
    public var format: AudioFileFormat
    /// Sample storage for WAV, FLAC and raw PCM; ignored for lossy formats.
    public var encoding: SampleEncoding
    /// 0...1, 1 best, nil for libsndfile's default. Ogg Vorbis, Opus and MP3: VBR quality
    /// (`SFC_SET_VBR_ENCODING_QUALITY`; MP3 is put in VBR mode). FLAC, lossless: compression effort
    /// (`SFC_SET_COMPRESSION_LEVEL`, 0 fastest ≈ `flac -0`, 1 smallest ≈ `flac -8`). WAV: ignored.
    public var quality: Double?
    public var tags: AudioTags
    /// Frame indexes written as WAV cue points (every phase start), at most `maximumCuePointCount`. WAV only:
    /// other formats refuse a non-empty list rather than drop it.
    public var cueFrames: [Int64]

    public init(
        sampleRate: Int, channelCount: Int, format: AudioFileFormat, encoding: SampleEncoding = .pcm16,
        quality: Double? = nil, tags: AudioTags = AudioTags(), cueFrames: [Int64] = []
    ) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.format = format
        self.encoding = encoding
        self.quality = quality
        self.tags = tags
        self.cueFrames = cueFrames
    }

    /// The most cue points nagi writes. libsndfile 1.2.0 skips a cue chunk of more than 2500 points, and cannot
    /// open a WAV file at all once the chunks before the audio pass about 64 KB (its header buffer is capped),
    /// which would break every program built on it. 2400 points (24 bytes each) leave room for the longest tags.
    public static let maximumCuePointCount = 2400

    /// Throws `AudioFileError.unsupported` when this output cannot be written; creates nothing.
    ///
    /// Checks nagi's own bounds (1...8 channels, 8000...192000 Hz, quality in 0...1), the limits of each format
    /// (Opus at 8/12/16/24/48 kHz; MP3 at the MPEG layer III rates and at most 2 channels; FLAC integer only),
    /// cue points (WAV only, at most `maximumCuePointCount`, each in 0...UInt32.max), tags, and finally
    /// `sf_format_check`.
    public func validate() throws {
        guard (1...8).contains(channelCount) else {
            throw AudioFileError.unsupported("\(channelCount) channels: nagi writes 1 to 8 channels")
        }
        guard (8000...192_000).contains(sampleRate) else {
            throw AudioFileError.unsupported("a sample rate of \(sampleRate) Hz: nagi writes 8000 to 192000 Hz")
        }
        if let quality, !(0...1).contains(quality) {
            throw AudioFileError.unsupported("quality \(quality): quality goes from 0 (smallest) to 1 (best)")
        }
        if let rates = format.allowedSampleRates, !rates.contains(sampleRate) {
            let list = rates.map(String.init).joined(separator: ", ")
            throw AudioFileError.unsupported(
                "\(format.displayName) cannot be written at \(sampleRate) Hz; it takes \(list) Hz")
        }
        guard channelCount <= format.maximumChannelCount else {
            throw AudioFileError.unsupported(
                "\(format.displayName) holds at most \(format.maximumChannelCount) channels, not \(channelCount)")
        }
        if format == .flac, encoding == .float {
            throw AudioFileError.unsupported("FLAC stores integer samples only; choose 16 or 24 bit")
        }
        if !cueFrames.isEmpty {
            guard format.supportsCuePoints else {
                throw AudioFileError.unsupported(
                    "\(format.displayName) files cannot hold cue points through libsndfile; only WAV can")
            }
            guard cueFrames.count <= Self.maximumCuePointCount else {
                throw AudioFileError.unsupported(
                    "\(cueFrames.count) cue points: WAV files from nagi hold at most \(Self.maximumCuePointCount) "
                        + "(libsndfile cannot read a larger cue chunk back)")
            }
            if let bad = cueFrames.first(where: { $0 < 0 || $0 > Int64(UInt32.max) }) {
                throw AudioFileError.unsupported("cue point at frame \(bad): WAV cue points lie in 0...\(UInt32.max)")
            }
        }
        if format.supportsTags { try tags.validate(for: format) }
        var info = sndfileInfo
        guard sf_format_check(&info) == SF_TRUE else {
            throw AudioFileError.unsupported(
                "libsndfile cannot write \(format.displayName)\(encodingDescription) at \(sampleRate) Hz "
                    + "with \(channelCount) channels (sf_format_check)")
        }
    }

    /// The most frames the container can hold, or nil when it has no practical limit. A RIFF WAV file counts its
    /// size in 32 bits, so it ends at 4 GiB (about 6 h 12 min of 48 kHz stereo 16 bit); writing more throws.
    public var maximumFrameCount: Int64? {
        guard format == .wav else { return nil }
        // Room for the header: fmt, PEAK, LIST INFO (tags are at most 5 × 1000 bytes), cue (24 bytes a point).
        // TagLib adds the id3 chunk (the cover, chapters of about 100 bytes) and INFO after the audio.
        let headerReserve = Int64(64 * 1024) + Int64(cueFrames.count) * 64 + Int64(tags.cover?.bytes.count ?? 0)
            + Int64(tags.chapters.count) * 1200
        let bytesPerFrame = Int64(channelCount * encoding.bytesPerSample)
        return (Int64(UInt32.max) - headerReserve) / bytesPerFrame
    }

    /// The `SF_INFO` to open a file for writing.
    var sndfileInfo: SF_INFO {
        var info = SF_INFO()
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = Int32(clamping: channelCount)
        info.format = Int32(sndfileFormat)
        return info
    }

    /// Major format | subtype, as libsndfile spells them.
    var sndfileFormat: Int {
        switch format {
        case .wav: return SF_FORMAT_WAV | encoding.sndfileSubtype
        case .flac: return SF_FORMAT_FLAC | encoding.sndfileSubtype
        case .ogg: return SF_FORMAT_OGG | SF_FORMAT_VORBIS
        case .opus: return SF_FORMAT_OGG | SF_FORMAT_OPUS
        case .mp3: return SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III
        case .raw: return SF_FORMAT_RAW | encoding.sndfileSubtype | SF_ENDIAN_LITTLE
        }
    }

    private var encodingDescription: String {
        format.isLossy ? "" : (encoding == .float ? " float" : " \(encoding.rawValue) bit")
    }
}

extension SampleEncoding {
    var sndfileSubtype: Int {
        switch self {
        case .pcm16: return SF_FORMAT_PCM_16
        case .pcm24: return SF_FORMAT_PCM_24
        case .float: return SF_FORMAT_FLOAT
        }
    }
}

extension AudioFileFormat {
    /// The name people use for the format in messages.
    var displayName: String {
        switch self {
        case .wav: return "WAV"
        case .flac: return "FLAC"
        case .ogg: return "Ogg Vorbis"
        case .opus: return "Opus"
        case .mp3: return "MP3"
        case .raw: return "raw PCM"
        }
    }
}
