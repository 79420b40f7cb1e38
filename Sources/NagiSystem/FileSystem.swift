import NagiBase
import Glibc

/// The few file-system calls the command line, the server and the exporter need, straight from the C library,
/// with errno turned into the system's words (`Errno`).
package enum FileSystem {
    /// What names the file at `path` whatever the spelling (`./a.txt`, `sub/../a.txt`, a link to it): its device and
    /// inode when it exists, else its folder's real path and its name. Two paths with one identity are one file.
    package static func identity(of path: String) -> String {
        var status = stat()
        if stat(path, &status) == 0 { return "inode \(status.st_dev):\(status.st_ino)" }
        let filePath = FilePath(path)
        guard let real = realpath(filePath.parent.string, nil) else { return "path " + path }
        defer { free(real) }
        return "path " + FilePath(String(cString: real)).appending(filePath.lastComponent).string
    }

    /// The size of a file in bytes, or 0.
    package static func size(of path: String) -> Int64 {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : 0
    }

    /// A file's size and modification time: what tells a track nagi wrote from one replaced since.
    package struct Stamp: Equatable, Sendable {
        /// The size, bytes.
        package var byteCount: Int64
        /// The modification time, nanoseconds since the epoch.
        package var modifiedNanoseconds: Int64

        package init(byteCount: Int64, modifiedNanoseconds: Int64) {
            (self.byteCount, self.modifiedNanoseconds) = (byteCount, modifiedNanoseconds)
        }
    }

    /// The size and modification time of the regular file at `path`, nil when there is none.
    package static func stamp(of path: String) -> Stamp? {
        var status = stat()
        guard stat(path, &status) == 0, FileKind(mode: status.st_mode) == .regularFile else { return nil }
        return Stamp(byteCount: Int64(status.st_size), modifiedNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }

    /// The system's words for the current errno ("No space left on device").
    package static var lastErrorText: String { Errno.current.description }

    /// Writes all of `bytes` to an open descriptor; false with errno set on failure.
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer -> Result<Int, Errno> in
                guard let base = buffer.baseAddress else { return .success(0) }
                return SystemCall.write(descriptor, base.advanced(by: offset), bytes.count - offset)
            }
            switch result {
            case let .success(written): offset += written
            case let .failure(failure):
                errno = failure.code
                return false
            }
        }
        return true
    }

    /// Creates `path` and its missing parents (like `mkdir -p`); the reason on failure.
    package static func makeFolders(_ path: String) -> String? {
        if FileKind.of(path) == .folder { return nil }
        // The parents first, up to one that exists (the root and the working folder always do).
        let parent = FilePath(path).parent
        if parent.string != path, let reason = makeFolders(parent.string) { return reason }
        if mkdir(path, 0o755) != 0, errno != EEXIST { return "cannot create '\(path)': \(lastErrorText)" }
        return FileKind.of(path) == .folder ? nil : "cannot create '\(path)': not a folder"
    }

    /// The local hour, 0 to 23.
    package static func localHour() -> Int {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return 12 }
        return Int(parts.tm_hour)
    }
}
