import NagiSystem
import CSndFile
import FoundationEssentials
import Glibc
import Glibc

/// Writes one audio file through libsndfile so that the target appears complete or not at all.
///
/// A regular (or missing) target is written as a hidden temporary file in the same folder
/// (".<name>.nagi-partial-<pid>", see `PartialFileCleaner`); `commit()` fsyncs it, renames it over the target and
/// fsyncs the folder. A failed `sf_open` or a full disk therefore never touches an existing target. An existing
/// non-regular target (a pipe, /dev/null, a device) is written straight and never renamed; a pipe, and standard
/// output (`init(standardOutputFor:)`), are streamed without ever seeking back, in every format.
///
/// Any failure in `write` or `commit` removes the temporary file before throwing; `discard()` (and `deinit`,
/// when nothing was committed) does the same. Not thread-safe: one writer belongs to one render loop.
public final class AudioFileWriter {
    public let path: String
    public let spec: AudioFileSpec
    /// The file being written until `commit()`, or nil when writing straight to a non-regular target.
    public let temporaryPath: String?
    /// Frames accepted so far.
    public private(set) var framesWritten: Int64 = 0
    /// The tags `commit()` writes through TagLib into a regular file, `spec.tags` at first; set the gains here
    /// once the audio is measured. A stream got its text tags from libsndfile when it opened.
    public var tags: AudioTags

    private enum State { case open, committed, closed }

    /// Where `commit()` renames the temporary file (a symbolic link's target rather than the link).
    private let finalPath: String
    private let overwrite: Bool
    private let channelCount: Int
    private let frameLimit: Int64
    private var state = State.open
    /// The SNDFILE*; this writer is its only owner.
    private var handle: OpaquePointer?
    /// Owns the output file descriptor; libsndfile writes through it except into a pipe.
    private let sink: FileDescriptorSink
    /// True when libsndfile writes the descriptor itself (`sf_open_fd`, streams); false through virtual I/O.
    private var handleOwnsDescriptorIO = false
    /// Whether tags and cue points go through libsndfile; false for raw PCM and for a streamed WAV, whose header
    /// nagi writes itself with them.
    private var handleCarriesMetadata = true
    /// Where NaN and infinities are replaced when a block has any; grows to the largest block seen.
    private var scratch = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    /// 16-bit samples on their way to libsndfile, `shortChunkSamples` at a time.
    private var shortScratch = UnsafeMutableBufferPointer<Int16>(start: nil, count: 0)
    /// 256 KiB of them: as large as the sink writes straight through (`FileDescriptorSink`), so a WAV's samples
    /// are converted into this buffer and copied once more only by the kernel.
    private static let shortChunkSamples = 1 << 17

    /// Validates `spec`, refuses an existing regular target unless `overwrite`, then creates the output.
    /// Sets clipping, quality, tags and cue points before the first frame.
    ///
    /// - Throws: `.unsupported` or `.targetExists` before anything is created; `.cannotCreate` when the output
    ///   cannot be created; `.writeFailed` when libsndfile cannot start it (nothing is left behind).
    ///
    /// A named pipe without a reader is waited for (never blocking in `open`); `stopsWaiting` is asked every 20 ms
    /// and ends the wait with `.cannotCreate` (EINTR) when it returns true.
    public convenience init(path: String, spec: AudioFileSpec, overwrite: Bool, stopsWaiting: () -> Bool = { false }) throws {
        try self.init(path: path, spec: spec, overwrite: overwrite, target: OutputTarget.classify(path), stopsWaiting: stopsWaiting)
    }

    /// Streams the output into standard output, whatever it is (a pipe, a file, a socket), never seeking back:
    /// the same bytes as into a pipe (WAV with sizes that say "unknown"). The caller refuses a terminal.
    /// `path` in messages is "standard output".
    /// - Throws: `.unsupported` for an impossible spec; `.readerClosed` when the reader has already gone;
    ///   `.writeFailed` when libsndfile cannot start it.
    public convenience init(standardOutputFor spec: AudioFileSpec) throws {
        try self.init(path: "standard output", spec: spec, overwrite: true, target: .standardOutput)
    }

