import CSndFile
import Glibc

/// A recording read in blocks through libsndfile (`sf_readf_float`), never whole: a bed of hours or a cue clip.
///
/// The file is opened by `InputFile` first so a missing or unreadable file, a folder, a pipe or a device (66) is
/// told apart from one that is there but is not audio (65). One owner; the SNDFILE* and then the descriptor close
/// with the object.
public final class AudioFileStream {
    public let path: String
    public let sampleRate: Int
    public let channelCount: Int
    /// Frames as libsndfile reports them; nil when the file does not say (a FLAC stream written into a pipe).
    public let frameCount: Int64?
    private let handle: OpaquePointer
    private let descriptor: Int32

    /// - Throws: `.cannotOpen` (missing, unreadable, a folder, a pipe or a device), `.notAudio` with libsndfile's
    ///   reason.
    public init(path: String) throws(AudioFileStreamError) {
        let descriptor: Int32
        do {
            descriptor = try InputFile.open(path)
        } catch {
            switch error {
            case let .refused(path, reason): throw .cannotOpen(path: path, reason: reason)
            case let .readFailed(path, reason): throw .readFailed(path: path, reason: reason)
            }
        }
        var info = SF_INFO()
        // SF_FALSE: the descriptor stays ours, so it is closed exactly once whether libsndfile accepts it or not.
        guard let handle = sf_open_fd(descriptor, Int32(SFM_READ), &info, Int32(SF_FALSE)) else {
            let reason = SystemErrorText.sndfile(nil)
            close(descriptor)
            throw .notAudio(path: path, reason: reason)
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(handle)
            close(descriptor)
            throw .notAudio(path: path, reason: "\(info.channels) channels at \(info.samplerate) Hz")
        }
        self.handle = handle
        self.descriptor = descriptor
        self.path = path
        sampleRate = Int(info.samplerate)
        channelCount = Int(info.channels)
        frameCount = info.frames >= 0 && info.frames < (1 << 40) ? Int64(info.frames) : nil
    }

    deinit {
        sf_close(handle)
        close(descriptor)
    }

    /// Reads up to `buffer.count / channelCount` interleaved frames into `buffer`; 0 at the end of the file.
    /// - Throws: `.readFailed` naming `sf_readf_float` and libsndfile's reason for a system failure, `.damaged`
    ///   for content libsndfile cannot decode part way.
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) throws(AudioFileStreamError) -> Int {
        let capacityFrames = buffer.count / channelCount
        guard capacityFrames > 0 else { return 0 }
        let frames = sf_readf_float(handle, buffer.baseAddress, sf_count_t(capacityFrames))
        let code = sf_error(handle)
        if code != SF_ERR_NO_ERROR || frames < 0 {
            // The system's failure is an I/O error; anything else is the file's content (a FLAC cut short).
            if code == SF_ERR_SYSTEM { throw .readFailed(path: path, reason: "sf_readf_float: \(SystemErrorText.sndfile(handle))") }
            throw .damaged(path: path, reason: SystemErrorText.sndfile(handle))
        }
        return Int(frames)
    }

    /// Back to the first frame, to loop.
    /// - Throws: `.readFailed` naming `sf_seek`.
    public func rewind() throws(AudioFileStreamError) {
        try seek(toFrame: 0)
    }

    /// Moves to frame `frame` (from the file's start).
    /// - Throws: `.readFailed` naming `sf_seek` for a system failure, `.damaged` past where the audio ends.
    public func seek(toFrame frame: Int64) throws(AudioFileStreamError) {
        guard sf_seek(handle, sf_count_t(frame), SEEK_SET) == frame else {
            // Past where the audio really ends (a file shorter than its header says) is the file's content.
            if sf_error(handle) == SF_ERR_SYSTEM {
                throw .readFailed(path: path, reason: "sf_seek to frame \(frame): \(SystemErrorText.sndfile(handle))")
            }
            throw .damaged(path: path, reason: "cannot seek to frame \(frame): \(SystemErrorText.sndfile(handle))")
        }
    }
}
