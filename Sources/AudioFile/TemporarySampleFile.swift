import NagiSystem
import CNagiSystem
import Glibc

/// A file of Float samples without a name: appended once, then read back from any sample. Opened with
/// O_TMPFILE, so it never appears in a folder and its space is freed when it is closed, even by kill -9.
///
/// What it is for: a bed recording longer than the memory budget but shorter than the session is decoded and
/// resampled again for every pass; its first pass kept here is read back instead, as `sox … repeat` does. The
/// pages stay in the page cache on a machine with memory to spare, and are not the process's resident memory.
/// One owner.
public final class TemporarySampleFile {
    private let fileDescriptor: Int32
    /// Samples gathered before a write, so a pass read in chunks of a few thousand frames costs few calls.
    private let buffer: UnsafeMutablePointer<Float>
    private static let bufferSamples = 1 << 18
    private var bufferedCount = 0
    /// Samples written to the file (not counting those still gathered).
    private var writtenCount: Int64 = 0
    /// The most samples the file takes: twice what it was made for, so a recording whose header understated its
    /// length can never grow it past the free space `create` checked.
    private let capacity: Int64

    /// Samples appended so far.
    public var sampleCount: Int64 { writtenCount + Int64(bufferedCount) }

    /// A new file in `folder` for `expectedSampleCount` samples (it takes at most twice as many), or nil when the
    /// folder's file system cannot make a nameless file or would keep less free space after it than the file
    /// takes (a temporary copy must never be what fills the disk that the output goes to).
    public static func create(inFolder folder: String, expectedSampleCount: Int64) -> TemporarySampleFile? {
        guard case let .success(descriptor) = SystemCall.valueOrErrno({ nagi_open_nameless_file(folder) }) else { return nil }
        var status = statvfs()
        let bytes = expectedSampleCount * Int64(MemoryLayout<Float>.stride)
        guard fstatvfs(descriptor, &status) == 0, Int64(status.f_bavail) * Int64(status.f_frsize) >= 2 * bytes + (256 << 20) else {
            _ = SystemCall.close(descriptor)
            return nil
        }
        return TemporarySampleFile(fileDescriptor: descriptor, capacity: 2 * expectedSampleCount)
    }

    private init(fileDescriptor: Int32, capacity: Int64) {
        self.fileDescriptor = fileDescriptor
        self.capacity = capacity
        buffer = .allocate(capacity: Self.bufferSamples)
    }

    deinit {
        _ = SystemCall.close(fileDescriptor)
        buffer.deallocate()
    }

    /// Appends `count` samples; false when the file system refused or they would pass the file's capacity (the
    /// file is then of no use).
    public func append(_ samples: UnsafePointer<Float>, count: Int) -> Bool {
        guard sampleCount + Int64(count) <= capacity else { return false }
        var done = 0
        while done < count {
            if bufferedCount == Self.bufferSamples, !flush() { return false }
            let step = min(count - done, Self.bufferSamples - bufferedCount)
            (buffer + bufferedCount).update(from: samples + done, count: step)
            bufferedCount += step
            done += step
        }
        return true
    }

    /// Writes out what is gathered; false when the file system refused.
    public func flush() -> Bool {
        let bytes = bufferedCount * MemoryLayout<Float>.stride
        let start = writtenCount * Int64(MemoryLayout<Float>.stride)
        let source = UnsafeRawPointer(buffer)
        guard Self.untilAllMoved(bytes, { done in pwrite(fileDescriptor, source + done, bytes - done, off_t(start + Int64(done))) }) else { return false }
        writtenCount += Int64(bufferedCount)
        bufferedCount = 0
        return true
    }

    /// Forgets every sample and frees the file's space (to start over).
    public func removeAll() {
        bufferedCount = 0
        writtenCount = 0
        _ = SystemCall.valueOrErrno { ftruncate(fileDescriptor, 0) }
    }

    /// Reads up to `count` samples from sample `index` of those written (`flush` first) into `target`; returns
    /// how many it read: fewer at the end, and −1 when the file system refused.
    public func read(at index: Int64, into target: UnsafeMutablePointer<Float>, count: Int) -> Int {
        let wanted = Int(max(0, min(Int64(count), writtenCount - index)))
        let bytes = wanted * MemoryLayout<Float>.stride
        let start = index * Int64(MemoryLayout<Float>.stride)
        let destination = UnsafeMutableRawPointer(target)
        guard Self.untilAllMoved(bytes, { done in pread(fileDescriptor, destination + done, bytes - done, off_t(start + Int64(done))) }) else { return -1 }
        return wanted
    }

    /// Calls `move` (a pread or pwrite of the bytes from `done` on) until `byteCount` bytes have moved, retrying
    /// what a signal interrupted; false when a call failed or moved nothing (a file cut short under it).
    private static func untilAllMoved(_ byteCount: Int, _ move: (_ done: Int) -> Int) -> Bool {
        var done = 0
        while done < byteCount {
            switch SystemCall.valueOrErrno({ move(done) }) {
            case let .success(count) where count > 0: done += count
            default: return false
            }
        }
        return true
    }
}
