import Locking
import NagiBase
import NagiSystem
import Glibc

/// A folder of the server's own in `TMPDIR` (an album exported before it is archived), made and removed whole.
/// The folders made and not yet removed are known, so that a server stopping at once (SIGTERM) removes those whose
/// producers have not finished removing them.
enum TemporaryFolder {
    /// The folders made and not removed yet.
    private static let open = Locked<Set<String>>([])

    /// A new empty folder `TMPDIR/PREFIXxxxxxx` (mode 0700), nil when none can be made (errno says why).
    static func make(prefix: String) -> String? {
        let base = ProcessEnvironment.temporaryFolder
        var template = Array(FilePath(base).appending(prefix + "XXXXXX").string.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress else { return nil }
            return mkdtemp(base).map { String(cString: $0) }
        }
        if let made { open.withLock { _ = $0.insert(made) } }
        return made
    }

    /// Removes every folder made in `base` and not removed yet.
    static func removeAll(in base: String) {
        let prefix = base.hasSuffix("/") ? base : base + "/"
        let left = open.withLock { folders in folders.filter { $0.hasPrefix(prefix) } }
        for folder in left { remove(folder) }
    }

    /// Removes `folder` and what it holds (files, and folders inside it, not following links).
    static func remove(_ folder: String) {
        open.withLock { _ = $0.remove(folder) }
        removeTree(folder)
    }

    /// Removes `folder` and what it holds.
    private static func removeTree(_ folder: String) {
        if let directory = opendir(folder) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name != ".", name != ".." else { continue }
                let path = FilePath(folder).appending(name).string
                if FileKind.of(path, followingLinks: false) == .folder {
                    removeTree(path)
                } else {
                    unlink(path)
                }
            }
            closedir(directory)
        }
        rmdir(folder)
    }
}
