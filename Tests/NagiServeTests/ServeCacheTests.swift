import Foundation
import Glibc
import NagiTestSupport
import Testing

/// Renders as caches meet them: a strong ETag from the soundtrack's identity (not the query's text), 304 and HEAD without rendering, If-Range,
/// `Cache-Control: public, …, immutable`, and nginx in front as a caching proxy serving the second request itself.
@Suite struct ServeCacheTests {
    /// A render of some length (two minutes of sound).
    static let target = "/api/render.wav?pattern=box&minutes=2&seed=5"

    @Test("The ETag is the request's, whatever the order of its parameters; another session has another; renders are public and immutable")
    func etagIsTheNormalisedRequest() throws {
        let server = try InProcessServer()
        let first = try server.request("HEAD", "/api/render.wav?pattern=box&cycles=1&seed=5&rate=44100")
        let reordered = try server.request("HEAD", "/api/render.wav?rate=44100&seed=5&cycles=1&pattern=box")
        let other = try server.request("HEAD", "/api/render.wav?pattern=box&cycles=1&seed=6&rate=44100")
        let otherFormat = try server.request("HEAD", "/api/render.flac?pattern=box&cycles=1&seed=5&rate=44100")
        let tag = try #require(first.header("etag"))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"), "a strong tag: \(tag)")
        #expect(reordered.header("etag") == tag)
        #expect(other.header("etag") != tag)
        #expect(otherFormat.header("etag") != tag)
        let cacheControl = try #require(first.header("cache-control"))
        #expect(cacheControl.hasPrefix("public, max-age=") && cacheControl.hasSuffix(", immutable"), "\(cacheControl)")
        // If-None-Match compares weakly (a W/ prefix is the same tag) and takes * and lists.
        for value in ["W/" + tag, "*", "\"a\", \(tag), \"b\""] {
            #expect(try server.request("HEAD", "/api/render.wav?pattern=box&cycles=1&seed=5&rate=44100", headers: [("If-None-Match", value)]).status == 304, "\(value)")
        }
        // The GET carries the same tag as the HEAD.
        #expect(try server.get("/api/render.wav?seed=5&pattern=box&rate=44100&cycles=1").header("etag") == tag)
    }

    @Test("A user's preset added or changed under the name a request uses changes the tag: the same name is another session now")
    func userPresetsAreInTheTag() throws {
        let server = try InProcessServer()
        let target = "/api/render.wav?pattern=box&cycles=1"
        let before = try #require(try server.request("HEAD", target).header("etag"))
        let folder = server.home.file("config/nagi/patterns")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A preset the request does not use leaves its soundtrack, and so its tag, as they were.
        try #"{"name": "mine", "phases": [4, 4]}"#.write(toFile: folder + "/mine.json", atomically: true, encoding: .utf8)
        #expect(try server.request("HEAD", target).header("etag") == before, "a preset the request does not use changed its tag")
        // The user's own `box` now stands for the built-in one: another session under the same name.
        try #"{"title": "My box", "phases": [{"kind": "inhale", "seconds": 3}, {"kind": "exhale", "seconds": 3}]}"#.write(toFile: folder + "/box.json", atomically: true, encoding: .utf8)
        let after = try #require(try server.request("HEAD", target).header("etag"))
        #expect(after != before)
        #expect(try server.request("HEAD", target).header("etag") == after, "the tag is stable while nothing changes")
    }

