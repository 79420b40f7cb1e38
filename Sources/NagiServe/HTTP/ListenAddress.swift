import Glibc

/// Where the server listens: an IP address (v4 or v6) and a port (0: a free one the system picks).
package struct ListenAddress: Sendable, Equatable {
    /// The address as written in a URL: "127.0.0.1", "[::1]".
    package var host: String
    /// The port; 0 until bound when a free one is asked for.
    package var port: UInt16
    /// Whether the address is IPv6.
    package var isIPv6: Bool
    /// The 4 or 16 bytes of the address, in network order.
    package var addressBytes: [UInt8]

    /// Parses `HOST:PORT`: an IPv4 address, `localhost` (127.0.0.1), or an IPv6 address in brackets.
    /// - Throws: `.badAddress` for anything else.
    package init(parsing text: String) throws(HTTPServerError) {
        guard let colon = text.lastIndex(of: ":") else { throw .badAddress(text) }
        var hostText = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber), let port = UInt16(portText) else {
            throw .badAddress(text)
        }
        self.port = port
        if hostText == "localhost" { hostText = "127.0.0.1" }
        if hostText.hasPrefix("["), hostText.hasSuffix("]") {
            let inner = String(hostText.dropFirst().dropLast())
            var address = in6_addr()
            guard inet_pton(AF_INET6, inner, &address) == 1 else { throw .badAddress(text) }
            isIPv6 = true
            addressBytes = withUnsafeBytes(of: address) { Array($0) }
            host = "[\(inner)]"
        } else {
            var address = in_addr()
            guard !hostText.isEmpty, inet_pton(AF_INET, hostText, &address) == 1 else { throw .badAddress(text) }
            isIPv6 = false
            addressBytes = withUnsafeBytes(of: address) { Array($0) }
            host = hostText
        }
    }

    /// Whether only this machine can reach the address: 127.0.0.0/8 or ::1.
    package var isLoopback: Bool {
        if isIPv6 { return addressBytes == Array(repeating: 0, count: 15) + [1] }
        return addressBytes.first == 127
    }

    /// Whether the address is every interface's (0.0.0.0 or ::).
    package var isUnspecified: Bool { addressBytes.allSatisfy { $0 == 0 } }

    /// "127.0.0.1:8787", "[::1]:8787".
    package var text: String { "\(host):\(port)" }
}
