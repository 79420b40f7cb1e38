import NagiSystem
import NagiBase
import CArchive
import Glibc
import NagiKit

/// A folder's files written as one ZIP archive into a stream, through libarchive: stored, not compressed (audio is
/// compressed already), each entry under the album's own folder name, so that unpacking it gives what `course export`
/// writes.
enum AlbumArchive {
    /// Why an archive could not be written.
    struct Failure: Error {
        var message: String
    }

    /// Writes `files` (each a name inside the archive's folder `folderName` and the path to read) as a ZIP into
    /// `descriptor`, stopping when `cancel` says so.
    static func write(_ files: [(name: String, path: String)], folderName: String, into descriptor: Int32, cancel: Cancellation) throws(Failure) {
        guard let archive = archive_write_new() else { throw Failure(message: "archive_write_new failed") }
        defer { archive_write_free(archive) }
        guard archive_write_set_format_zip(archive) == ARCHIVE_OK,
              // hdrcharset=UTF-8 sets each entry's UTF-8 flag (general purpose bit 11): "Day 1 — Arrive" is read as
              // written by Windows Explorer and by every unzip, whatever their own code page.
              archive_write_set_options(archive, "zip:compression=store,zip:hdrcharset=UTF-8") == ARCHIVE_OK,
              archive_write_open_fd(archive, descriptor) == ARCHIVE_OK else {
            throw Failure(message: Self.text(archive))
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkByteCount, alignment: 16)
        defer { buffer.deallocate() }
        for (name, path) in files {
            if cancel.isCancelled { throw Failure(message: "cancelled") }
            let file = open(path, O_RDONLY | O_CLOEXEC)
            guard file >= 0 else { throw Failure(message: "cannot read \(path): \(Errno.current.description)") }
            defer { close(file) }
            var status = stat()
            guard fstat(file, &status) == 0 else { throw Failure(message: "cannot read \(path): \(Errno.current.description)") }
            guard let entry = archive_entry_new() else { throw Failure(message: "archive_entry_new failed") }
            defer { archive_entry_free(entry) }
            archive_entry_set_pathname_utf8(entry, FilePath(folderName).appending(name).string)
            archive_entry_set_size(entry, la_int64_t(status.st_size))
            archive_entry_set_filetype(entry, Self.regularFileType)
            archive_entry_set_perm(entry, 0o644)
            archive_entry_set_mtime(entry, status.st_mtim.tv_sec, 0)
            guard archive_write_header(archive, entry) == ARCHIVE_OK else { throw Failure(message: Self.text(archive)) }
            while true {
                if cancel.isCancelled { throw Failure(message: "cancelled") }
                let count = read(file, buffer, Self.chunkByteCount)
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { throw Failure(message: "cannot read \(path): \(Errno.current.description)") }
                if count == 0 { break }
                guard archive_write_data(archive, buffer, count) == count else { throw Failure(message: Self.text(archive)) }
            }
        }
        guard archive_write_close(archive) == ARCHIVE_OK else { throw Failure(message: Self.text(archive)) }
    }

    /// libarchive's AE_IFREG (a macro Swift does not import): a regular file.
    private static let regularFileType: UInt32 = 0o100000

    /// Bytes copied at a time.
    private static let chunkByteCount = 256 * 1024

    /// libarchive's last error text.
    private static func text(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive failed"
    }
}
