import Glibc

/// What is at a path, as nagi tells files apart: the one file-kind query every module asks (a path it reads, a
/// target it writes, a folder it lists).
package enum FileKind: Equatable, Sendable {
    case missing
    case regularFile
    case folder
    case pipe
    case socket
    /// A character or block device (`/dev/zero`, a disk).
    case device
    /// A symbolic link itself (only when not following links).
    case symbolicLink
    case other

    /// What is at `path`, following symbolic links unless `followingLinks` is false; `.missing` when `stat` fails.
    package static func of(_ path: String, followingLinks: Bool = true) -> FileKind {
        var status = stat()
        let result = followingLinks ? stat(path, &status) : lstat(path, &status)
        return result == 0 ? FileKind(mode: status.st_mode) : .missing
    }

    /// Whether `path` is a symbolic link whose target does not exist: creating it would make a file wherever the
    /// link points, and renaming over it would replace the link, so a side output refuses it.
    package static func isDanglingLink(_ path: String) -> Bool {
        of(path, followingLinks: false) == .symbolicLink && of(path) == .missing
    }

    /// Why a side output refuses a dangling link at `path`, after "cannot write '…': ".
    package static let danglingLinkReason = "it is a symbolic link to a file that does not exist; remove the link or name another path"

    /// The kind an `st_mode` names (from `stat` or `fstat`).
    package init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .pipe
        case S_IFSOCK: self = .socket
        case S_IFCHR, S_IFBLK: self = .device
        case S_IFLNK: self = .symbolicLink
        default: self = .other
        }
    }

    /// A pipe, socket, device or other special file: what is written to as a stream, never replaced.
    package var isSpecialFile: Bool {
        switch self {
        case .pipe, .socket, .device, .other: true
        case .missing, .regularFile, .folder, .symbolicLink: false
        }
    }

    /// Why nagi does not read a file of this kind as a regular file, or nil for a regular file: the words every
    /// refusal of a path uses.
    package var refusalToRead: String? {
        switch self {
        case .regularFile: nil
        case .folder: "a folder, not a regular file"
        case .pipe: "not a regular file (a named pipe)"
        case .socket: "not a regular file (a socket)"
        case .device: "not a regular file (a device)"
        case .missing: "No such file or directory"
        case .symbolicLink, .other: "not a regular file"
        }
    }
}