    /// Streams the output into `descriptor` (a pipe or socket the caller opened and keeps: this writer writes a
    /// duplicate of its own) as into standard output, except that a WAV's header gives the exact sizes of
    /// `frameCount` frames when it is known, and a FLAC's STREAMINFO that count (the writer must then be given exactly
    /// that many). `path` in messages is `name`.
    /// - Throws: as `init(standardOutputFor:)`.
    public convenience init(streamingTo descriptor: Int32, spec: AudioFileSpec, frameCount: Int64? = nil, name: String = "the stream") throws {
        try self.init(path: name, spec: spec, overwrite: true, target: .descriptor(descriptor, frameCount: frameCount))
    }

    private init(path: String, spec: AudioFileSpec, overwrite: Bool, target: OutputTarget, stopsWaiting: () -> Bool = { false }) throws {
        try spec.validate()
        self.path = path
        self.spec = spec
        tags = spec.tags
        self.overwrite = overwrite
        channelCount = spec.channelCount
        frameLimit = spec.maximumFrameCount ?? Int64.max

        switch target {
        case .replaceable(let finalPath, let existingMode):
            if existingMode != nil, !overwrite { throw AudioFileError.targetExists(path: path) }
            self.finalPath = finalPath
            let temporaryPath = OutputTarget.temporaryPath(for: finalPath, pid: getpid())
            self.temporaryPath = temporaryPath
            let descriptor = try Self.createTemporaryFile(temporaryPath, mode: existingMode, reportedPath: path)
            sink = FileDescriptorSink(fileDescriptor: descriptor)
            try openVirtual()
        case .device:
            finalPath = path
            temporaryPath = nil
            sink = FileDescriptorSink(fileDescriptor: try Self.openExisting(path, stopsWaiting: stopsWaiting))
            try openVirtual()
        case .stream, .standardOutput, .descriptor:
            finalPath = path
            temporaryPath = nil
            // Standard output and a caller's descriptor are duplicated so that this writer owns (and closes) its own.
            let descriptor: Int32
            var streamFrameCount: Int64?
            switch target {
            case .standardOutput: descriptor = try Self.duplicate(STDOUT_FILENO, name: path)
            case let .descriptor(given, frameCount):
                descriptor = try Self.duplicate(given, name: path)
                streamFrameCount = frameCount
            default: descriptor = try Self.openExisting(path, stopsWaiting: stopsWaiting)
            }
            sink = FileDescriptorSink(fileDescriptor: descriptor)
            try openStream(frameCount: streamFrameCount)
        }
        try configure()
    }

    deinit {
        discard()
        scratch.deallocate()
        shortScratch.deallocate()
    }

    /// Writes interleaved frames; `interleaved.count` must be a multiple of `spec.channelCount`.
    ///
    /// NaN becomes 0 and ±infinity ±1 before libsndfile sees the block (the caller's buffer is not changed).
    /// Checks the returned count, `sf_error` and the system error of every byte written.
    /// - Throws: `.writeFailed` (the temporary file is removed), or `.unsupported` when a WAV file would pass
    ///   `spec.maximumFrameCount`.
    public func write(_ interleaved: UnsafeBufferPointer<Float>) throws {
        guard let handle = try openHandle(forSamples: interleaved.count) else { return }
        guard let source = interleaved.baseAddress else { return }
        let call = writesPCM16 ? "sf_write_short" : "sf_write_float"
        // The 16-bit conversion maps NaN and ±infinity itself; floats for libsndfile are scrubbed first.
        let written = writesPCM16
            ? writeShorts(source, count: interleaved.count, converted: nil, handle)
            : sf_write_float(handle, Self.hasNonFinite(interleaved) ? scrubbed(interleaved) : source, sf_count_t(interleaved.count))
        try finishWrite(call, written: written, of: interleaved.count, handle)
    }