    @Test("The tag is the soundtrack's: one soundtrack spelled two ways (a default spelled out, end-bell=1 or =true) has one tag and a 304 for the other spelling; another seed, format or title another tag")
    func etagIsTheSoundtracksIdentity() throws {
        let server = try InProcessServer()
        let base = "/api/render.wav?pattern=box&cycles=1&rate=8000"
        let spellings = [
            (base + "&end-bell=1", base + "&end-bell=true&seed=1&channels=2"),
            (base + "&seed=5", "/api/render.wav?seed=5&pattern=box&rate=8000&cycles=1&end-bell=0&no-cues=false"),
        ]
        for (one, other) in spellings {
            let tag = try #require(try server.request("HEAD", one).header("etag"))
            #expect(try server.request("HEAD", other).header("etag") == tag, "\(one) and \(other)")
            let notModified = try server.get(other, headers: [("If-None-Match", tag)])
            #expect(notModified.status == 304, "\(other) under the tag of \(one)")
            #expect(notModified.body.isEmpty)
        }
        var tags: Set<String> = []
        for variant in ["", "&seed=2", "&end-bell=1", "&title=Calm", "&channels=1"] {
            tags.insert(try #require(try server.request("HEAD", base + variant).header("etag")))
        }
        tags.insert(try #require(try server.request("HEAD", "/api/render.flac?pattern=box&cycles=1&rate=8000").header("etag")))
        tags.insert(try #require(try server.request("HEAD", "/api/render.flac?pattern=box&cycles=1&rate=8000&quality=2").header("etag")))
        #expect(tags.count == 7, "two different soundtracks or files shared a tag")
    }

    @Test("A lesson's and an album's tag are their soundtracks' too: the lesson by its path or a spelled-out default has one tag, and a render of the same soundtrack as another file another")
    func courseTagsAreTheSoundtracks() throws {
        let server = try ServeCourseFileTests.serverWithCourse()
        let lesson = try #require(try server.request("HEAD", "/api/courses/tiny/lessons/1.flac").header("etag"))
        #expect(try server.request("HEAD", "/api/courses/tiny/lessons/1?format=flac&seed=1").header("etag") == lesson)
        #expect(try server.get("/api/courses/tiny/lessons/1?format=flac", headers: [("If-None-Match", lesson)]).status == 304)
        #expect(try server.request("HEAD", "/api/courses/tiny/lessons/1.flac?seed=2").header("etag") != lesson)
        #expect(try server.request("HEAD", "/api/courses/tiny/lessons/2.flac").header("etag") != lesson)
        let album = try #require(try server.request("HEAD", "/api/courses/tiny/album.zip").header("etag"))
        #expect(try server.request("HEAD", "/api/courses/tiny/album.zip?format=flac&end-bell=0").header("etag") == album)
        #expect(try server.get("/api/courses/tiny/album.zip?format=flac", headers: [("If-None-Match", album)]).status == 304)
        #expect(try server.request("HEAD", "/api/courses/tiny/album.zip?format=ogg").header("etag") != album)
        #expect(try server.request("HEAD", "/api/courses/tiny/album.zip?end-bell=1").header("etag") != album)
        #expect(album != lesson)
    }

    @Test("HEAD answers a render's headers, its exact length among them, without rendering; If-None-Match answers 304 without rendering")
    func headAndNotModifiedDoNotRender() throws {
        let server = try InProcessServer(mode: .live)
        let renders = { server.server.slots.grantedCount }
        let head = try server.request("HEAD", Self.target)
        #expect(head.status == 200)
        #expect(renders() == 0, "HEAD rendered")
        let whole = try server.get(Self.target)
        #expect(renders() == 1)
        #expect(head.header("content-length") == String(whole.body.count))
        #expect(head.header("etag") == whole.header("etag"))
        let tag = try #require(whole.header("etag"))
        let notModified = try server.get(Self.target, headers: [("If-None-Match", "\"other\", " + tag)])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("etag") == tag)
        #expect(renders() == 1, "a 304 rendered")
        #expect(try server.get(Self.target, headers: [("If-None-Match", "\"other\"")]).status == 200)
        #expect(renders() == 2, "another tag is a render again")
    }

    @Test("If-Range with the render's tag honours the Range (206); with another tag the whole file comes (200)")
    func ifRangeIsHonoured() throws {
        let server = try InProcessServer()
        let target = "/api/render.wav?pattern=box&cycles=1"
        let tag = try #require(try server.request("HEAD", target).header("etag"))
        let same = try server.get(target, headers: [("Range", "bytes=10-109"), ("If-Range", tag)])
        #expect(same.status == 206)
        #expect(same.body.count == 100)
        let changed = try server.get(target, headers: [("Range", "bytes=10-109"), ("If-Range", "\"0000000000000000\"")])
        #expect(changed.status == 200)
        #expect(changed.body.count > 100)
        #expect(changed.header("content-length") == String(changed.body.count))
    }

    @Test("nginx in front as a caching proxy: the second identical request is nginx's HIT, the same bytes, and the server renders nothing for it",
          .enabled(if: FileManager.default.isExecutableFile(atPath: NginxProxy.binary)))
    func nginxServesTheSecondRequest() throws {
        let server = try InProcessServer(mode: .live)
        let proxy = try NginxProxy(upstreamPort: server.port)
        let first = try proxy.get(Self.target, token: server.token)
        #expect(first.status == 200)
        #expect(first.header("x-cache-status") == "MISS", "\(first.headers)")
        let rendered = server.server.slots.grantedCount
        let second = try proxy.get(Self.target, token: server.token)
        #expect(second.status == 200)
        #expect(second.header("x-cache-status") == "HIT", "\(second.headers)")
        let sameBytes = second.body == first.body
        #expect(sameBytes)
        #expect(server.server.slots.grantedCount == rendered, "the server rendered again a request nginx had cached")
        #expect(second.header("etag") == first.header("etag"))
    }
}

/// nginx (Debian's nginx-light) as a caching reverse proxy on loopback, in a folder of its own, in front of a
/// server's port: one process (no master), its cache and logs in that folder, `X-Cache-Status` on every answer.
final class NginxProxy {
    static let binary = "/usr/sbin/nginx"
    let folder: TemporaryFolder
    let child: ChildProcess
    let port: UInt16

    init(upstreamPort: UInt16) throws {
        folder = try TemporaryFolder()
        port = try Self.freePort()
        for name in ["cache", "temp", "logs"] {
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
        }
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            error_log \(folder.file("logs/error.log")) warn;
            pid \(folder.file("nginx.pid"));
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(folder.file("temp/body"));
                proxy_temp_path \(folder.file("temp/proxy"));
                fastcgi_temp_path \(folder.file("temp/fastcgi"));
                uwsgi_temp_path \(folder.file("temp/uwsgi"));
                scgi_temp_path \(folder.file("temp/scgi"));
                proxy_cache_path \(folder.file("cache")) levels=1:2 keys_zone=nagi:1m max_size=1g inactive=10m use_temp_path=off;
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://127.0.0.1:\(upstreamPort);
                        proxy_http_version 1.1;
                        proxy_cache nagi;
                        add_header X-Cache-Status $upstream_cache_status always;
                    }
                }
            }
            """
        try configuration.write(toFile: folder.file("nginx.conf"), atomically: true, encoding: .utf8)
        child = try ChildProcess(
            Self.binary, ["-p", folder.path, "-c", folder.file("nginx.conf"), "-e", folder.file("logs/error.log")],
            environment: ["PATH": "/usr/bin:/bin"], workingDirectory: folder.path,
            standardOutputPath: folder.file("stdout"), standardErrorPath: folder.file("stderr"))
        let port = self.port
        let listening = Poll.until(seconds: 10, every: 0.05) { (try? LoopbackConnection(port: port)) != nil || !self.child.isRunning }
        guard listening, child.isRunning else {
            let log = (try? String(contentsOfFile: folder.file("logs/error.log"), encoding: .utf8)) ?? ""
            throw ServeStartError(message: "nginx did not start: \(log)")
        }
    }

    deinit {
        child.signal(SIGKILL)
        _ = child.wait(seconds: 10)
    }

    /// `GET target` through the proxy, with the Host the server expects on loopback and `token` as a Bearer header
    /// (nginx passes it on; a token in the query would have the server set its cookie, which nginx does not cache).
    func get(_ target: String, token: String?) throws -> HTTPReply {
        let connection = try LoopbackConnection(port: port)
        try connection.sendRequest("GET", target, headers: [("Host", "127.0.0.1:\(port)"), ("Authorization", "Bearer \(token ?? "")"), ("Connection", "close")])
        return try connection.readReply()
    }

    /// A loopback port free a moment ago (bound to 0, read, released).
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPClientError.system("socket", errno) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw HTTPClientError.system("bind", errno) }
        return UInt16(bigEndian: address.sin_port)
    }
}
