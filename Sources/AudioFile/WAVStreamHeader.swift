/// The header of a WAV file written into a stream that cannot seek back: RIFF and `data` sizes of 0xFFFFFFFF
/// ("unknown", as ffmpeg writes them to a pipe), so a reader takes the audio up to the end of the stream.
///
/// libsndfile refuses to write WAV into a pipe, so nagi writes this header itself and has libsndfile encode the
/// samples as headerless little-endian PCM behind it: the same conversion (and clipping) as a WAV file, hence the
/// same samples. The chunks before `data` are what a WAV file from nagi carries: `fmt `, the tags as `LIST`/`INFO`
/// and the cue points as `cue `, so sox, ffmpeg, Python's `wave` and libsndfile read them as from a file.
///
/// When the caller knows how many frames will follow (`frameCount`, a server sending an exact Content-Length), the
/// RIFF and `data` sizes are the real ones instead, as a WAV file's are; past 4 GiB they stay "unknown".
public struct WAVStreamHeader: Sendable {
    var spec: AudioFileSpec
    /// The frames that follow, when known.
    var frameCount: Int64?

    /// The header of a stream of `spec`, with exact sizes when `frameCount` is given.
    public init(spec: AudioFileSpec, frameCount: Int64? = nil) {
        self.spec = spec
        self.frameCount = frameCount
    }

    /// The size every reader takes as "unknown: read to the end".
    static let unknownSize: UInt32 = 0xFFFF_FFFF

    /// The header bytes, ending with the `data` chunk's id and size; the samples follow directly.
    public var bytes: [UInt8] {
        let chunks = formatChunk + infoChunk + cueChunk
        var riffSize = Self.unknownSize
        var dataSize = Self.unknownSize
        if let frameCount {
            let dataBytes = frameCount * Int64(spec.channelCount * spec.encoding.bytesPerSample)
            // "WAVE", the chunks, the data chunk's id and size, its bytes and its pad byte.
            let riffBytes = 4 + Int64(chunks.count) + 8 + dataBytes + dataBytes % 2
            if riffBytes <= Int64(UInt32.max) {
                riffSize = UInt32(riffBytes)
                dataSize = UInt32(dataBytes)
            }
        }
        var header: [UInt8] = []
        header += Self.fourCC("RIFF")
        header += Self.little32(riffSize)
        header += Self.fourCC("WAVE")
        header += chunks
        header += Self.fourCC("data")
        header += Self.little32(dataSize)
        return header
    }

    /// `fmt `: WAVE_FORMAT_PCM (1) for 16 and 24 bit, WAVE_FORMAT_IEEE_FLOAT (3) with its empty extension size
    /// for float, as libsndfile writes a plain WAV.
    private var formatChunk: [UInt8] {
        let isFloat = spec.encoding == .float
        let bytesPerSample = spec.encoding.bytesPerSample
        let blockAlign = spec.channelCount * bytesPerSample
        var body: [UInt8] = []
        body += Self.little16(isFloat ? 3 : 1)
        body += Self.little16(UInt16(spec.channelCount))
        body += Self.little32(UInt32(spec.sampleRate))
        body += Self.little32(UInt32(spec.sampleRate * blockAlign))
        body += Self.little16(UInt16(blockAlign))
        body += Self.little16(UInt16(bytesPerSample * 8))
        if isFloat { body += Self.little16(0) }
        return Self.chunk("fmt ", body)
    }

    /// `LIST`/`INFO` with the tags that are set (INAM title, IART artist, IPRD album, ICMT comment, ITRK track), or
    /// nothing without tags. Each text is NUL-terminated and padded to an even size.
    private var infoChunk: [UInt8] {
        let fields: [(String, String?)] = [
            ("INAM", spec.tags.title), ("IART", spec.tags.artist), ("IPRD", spec.tags.album),
            ("ICMT", spec.tags.comment), ("ITRK", spec.tags.trackText),
        ]
        var body = Self.fourCC("INFO")
        for (id, text) in fields {
            guard let text, !text.isEmpty else { continue }
            body += Self.chunk(id, Array(text.utf8) + [0])
        }
        return body.count > 4 ? Self.chunk("LIST", body) : []
    }

    /// `cue ` with one point per cue frame, numbered from 1, each in the `data` chunk; nothing without cues.
    private var cueChunk: [UInt8] {
        guard !spec.cueFrames.isEmpty else { return [] }
        var body = Self.little32(UInt32(spec.cueFrames.count))
        for (index, frame) in spec.cueFrames.enumerated() {
            let offset = UInt32(truncatingIfNeeded: frame)
            body += Self.little32(UInt32(index + 1))
            body += Self.little32(offset)
            body += Self.fourCC("data")
            body += Self.little32(0)
            body += Self.little32(0)
            body += Self.little32(offset)
        }
        return Self.chunk("cue ", body)
    }

    /// A chunk: id, little-endian size, body, and a pad byte when the body's size is odd.
    private static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        fourCC(id) + little32(UInt32(body.count)) + body + (body.count % 2 == 1 ? [0] : [])
    }

    private static func fourCC(_ id: String) -> [UInt8] {
        Array(id.utf8)
    }

    private static func little16(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private static func little32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}