    /// Whether the file stores 16-bit samples that `write(_:thenConverted:count:)` takes converted ahead
    /// (`PCM16Conversion.convertInPlace`), so the writer need not convert them itself.
    public var takesConvertedPCM16: Bool { writesPCM16 }

    /// Writes interleaved frames as `write(_:)` would: first `interleaved` (converted here), then `count` samples
    /// already converted to 16-bit PCM at `converted` (`PCM16Conversion.convertInPlace`'s bytes), each in the
    /// same libsndfile calls as were they all floats, so an encoder's output cannot tell. Only when
    /// `takesConvertedPCM16`; the total must be whole frames.
    /// - Throws: as `write(_:)`.
    public func write(_ interleaved: UnsafeBufferPointer<Float>, thenConverted converted: UnsafeRawPointer, count: Int) throws {
        precondition(writesPCM16, "converted samples are for a 16-bit file")
        let total = interleaved.count + count
        guard let handle = try openHandle(forSamples: total) else { return }
        let written = writeShorts(interleaved.baseAddress, count: interleaved.count, converted: (converted, count), handle)
        try finishWrite("sf_write_short", written: written, of: total, handle)
    }

    /// The open handle for a write of `sampleCount` samples, nil for none; refuses a write to a finished file,
    /// and one that would pass the format's frame limit (discarding the file).
    private func openHandle(forSamples sampleCount: Int) throws -> OpaquePointer? {
        guard state == .open, let handle else {
            throw AudioFileError.writeFailed(path: path, reason: "the output is already committed or discarded")
        }
        precondition(sampleCount % channelCount == 0, "a block must hold whole frames")
        let frameCount = Int64(sampleCount / channelCount)
        guard frameCount > 0 else { return nil }
        if framesWritten + frameCount > frameLimit {
            discard()
            throw AudioFileError.unsupported(
                "a WAV file holds at most \(frameLimit) frames (4 GiB) of this audio; use FLAC for longer tracks")
        }
        return handle
    }

    /// Checks a write of `sampleCount` samples through `call` that wrote `written`: the sink's system error, the
    /// count, libsndfile's error; then counts its frames.
    private func finishWrite(_ call: String, written: sf_count_t, of sampleCount: Int, _ handle: OpaquePointer) throws {
        if let code = sink.firstErrorCode { throw failure(call, Errno(code).description) }
        if written != sf_count_t(sampleCount) || sf_error(handle) != SF_ERR_NO_ERROR {
            throw failure(call, SystemErrorText.sndfile(handle))
        }
        framesWritten += Int64(sampleCount / channelCount)
    }

    /// Frames a caller does best to hand `write` at a time: a whole conversion chunk for 16-bit WAV or raw (each
    /// chunk goes to the descriptor in one call), else 8192, the size libsndfile's encoders have always been fed
    /// (an encoder's output must not depend on who calls it).
    public var preferredWriteFrameCount: Int {
        writesPCM16 && spec.format != .flac ? Self.shortChunkSamples / channelCount : 8_192
    }

    /// Whether the file stores 16-bit PCM, which nagi converts itself (`PCM16Conversion`) and hands over as
    /// shorts; the lossy formats encode from floats and get them.
    private var writesPCM16: Bool {
        spec.encoding == .pcm16 && (spec.format == .wav || spec.format == .flac || spec.format == .raw)
    }

