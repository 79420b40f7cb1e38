import NagiSystem
import AudioFile
import NagiBase
import Glibc
import Locking
import NagiDocuments
import NagiKit
import NagiOptions
import Synchronization

/// `nagi serve`: the engine over HTTP, for a browser (the studio and the pacer pages), other programs, and a class on
/// the same network. It answers the API (`docs/serve.md`) with what the command line gives for the same options —
/// the same JSON, the same samples, the same one-line errors — and serves the pages from the binary.
///
/// Safe by default: loopback unless told otherwise, the Host header checked there, a token beyond it
/// (`RequestGuard`); no path from a request (`QueryArguments`); bounded sessions, renders, queue, requests and
/// connections (`Configuration`, `HTTPServer.Limits`).
package final class NagiServer: Sendable {
    /// How the server is set up.
    package struct Configuration: Sendable {
        /// Where it listens.
        package var address: ListenAddress
        /// The token every request must carry; nil for none (loopback only, `--no-token`).
        package var token: String?
        /// The longest session it renders, describes or plots, minutes.
        package var maximumMinutes: Int
        /// The most phases a session it renders, describes or plots may have (what a describe's JSON or a plot's
        /// drawing grows with).
        package var maximumPhaseCount: Int = 20_000
        /// Renders at once.
        package var jobCount: Int
        /// Renders waiting for a turn before the server answers 503.
        package var queueLength: Int
        /// What clients may take.
        package var limits: HTTPServer.Limits
        /// HTTPS with this certificate and key; nil for plain HTTP.
        package var tls: TLSIdentity?
        /// The certificate of the authority that signed `tls`'s, served at `/ca.crt` to anyone (it is public), so a
        /// phone can trust it once; nil when there is none (a certificate of the user's own, or plain HTTP).
        package var authorityCertificatePEM: String?
        /// The environment every request is answered in (HOME, the XDG folders, TMPDIR): taken once, when the server
        /// is set up, and bound to each request's thread, which libmicrohttpd starts and which inherits no
        /// task-local value.
        package var environment: [String: String]

        package init(
            address: ListenAddress, token: String?, maximumMinutes: Int = 180, jobCount: Int, limits: HTTPServer.Limits = HTTPServer.Limits(),
            tls: TLSIdentity? = nil, authorityCertificatePEM: String? = nil, environment: [String: String] = ProcessEnvironment.variables
        ) {
            self.address = address
            self.token = token
            self.maximumMinutes = maximumMinutes
            self.jobCount = jobCount
            self.queueLength = 4 * jobCount
            self.limits = limits
            self.tls = tls
            self.authorityCertificatePEM = authorityCertificatePEM
            self.environment = environment
        }
    }

    /// The default port: 8787 ("nagi" has none of its own).
    package static let defaultPort: UInt16 = 8787

    let configuration: Configuration
    private let guardian: RequestGuard
    private let throttle = FailedTokenThrottle()
    /// The render turns: how many run and wait is the server's load, which a host (or a test) may look at.
    package let slots: RenderSlots
    private let stopping = Atomic<Bool>(false)
    let soundtracks = SoundtrackCache(capacity: 4)
    /// Every request's phrases spoken once, in this process (a server forks no speaking processes).
    let guideClips = GuideClipCache(speaker: FliteSpeaker(processCount: 1))
    let folders: UserFolders
    /// Every streamed body's producer, so that stopping ends them, with a socket or in process.
    let producers = BodyProducers()
    let http: Locked<HTTPServer?> = Locked(nil)

    /// Starts listening as `configuration` says.
    /// - Throws: `HTTPServerError` when the address cannot be listened on.
    package convenience init(configuration: Configuration) throws(HTTPServerError) {
        let (socket, bound) = try ListeningSocket.open(configuration.address)
        var listening = configuration
        // The port taken (when a free one was asked for) names the token's cookie.
        listening.address = bound
        self.init(inProcess: listening)
        let server = try HTTPServer(
            socket: socket, address: bound, limits: configuration.limits, tls: configuration.tls,
            admission: { [weak self] head in
                guard let self else { return Self.secured(APIResponse.error("the server is stopping", status: 503)) }
                return self.admit(head)
            },
            handler: { [weak self] request in self?.handle(request) ?? Self.secured(APIResponse.error("the server is stopping", status: 503)) },
            answer: { status, message in Self.secured(APIResponse.error(message, status: status)) })
        http.withLock { $0 = server }
    }

    /// A server that listens on no socket: `respond(to:)` answers its requests in process, as the socket's would be
    /// (for tests, and for a host that brings its own transport).
    package init(inProcess configuration: Configuration) {
        self.configuration = configuration
        guardian = RequestGuard(token: configuration.token, servesLoopbackOnly: configuration.address.isLoopback, port: configuration.address.port)
        slots = RenderSlots(capacity: configuration.jobCount, queueCapacity: configuration.queueLength)
        folders = ProcessEnvironment.$bound.withValue(configuration.environment) { UserFolders() }
    }

    /// The URL to open: `http://HOST:PORT/` (`https` with TLS), with `?token=…` when there is a token.
    package var url: String {
        let address = http.withLock { $0?.address } ?? configuration.address
        let token = configuration.token.map { "?token=\($0)" } ?? ""
        return "\(scheme)://\(address.text)/\(token)"
    }

    /// "https" when the server has a certificate, else "http".
    package var scheme: String { configuration.tls == nil ? "http" : "https" }

    /// The answer to `request`, made in process as a connection's would be: its head admitted (the same checks,
    /// in the same order), then answered. A streamed body is read with `HTTPBodyStream.read` and ended with
    /// `finish`.
    package func respond(to request: HTTPRequest) -> HTTPResponse {
        if let refusal = admit(request) { return request.method == "HEAD" ? refusal.headOnly() : refusal }
        let response = handle(request)
        return request.method == "HEAD" ? response.headOnly() : response
    }

    /// Stops: later requests are refused, running renders cancelled, connections closed, producers waited for (a
    /// second at most: they check their token between blocks).
    package func stop() {
        stopping.store(true, ordering: .relaxed)
        slots.stop()
        producers.cancelAll()
        let server = http.withLock { server -> HTTPServer? in
            defer { server = nil }
            return server
        }
        server?.stop()
        producers.waitUntilIdle(seconds: 1)
        removeLeftoverFolders()
    }

    /// Removes the temporary folders of this server's requests that their producers have not removed yet (a stop
    /// that cannot wait for them).
    package func removeLeftoverFolders() {
        bound { TemporaryFolder.removeAll(in: ProcessEnvironment.temporaryFolder) }
    }

    /// Connections closed so far for being slow to send their request.
    package var lateConnectionCount: Int { http.withLock { $0?.lateConnectionCount } ?? 0 }

    /// Whether `stop` was called: a render in preparation stops too.
    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    // MARK: Routing

    /// The checks on a request's head, before its body is read: nil admits it. A NUL anywhere, a repeated Host or
    /// Content-Length (which two parsers could read two ways), a foreign Host on loopback, a missing or wrong token
    /// (throttled per client address), a body declared larger than the server takes.
    func admit(_ head: HTTPRequest) -> HTTPResponse? {
        bound { () -> HTTPResponse? in
            if head.holdsNUL { return Self.secured(APIResponse.error("the request holds a NUL character", status: 400)) }
            for name in ["host", "content-length"] where head.headerCount(name) > 1 {
                return Self.secured(APIResponse.error("the request repeats its \(name == "host" ? "Host" : "Content-Length") header", status: 400))
            }
            if let seconds = throttle.refusalSeconds(for: head.clientAddress) {
                var refusal = APIResponse.error("too many wrong tokens from this address; try again in \(seconds) s", status: 429)
                refusal.headers.append(("Retry-After", String(seconds)))
                return Self.secured(refusal)
            }
            if Self.publicPaths.contains(head.path), head.method == "GET" || head.method == "HEAD" {
                // No token for what is public, but the Host still names this machine on loopback.
                guard !guardian.servesLoopbackOnly || head.header("host").map(RequestGuard.namesLoopback) == true else {
                    return Self.secured(APIResponse.error("the Host header must name this machine", status: 403))
                }
                return nil
            }
            if case let .refused(status, message) = guardian.check(head) {
                if status == 401, guardian.offersToken(head) { throttle.recordFailure(from: head.clientAddress) }
                return Self.secured(APIResponse.error(message, status: status))
            }
            if let declared = head.header("content-length").flatMap({ Int($0.trimmingSpaces()) }), declared > configuration.limits.bodyByteCount {
                return Self.secured(Self.bodyTooLarge(configuration.limits.bodyByteCount))
            }
            return nil
        }
    }

    /// What is served without the token, being public: the local authority's certificate (a phone fetches it before
    /// it has the token's cookie) and what makes the app installable (the manifest and its icons, which browsers
    /// fetch without credentials).
    static let publicPaths: Set<String> = ["/ca.crt", "/manifest.webmanifest", "/assets/icon-192.png", "/assets/icon-512.png", "/favicon.svg", "/favicon.ico"]

    /// The answer to an admitted request.
    private func handle(_ request: HTTPRequest) -> HTTPResponse {
        bound {
            if request.path == "/ca.crt" { return Self.secured(authorityCertificate()) }
            var response = route(request)
            if case .allowed(setsCookie: true) = guardian.check(request), let cookie = guardian.cookieHeader {
                response.headers.append(("Set-Cookie", cookie))
            }
            return Self.secured(response)
        }
    }

    /// `body` run in the configuration's environment (the folders and presets it reads are the server's, whichever
    /// thread runs it).
    func bound<Result>(_ body: () throws -> Result) rethrows -> Result {
        try ProcessEnvironment.$bound.withValue(configuration.environment) { try body() }
    }

    static func bodyTooLarge(_ byteCount: Int) -> HTTPResponse {
        APIResponse.error("the request's body is larger than this server takes (\(byteCount >> 20) MiB)", status: 413)
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        if request.bodyTooLarge { return Self.bodyTooLarge(configuration.limits.bodyByteCount) }
        return Route.answer(request, by: Self.routes, server: self)
    }

    /// Every path the server answers, in the order they are tried (`Route`).
    static let routes: [Route] = [
        Route(.exact(["/"])) { server, request, _ in server.page("index.html", request) },
        Route(.exact(["/pace"])) { server, request, _ in server.page("pace.html", request) },
        Route(.exact(["/favicon.svg", "/favicon.ico"])) { server, request, _ in server.asset("favicon.svg", request) },
        Route(.exact(Set(StaticAsset.rootFiles.keys))) { server, request, _ in
            StaticAsset.rootFiles[request.path].map { server.asset($0, request) } ?? notFound(request.path)
        },
        Route(.under("/assets/")) { server, request, rest in server.asset("assets/" + rest[0], request) },
        Route(.exact(["/api/presets"])) { server, _, _ in server.presets() },
        Route(.exact(["/api/describe"])) { server, request, _ in server.describe(request) },
        Route(.exact(["/api/plot.svg"])) { server, request, _ in server.plot(request) },
        Route(.exact(["/api/qr.svg"])) { server, _, _ in server.joinCode() },
        Route(.exact(["/api/join"])) { server, _, _ in server.join() },
        Route(.exact(["/api/resonance", "/api/resonance/plot.svg"]), ["POST"]) { server, request, _ in
            server.resonance(request, plot: request.path == "/api/resonance/plot.svg")
        },
        Route(.under("/api/render.")) { server, request, rest in
            guard let format = AudioFileFormat(fileExtension: rest[0]), format != .raw else { return notFound(request.path) }
            return server.render(request, format: format)
        },
        Route(.segments(["api", "courses", nil, "progress"])) { server, _, captures in server.progress(course: captures[0]) },
        Route(.segments(["api", "courses", nil, "lessons", nil, "done"]), ["POST"]) { server, request, captures in
            server.markDone(request, course: captures[0], lessonText: captures[1])
        },
        Route(.under("/api/courses/")) { server, request, rest in server.course(request, path: rest[0]) },
    ]

    // MARK: Pages and assets

    /// A page of `Web/`.
    private func page(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        StaticAsset.response(for: request, name: name, contentType: "text/html; charset=utf-8") ?? Self.notFound("/" + name)
    }

    /// A file of `Web/` by its path there ("assets/pacer.js"); only what the binary carries, so no `..` can reach
    /// anything else.
    private func asset(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        StaticAsset.response(for: request, name: name, contentType: Self.contentType(ofAsset: name)) ?? Self.notFound("/" + name)
    }

    /// The Content-Type of an asset by its extension (module scripts need text/javascript).
    static func contentType(ofAsset name: String) -> String {
        switch UserFolders.stem(of: name) == name ? "" : String(name[name.index(after: name.lastIndex(of: ".") ?? name.startIndex)...]) {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "json": "application/json; charset=utf-8"
        case "webmanifest": "application/manifest+json"
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }

    // MARK: The API

    /// `GET /api/presets`: every pattern, soundscape and course, built-in and the user's, and the user's beds and cue
    /// packs by name.
    private func presets() -> HTTPResponse {
        APIResponse.json(PresetListing(catalog: PresetEnvironment.catalog(), folders: folders))
    }

    /// `GET /api/describe`: the JSON of `nagi describe … --json`.
    private func describe(_ request: HTTPRequest) -> HTTPResponse {
        // `no-cues` is describe's own option (`--cues none`), as render's.
        return APIResponse.answering {
            let arguments = try QueryArguments.parse(request.query, for: DescribeOptions.spec, tolerating: [RenderOptions.spec, PlotOptions.spec], folders: folders)
            let catalog = PresetEnvironment.catalog()
            if let refusal = refusingSize(of: try SessionOptions(arguments, catalog: catalog).schedule()) { return refusal }
            return APIResponse.json(try DescribeOptions(arguments, catalog: catalog).json)
        }
    }

    /// `GET /api/plot.svg`: the SVG of `nagi plot`.
    private func plot(_ request: HTTPRequest) -> HTTPResponse {
        return APIResponse.answering {
            let arguments = try QueryArguments.parse(request.query, for: PlotOptions.spec, tolerating: [RenderOptions.spec, DescribeOptions.spec], folders: folders)
            let catalog = PresetEnvironment.catalog()
            if let refusal = refusingSize(of: try SessionOptions(arguments, catalog: catalog).schedule()) { return refusal }
            let svg = try PlotOptions(arguments, catalog: catalog).svg
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "no-store")], body: .bytes(Array(svg.utf8)))
        }
    }

    /// `GET /api/render.EXT`: the audio `nagi render` writes for the same options, streamed.
    private func render(_ request: HTTPRequest, format: AudioFileFormat) -> HTTPResponse {
        let render: RenderOptions
        let file: SoundtrackFileDescription
        do {
            let arguments = try QueryArguments.parse(request.query, for: RenderOptions.spec, tolerating: [DescribeOptions.spec, PlotOptions.spec], folders: folders)
            render = try RenderOptions(arguments, catalog: PresetEnvironment.catalog())
            if let refusal = refusingLength(of: render.request) { return refusal }
            file = try render.fileDescription(format: format, quality: try arguments[OutputOptions.quality].map { $0 / 10 })
        } catch let error as QueryError {
            return APIResponse.error(error)
        } catch let error as NagiError {
            return APIResponse.error(error)
        } catch let error as ArgumentError {
            return APIResponse.error(.arguments(error), parameter: "quality")
        } catch {
            return APIResponse.error("\(error)", status: 500)
        }
        let identity = render.identity(format: format)
        let download = request.queryValue("download").map(Self.isYes) == true ? identity.fileName : nil
        return stream(render.request, identity: identity, file: file, for: request, download: download)
    }

    /// A refusal for a render's session beyond the server's bounds, nil for one within them.
    func refusingLength(of request: SoundtrackRequest) -> HTTPResponse? {
        refusingSize(of: request.schedule)
    }

    /// The one rule for every request that computes a session (describe, plot, render, a course's lessons, resonance):
    /// at most `--max-minutes` of breathing and `maximumPhaseCount` phases, or 422 with one line, before any work
    /// that grows with the session.
    func refusingSize(of schedule: Schedule) -> HTTPResponse? {
        let minutes = configuration.maximumMinutes
        if schedule.totalMicroseconds > Int64(minutes) * 60_000_000 {
            let length = Microseconds.formatClock(schedule.totalMicroseconds).dropLast(4)
            return APIResponse.error("the session lasts \(length); this server takes sessions of at most \(minutes) minutes (nagi serve --max-minutes)", status: 422, parameter: "minutes")
        }
        if schedule.phases.count > configuration.maximumPhaseCount {
            return APIResponse.error(
                "the session has \(schedule.phases.count) phases; this server takes at most \(configuration.maximumPhaseCount) (use longer phases or fewer cycles)",
                status: 422, parameter: "cycles")
        }
        return nil
    }

    /// The soundtrack of `request` as `file`, answered to `http`: 304 when the client has it (`If-None-Match`), the
    /// headers alone to HEAD, else prepared (from the cache when it was prepared lately) and streamed: a WAV with an
    /// exact Content-Length and its ranges (206, under `If-Range`), every other format chunked as it is encoded. The
    /// stream is spooled (`BodySpool`): the render keeps its slot only while it renders, whatever the client's pace.
    /// With `download` (a file name) the answer is the finished file instead (`finishedFile`).
    func stream(
        _ request: SoundtrackRequest, identity: SoundtrackIdentity, file: SoundtrackFileDescription, for http: HTTPRequest, download fileName: String?
    ) -> HTTPResponse {
        let validator = RenderValidator(files: [(fileName ?? "", identity, file)], delivery: fileName == nil ? "stream" : "file", requests: [request])
        if validator.isMatched(byIfNoneMatch: http.header("if-none-match")) { return HTTPResponse(status: 304, headers: validator.headers) }
        var headers: [(name: String, value: String)] = [("Content-Type", Self.contentType(of: file.format))] + validator.headers
        let rangeHeader = validator.allowsRange(ifRange: http.header("if-range")) ? http.header("range") : nil
        if let fileName {
            headers.append(("Content-Disposition", ContentDisposition.attachment(fileName: fileName)))
            return finishedFile(request, identity: identity, file: file, for: http, headers: headers, range: rangeHeader)
        }
        let spec = file.spec
        var status = 200
        var byteCount: Int64?
        var skipByteCount = 0
        var startFrame: Int64 = 0
        var header: [UInt8] = []
        var writesHeader = true
        var padBytes: [UInt8] = []
        if file.format == .wav {
            headers.append(("Accept-Ranges", "bytes"))
            header = WAVStreamHeader(spec: spec, frameCount: file.frameCount).bytes
            let blockAlign = Int64(spec.channelCount * spec.encoding.bytesPerSample)
            let dataByteCount = file.frameCount * blockAlign
            // A chunk of odd size is followed by a pad byte, which the header's RIFF size counts: the file ends with it,
            // as nagi render's does, so its length is the one its header declares.
            if dataByteCount % 2 == 1 { padBytes = [0] }
            let totalByteCount = Int64(header.count) + dataByteCount + Int64(padBytes.count)
            byteCount = totalByteCount
            if let rangeHeader {
                guard let range = ByteRange(parsing: rangeHeader, totalByteCount: totalByteCount) else {
                    return Self.rangeNotSatisfiable(rangeHeader, totalByteCount: totalByteCount)
                }
                status = 206
                headers.append(("Content-Range", "bytes \(range.first)-\(range.last)/\(totalByteCount)"))
                byteCount = range.last - range.first + 1
                if range.first < Int64(header.count) {
                    header = Array(header[Int(range.first)...])
                } else {
                    let offset = range.first - Int64(header.count)
                    startFrame = offset / blockAlign
                    skipByteCount = Int(offset % blockAlign)
                    writesHeader = false
                }
            }
        }
        if http.method == "HEAD" { return headersAlone(status: status, headers: headers, byteCount: byteCount) }
        guard slots.acquire() else { return busy() }
        var released = false
        defer { if !released { slots.release() } }
        let soundtrack: Soundtrack
        do {
            soundtrack = try prepared(request, identity: identity, for: http)
        } catch {
            return APIResponse.error(NagiError(error))
        }
        // From a frame past 0 the samples go out as the WAV's own data: headerless PCM of the same encoding.
        var streamSpec = spec
        if file.format == .wav {
            streamSpec = AudioFileSpec(sampleRate: spec.sampleRate, channelCount: spec.channelCount, format: .raw, encoding: spec.encoding)
        }
        let slotsToRelease = slots
        let headerBytes = writesHeader ? header : []
        let (firstFrame, samplesSpec, pad) = (startFrame, streamSpec, padBytes)
        let body: HTTPBodyStream
        do {
            guard !isStopping else { return APIResponse.error("the server is stopping", status: 503) }
            let environment = configuration.environment
            body = try producers.makeStream(skipping: skipByteCount, spoolFolder: ProcessEnvironment.temporaryFolder) { descriptor, cancel in
                ProcessEnvironment.$bound.withValue(environment) {
                    defer { slotsToRelease.release() }
                    if !headerBytes.isEmpty, !FileSystem.writeAll(descriptor, headerBytes) { return false }
                    // A range of the pad byte alone starts past the last frame: no samples, the pad byte.
                    if firstFrame < soundtrack.totalFrameCount {
                        guard (try? soundtrack.write(to: .stream(fileDescriptor: descriptor), spec: samplesSpec, startFrame: firstFrame, cancel: cancel)) != nil else {
                            return false
                        }
                    }
                    return pad.isEmpty || FileSystem.writeAll(descriptor, pad)
                }
            }
        } catch {
            return APIResponse.error(error.message, status: 500)
        }
        released = true
        return HTTPResponse(status: status, headers: headers, body: .stream(body, byteCount: byteCount))
    }

    /// The soundtrack of `request`, whose identity is `identity`, prepared for its format's encoder (from the cache
    /// when it was lately), stopping when the server stops or `http`'s client has gone.
    private func prepared(_ request: SoundtrackRequest, identity: SoundtrackIdentity, for http: HTTPRequest) throws(SoundtrackError) -> Soundtrack {
        // Kept under the sound's one key (`SoundtrackIdentity`), which names the format: the loudness pass meters the
        // render for the format's encoder.
        let prepared = request.forEncoder(of: identity.format)
        return try soundtracks.soundtrack(for: identity.soundKey) { () throws(SoundtrackError) in
            try Soundtrack.prepare(prepared, guide: guideClips, cancel: stopsWith(http))
        }
    }

    /// A cancellation that says stop once the server stops or `http`'s client has gone.
    func stopsWith(_ http: HTTPRequest) -> Cancellation {
        Cancellation { [weak self] in (self?.isStopping ?? true) || http.isClientGone }
    }

    /// `download=1`: the finished file, as `nagi render -o FILE` writes it (FLAC with its total samples and MD5, MP3
    /// with its Xing/LAME header, Ogg and Opus with their granules, WAV with its sizes, the tags and chapters and
    /// the track gain), rendered into a temporary folder under the render's slot, then sent from its descriptor (its
    /// name already removed) with a Content-Length and its ranges. Nothing is sent before it is finished.
    private func finishedFile(
        _ request: SoundtrackRequest, identity: SoundtrackIdentity, file: SoundtrackFileDescription, for http: HTTPRequest, headers given: [(name: String, value: String)],
        range rangeHeader: String?
    ) -> HTTPResponse {
        var headers = given + [("Accept-Ranges", "bytes")]
        // Its length is known only once it is written.
        if http.method == "HEAD" { return headersAlone(status: 200, headers: headers, byteCount: nil) }
        guard slots.acquire() else { return busy() }
        defer { slots.release() }
        let cancel = stopsWith(http)
        let soundtrack: Soundtrack
        do {
            soundtrack = try prepared(request, identity: identity, for: http)
        } catch {
            return APIResponse.error(NagiError(error))
        }
        guard let folder = TemporaryFolder.make(prefix: "nagi-download-") else {
            return APIResponse.error("cannot make a temporary folder: \(Errno.current.description)", status: 500)
        }
        defer { TemporaryFolder.remove(folder) }
        let path = FilePath(folder).appending("render." + file.format.fileExtension).string
        do {
            _ = try soundtrack.write(to: .file(path: path, overwrite: true), file: file, cancel: cancel)
        } catch {
            return APIResponse.error(NagiError(error))
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            return APIResponse.error("cannot read the rendered file: \(Errno.current.description)", status: 500)
        }
        let totalByteCount = Int64(status.st_size)
        guard let rangeHeader else {
            return HTTPResponse(status: 200, headers: headers, body: .stream(HTTPBodyStream(completeFile: descriptor, byteCount: totalByteCount), byteCount: totalByteCount))
        }
        guard let range = ByteRange(parsing: rangeHeader, totalByteCount: totalByteCount) else {
            close(descriptor)
            return Self.rangeNotSatisfiable(rangeHeader, totalByteCount: totalByteCount)
        }
        headers.append(("Content-Range", "bytes \(range.first)-\(range.last)/\(totalByteCount)"))
        let body = HTTPBodyStream(completeFile: descriptor, byteCount: totalByteCount, skipping: range.first)
        return HTTPResponse(status: 206, headers: headers, body: .stream(body, byteCount: range.last - range.first + 1))
    }

    /// An answer of `headers` alone, for HEAD: what GET would answer, with its length when known, and nothing rendered.
    func headersAlone(status: Int, headers: [(name: String, value: String)], byteCount: Int64?) -> HTTPResponse {
        // A streamed body of that length that is never read (libmicrohttpd sends no body to HEAD): the way its
        // Content-Length is said without the bytes.
        guard !isStopping, let body = try? producers.makeStream(produce: { _, _ in true }) else {
            return APIResponse.error("the server is stopping", status: 503)
        }
        return HTTPResponse(status: status, headers: headers, body: .stream(body, byteCount: byteCount))
    }

    /// 416 for a range outside a body of `totalByteCount` bytes (or several ranges, or another unit).
    static func rangeNotSatisfiable(_ rangeHeader: String, totalByteCount: Int64) -> HTTPResponse {
        var refusal = APIResponse.error("the range \(rangeHeader) is not within the file's \(totalByteCount) bytes", status: 416)
        refusal.headers.append(("Content-Range", "bytes */\(totalByteCount)"))
        return refusal
    }

    /// 503: every slot taken and the queue full.
    func busy() -> HTTPResponse {
        APIResponse.error("busy: \(configuration.jobCount) renders are running and \(configuration.queueLength) waiting; try again shortly", status: 503)
    }

    /// A body `produce` writes on a thread of its own (an album's export and archive), spooled and sent chunked as
    /// `contentType`, a download named `fileName`, with `headers` besides; it holds a render's slot, taken here,
    /// until it ends, whatever its client's pace.
    func streamProduced(
        contentType: String, fileName: String, headers extra: [(name: String, value: String)] = [],
        produce: @escaping @Sendable (_ descriptor: Int32, _ cancel: Cancellation) -> Bool
    ) -> HTTPResponse {
        guard slots.acquire() else { return busy() }
        let slotsToRelease = slots
        guard !isStopping else {
            slots.release()
            return APIResponse.error("the server is stopping", status: 503)
        }
        do {
            let environment = configuration.environment
            let body = try producers.makeStream(spoolFolder: ProcessEnvironment.temporaryFolder) { descriptor, cancel in
                defer { slotsToRelease.release() }
                return ProcessEnvironment.$bound.withValue(environment) { produce(descriptor, cancel) }
            }
            let headers = [("Content-Type", contentType), ("Content-Disposition", ContentDisposition.attachment(fileName: fileName))] + extra
            return HTTPResponse(status: 200, headers: headers, body: .stream(body, byteCount: nil))
        } catch {
            slots.release()
            return APIResponse.error(error.message, status: 500)
        }
    }

    /// Whether a flag parameter's value says yes.
    static func isYes(_ value: String) -> Bool {
        !["0", "false", "no", "off"].contains(value.lowercased())
    }

    /// The Content-Type of a format.
    static func contentType(of format: AudioFileFormat) -> String {
        switch format {
        case .wav: "audio/wav"
        case .flac: "audio/flac"
        case .ogg: "audio/ogg"
        case .opus: "audio/ogg; codecs=opus"
        case .mp3: "audio/mpeg"
        case .raw: "application/octet-stream"
        }
    }

    // MARK: Common answers

    static func notFound(_ path: String) -> HTTPResponse {
        APIResponse.error("no such page or API: \(path)", status: 404)
    }

    static func methodNotAllowed(allowing methods: String) -> HTTPResponse {
        var response = APIResponse.error("this path takes \(methods) only", status: 405)
        response.headers.append(("Allow", methods))
        return response
    }

    /// `response` with the headers every answer carries: no sniffing, no referrer (a URL may hold the token), the pages
    /// allowed only this server's own scripts, styles and media, and no framing by other sites.
    static func secured(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers += [
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"),
        ]
        return response
    }
}
