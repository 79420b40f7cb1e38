import NagiSystem
import Glibc

/// The one rule for every path nagi reads (a pattern, session, course or soundscape file, a cue clip, a bed, a
/// cover, an RR record, a progress record): it names a regular file nagi may read. A missing path, a folder, a
/// pipe, socket or device, or a file without read permission is refused before a byte is read (`InputFileError
/// .refused`, exit 66), naming the path and why; a read that fails part way is an I/O error (`.readFailed`, 74).
///
/// A pipe is never opened where it could block: the kind is checked with `stat` first (opening some devices has
/// effects of its own), then the file is opened without blocking and checked again with `fstat`, in case the
/// path changed in between.
public enum InputFile {
    /// Opens `path` for reading; the descriptor is the caller's to close.
    /// - Throws: `.refused` with the reason ("No such file or directory", "a folder, not a regular file", "not a
    ///   regular file (a named pipe)", "Permission denied").
    public static func open(_ path: String) throws(InputFileError) -> Int32 {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .refused(path: path, reason: Errno.current.description) }
        if let reason = FileKind(mode: status.st_mode).refusalToRead { throw .refused(path: path, reason: reason) }
        let descriptor: Int32
        switch SystemCall.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) {
        case let .success(opened): descriptor = opened
        case let .failure(failure): throw .refused(path: path, reason: Errno(failure.code).description)
        }
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            _ = SystemCall.close(descriptor)
            throw .readFailed(path: path, reason: "fstat: " + Errno(code).description)
        }
        if let reason = FileKind(mode: status.st_mode).refusalToRead {
            _ = SystemCall.close(descriptor)
            throw .refused(path: path, reason: reason)
        }
        return descriptor
    }

    /// The bytes of the file at `path`, at most `limit + 1` of them: one past the limit tells a caller the file is
    /// too large without reading it all.
    /// - Throws: `.refused` as `open` does, `.readFailed` for a read that fails part way.
    public static func read(_ path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        let descriptor = try open(path)
        defer { _ = SystemCall.close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= limit {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let result = chunk.withUnsafeMutableBytes { buffer -> Result<Int, SystemCall.Failure> in
                guard let base = buffer.baseAddress else { return .success(0) }
                return SystemCall.read(descriptor, base, wanted)
            }
            switch result {
            case let .success(count):
                if count == 0 { return bytes }
                bytes.append(contentsOf: chunk[0..<count])
            case let .failure(failure):
                throw .readFailed(path: path, reason: "read: " + Errno(failure.code).description)
            }
        }
        return bytes
    }

}