    /// Writes `count` samples converted to 16-bit PCM a chunk at a time, then the `converted` ones as they are,
    /// in the same chunks as were they converted here too; returns the samples written. The converted samples'
    /// memory may be bound to `Float` (converted in place): they are copied as bytes and handed to libsndfile,
    /// never read as `Int16` here.
    private func writeShorts(
        _ samples: UnsafePointer<Float>?, count: Int, converted: (bytes: UnsafeRawPointer, count: Int)?, _ handle: OpaquePointer
    ) -> sf_count_t {
        if shortScratch.count == 0 { shortScratch = .allocate(capacity: Self.shortChunkSamples) }
        guard let shorts = shortScratch.baseAddress else { preconditionFailure("no scratch for 16-bit samples") }
        // Whole frames per call: libsndfile refuses a part of one.
        let chunkSamples = Self.shortChunkSamples / channelCount * channelCount
        let total = count + (converted?.count ?? 0)
        var done = 0
        while done < total {
            let chunk = min(chunkSamples, total - done)
            let fromFloats = max(0, min(chunk, count - done))
            let source: UnsafePointer<Int16>
            let sampleBytes = MemoryLayout<Int16>.stride
            if fromFloats == 0, let converted {
                // Entirely converted already: straight from there, to C.
                source = (converted.bytes + (done - count) * sampleBytes).assumingMemoryBound(to: Int16.self)
            } else {
                if let samples { PCM16Conversion.convert(samples + done, count: fromFloats, into: shorts) }
                if fromFloats < chunk, let converted {
                    UnsafeMutableRawPointer(shorts + fromFloats).copyMemory(
                        from: converted.bytes + (done + fromFloats - count) * sampleBytes, byteCount: (chunk - fromFloats) * sampleBytes)
                }
                source = UnsafePointer(shorts)
            }
            let written = sf_write_short(handle, source, sf_count_t(chunk))
            done += Int(written)
            if written != sf_count_t(chunk) { break }
        }
        return sf_count_t(done)
    }

    /// Finishes the file: `sf_close`, the tags through TagLib (`tags`), `fsync`, `close`, rename over the target (or, without `overwrite`, link
    /// it into place only if the target still does not exist), `fsync` of the folder. The only way the target
    /// appears. Calling it again after success does nothing.
    /// - Throws: `.writeFailed` (the temporary file is removed; the target is untouched unless only the final
    ///   folder fsync failed), `.targetExists` when a file took the target's name meanwhile.
    public func commit() throws {
        switch state {
        case .committed: return
        case .closed:
            throw AudioFileError.writeFailed(path: path, reason: "nothing to commit: the output was discarded")
        case .open: break
        }
        if let handle {
            let closeStatus = sf_close(handle)
            self.handle = nil
            // What libsndfile flushes into a stream at close (the last Ogg pages) is unchecked but for this.
            if closeStatus != 0, handleOwnsDescriptorIO {
                throw failure("sf_close", String(cString: sf_error_number(closeStatus)))
            }
        }
        sink.flush()
        if let code = sink.firstErrorCode { throw failure("sf_close", Errno(code).description) }
        guard let temporaryPath else {
            // A pipe or a device: nothing to sync, rename or remove.
            state = .committed
            if let closeError = sink.close() {
                throw AudioFileError.writeFailed(path: path, reason: "close: \(Errno(closeError).description)")
            }
            return
        }
        if !tags.isEmpty, spec.format.supportsTags {
            do {
                try TagLibFile.write(tags, to: temporaryPath, reportedPath: path, format: spec.format, sampleRate: spec.sampleRate, frameCount: framesWritten, cueFrames: spec.cueFrames)
            } catch {
                discard()
                throw error
            }
        }
        // After the tags: TagLib rewrote the file through its own descriptor, the same inode as this one.
        if let syncFailure = SystemCall.fsync(sink.fileDescriptor) { throw failure("fsync", Errno(syncFailure.code).description) }
        if let closeError = sink.close() { throw failure("close", Errno(closeError).description) }
        try publish(temporaryPath)
        state = .committed
        try syncFolder()
    }

    /// Closes the output and removes the temporary file. Does nothing after `commit()` or a previous discard.
    public func discard() {
        guard state == .open else { return }
        state = .closed
        if let handle {
            // Whatever libsndfile flushes now is thrown away, so a full disk does not fail twice.
            if temporaryPath != nil { sink.discardsWrites = true }
            sf_close(handle)
            self.handle = nil
        }
        sink.close()
        if let temporaryPath { unlink(temporaryPath) }
    }

