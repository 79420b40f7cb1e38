import CSndFile
import Glibc

/// libsndfile's error text, read the way `Errno` reads a system error.
enum SystemErrorText {
    /// `sf_strerror` text for a handle (or the last failed open when nil), with libsndfile's "System error : "
    /// prefix and final period removed so system errors read like `strerror` text.
    static func sndfile(_ handle: OpaquePointer?) -> String {
        var text = String(cString: sf_strerror(handle))
        let prefix = "System error : "
        if text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
