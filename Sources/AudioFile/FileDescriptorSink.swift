import NagiSystem
import CNagiSystem
import CSndFile
import Glibc

/// An open file descriptor that libsndfile writes through (virtual I/O), owning the descriptor and remembering
/// the first system error.
///
/// Through `sf_open_virtual` every byte libsndfile writes, including what `sf_close` flushes (the last FLAC
/// frame, Ogg pages, LAME's tail, the final WAV header), passes here, so a full disk is seen even where libsndfile
/// itself reports nothing.
final class FileDescriptorSink {
    private(set) var fileDescriptor: Int32
    /// The first errno a read, write, seek or fstat failed with.
    private(set) var firstErrorCode: Int32?
    /// When true, writes succeed without touching the file: used while closing output that is being discarded.
    var discardsWrites = false
    /// Set for a pipe or standard output (`makeForwardOnly`): positions are counted rather than asked of the
    /// descriptor, and what an encoder writes after seeking back to finish a header (FLAC's STREAMINFO) is
    /// dropped, since a stream cannot take back what it sent.
    private(set) var isForwardOnly = false
    /// Forward-only FLAC: the frame count the STREAMINFO block states as it passes, nil to leave it as libFLAC wrote
    /// it (0, "unknown"). libFLAC fills the count in only by seeking back when it finishes, which a stream cannot; a
    /// length known from the start (a render's schedule fixes it) is put there on the way out instead, so a saved
    /// stream opens in libsndfile, which takes 0 for "2^63 − 1 frames" and refuses the file.
    var streamInfoFrameCount: Int64?
    /// Where STREAMINFO's 36-bit total-samples field lies in a FLAC stream: its low 4 bits of byte 21, then bytes
    /// 22 to 25 ("fLaC", a 4-byte block header, then 10 bytes of block and frame sizes and 28 bits of rate,
    /// channels and bits before it).
    static let streamInfoFrameCountBytes: Range<Int64> = 21..<26
    /// Forward-only: bytes libsndfile has put into the stream, and where it believes it is writing.
    private var streamedByteCount: Int64 = 0
    private var streamPosition: Int64 = 0
    /// Bytes written since writeback was last started.
    private var unflushedByteCount = 0
    /// Start the kernel's writeback every this many bytes, so the fsync at commit waits for little.
    private static let writebackInterval = 4 << 20
    /// libsndfile's encoders write in chunks of a few kilobytes; gathering them into large writes saves most of
    /// the system calls (14 331 → 115 for ten minutes of stereo WAV, counted with strace).
    private static let bufferCapacity = 1 << 20
    /// A write at least this large goes straight to the descriptor (after what is gathered): copying it into
    /// the buffer first would only add a pass over the bytes. 16-bit PCM arrives in chunks this large.
    private static let passThroughBytes = 1 << 18
    private let buffer = UnsafeMutableRawPointer.allocate(byteCount: FileDescriptorSink.bufferCapacity, alignment: 16)
    private var bufferedByteCount = 0

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    deinit {
        _ = close()
        buffer.deallocate()
    }

    /// Writes out what is gathered; false if the system refused (the errno is recorded).
    @discardableResult
    func flush() -> Bool {
        guard bufferedByteCount > 0 else { return firstErrorCode == nil }
        let count = bufferedByteCount
        bufferedByteCount = 0
        if discardsWrites || fileDescriptor < 0 { return true }
        return writeThrough(buffer, count) == count
    }

    /// Closes the descriptor once, after writing out what is gathered; returns the errno `close` failed
    /// with, or nil.
    @discardableResult
    func close() -> Int32? {
        guard fileDescriptor >= 0 else { return nil }
        flush()
        let failure = SystemCall.close(fileDescriptor)
        fileDescriptor = -1
        return failure?.code
    }

    /// Makes the sink forward-only (see `isForwardOnly`); before libsndfile opens it.
    func makeForwardOnly() {
        isForwardOnly = true
    }

