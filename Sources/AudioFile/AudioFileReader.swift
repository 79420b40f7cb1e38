import CSndFile
import Glibc

/// Reads files back through libsndfile, for verification and tests.
public enum AudioFileReader {
    /// Length, rate, channels, format, tags and cue points of the file at `path`.
    /// - Throws: `.cannotRead` naming `sf_open` and libsndfile's reason.
    public static func info(path: String) throws -> AudioFileInfo {
        let file = try ReadHandle(path: path)
        let track = AudioTags.parseTrack(file.string(SF_STR_TRACKNUMBER))
        let tags = AudioTags(
            title: file.string(SF_STR_TITLE), artist: file.string(SF_STR_ARTIST), album: file.string(SF_STR_ALBUM),
            comment: file.string(SF_STR_COMMENT), trackNumber: track.number, trackCount: track.count)
        return AudioFileInfo(
            frameCount: Int64(file.info.frames), sampleRate: Int(file.info.samplerate),
            channelCount: Int(file.info.channels), format: AudioFileFormat(sndfileFormat: file.info.format),
            tags: tags, cueFrames: file.cueFrames())
    }

    /// Every sample of the file at `path`, interleaved, as libsndfile decodes it to Float (PCM scaled to ±1).
    /// - Throws: `.cannotRead` when the file cannot be opened or a read fails.
    public static func readFloat(path: String) throws -> [Float] {
        let file = try ReadHandle(path: path)
        let channelCount = Int(file.info.channels)
        let blockFrames = 16_384
        var samples: [Float] = []
        // A stream that never learnt its length (FLAC written into a pipe) reports Int64.max frames.
        let knownFrames = file.info.frames > 0 && file.info.frames < (1 << 32) ? Int(file.info.frames) : 0
        samples.reserveCapacity(knownFrames * channelCount)
        var block = [Float](repeating: 0, count: blockFrames * channelCount)
        while true {
            let frames = block.withUnsafeMutableBufferPointer { buffer in
                sf_readf_float(file.handle, buffer.baseAddress, sf_count_t(blockFrames))
            }
            if sf_error(file.handle) != SF_ERR_NO_ERROR {
                let reason = "sf_readf_float: \(SystemErrorText.sndfile(file.handle))"
                throw AudioFileError.cannotRead(path: path, reason: reason)
            }
            guard frames > 0 else { break }
            samples.append(contentsOf: block[0..<(Int(frames) * channelCount)])
        }
        return samples
    }

    /// `frameCount` frames from `startFrame` of the file at `path`, interleaved (fewer at the end of the
    /// file), so a file of hours can be checked where it matters without decoding it into memory whole.
    /// - Throws: `.cannotRead` when the file cannot be opened, the seek fails or a read fails.
    public static func readFloat(path: String, startFrame: Int64, frameCount: Int) throws -> [Float] {
        let file = try ReadHandle(path: path)
        let channelCount = Int(file.info.channels)
        guard sf_seek(file.handle, sf_count_t(startFrame), SEEK_SET) == sf_count_t(startFrame) else {
            throw AudioFileError.cannotRead(path: path, reason: "sf_seek to frame \(startFrame): \(SystemErrorText.sndfile(file.handle))")
        }
        var samples = [Float](repeating: 0, count: max(0, frameCount) * channelCount)
        let frames = samples.withUnsafeMutableBufferPointer { buffer in
            sf_readf_float(file.handle, buffer.baseAddress, sf_count_t(max(0, frameCount)))
        }
        if sf_error(file.handle) != SF_ERR_NO_ERROR {
            throw AudioFileError.cannotRead(path: path, reason: "sf_readf_float: \(SystemErrorText.sndfile(file.handle))")
        }
        samples.removeSubrange((Int(frames) * channelCount)...)
        return samples
    }
}

/// A SNDFILE* opened for reading; closes it when released.
private final class ReadHandle {
    let handle: OpaquePointer
    let info: SF_INFO

    init(path: String) throws {
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw AudioFileError.cannotRead(path: path, reason: "sf_open: \(SystemErrorText.sndfile(nil))")
        }
        self.handle = handle
        self.info = info
    }

    deinit {
        sf_close(handle)
    }

    /// A string slot, nil when absent or empty. Text that is not UTF-8 is read as Latin-1: libsndfile hands back
    /// an MP3's ID3v1 text (which LAME writes when the tags fit it) as raw Latin-1 bytes, but ID3v2 text as UTF-8.
    func string(_ type: Int) -> String? {
        guard let text = sf_get_string(handle, Int32(type)) else { return nil }
        let start = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        let bytes = UnsafeBufferPointer(start: start, count: strlen(text))
        guard !bytes.isEmpty else { return nil }
        return String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    /// Cue point sample offsets through `SFC_GET_CUE_COUNT` and a `SFC_GET_CUE` block sized for all of them.
    func cueFrames() -> [Int64] {
        var count: UInt32 = 0
        guard sf_command(handle, Int32(SFC_GET_CUE_COUNT), &count, Int32(MemoryLayout<UInt32>.size)) == SF_TRUE,
            count > 0
        else { return [] }
        let cues = CuePointList(count: Int(count))
        guard sf_command(handle, Int32(SFC_GET_CUE), cues.storage, Int32(cues.byteCount)) == SF_TRUE else {
            return []
        }
        return cues.frames
    }
}
