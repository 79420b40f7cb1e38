import NagiBase
import NagiKit
import NagiSystem

/// What tells one render's answer from another, for caches: a strong ETag from the decoded request, never from the
/// query's text: the soundtrack's identity (`SoundtrackIdentity`: its sound key, and the key of its file as written,
/// format, encoding, quality, tags and chapters), how it is sent (streamed, or as a finished file), nagi's version,
/// the year (the date tag every tagged file carries) and the size and time of the user's files the request reads by
/// path (a bed, a cue pack's clips), which may change under the same name. So two queries meaning one soundtrack (a
/// default spelled out, `end-bell=1` and `end-bell=true`, another order) share a tag, and two soundtracks never do.
/// A render is deterministic, so its answer is cacheable by anyone (`Cache-Control: public, …, immutable`) and a
/// repeat is answered 304 without rendering.
struct RenderValidator: Sendable {
    /// The entity tag, quoted: `"0123456789abcdef"`.
    let etag: String

    /// How long a cache may keep a render, seconds: a week (the year in its date tag is the only thing that ages).
    static let maximumAgeSeconds = 7 * 24 * 3600

    /// The Cache-Control of a render.
    static let cacheControl = "public, max-age=\(maximumAgeSeconds), immutable"

    /// The validator of an answer made of `files` (each a soundtrack's identity and its file as written, under the
    /// name it has in the answer) sent as `delivery` (what else tells the bytes apart: "stream", "file", an album's
    /// name), with the stamps of the user's files `requests` read by path.
    init(files: [(name: String, identity: SoundtrackIdentity, file: SoundtrackFileDescription)], delivery: String, requests: [SoundtrackRequest]) {
        var parts = [SoundtrackTags.encoder, SoundtrackTags.currentYear, delivery]
        for entry in files {
            parts += [entry.name, entry.identity.fileKey(entry.file)]
        }
        for path in requests.flatMap(Self.userFiles(readBy:)) {
            let stamp = FileSystem.stamp(of: path)
            parts.append(path + (stamp.map { " \($0.byteCount) \($0.modifiedNanoseconds)" } ?? " missing"))
        }
        etag = "\"" + Fingerprint.of(parts) + "\""
    }

    /// The user's files `request` reads by path, whose content its value does not hold: its bed, and the files of
    /// its cue pack's folder. (Every preset it names is in the request as its content: an edited one is another
    /// request.)
    static func userFiles(readBy request: SoundtrackRequest) -> [String] {
        var paths = request.bed.map { [$0.path] } ?? []
        if let folder = request.guide.cuePackFolder {
            paths += UserFolders.entries(of: folder).sorted().map { FilePath(folder).appending($0).string }
        }
        return paths
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
