import CSndFile
import Glibc

/// Texts for C errors, kept in one place so every message reads the same way.
enum SystemErrorText {
    /// `strerror` text for an errno value, e.g. "No space left on device".
    static func errno(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

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
