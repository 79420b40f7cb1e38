import AudioFile
import Glibc

/// The few file-system calls the command line needs, straight from the C library, with errno turned
/// into the system's words.
package enum FileSystem {
    /// What is at a path.
    package enum Kind {
        case missing
        case regularFile
        case folder
        /// A pipe, a device, a socket.
        case other
    }

    /// What is at `path` (following symbolic links).
    package static func kind(of path: String) -> Kind {
        var status = stat()
        guard stat(path, &status) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// What names the file at `path` whatever the spelling (`./a.txt`, `sub/../a.txt`, a link to it): its device and
    /// inode when it exists, else its folder's real path and its name. Two paths with one identity are one file.
    package static func identity(of path: String) -> String {
        var status = stat()
        if stat(path, &status) == 0 { return "inode \(status.st_dev):\(status.st_ino)" }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let real = realpath(folder(of: path), nil) else { return "path " + path }
        defer { free(real) }
        return "path " + String(cString: real) + "/" + name
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
    }

    /// The size and modification time of the regular file at `path`, nil when there is none.
    package static func stamp(of path: String) -> Stamp? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Stamp(byteCount: Int64(status.st_size), modifiedNanoseconds: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
    }

    /// The system's words for the current errno ("No space left on device").
    package static var lastErrorText: String { String(cString: strerror(errno)) }

    /// Reads at most `limit + 1` bytes of a regular file (`InputFile`'s rule: a FIFO never blocks, a device is never
    /// read); nil with the reason when it cannot be read.
    package static func read(_ path: String, limit: Int) -> (bytes: [UInt8]?, reason: String) {
        do {
            return (try InputFile.read(path, limit: limit), "")
        } catch {
            return (nil, error.reason)
        }
    }

    /// Writes all of `bytes` to an open descriptor; false with errno set on failure.
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress?.advanced(by: offset), bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Creates `path` and its missing parents (like `mkdir -p`); the reason on failure.
    package static func makeFolders(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if kind(of: prefix) != .folder, mkdir(prefix, 0o755) != 0, errno != EEXIST {
                return "cannot create '\(prefix)': \(lastErrorText)"
            }
            prefix += "/"
        }
        return kind(of: path) == .folder ? nil : "cannot create '\(path)': not a folder"
    }

    /// The folder part of a path: "/a/b.json" → "/a", "b.json" → ".".
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The local hour, 0 to 23.
    package static func localHour() -> Int {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return 12 }
        return Int(parts.tm_hour)
    }
}
