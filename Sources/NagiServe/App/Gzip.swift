import CArchive

/// gzip (RFC 1952) through libarchive's gzip filter on its raw format: one stream, no file name, no timestamp.
enum Gzip {
    /// The gzip form of `bytes`, nil when libarchive fails.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        guard let archive = archive_write_new() else { return nil }
        defer { archive_write_free(archive) }
        // Room for incompressible input: deflate's stored blocks add 5 bytes per 16 KiB, the header and trailer 18.
        let capacity = bytes.count + bytes.count / 1000 + 1024
        var output = [UInt8](repeating: 0, count: capacity)
        var used = 0
        let opened = output.withUnsafeMutableBytes { buffer -> Bool in
            guard archive_write_add_filter_gzip(archive) == ARCHIVE_OK,
                  archive_write_set_options(archive, "gzip:!timestamp,gzip:compression-level=9") == ARCHIVE_OK,
                  archive_write_set_format_raw(archive) == ARCHIVE_OK,
                  archive_write_set_bytes_per_block(archive, 0) == ARCHIVE_OK,
                  archive_write_open_memory(archive, buffer.baseAddress, capacity, &used) == ARCHIVE_OK,
                  let entry = archive_entry_new() else { return false }
            defer { archive_entry_free(entry) }
            archive_entry_set_filetype(entry, 0o100000)
            archive_entry_set_size(entry, la_int64_t(bytes.count))
            guard archive_write_header(archive, entry) == ARCHIVE_OK else { return false }
            let written = bytes.withUnsafeBytes { archive_write_data(archive, $0.baseAddress, $0.count) }
            return written == bytes.count && archive_write_close(archive) == ARCHIVE_OK
        }
        guard opened else { return nil }
        return Array(output.prefix(used))
    }
}
