import NagiSystem
import AudioFile
import Locking
import NagiDocuments
import NagiKit
import NagiOptions
import NagiWebAssets
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
        /// The token every request must carry; nil for none (loopback only).
        package var token: String?
        /// The longest session it renders, minutes.
        package var maximumMinutes: Int
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

        package init(address: ListenAddress, token: String?, maximumMinutes: Int = 180, jobCount: Int, limits: HTTPServer.Limits = HTTPServer.Limits(), tls: TLSIdentity? = nil, authorityCertificatePEM: String? = nil) {
            self.address = address
            self.token = token
            self.maximumMinutes = maximumMinutes
            self.jobCount = jobCount
            self.queueLength = 4 * jobCount
            self.limits = limits
            self.tls = tls
            self.authorityCertificatePEM = authorityCertificatePEM
        }
    }

    /// The default port: 8787 ("nagi" has none of its own).
    package static let defaultPort: UInt16 = 8787

    let configuration: Configuration
    private let guardian: RequestGuard
    let slots: RenderSlots
    private let stopping = Atomic<Bool>(false)
    let soundtracks = SoundtrackCache(capacity: 4)
    /// Every request's phrases spoken once, in this process (a server forks no speaking processes).
    let guideClips = GuideClipCache(speaker: FliteSpeaker(processCount: 1))
    let folders = UserFolders()
    let http: Mutex<HTTPServer?> = Mutex(nil)

    /// Starts listening as `configuration` says.
    /// - Throws: `HTTPServerError` when the address cannot be listened on.
    package init(configuration: Configuration) throws(HTTPServerError) {
        self.configuration = configuration
        guardian = RequestGuard(token: configuration.token, servesLoopbackOnly: configuration.address.isLoopback)
        slots = RenderSlots(capacity: configuration.jobCount, queueCapacity: configuration.queueLength)
        let server = try HTTPServer(address: configuration.address, limits: configuration.limits, tls: configuration.tls) { [weak self] request in
            self?.handle(request) ?? APIResponse.error("the server is stopping", status: 503)
        }
        http.withLock { $0 = server }
    }

    /// The URL to open: `http://HOST:PORT/` (`https` with TLS), with `?token=…` when there is a token.
    package var url: String {
        let address = http.withLock { $0?.address } ?? configuration.address
        let token = configuration.token.map { "?token=\($0)" } ?? ""
        return "\(scheme)://\(address.text)/\(token)"
    }

    /// "https" when the server has a certificate, else "http".
    package var scheme: String { configuration.tls == nil ? "http" : "https" }

    /// Stops: later requests are refused, running renders cancelled, connections closed, producers waited for.
    package func stop() {
        stopping.store(true, ordering: .relaxed)
        slots.stop()
        let server = http.withLock { server -> HTTPServer? in
            defer { server = nil }
            return server
        }
        server?.stop()
    }

    /// Whether `stop` was called: a render in preparation stops too.
    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    // MARK: Routing

    private func handle(_ request: HTTPRequest) -> HTTPResponse {
        // The authority's certificate is public: a phone fetches it before it has the token's cookie.
        if request.path == "/ca.crt", request.method == "GET" || request.method == "HEAD" { return Self.secured(authorityCertificate()) }
        var response: HTTPResponse
        switch guardian.check(request) {
        case let .refused(status, message):
            return Self.secured(APIResponse.error(message, status: status))
        case let .allowed(setsCookie):
            response = route(request)
            if setsCookie, let cookie = guardian.cookieHeader { response.headers.append(("Set-Cookie", cookie)) }
        }
        return Self.secured(response)
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        if request.bodyTooLarge {
            return APIResponse.error("the request's body is larger than this server takes (\(configuration.limits.bodyByteCount >> 20) MiB)", status: 413)
        }
        let path = request.path
        let isRead = request.method == "GET" || request.method == "HEAD"
        if path.hasPrefix("/api/resonance") {
            guard request.method == "POST" else { return Self.methodNotAllowed(allowing: "POST") }
            return resonance(request, plot: path == "/api/resonance/plot.svg", known: path == "/api/resonance" || path == "/api/resonance/plot.svg")
        }
        guard isRead else { return Self.methodNotAllowed(allowing: "GET, HEAD") }
        switch path {
        case "/": return page("index.html")
        case "/pace": return page("pace.html")
        case "/favicon.svg", "/favicon.ico": return asset("favicon.svg")
        case "/api/presets": return presets()
        case "/api/describe": return describe(request)
        case "/api/plot.svg": return plot(request)
        case "/api/qr.svg": return joinCode()
        case "/api/join": return join()
        default: break
        }
        if path.hasPrefix("/assets/") { return asset(String(path.dropFirst(1))) }
        if path.hasPrefix("/api/render.") {
            guard let format = AudioFileFormat(fileExtension: String(path.dropFirst("/api/render.".count))), format != .raw else {
                return Self.notFound(path)
            }
            return render(request, format: format)
        }
        if path.hasPrefix("/api/courses/") { return course(request, path: String(path.dropFirst("/api/courses/".count))) }
        return Self.notFound(path)
    }

    // MARK: Pages and assets

    /// A page of `Web/`.
    private func page(_ name: String) -> HTTPResponse {
        guard let bytes = WebAssets.files[name] else { return Self.notFound("/" + name) }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache")], body: .bytes(bytes))
    }

    /// A file of `Web/` by its path there ("assets/pacer.js"); only what the binary carries, so no `..` can reach
    /// anything else.
    private func asset(_ name: String) -> HTTPResponse {
        guard let bytes = WebAssets.files[name] else { return Self.notFound("/" + name) }
        return HTTPResponse(status: 200, headers: [("Content-Type", Self.contentType(ofAsset: name)), ("Cache-Control", "no-cache")], body: .bytes(bytes))
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
        case "ico": "image/x-icon"
        default: "application/octet-stream"
        }
    }

    // MARK: The API

    /// `GET /api/presets`: every pattern, soundscape and course, built-in and the user's, and the user's beds and cue
    /// packs by name.
    private func presets() -> HTTPResponse {
        APIResponse.json(PresetListing.json(catalog: PresetEnvironment.catalog(), folders: folders))
    }

    /// `GET /api/describe`: the JSON of `nagi describe … --json`.
    private func describe(_ request: HTTPRequest) -> HTTPResponse {
        var query = request.query
        // The pages send one query to describe and render: `no-cues` is `cues=none` to describe.
        if query.contains(where: { $0.name == "no-cues" && !["0", "false", "no", "off"].contains($0.value.lowercased()) }), !query.contains(where: { $0.name == "cues" }) {
            query.append(("cues", "none"))
        }
        return APIResponse.answering {
            let arguments = try QueryArguments.parse(query, for: DescribeOptions.spec, tolerating: [RenderOptions.spec, PlotOptions.spec], folders: folders)
            return APIResponse.json(try DescribeOptions(arguments, catalog: PresetEnvironment.catalog()).json)
        }
    }

    /// `GET /api/plot.svg`: the SVG of `nagi plot`.
    private func plot(_ request: HTTPRequest) -> HTTPResponse {
        return APIResponse.answering {
            let arguments = try QueryArguments.parse(request.query, for: PlotOptions.spec, tolerating: [RenderOptions.spec, DescribeOptions.spec], folders: folders)
            let svg = try PlotOptions(arguments, catalog: PresetEnvironment.catalog()).svg
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
            file = try render.fileDescription(format: format, quality: try arguments.decimal("--quality", in: 0...10).map { $0 / 10 })
        } catch let error as QueryError {
            return APIResponse.error(error)
        } catch let error as CLIError {
            return APIResponse.error(error)
        } catch let error as ArgumentError {
            return APIResponse.error(.arguments(error), parameter: "quality")
        } catch {
            return APIResponse.error("\(error)", status: 500)
        }
        let fileName = FileNames.safeStem(render.session.name) + "." + format.fileExtension
        let key = Self.cacheKey(request.query) + "|" + format.fileExtension
        return stream(render.request, file: file, key: key, range: request.header("range"), download: request.queryValue("download").map(Self.isYes) == true ? fileName : nil)
    }

    /// A refusal for a session longer than `--max-minutes`, nil for one within it.
    func refusingLength(of request: SoundtrackRequest) -> HTTPResponse? {
        let seconds = Double(request.framing.totalFrameCount) / Double(request.schedule.sampleRate)
        guard seconds > Double(configuration.maximumMinutes) * 60 else { return nil }
        let length = Microseconds.formatClock(Int64(seconds * 1_000_000)).dropLast(4)
        return APIResponse.error("the session lasts \(length); this server renders at most \(configuration.maximumMinutes) minutes (nagi serve --max-minutes)", status: 400, parameter: "minutes")
    }

    /// The prepared soundtrack of `request` (from the cache when it was prepared lately), streamed as `file`: a WAV
    /// with an exact Content-Length and its ranges (206), every other format chunked as it is encoded.
    func stream(_ request: SoundtrackRequest, file: SoundtrackFileDescription, key: String, range rangeHeader: String?, download fileName: String?) -> HTTPResponse {
        guard slots.acquire() else {
            return APIResponse.error("busy: \(configuration.jobCount) renders are running and \(configuration.queueLength) waiting; try again shortly", status: 503)
        }
        var released = false
        defer { if !released { slots.release() } }
        let soundtrack: Soundtrack
        do {
            // The key names the format, so the loudness pass may meter the render for the format's encoder.
            var forFormat = request
            forFormat.encodingHeadroomDecibels = SoundtrackRequest.encodingHeadroomDecibels(for: file.format)
            let prepared = forFormat
            soundtrack = try soundtracks.soundtrack(for: key) { () throws(SoundtrackError) in
                try Soundtrack.prepare(prepared, guide: guideClips, cancel: Cancellation { [weak self] in self?.isStopping ?? true })
            }
        } catch {
            return APIResponse.error(CLIError(error))
        }
        var headers: [(name: String, value: String)] = [("Content-Type", Self.contentType(of: file.format)), ("Cache-Control", "no-store")]
        if let fileName { headers.append(("Content-Disposition", "attachment; filename=\"\(fileName)\"")) }
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
            header = WAVStreamHeader(spec: spec, frameCount: soundtrack.totalFrameCount).bytes
            let blockAlign = Int64(spec.channelCount * spec.encoding.bytesPerSample)
            let dataByteCount = soundtrack.totalFrameCount * blockAlign
            // A chunk of odd size is followed by a pad byte, which the header's RIFF size counts: the file ends with it,
            // as nagi render's does, so its length is the one its header declares.
            if dataByteCount % 2 == 1 { padBytes = [0] }
            let totalByteCount = Int64(header.count) + dataByteCount + Int64(padBytes.count)
            byteCount = totalByteCount
            if let rangeHeader {
                guard let range = ByteRange(parsing: rangeHeader, totalByteCount: totalByteCount) else {
                    return HTTPResponse(status: 416, headers: [("Content-Range", "bytes */\(totalByteCount)"), ("Content-Type", "application/json; charset=utf-8")],
                                        body: .bytes(Array("{\"error\": \"the range \(rangeHeader) is not within the file's \(totalByteCount) bytes\"}\n".utf8)))
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
            guard let server = http.withLock({ $0 }) else { return APIResponse.error("the server is stopping", status: 503) }
            body = try server.makeStream(skipping: skipByteCount) { descriptor, cancel in
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
        } catch {
            return APIResponse.error(error.message, status: 500)
        }
        released = true
        return HTTPResponse(status: status, headers: headers, body: .stream(body, byteCount: byteCount))
    }

    /// A body `produce` writes on a thread of its own (an album's export and archive), sent chunked as `contentType`,
    /// a download named `fileName`; it holds a render's slot, taken here, until it ends.
    func streamProduced(
        contentType: String, fileName: String, produce: @escaping @Sendable (_ descriptor: Int32, _ cancel: Cancellation) -> Bool
    ) -> HTTPResponse {
        guard slots.acquire() else {
            return APIResponse.error("busy: \(configuration.jobCount) renders are running and \(configuration.queueLength) waiting; try again shortly", status: 503)
        }
        let slotsToRelease = slots
        guard let server = http.withLock({ $0 }) else {
            slots.release()
            return APIResponse.error("the server is stopping", status: 503)
        }
        do {
            let body = try server.makeStream { descriptor, cancel in
                defer { slotsToRelease.release() }
                return produce(descriptor, cancel)
            }
            let headers = [("Content-Type", contentType), ("Cache-Control", "no-store"), ("Content-Disposition", "attachment; filename=\"\(fileName)\"")]
            return HTTPResponse(status: 200, headers: headers, body: .stream(body, byteCount: nil))
        } catch {
            slots.release()
            return APIResponse.error(error.message, status: 500)
        }
    }

    /// The cache's key for a render's query: its parameters in order, less those that do not change the samples.
    static func cacheKey(_ query: [(name: String, value: String)]) -> String {
        query.filter { !["token", "download", "format", "quality", "title", "artist", "album", "chapters", "bits"].contains($0.name) }
            .sorted { $0.name != $1.name ? $0.name < $1.name : $0.value < $1.value }
            .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
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
