import CMicroHTTPD
import CNagiHTTP
import Glibc
import Locking
import NagiKit

/// An HTTP/1.1 server over libmicrohttpd: a thread per connection, each request handed whole (its body bounded)
/// to one handler on that connection's thread, and the handler's response sent from memory or streamed from a
/// producer (`HTTPBodyStream`) as the client takes it.
///
/// libmicrohttpd parses the requests, answers what is malformed or too large (a request line and headers past
/// `Limits.headerByteCount`: 414 or 431), bounds the connections at once and closes idle ones; everything else is
/// the handler's. `stop` cancels every streamed body, stops the daemon and waits for the producers to end.
package final class HTTPServer: @unchecked Sendable {
    /// The bounds on what clients may take.
    package struct Limits: Sendable {
        /// Connections at once (each has a thread while open).
        package var connectionCount: UInt32 = 256
        /// Connections at once from one address.
        package var connectionsPerAddress: UInt32 = 128
        /// Seconds a connection may be idle (nothing read or written) before it is closed.
        package var idleTimeoutSeconds: UInt32 = 20
        /// Bytes of a connection's buffer, which must hold the request line and the headers.
        package var headerByteCount = 32 * 1024
        /// The largest body taken; a larger one is dropped and the request marked `bodyTooLarge`.
        package var bodyByteCount = 8 << 20

        package init() {}
    }

    /// Answers a request; runs on the connection's thread, so it may block (waiting for a render's turn).
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// Where the server listens, with its real port.
    package let address: ListenAddress
    private let limits: Limits
    private let handler: Handler
    private var daemon: OpaquePointer?
    private let lock = Lock()
    /// Guards `runningProducers`, and wakes `stop` when one ends.
    private let producers = ConditionLock()
    /// Streamed bodies not yet over.
    private var streams: [ObjectIdentifier: HTTPBodyStream] = [:]
    /// Producers started and not yet returned.
    private var runningProducers = 0

    /// Listens on `address` (port 0: a free one) and serves every request with `handler`, over HTTPS with `tls`.
    /// - Throws: `.cannotListen` for an address in use or not this machine's; `.cannotStart` (a key that does not
    ///   fit its certificate too).
    package init(address: ListenAddress, limits: Limits = Limits(), tls: TLSIdentity? = nil, handler: @escaping Handler) throws(HTTPServerError) {
        let (descriptor, bound) = try ListeningSocket.open(address)
        self.address = bound
        self.limits = limits
        self.handler = handler
        let context = Unmanaged.passUnretained(self).toOpaque()
        daemon = nagi_http_start(
            descriptor, address.isIPv6 ? 1 : 0, limits.connectionCount, limits.connectionsPerAddress, limits.idleTimeoutSeconds,
            limits.headerByteCount, Self.accessHandler, context, Self.completedHandler, context, tls?.certificatePEM, tls?.keyPEM)
        if daemon == nil {
            let code = errno
            close(descriptor)
            throw .cannotStart(code: code)
        }
    }

    deinit {
        stop()
    }

    /// Whether libmicrohttpd serves HTTPS here (built with GnuTLS).
    package static var supportsTLS: Bool { nagi_http_supports_tls() == 1 }

    /// Stops serving: every streamed body is cancelled (its producer told to stop, its client's connection ended),
    /// the daemon stopped (its threads joined), and the producers waited for, at most `producerWaitSeconds`.
    package func stop() {
        let open = lock.withLock { Array(streams.values) }
        for stream in open { stream.cancel() }
        if let daemon {
            MHD_stop_daemon(daemon)
            self.daemon = nil
        }
        producers.waitUntil(timeoutMilliseconds: Self.producerWaitMilliseconds, { runningProducers == 0 }, then: { _ in })
    }

    /// How long `stop` waits for producers to end (they check their token between blocks).
    static let producerWaitMilliseconds = 10_000

    /// A new streamed body whose producer this server counts, so that `stop` waits for it.
    /// `skipByteCount` and `produce`: as `HTTPBodyStream`'s.
    package func makeStream(
        skipping skipByteCount: Int = 0, produce: @escaping @Sendable (_ descriptor: Int32, _ cancel: Cancellation) -> Bool
    ) throws(HTTPServerError) -> HTTPBodyStream {
        producers.withLockWakingAll { runningProducers += 1 }
        do throws(HTTPServerError) {
            return try HTTPBodyStream(skipping: skipByteCount, onEnd: { [weak self] in self?.producerEnded() }, produce: produce)
        } catch {
            producerEnded()
            throw error
        }
    }

    private func producerEnded() {
        producers.withLockWakingAll { runningProducers -= 1 }
    }

    // MARK: libmicrohttpd's callbacks

    /// A request's state across the handler's calls: its body as it arrives.
    private final class RequestState {
        var body: [UInt8] = []
        var bodyTooLarge = false
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadDataSize, state in
        guard let context, let connection, let state, let uploadDataSize else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        return server.access(connection, url: url, method: method, uploadData: uploadData, uploadDataSize: uploadDataSize, state: state)
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { _, _, state, _ in
        guard let state, let pointer = state.pointee else { return }
        Unmanaged<RequestState>.fromOpaque(pointer).release()
        state.pointee = nil
    }

    private func access(
        _ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let pointer = state.pointee else {
            // The first call comes with the headers alone: keep a state for the body.
            state.pointee = Unmanaged.passRetained(RequestState()).toOpaque()
            return Self.yes
        }
        let request = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
        if uploadDataSize.pointee > 0 {
            if let uploadData, !request.bodyTooLarge {
                if request.body.count + uploadDataSize.pointee > limits.bodyByteCount {
                    request.bodyTooLarge = true
                    request.body = []
                } else {
                    uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadDataSize.pointee) {
                        request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadDataSize.pointee))
                    }
                }
            }
            uploadDataSize.pointee = 0
            return Self.yes
        }
        let httpRequest = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
            query: Self.values(of: connection, kind: .GET_ARGUMENT_KIND),
            headers: Dictionary(Self.values(of: connection, kind: .HEADER_KIND).map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 }),
            body: request.body, bodyTooLarge: request.bodyTooLarge)
        let response = handler(httpRequest)
        return queue(response, on: connection)
    }

    /// Sends `response` on `connection`.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created: OpaquePointer?
        switch response.body {
        case let .bytes(bytes):
            created = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case let .stream(stream, byteCount):
            lock.withLock { streams[ObjectIdentifier(stream)] = stream }
            let context = Unmanaged.passRetained(StreamContext(stream: stream, server: self, connection: connection, idleTimeoutSeconds: limits.idleTimeoutSeconds)).toOpaque()
            created = MHD_create_response_from_callback(
                byteCount.map { UInt64($0) } ?? UInt64.max, Self.streamBlockByteCount, Self.streamReader, context, Self.streamFree)
            if created == nil { Unmanaged<StreamContext>.fromOpaque(context).release() }
        }
        guard let created else { return Self.no }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(created, name, value)
        }
        // The handler may have waited (for a render's turn): that was the server's time, not an idle client's.
        nagi_http_touch(connection, limits.idleTimeoutSeconds)
        let result = MHD_queue_response(connection, UInt32(response.status), created)
        MHD_destroy_response(created)
        return result
    }

    /// The most bytes one reader call hands libmicrohttpd.
    private static let streamBlockByteCount = 64 * 1024

    /// A streamed body and the server that counts it, through libmicrohttpd's context pointer.
    private final class StreamContext {
        let stream: HTTPBodyStream
        weak var server: HTTPServer?
        /// The connection the body goes to, whose idle clock each block produced restarts.
        let connection: OpaquePointer
        let idleTimeoutSeconds: UInt32

        init(stream: HTTPBodyStream, server: HTTPServer, connection: OpaquePointer, idleTimeoutSeconds: UInt32) {
            self.stream = stream
            self.server = server
            self.connection = connection
            self.idleTimeoutSeconds = idleTimeoutSeconds
        }
    }

    private static let streamReader: MHD_ContentReaderCallback = { context, _, buffer, maximum in
        guard let context, let buffer else { return -2 }
        let holder = Unmanaged<StreamContext>.fromOpaque(context).takeUnretainedValue()
        let count = holder.stream.read(into: buffer, count: maximum)
        if count > 0 {
            // The read may have waited on the producer (an album's export): the server's time, not an idle client's.
            // A client that stops reading is never asked for more, so its idle clock runs on.
            nagi_http_touch(holder.connection, holder.idleTimeoutSeconds)
            return count
        }
        // End of the body (-1), or a failure (-2): libmicrohttpd then closes the connection, so a client
        // expecting a Content-Length sees the body cut short.
        return count == 0 ? -1 : -2
    }

    private static let streamFree: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let holder = Unmanaged<StreamContext>.fromOpaque(context).takeRetainedValue()
        // Over, complete or not (the client may have gone): the producer stops.
        holder.stream.cancel()
        holder.server?.forget(holder.stream)
    }

    private func forget(_ stream: HTTPBodyStream) {
        _ = lock.withLock { streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    private static let yes = MHD_Result.YES
    private static let no = MHD_Result.NO

    /// Every (name, value) of `kind` the request carries, in order.
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: String, value: String)] {
        final class Collected { var pairs: [(name: String, value: String)] = [] }
        let collected = Collected()
        let context = Unmanaged.passUnretained(collected).toOpaque()
        _ = MHD_get_connection_values(connection, kind, { context, _, key, value in
            guard let context, let key else { return .YES }
            let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
            collected.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
            return .YES
        }, context)
        return collected.pairs
    }
}