    /// Sends `bytes` ahead of everything libsndfile writes, outside its count of positions (a header nagi writes
    /// itself); false once a write failed.
    func prepend(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            return gather(base, raw.count)
        }
    }

    /// The callbacks libsndfile calls; `user_data` must be `Unmanaged.passUnretained(sink).toOpaque()` and the
    /// sink must outlive the SNDFILE.
    static var virtualIO: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { userData in FileDescriptorSink.sink(userData).fileLength() },
            seek: { offset, whence, userData in FileDescriptorSink.sink(userData).seek(offset, whence) },
            read: { buffer, count, userData in FileDescriptorSink.sink(userData).read(buffer, count) },
            write: { buffer, count, userData in FileDescriptorSink.sink(userData).write(buffer, count) },
            tell: { userData in FileDescriptorSink.sink(userData).seek(0, SEEK_CUR) }
        )
    }

    private static func sink(_ userData: UnsafeMutableRawPointer?) -> FileDescriptorSink {
        // libsndfile passes back the pointer given to sf_open_virtual, which is never nil.
        guard let userData else { fatalError("libsndfile lost its virtual I/O user data") }
        return Unmanaged<FileDescriptorSink>.fromOpaque(userData).takeUnretainedValue()
    }

    private func record(_ code: Int32) {
        if firstErrorCode == nil { firstErrorCode = code }
    }

    private func fileLength() -> sf_count_t {
        if isForwardOnly { return sf_count_t(streamedByteCount) }
        flush()
        var status = stat()
        if let failure = SystemCall.valueOrErrno({ fstat(fileDescriptor, &status) }).failure {
            record(failure.code)
            return -1
        }
        return sf_count_t(status.st_size)
    }

    private func seek(_ offset: sf_count_t, _ whence: Int32) -> sf_count_t {
        if isForwardOnly {
            let base = whence == SEEK_SET ? 0 : (whence == SEEK_CUR ? streamPosition : streamedByteCount)
            let target = base + Int64(offset)
            // Back within what was sent is allowed (the rewrite is dropped); past the end would leave a gap.
            guard (0...streamedByteCount).contains(target) else {
                record(ESPIPE)
                return -1
            }
            streamPosition = target
            return sf_count_t(target)
        }
        flush()
        switch SystemCall.valueOrErrno({ lseek(fileDescriptor, off_t(offset), whence) }) {
        case let .success(position): return sf_count_t(position)
        case let .failure(failure):
            record(failure.code)
            return -1
        }
    }

    private func read(_ buffer: UnsafeMutableRawPointer?, _ count: sf_count_t) -> sf_count_t {
        guard let buffer, count > 0, !isForwardOnly else { return 0 }
        flush()
        var total = 0
        reading: while total < Int(count) {
            switch SystemCall.read(fileDescriptor, buffer + total, Int(count) - total) {
            case .success(0):
                break reading
            case let .success(byteCount):
                total += byteCount
            case let .failure(failure):
                record(failure.code)
                break reading
            }
        }
        return sf_count_t(total)
    }

    /// Gathers `count` bytes, writing out when the buffer fills; returns `count`, or 0 once a write failed.
    /// Forward-only, bytes aimed at positions already sent are dropped and only what extends the stream is sent.
    private func write(_ source: UnsafeRawPointer?, _ count: sf_count_t) -> sf_count_t {
        guard let source, count > 0 else { return 0 }
        if discardsWrites { return count }
        if firstErrorCode != nil { return 0 }
        guard isForwardOnly else { return gather(source, Int(count)) ? count : 0 }
        let dropped = Int(min(Int64(count), streamedByteCount - streamPosition))
        let firstSent = streamPosition + Int64(dropped)
        streamPosition += Int64(count)
        streamedByteCount = max(streamedByteCount, streamPosition)
        guard dropped < Int(count) else { return count }
        let sent = firstSent..<streamPosition
        if let frameCount = streamInfoFrameCount, sent.overlaps(Self.streamInfoFrameCountBytes) {
            var bytes = Array(UnsafeRawBufferPointer(start: source + dropped, count: Int(count) - dropped))
            Self.stateFrameCount(frameCount, in: &bytes, startingAt: firstSent)
            return bytes.withUnsafeBytes { gather($0.baseAddress ?? source, $0.count) } ? count : 0
        }
        return gather(source + dropped, Int(count) - dropped) ? count : 0
    }

    /// Writes `frameCount` into the STREAMINFO total-samples bytes that `bytes` (the stream's bytes from position
    /// `start`) holds, leaving byte 21's high bits (the last of bits per sample) as they are.
    static func stateFrameCount(_ frameCount: Int64, in bytes: inout [UInt8], startingAt start: Int64) {
        let value = UInt64(max(0, min(frameCount, (1 << 36) - 1)))
        for position in Self.streamInfoFrameCountBytes where position >= start && position < start + Int64(bytes.count) {
            let index = Int(position - start)
            let shift = UInt64(8 * (Self.streamInfoFrameCountBytes.upperBound - 1 - position))
            let byte = UInt8(truncatingIfNeeded: value >> shift)
            bytes[index] = position == Self.streamInfoFrameCountBytes.lowerBound ? (bytes[index] & 0xF0) | (byte & 0x0F) : byte
        }
    }

    /// Adds `size` bytes to the buffer, writing out when it fills; false once a write failed.
    private func gather(_ source: UnsafeRawPointer, _ size: Int) -> Bool {
        if firstErrorCode != nil { return false }
        if bufferedByteCount + size > Self.bufferCapacity {
            guard flush() else { return false }
        }
        if size >= Self.passThroughBytes {
            guard flush() else { return false }
            return writeThrough(source, size) == size
        }
        (buffer + bufferedByteCount).copyMemory(from: source, byteCount: size)
        bufferedByteCount += size
        return true
    }

    /// Writes everything or stops at the first error; returns the bytes written.
    private func writeThrough(_ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        var total = 0
        writing: while total < Int(count) {
            switch SystemCall.write(fileDescriptor, buffer + total, Int(count) - total) {
            case .success(0):
                // No progress and no errno: give up rather than spin.
                record(EIO)
                break writing
            case let .success(byteCount):
                total += byteCount
                unflushedByteCount += byteCount
                if unflushedByteCount >= Self.writebackInterval {
                    unflushedByteCount = 0
                    // Asynchronous: queues the dirty pages for writing and returns. Fails harmlessly on
                    // pipes and devices; errors still surface at write or fsync.
                    _ = nagi_start_writeback(fileDescriptor)
                }
            case let .failure(failure):
                record(failure.code)
                break writing
            }
        }
        return total
    }
}
