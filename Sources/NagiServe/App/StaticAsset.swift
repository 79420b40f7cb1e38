
/// The pages and assets of `Web/` as the server sends them: a strong `ETag` (and 304 for an `If-None-Match` that
/// names it), `Cache-Control: no-cache` (a browser revalidates, so a new build is seen at once), and gzip for text
/// when the client accepts it. Each file's two forms and tags are made once, on first use.
struct StaticAsset: Sendable {
    /// The file as built.
    let identity: [UInt8]
    /// The gzip form, nil when the file is not text (images are compressed already) or gzip does not shrink it.
    let gzipped: [UInt8]?
    /// The strong validator of the identity bytes; the gzip form's is this with "-gzip" before the closing quote.
    let entityTag: String

    /// The files a browser fetches from the server's root rather than /assets/: the web app manifest, and the service
    /// worker, whose scope is the folder it is served from.
    static let rootFiles: [String: String] = ["/manifest.webmanifest": "manifest.webmanifest", "/sw.js": "sw.js"]

    /// Every file of `Web/`, prepared.
    private static let all: [String: StaticAsset] = {
        var table: [String: StaticAsset] = [:]
        for (name, bytes) in WebAssets.files {
            let compressible = ["html", "js", "css", "svg", "json", "webmanifest"].contains(name.split(separator: ".").last.map(String.init) ?? "")
            let gzipped = compressible ? Gzip.compress(bytes).flatMap { $0.count < bytes.count ? $0 : nil } : nil
            table[name] = StaticAsset(identity: bytes, gzipped: gzipped, entityTag: "\"\(Self.digest(bytes))\"")
        }
        return table
    }()

    /// The response to `request` for the file `name` of `Web/` with `contentType`, nil when there is no such file.
    static func response(for request: HTTPRequest, name: String, contentType: String) -> HTTPResponse? {
        guard let asset = all[name] else { return nil }
        let usesGzip = asset.gzipped != nil && Self.acceptsGzip(request.header("accept-encoding"))
        let tag = usesGzip ? String(asset.entityTag.dropLast()) + "-gzip\"" : asset.entityTag
        var headers: [(name: String, value: String)] = [("Content-Type", contentType), ("Cache-Control", "no-cache"), ("ETag", tag), ("Vary", "Accept-Encoding")]
        if let asked = request.header("if-none-match"), Self.matches(asked, tag) {
            return HTTPResponse(status: 304, headers: headers.filter { $0.name != "Content-Type" })
        }
        if usesGzip, let gzipped = asset.gzipped {
            headers.append(("Content-Encoding", "gzip"))
            return HTTPResponse(status: 200, headers: headers, body: .bytes(gzipped))
        }
        return HTTPResponse(status: 200, headers: headers, body: .bytes(asset.identity))
    }

    /// Whether an Accept-Encoding header takes gzip (named, or `*`, with a q above 0).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.lowercased().split(separator: ",") {
            let parts = item.split(separator: ";").map(\.trimmed)
            guard let coding = parts.first, coding == "gzip" || coding == "*" else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 { return true }
        }
        return false
    }

    /// Whether an If-None-Match list names `tag` (or is `*`); weak comparison, as RFC 9110 § 13.1.2 asks.
    static func matches(_ list: String, _ tag: String) -> Bool {
        let bare = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        return list.split(separator: ",").contains { item in
            let trimmed = item.trimmed
            return trimmed == "*" || (trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed) == bare
        }
    }

    /// 64-bit FNV-1a of the bytes and their count, as 16 hex digits: a file's tag changes with any byte of it.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text + "-" + String(bytes.count, radix: 16)
    }
}

private extension Substring {
    /// The text less its leading and trailing spaces and tabs.
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
