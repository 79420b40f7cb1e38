import Glibc
import NagiKit

/// What tells one render's answer from another, for caches: a strong ETag from the normalised request (its path and
/// its parameters sorted, so the same session in another order is the same tag; the token left out), nagi's
/// version, the year (the date tag every tagged file carries) and the size and time of the user's files the request
/// may use (a bed or cue pack it names, every preset of the user's), which may change under the same name. A render is deterministic, so its answer is
/// cacheable by anyone (`Cache-Control: public, …, immutable`) and a repeat is answered 304 without rendering.
struct RenderValidator: Sendable {
    /// The entity tag, quoted: `"0123456789abcdef"`.
    let etag: String

    /// How long a cache may keep a render, seconds: a week (the year in its date tag is the only thing that ages).
    static let maximumAgeSeconds = 7 * 24 * 3600

    /// The Cache-Control of a render.
    static let cacheControl = "public, max-age=\(maximumAgeSeconds), immutable"

    /// The validator of `request` (path and query), with `userFiles`, the paths of the user's files it names.
    init(path: String, query: [(name: String, value: String)], userFiles: [String]) {
        let parameters = query.filter { $0.name != "token" }
            .sorted { $0.name != $1.name ? $0.name < $1.name : $0.value < $1.value }
            .map { "\($0.name)=\($0.value)" }
        let stamps = userFiles.map { path -> String in
            var status = stat()
            guard stat(path, &status) == 0 else { return path + " missing" }
            return "\(path) \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        }
        etag = "\"" + Fingerprint.of([SoundtrackTags.encoder, SoundtrackTags.currentYear, path] + parameters + stamps) + "\""
    }

    /// The headers every answer of this render carries (a 304 too).
    var headers: [(name: String, value: String)] {
        [("ETag", etag), ("Cache-Control", Self.cacheControl)]
    }

    /// Whether an `If-None-Match` header names this render's tag (or `*`): the client has it, the answer is 304.
    /// The comparison is the weak one RFC 9110 asks for here (a `W/` prefix is ignored).
    func isMatched(byIfNoneMatch header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { part in
            var tag = part.drop { $0 == " " }
            while tag.last == " " { tag.removeLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == etag
        }
    }

    /// Whether a Range is to be honoured under `If-Range`: without one, yes; with this render's tag, yes (strong
    /// comparison); with another tag or a date (a render has no Last-Modified), no, and the whole file is sent.
    func allowsRange(ifRange header: String?) -> Bool {
        guard let header else { return true }
        var tag = header.drop { $0 == " " }
        while tag.last == " " { tag.removeLast() }
        return tag == etag
    }
}
