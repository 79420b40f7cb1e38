import NagiSystem
import Glibc

/// A whole-file copy beside the original and its atomic return, for re-tagging a published file.
enum FileCopy {
    /// Copies `source` to a new file `destination` with the same permissions .
    /// - Throws: `.cannotRead` for the source, `.writeFailed` naming `source` for the copy.
    static func copy(_ source: String, to destination: String) throws(AudioFileError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .cannotRead(path: source, reason: "open: \(Errno.current.description)") }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw .cannotRead(path: source, reason: "fstat: \(Errno.current.description)") }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, status.st_mode & 0o7777)
        guard output >= 0 else { throw .writeFailed(path: source, reason: "open of a copy: \(Errno.current.description)") }
        defer { close(output) }
        // One MiB at a time; Glibc's module does not offer copy_file_range (a _GNU_SOURCE declaration).
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        guard let base = buffer.baseAddress else { return }
        while true {
            let count = read(input, base, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .cannotRead(path: source, reason: "read: \(Errno.current.description)") }
            if count == 0 { return }
            var written = 0
            while written < count {
                let step = write(output, base + written, count - written)
                if step < 0, errno == EINTR { continue }
                guard step > 0 else { throw .writeFailed(path: source, reason: "write of a copy: \(Errno.current.description)") }
                written += step
            }
        }
    }

    /// fsyncs `copy`, renames it over `target`, fsyncs the folder.
    /// - Throws: `.writeFailed` naming `target`.
    static func syncAndReplace(_ copy: String, over target: String) throws(AudioFileError) {
        let descriptor = open(copy, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .writeFailed(path: target, reason: "open: \(Errno.current.description)") }
        let synced = fsync(descriptor) == 0 ? 0 : errno
        close(descriptor)
        if synced != 0 { throw .writeFailed(path: target, reason: "fsync: \(Errno(synced).description)") }
        guard rename(copy, target) == 0 else { throw .writeFailed(path: target, reason: "rename: \(Errno.current.description)") }
        let folder = open(OutputTarget.folder(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }
}
