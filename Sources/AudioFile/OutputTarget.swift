import NagiBase
import NagiSystem
import FoundationEssentials
import Glibc
import Glibc

/// Where output goes, decided once before anything is created.
enum OutputTarget: Equatable {
    /// A regular file or nothing yet: write a temporary file beside it and rename it into place.
    /// `finalPath` is the path renamed over (a symbolic link's target, so the link survives);
    /// `existingMode` the permission bits of the file being replaced, nil when there is none.
    case replaceable(finalPath: String, existingMode: mode_t?)
    /// An existing device or other non-regular file that can seek (/dev/null, /dev/full): written straight through
    /// the same error-tracking I/O as a temporary file, never renamed or removed.
    case device
    /// A pipe or socket: streamed, never seeking back to finish a header (see `AudioFileWriter.openStream`).
    case stream
    /// Standard output, whatever it is: streamed like a pipe, so the bytes are the same into a file or a pipe.
    case standardOutput
    /// A descriptor the caller opened (a pipe or socket): streamed like standard output, a WAV's header giving the
    /// exact sizes of `frameCount` frames when that is known.
    case descriptor(Int32, frameCount: Int64?)

    /// Looks at `path` without changing anything.
    static func classify(_ path: String) -> OutputTarget {
        var status = stat()
        guard stat(path, &status) == 0 else {
            // Missing (or unreadable, which creating the temporary file reports).
            return .replaceable(finalPath: path, existingMode: nil)
        }
        switch FileKind(mode: status.st_mode) {
        case .regularFile: break
        case .pipe, .socket: return .stream
        default: return .device
        }
        var finalPath = path
        if FileKind.of(path, followingLinks: false) == .symbolicLink,
            let resolved = realpath(path, nil)
        {
            finalPath = String(cString: resolved)
            free(resolved)
        }
        return .replaceable(finalPath: finalPath, existingMode: status.st_mode & 0o7777)
    }

    /// The folder holding `path` ("." for a bare name).
    static func folder(of path: String) -> String {
        FilePath(path).parent.string
    }

    /// The temporary file for `finalPath`, in the same folder so the rename stays on one file system.
    static func temporaryPath(for finalPath: String, pid: pid_t) -> String {
        let path = FilePath(finalPath)
        return path.parent.appending(PartialFileName.make(for: path.lastComponent, pid: pid)).string
    }
}