    // MARK: - Steps

    /// Opens libsndfile over `sink` through virtual I/O, so every byte it writes is checked.
    private func openVirtual(info sndfileInfo: SF_INFO? = nil) throws {
        var info = sndfileInfo ?? spec.sndfileInfo
        var virtualIO = FileDescriptorSink.virtualIO
        handle = sf_open_virtual(&virtualIO, Int32(SFM_WRITE), &info, Unmanaged.passUnretained(sink).toOpaque())
        if handle == nil {
            let text = sink.firstErrorCode.map { Errno($0).description } ?? SystemErrorText.sndfile(nil)
            throw failure("sf_open_virtual", text)
        }
    }

    /// Starts a stream into `sink`'s descriptor, never seeking back, in every format.
    ///
    /// WAV, raw PCM and FLAC go through virtual I/O over the forward-only sink. WAV: libsndfile refuses a pipe (a
    /// RIFF header needs sizes known only at the end), so the stream is nagi's header with sizes that say
    /// "unknown" (`WAVStreamHeader`) followed by raw little-endian PCM from libsndfile: the same samples as a
    /// file. FLAC: libFLAC's final rewrite of its STREAMINFO (total samples, MD5) cannot go back into a stream and
    /// is dropped; a `frameCount` known ahead is stated in the STREAMINFO as it is first sent (`FileDescriptorSink`),
    /// else it says 0, "unknown", as the format allows (`flac -t` passes). The MD5 stays 0, "not computed". Ogg, Opus and MP3 go through
    /// libsndfile's own descriptor I/O, which sees a pipe and leaves out what it would seek back for (LAME's
    /// length header, so libsndfile's own reader misjudges the length of a piped VBR MP3; ffmpeg reads it all);
    /// its error texts for pipes are its own, without errno.
    private func openStream(frameCount: Int64?) throws {
        switch spec.format {
        case .wav, .raw, .flac:
            sink.makeForwardOnly()
            if spec.format == .flac { sink.streamInfoFrameCount = frameCount }
            var info = spec.sndfileInfo
            if spec.format == .wav {
                if !sink.prepend(WAVStreamHeader(spec: spec, frameCount: frameCount).bytes) || !sink.flush() {
                    throw failure("write of the WAV header", Errno(sink.firstErrorCode ?? EIO).description)
                }
                info.format = Int32(SF_FORMAT_RAW | spec.encoding.sndfileSubtype | SF_ENDIAN_LITTLE)
                handleCarriesMetadata = false
            }
            try openVirtual(info: info)
        case .ogg, .opus, .mp3:
            handleOwnsDescriptorIO = true
            var info = spec.sndfileInfo
            handle = sf_open_fd(sink.fileDescriptor, Int32(SFM_WRITE), &info, Int32(SF_FALSE))
            if handle == nil { throw failure("sf_open_fd", SystemErrorText.sndfile(nil)) }
        }
    }

