import FilePaths
import NagiSystem
import Glibc

/// A folder of the server's own in `TMPDIR` (an album exported before it is archived), made and removed whole.
enum TemporaryFolder {
    /// A new empty folder `TMPDIR/PREFIXxxxxxx` (mode 0700), nil when none can be made (errno says why).
    static func make(prefix: String) -> String? {
        let base = ProcessEnvironment.temporaryFolder
        var template = Array(FilePath(base).appending(prefix + "XXXXXX").string.utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return mkdtemp(base).map { String(cString: $0) }
        }
    }

    /// Removes `folder` and what it holds (files, and folders inside it, not following links).
    static func remove(_ folder: String) {
        if let directory = opendir(folder) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name != ".", name != ".." else { continue }
                let path = FilePath(folder).appending(name).string
                if FileKind.of(path, followingLinks: false) == .folder {
                    remove(path)
                } else {
                    unlink(path)
                }
            }
            closedir(directory)
        }
        rmdir(folder)
    }
}
