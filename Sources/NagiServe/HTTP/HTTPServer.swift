import Locking
import CMicroHTTPD
import CNagiHTTP
import Glibc

/// An HTTP/1.1 server over libmicrohttpd: a thread per connection; each request's head handed first to an
/// admission check (its body is read only when admitted), then the whole request (its body bounded) to one handler
/// on that connection's thread, and the handler's response sent from memory or streamed from a producer
/// (`HTTPBodyStream`) as the client takes it.
///
/// `FrontDoor` accepts each connection and reads its first request's head before libmicrohttpd does: it answers
/// what is malformed or too large itself (400, 414, 431, with `answer`'s headers, which libmicrohttpd's own answers
/// would lack), closes a head slow to come, and bounds the connections at once, in all and per address; on plain HTTP
/// every answer closes its connection, so every request's head meets the door. libmicrohttpd
/// parses the requests, closes idle connections; `ConnectionWatch` closes those slow to send a later request or a
/// body. Everything else is the handlers'. `stop` stops the daemon (its threads
/// joined) and the watch; the owner of the streams (`BodyProducers`) tells their producers to stop.
package final class HTTPServer: Sendable {
    /// The bounds on what clients may take.
    package struct Limits: Sendable {
        /// Connections at once (each has a thread while open).
        package var connectionCount: UInt32 = 320
        /// Connections at once from one address (on loopback every local client shares one).
        package var connectionsPerAddress: UInt32 = 160
        /// Seconds a connection may be idle (nothing read or written) before it is closed.
        package var idleTimeoutSeconds: UInt32 = 20
        /// Seconds a request's line and headers may take to arrive, from the connection's opening or the end of its
        /// previous answer.
        package var headSeconds: Double = 5
        /// Seconds a request's body may take to arrive once its head is read.
        package var bodySeconds: Double = 15
        /// The longest request line taken, in bytes; longer is 414 (from the front door).
        package var requestLineByteCount = 8 * 1024
        /// The longest head (request line and headers) taken, in bytes; longer is 431 (from the front door).
        package var headByteCount = 16 * 1024
        /// The most header lines a request may have; more is 431 (from the front door).
        package var headerLineCount = 100
        /// Bytes of libmicrohttpd's memory pool per connection, which holds the head and what it parses from it:
        /// well above the door's limits, so that libmicrohttpd never answers 414 or 431 itself.
        package var memoryPoolByteCount = 64 * 1024
        /// The largest body taken; a larger one is dropped and the request marked `bodyTooLarge`.
        package var bodyByteCount = 8 << 20

        package init() {}
    }

    /// Looks at a request's head (no body yet): a response ends the request there, unread; nil reads its body and
    /// hands it to the handler. Runs on the connection's thread.
    package typealias Admission = @Sendable (HTTPRequest) -> HTTPResponse?
    /// The answer to a head the front door refuses: `status` and one line for the client, with the headers every
    /// answer carries.
    package typealias Refusal = @Sendable (_ status: Int, _ message: String) -> HTTPResponse
    /// Answers a whole request; runs on the connection's thread, so it may block (waiting for a render's turn).
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// Where the server listens, with its real port.
    package let address: ListenAddress
    private let limits: Limits
    private let admission: Admission
    private let handler: Handler
    /// The daemon, nil once stopped. An address held as an integer: the pointer is libmicrohttpd's, used by its
    /// own threads and stopped once.
    private let daemon = Locked<UInt?>(nil)
    private let watch: ConnectionWatch
    private let door: FrontDoor
    /// Whether each answer closes its connection (`Connection: close`): on plain HTTP, so that every request meets the
    /// front door. A later request on a kept-alive connection would go to libmicrohttpd alone, which answers a
    /// malformed or oversized head itself, without nagi's headers. Over HTTPS the door sees only ciphertext, and a
    /// TLS handshake per request would cost a phone more than it protects.
    private let closesEachConnection: Bool

    /// Serves every request on `socket` (bound and listening, from `ListeningSocket.open`; the server owns it from
    /// here, and closes it on failure too), over HTTPS with `tls`: `admission` on its head, `handler` on the whole
    /// of it; a head the front door refuses (malformed, too large, plain HTTP on the HTTPS port) gets `answer`'s
    /// response.
    /// - Throws: `.cannotStart` (a key that does not fit its certificate too), `.system` for the door's pipe.
    package init(
        socket descriptor: Int32, address: ListenAddress, limits: Limits = Limits(), tls: TLSIdentity? = nil,
        admission: @escaping Admission, handler: @escaping Handler, answer: @escaping Refusal
    ) throws(HTTPServerError) {
        self.address = address
        self.limits = limits
        self.admission = admission
        self.handler = handler
        closesEachConnection = tls == nil
        door = try FrontDoor(listening: descriptor, limits: limits, isTLS: tls != nil, port: address.port, answer: answer)
        watch = ConnectionWatch(headSeconds: limits.headSeconds, bodySeconds: limits.bodySeconds)
        guard watch.start() else { throw .cannotStart(code: EAGAIN) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let started = nagi_http_start(
            -1, address.isIPv6 ? 1 : 0, limits.connectionCount, limits.connectionsPerAddress, limits.idleTimeoutSeconds,
            limits.memoryPoolByteCount, Self.accessHandler, context, Self.completedHandler, Self.connectionNotice, Self.uriLog, context,
            tls?.certificatePEM, tls?.keyPEM)
        else {
            let code = errno
            watch.stop()
            throw .cannotStart(code: code)
        }
        daemon.withLock { $0 = UInt(bitPattern: started) }
        guard door.start(daemon: UInt(bitPattern: started)) else {
            stop()
            throw .cannotStart(code: EAGAIN)
        }
    }

    deinit {
        stop()
    }

    /// Whether libmicrohttpd serves HTTPS here (built with GnuTLS).
    package static var supportsTLS: Bool { nagi_http_supports_tls() == 1 }

    /// Stops serving: the daemon stopped (its connections closed, its threads joined) and the watch with it. A
    /// second call does nothing.
    package func stop() {
        // The door first: no connection is handed to a daemon being stopped.
        door.stop()
        let running = daemon.withLock { daemon -> UInt? in
            defer { daemon = nil }
            return daemon
        }
        if let running, let pointer = OpaquePointer(bitPattern: running) { MHD_stop_daemon(pointer) }
        watch.stop()
    }

    /// Connections closed so far for being slow to send their request.
    package var lateConnectionCount: Int { watch.shutDownCount + door.lateCount }

    // MARK: libmicrohttpd's callbacks

    /// A request's state across the handler's calls: whether its head was seen, and its body as it arrives.
    private final class RequestState {
        /// Whether the raw target held `%00` (percent-decoding would turn it into a C string's end).
        let targetHoldsNUL: Bool
        /// The head, once the first call brought it.
        var head: HTTPRequest?
        var body: [UInt8] = []
        var bodyTooLarge = false

        init(targetHoldsNUL: Bool) {
            self.targetHoldsNUL = targetHoldsNUL
        }
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadDataSize, state in
        guard let context, let connection, let state, let uploadDataSize else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        return server.access(connection, url: url, method: method, uploadData: uploadData, uploadDataSize: uploadDataSize, state: state)
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { context, connection, state, _ in
        if let context, let connection {
            let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
            // The answer is over: the next request's head has its deadline from now.
            server.watch.move(HTTPServer.key(connection), to: .awaitingHead)
        }
        guard let state, let pointer = state.pointee else { return }
        Unmanaged<RequestState>.fromOpaque(pointer).release()
        state.pointee = nil
    }

    private static let connectionNotice: MHD_NotifyConnectionCallback = { context, connection, _, notice in
        guard let context, let connection else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        switch notice {
        case MHD_ConnectionNotificationCode(rawValue: 0): server.watch.opened(HTTPServer.key(connection), socket: nagi_http_duplicate_socket(connection))
        case MHD_ConnectionNotificationCode(rawValue: 1):
            server.watch.closed(HTTPServer.key(connection))
            server.door.released(address: clientAddress(of: connection))
        default: break
        }
    }

    private static let uriLog: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { _, uri, _ in
        let raw = uri.map { String(cString: $0) } ?? ""
        return Unmanaged.passRetained(RequestState(targetHoldsNUL: raw.lowercased().contains("%00"))).toOpaque()
    }

    /// A connection's key in the watch: its handle's address.
    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }

    private func access(
        _ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>, state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        if state.pointee == nil {
            // No target was logged (the library always logs one; kept for safety): a state of its own.
            state.pointee = Unmanaged.passRetained(RequestState(targetHoldsNUL: false)).toOpaque()
        }
        guard let pointer = state.pointee else { return .NO }
        let request = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
        guard let head = request.head else {
            // The first call comes with the head alone: admit it, or answer now without reading the body.
            let head = Self.head(of: connection, url: url, method: method, targetHoldsNUL: request.targetHoldsNUL)
            request.head = head
            if let refusal = admission(head) {
                watch.move(Self.key(connection), to: .answering)
                return queue(refusal, on: connection, isHead: head.method == "HEAD")
            }
            watch.move(Self.key(connection), to: .awaitingBody)
            return .YES
        }
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
            return .YES
        }
        watch.move(Self.key(connection), to: .answering)
        var whole = head
        whole.body = request.body
        whole.bodyTooLarge = request.bodyTooLarge
        // The connection's own socket, looked at on this thread while the answer is made (a client gone stops it).
        whole.clientSocket = nagi_http_connection_socket(connection)
        request.body = []
        return queue(handler(whole), on: connection, isHead: head.method == "HEAD")
    }

    /// The client's address as text ("127.0.0.1", "::1"), empty when unknown.
    private static func clientAddress(of connection: OpaquePointer) -> String {
        FrontDoor.addressText { nagi_http_client_address(connection, $0, $1) }
    }

    /// The request's line, headers and client, without its body.
    private static func head(of connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?, targetHoldsNUL: Bool) -> HTTPRequest {
        let clientAddress = clientAddress(of: connection)
        return HTTPRequest(
            method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
            query: values(of: connection, kind: .GET_ARGUMENT_KIND), headers: values(of: connection, kind: .HEADER_KIND),
            clientAddress: clientAddress, targetHoldsNUL: targetHoldsNUL)
    }

    /// Sends `response` on `connection`; to a HEAD request, its headers alone (a streamed body is not produced).
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer, isHead: Bool) -> MHD_Result {
        let created: OpaquePointer?
        switch response.body {
        case let .bytes(bytes):
            // To a HEAD request libmicrohttpd sends the length and not the bytes.
            created = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case let .stream(stream, byteCount) where isHead:
            // Its headers alone: the producer stops, and a known length is stated by a body never read.
            stream.finish()
            created = byteCount.map { MHD_create_response_from_callback(UInt64($0), 1, Self.noBodyReader, nil, nil) }
                ?? MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case let .stream(stream, byteCount):
            stream.watchClient(socket: nagi_http_connection_socket(connection))
            let context = Unmanaged.passRetained(StreamContext(stream: stream, connection: connection, idleTimeoutSeconds: limits.idleTimeoutSeconds)).toOpaque()
            created = MHD_create_response_from_callback(
                byteCount.map { UInt64($0) } ?? UInt64.max, Self.streamBlockByteCount, Self.streamReader, context, Self.streamFree)
            if created == nil { Unmanaged<StreamContext>.fromOpaque(context).release() }
        }
        guard let created else { return .NO }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(created, name, value)
        }
        if closesEachConnection {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        // The handler may have waited (for a render's turn): that was the server's time, not an idle client's.
        nagi_http_touch(connection, limits.idleTimeoutSeconds)
        let result = MHD_queue_response(connection, UInt32(response.status), created)
        MHD_destroy_response(created)
        return result
    }

    /// The most bytes one reader call hands libmicrohttpd.
    private static let streamBlockByteCount = 64 * 1024

    /// A streamed body and its connection, through libmicrohttpd's context pointer.
    private final class StreamContext {
        let stream: HTTPBodyStream
        /// The connection the body goes to, whose idle clock each block produced restarts.
        let connection: OpaquePointer
        let idleTimeoutSeconds: UInt32

        init(stream: HTTPBodyStream, connection: OpaquePointer, idleTimeoutSeconds: UInt32) {
            self.stream = stream
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

    /// The reader of a HEAD answer's body, which libmicrohttpd never asks for: the end.
    private static let noBodyReader: MHD_ContentReaderCallback = { _, _, _, _ in -1 }

    private static let streamFree: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        let holder = Unmanaged<StreamContext>.fromOpaque(context).takeRetainedValue()
        // Over, complete or not (the client may have gone): the producer stops, and the reader's end closes here,
        // on the connection's thread, its one reader.
        holder.stream.finish()
    }

    /// Every (name, value) of `kind` the request carries, in order, with the bytes after a NUL kept (libmicrohttpd
    /// knows each value's length; a C string would end at the NUL and hide it).
    private static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> [(name: String, value: String)] {
        final class Collected { var pairs: [(name: String, value: String)] = [] }
        let collected = Collected()
        let context = Unmanaged.passUnretained(collected).toOpaque()
        _ = MHD_get_connection_values_n(connection, kind, { context, _, key, keySize, value, valueSize in
            guard let context, let key else { return .YES }
            let collected = Unmanaged<Collected>.fromOpaque(context).takeUnretainedValue()
            let name = key.withMemoryRebound(to: UInt8.self, capacity: keySize) { String(decoding: UnsafeBufferPointer(start: $0, count: keySize), as: UTF8.self) }
            let text = value.map { value in
                value.withMemoryRebound(to: UInt8.self, capacity: valueSize) { String(decoding: UnsafeBufferPointer(start: $0, count: valueSize), as: UTF8.self) }
            } ?? ""
            collected.pairs.append((name, text))
            return .YES
        }, context)
        return collected.pairs
    }
}
