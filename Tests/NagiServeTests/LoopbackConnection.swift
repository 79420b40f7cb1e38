import Foundation
import Glibc

/// One HTTP response as it came off the socket: the status, the headers in order and the body (de-chunked).
struct HTTPReply {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The last value of header `name` (any case), nil when absent.
    func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body read as a JSON object.
    func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw HTTPClientError.malformed("not a JSON object: \(text.prefix(200))")
        }
        return object
    }
}

/// What went wrong talking to the server.
enum HTTPClientError: Error, CustomStringConvertible {
    case system(String, Int32)
    case timedOut
    case closedEarly(receivedByteCount: Int)
    case malformed(String)

    var description: String {
        switch self {
        case let .system(call, code): "\(call): \(String(cString: strerror(code)))"
        case .timedOut: "timed out waiting for the server"
        case let .closedEarly(count): "the server closed the connection after \(count) bytes"
        case let .malformed(text): "malformed response: \(text)"
        }
    }
}

/// A TCP connection to the server over loopback, through plain POSIX sockets: the tests write exactly the bytes
/// they mean (a foreign Host, a half-sent request, a Range) and see exactly what comes back, with no client library
/// in between (FoundationNetworking is not on every machine, and it would fix up what the tests need to send wrong).
final class LoopbackConnection {
    private var descriptor: Int32
    /// Bytes received and not yet consumed.
    private var pending: [UInt8] = []

    /// Connects to `127.0.0.1:port`; every receive waits at most `receiveTimeoutSeconds`.
    init(port: UInt16, receiveTimeoutSeconds: Int = 30) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPClientError.system("socket", errno) }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw HTTPClientError.system("connect", code)
        }
    }

    deinit { close() }

    /// Closes the connection (a second call does nothing).
    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Closes at once with a reset (SO_LINGER 0), as a browser tab that is shut does to a download.
    func reset() {
        guard descriptor >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    /// Ends the sending side (a FIN), as a client that has said all it will.
    func shutDownSending() {
        if descriptor >= 0 { shutdown(descriptor, Int32(SHUT_WR)) }
    }

    /// Sends every byte of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw HTTPClientError.system("send", errno) }
            offset += count
        }
    }

    /// Sends `text` as UTF-8.
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends a request: `method target HTTP/1.1`, then `headers` as given (a test sets Host itself, or leaves it
    /// out), Content-Length when there is a body, and the body.
    func sendRequest(_ method: String = "GET", _ target: String, headers: [(String, String)], body: [UInt8] = []) throws {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
    }

    /// Receives at least one more byte into `pending`; false at the end of the stream.
    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                pending += buffer[0..<count]
                return true
            }
            if count == 0 { return false }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: throw HTTPClientError.timedOut
            case ECONNRESET: return false
            default: throw HTTPClientError.system("recv", errno)
            }
        }
    }

    /// Reads a response's status line and headers.
    func readHead() throws -> (status: Int, headers: [(name: String, value: String)]) {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var searchFrom = 0
        while true {
            if pending.count >= 4, let end = Self.find(terminator, in: pending, from: searchFrom) {
                let text = String(decoding: pending[0..<end], as: UTF8.self)
                pending.removeFirst(end + 4)
                var lines = text.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
                    throw HTTPClientError.malformed(text)
                }
                let headers = lines.compactMap { line -> (name: String, value: String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                }
                return (status, headers)
            }
            searchFrom = max(0, pending.count - 3)
            guard try fill() else { throw HTTPClientError.closedEarly(receivedByteCount: pending.count) }
        }
    }

    /// Reads exactly `count` bytes of the body (fewer only when the server closes first).
    func readBytes(_ count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard try fill() else { break }
        }
        let taken = Array(pending.prefix(count))
        pending.removeFirst(taken.count)
        return taken
    }

    /// Reads until the server closes the connection.
    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { pending = [] }
        return pending
    }

    /// Reads a whole response; `isHead` for the answer to a HEAD request (no body).
    func readReply(isHead: Bool = false) throws -> HTTPReply {
        let (status, headers) = try readHead()
        var reply = HTTPReply(status: status, headers: headers, body: [])
        if isHead || status == 204 || status == 304 { return reply }
        if reply.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            reply.body = try readChunked()
        } else if let length = reply.header("content-length").flatMap({ Int($0) }) {
            reply.body = try readBytes(length)
            if reply.body.count < length { throw HTTPClientError.closedEarly(receivedByteCount: reply.body.count) }
        } else {
            reply.body = try readToEnd()
        }
        return reply
    }

    /// A chunked body, de-chunked.
    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try readLine()
            guard let size = Int(sizeLine.split(separator: ";")[0].trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw HTTPClientError.malformed("chunk size '\(sizeLine)'")
            }
            if size == 0 {
                // Trailers, up to the empty line.
                while try !readLine().isEmpty {}
                return body
            }
            let chunk = try readBytes(size)
            guard chunk.count == size else { throw HTTPClientError.closedEarly(receivedByteCount: body.count + chunk.count) }
            body += chunk
            guard try readLine().isEmpty else { throw HTTPClientError.malformed("no CRLF after a chunk") }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let end = Self.find([13, 10], in: pending, from: 0) {
                let line = String(decoding: pending[0..<end], as: UTF8.self)
                pending.removeFirst(end + 2)
                return line
            }
            guard try fill() else { throw HTTPClientError.closedEarly(receivedByteCount: pending.count) }
        }
    }

    /// Whether the server has closed the connection, looked at now without waiting (anything it sent is dropped).
    var isClosedByPeer: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && (errno == ECONNRESET || errno == EPIPE))
    }

    /// Whether the server closes the connection within `seconds` (anything it sends first is dropped).
    func closesWithin(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return false }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
            if ready < 0, errno != EINTR { return false }
            guard ready > 0 else { continue }
            var byte: UInt8 = 0
            let count = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], Array(haystack[index..<(index + needle.count)]) == needle { return index }
            index += 1
        }
        return nil
    }
}
