import Glibc

/// A TCP socket bound to an address and listening, made here so that a failure says exactly why (an address in
/// use, one this machine does not have) and a port of 0 becomes the free port the system chose.
enum ListeningSocket {
    /// Opens, binds and listens on `address`; returns the descriptor and the address with its real port.
    /// - Throws: `.cannotListen` naming the address and errno, `.system` for a failed `socket`.
    static func open(_ address: ListenAddress) throws(HTTPServerError) -> (descriptor: Int32, address: ListenAddress) {
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system(call: "socket", code: errno) }
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if address.isIPv6 {
            // The address given, not the IPv4 ones too.
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var bound = address
        let failure: Int32? = withSocketAddress(address) { pointer, length in
            if bind(descriptor, pointer, length) != 0 { return errno }
            if listen(descriptor, 128) != 0 { return errno }
            return nil
        }
        if let failure {
            close(descriptor)
            throw .cannotListen(address: address.text, code: failure)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        if named == 0 {
            bound.port = withUnsafeBytes(of: storage) { bytes in
                // sin_port and sin6_port both follow the 2-byte family, in network order.
                UInt16(bytes[2]) << 8 | UInt16(bytes[3])
            }
        }
        return (descriptor, bound)
    }

    /// Calls `body` with `address` as a `sockaddr`.
    private static func withSocketAddress<Result>(_ address: ListenAddress, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        let port = address.port.bigEndian
        if address.isIPv6 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port
            withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { $0.copyBytes(from: address.addressBytes) }
            return withGeneric(&socketAddress, body)
        }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = port
        withUnsafeMutableBytes(of: &socketAddress.sin_addr) { $0.copyBytes(from: address.addressBytes) }
        return withGeneric(&socketAddress, body)
    }

    /// Calls `body` with a `sockaddr_in` or `sockaddr_in6` seen as the `sockaddr` the socket calls take, and its size.
    private static func withGeneric<Address, Result>(_ socketAddress: inout Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }
}