    /// A descriptor of this writer's own for `descriptor` (standard output, a caller's pipe).
    private static func duplicate(_ descriptor: Int32, name: String) throws -> Int32 {
        let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            throw AudioFileError.cannotCreate(path: name, reason: "dup: \(Errno.current.description)")
        }
        return duplicate
    }

    /// Opens an existing non-regular target for writing, without creating or truncating anything, and without
    /// blocking on a FIFO that has no reader yet (see `WritableTargetOpener`).
    private static func openExisting(_ path: String, stopsWaiting: () -> Bool) throws -> Int32 {
        switch WritableTargetOpener.open(path, shouldStop: stopsWaiting) {
        case let .success(descriptor): return descriptor
        case let .failure(failure):
            throw AudioFileError.cannotCreate(path: path, reason: "open: \(Errno(failure.code).description)")
        }
    }

    /// Creates the temporary file exclusively. A leftover of the same name can only come from a dead process
    /// that had our pid, or from this process, so it is replaced.
    private static func createTemporaryFile(_ temporaryPath: String, mode: mode_t?, reportedPath: String) throws
        -> Int32
    {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        var opened = SystemCall.open(temporaryPath, flags, 0o666)
        if opened.failure?.code == EEXIST, unlink(temporaryPath) == 0 {
            opened = SystemCall.open(temporaryPath, flags, 0o666)
        }
        let descriptor: Int32
        switch opened {
        case let .success(opened): descriptor = opened
        case let .failure(failure):
            throw AudioFileError.cannotCreate(path: reportedPath, reason: "open: \(Errno(failure.code).description)")
        }
        // A replaced file keeps its permissions; a new one gets 0666 less the umask, like any created file.
        if let mode { fchmod(descriptor, mode) }
        return descriptor
    }

    /// Clipping, quality, tags and cue points: all must precede the first frame.
    private func configure() throws {
        guard let handle else { return }
        // Without clipping, 1.7 written as PCM wraps around to a loud negative click.
        if sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE)) != SF_TRUE {
            throw refusal("sf_command(SFC_SET_CLIPPING)", SystemErrorText.sndfile(handle))
        }
        if let quality = spec.quality { try setQuality(quality, handle) }
        guard handleCarriesMetadata, spec.format.supportsTags else { return }
        // A file is tagged through TagLib when complete (`commit`); a stream cannot be re-opened, so libsndfile
        // writes what it can into its header. A WAV file's RIFF INFO also comes from libsndfile, placed before the
        // cue points and the audio: libsndfile reads an INFO list back only while its 100 KiB header buffer lasts,
        // and one appended after 2400 cue points by TagLib loses its later strings. TagLib adds the `id3 ` chunk.
        for (type, name, text) in temporaryPath == nil || spec.format == .wav ? spec.tags.sndfileTexts(for: spec.format) : [] {
            let bytes = AudioTags.cString(text, for: spec.format)
            if sf_set_string(handle, type, bytes) != SF_ERR_NO_ERROR {
                throw refusal("sf_set_string(\(name))", SystemErrorText.sndfile(handle))
            }
        }
        if !spec.cueFrames.isEmpty {
            let cues = CuePointList(frames: spec.cueFrames)
            if sf_command(handle, Int32(SFC_SET_CUE), cues.storage, Int32(cues.byteCount)) != SF_TRUE {
                throw refusal("sf_command(SFC_SET_CUE)", SystemErrorText.sndfile(handle))
            }
        }
        // Header bytes written while opening and configuring.
        if let code = sink.firstErrorCode { throw failure("sf_open_virtual", Errno(code).description) }
    }

    /// libsndfile 1.2.0: `SFC_SET_VBR_ENCODING_QUALITY` takes 0 (worst) ... 1 (best) and forwards `1 − q` as
    /// `SFC_SET_COMPRESSION_LEVEL`, which Vorbis, Opus and LAME read as 0 best ... 1 smallest. For FLAC the
    /// compression level is effort alone (lossless), so nagi's 1 maps to level 1 (`flac -8`, smallest).
    private func setQuality(_ quality: Double, _ handle: OpaquePointer) throws {
        switch spec.format {
        case .wav, .raw:
            return
        case .flac:
            var level = quality
            if sf_command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
                != SF_TRUE
            {
                throw refusal("sf_command(SFC_SET_COMPRESSION_LEVEL)", SystemErrorText.sndfile(handle))
            }
        case .ogg, .opus, .mp3:
            // LAME's VBR scale stops just short of V10 (1 − 0 = 1.0 → 10.0 is refused): keep q above 0.
            var vbrQuality = spec.format == .mp3 ? max(quality, 0.001) : quality
            if sf_command(handle, Int32(SFC_SET_VBR_ENCODING_QUALITY), &vbrQuality, Int32(MemoryLayout<Double>.size))
                != SF_TRUE
            {
                throw refusal("sf_command(SFC_SET_VBR_ENCODING_QUALITY)", SystemErrorText.sndfile(handle))
            }
            if spec.format == .mp3 {
                // After the quality: switching the mode re-applies the stored quality in that mode.
                var mode = Int32(SF_BITRATE_MODE_VARIABLE)
                if sf_command(handle, Int32(SFC_SET_BITRATE_MODE), &mode, Int32(MemoryLayout<Int32>.size)) != SF_TRUE {
                    throw refusal("sf_command(SFC_SET_BITRATE_MODE)", SystemErrorText.sndfile(handle))
                }
            }
        }
    }

    /// Moves the finished temporary file to the target.
    private func publish(_ temporaryPath: String) throws {
        if overwrite {
            if rename(temporaryPath, finalPath) != 0 { throw failure("rename", Errno.current.description) }
            return
        }
        // link() fails with EEXIST instead of replacing a file that appeared since init.
        if link(temporaryPath, finalPath) == 0 {
            unlink(temporaryPath)
            return
        }
        let linkError = errno
        if linkError == EEXIST {
            discard()
            throw AudioFileError.targetExists(path: path)
        }
        // File systems without hard links (FAT, some network mounts): check, then rename.
        var status = stat()
        if lstat(finalPath, &status) == 0 {
            discard()
            throw AudioFileError.targetExists(path: path)
        }
        if rename(temporaryPath, finalPath) != 0 { throw failure("rename", Errno.current.description) }
    }

    /// Makes the rename durable. File systems that cannot sync a folder (EINVAL) are accepted.
    private func syncFolder() throws {
        guard case let .success(folder) = SystemCall.open(OutputTarget.folder(of: finalPath), O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return }
        defer { _ = SystemCall.close(folder) }
        if let syncFailure = SystemCall.fsync(folder), syncFailure.code != EINVAL, syncFailure.code != ENOTSUP {
            throw AudioFileError.writeFailed(path: path, reason: "fsync of the folder: \(Errno(syncFailure.code).description)")
        }
    }

    /// Discards the output and returns `.writeFailed` naming `function`, to throw; `.readerClosed` when the output
    /// is a stream whose reader has gone (the failure is then only the consequence).
    private func failure(_ function: String, _ text: String) -> AudioFileError {
        let readerGone = temporaryPath == nil && (sink.firstErrorCode == EPIPE || ClosedPipe.isClosed(sink.fileDescriptor))
        discard()
        if readerGone { return .readerClosed(path: path) }
        return .writeFailed(path: path, reason: "\(function): \(text)")
    }

    /// Discards the output and returns `.unsupported`, to throw: libsndfile refused a setting validate() let
    /// through.
    private func refusal(_ function: String, _ text: String) -> AudioFileError {
        discard()
        return .unsupported("libsndfile refused a setting for '\(path)': \(function): \(text)")
    }

    // MARK: - Sample scrubbing

    /// Whether any sample is NaN or infinite. One branch-free pass the compiler can vectorise: the largest
    /// exponent-and-mantissa bit pattern reaches 0x7f80_0000 only for ±infinity or NaN.
    private static func hasNonFinite(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        var largest: UInt32 = 0
        for sample in samples {
            largest = max(largest, sample.bitPattern & 0x7fff_ffff)
        }
        return largest >= 0x7f80_0000
    }

    /// Copies `samples` into the scratch buffer with NaN → 0 and ±infinity → ±1.
    private func scrubbed(_ samples: UnsafeBufferPointer<Float>) -> UnsafePointer<Float> {
        if scratch.count < samples.count {
            scratch.deallocate()
            scratch = .allocate(capacity: samples.count)
        }
        let destination = scratch
        guard let start = destination.baseAddress else { preconditionFailure("no scratch for a non-empty block") }
        for index in 0..<samples.count {
            let sample = samples[index]
            destination[index] = sample.isNaN ? 0 : (sample.isInfinite ? (sample < 0 ? -1 : 1) : sample)
        }
        return UnsafePointer(start)
    }
}
