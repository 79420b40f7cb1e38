import Glibc

/// The addresses other machines on the network reach this one by, for the URLs `nagi serve` prints beyond loopback:
/// a phone cannot open 0.0.0.0.
package enum LANAddresses {
    /// The hosts, as a URL writes them ("192.168.1.20", "[fd00::2]"), through which `listen` is reachable from
    /// another machine: its own address when it names one; for 0.0.0.0 every IPv4 address of an interface that is
    /// up, loopback excluded, and for [::] those and every global IPv6 one (a link-local address needs a zone,
    /// which browsers refuse). Home networks' private ranges come first (192.168/16, 10/8, 172.16/12) and the
    /// bridges of containers and virtual machines last, so the first is the likeliest one a phone on the same
    /// Wi-Fi can open. Empty on loopback, and when no interface has an address.
    package static func hosts(for listen: ListenAddress) -> [String] {
        guard !listen.isLoopback else { return [] }
        guard listen.isUnspecified else { return [listen.host] }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [(host: String, rank: Int)] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = current.pointee.ifa_flags
            guard flags & UInt32(IFF_UP) != 0, flags & UInt32(IFF_LOOPBACK) == 0, let address = current.pointee.ifa_addr else { continue }
            let name = current.pointee.ifa_name.map { String(cString: $0) } ?? ""
            let isBridge = ["docker", "br-", "veth", "virbr", "lxc", "podman", "cni", "flannel", "tun", "wg"].contains { name.hasPrefix($0) }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) } }
                guard bytes[0] != 127, !(bytes[0] == 169 && bytes[1] == 254) else { continue }
                found.append((text(of: bytes, family: AF_INET), rank(ofIPv4: bytes) + (isBridge ? 10 : 0)))
            case AF_INET6 where listen.isIPv6:
                let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } }
                // fe80::/10 is link-local; ::1 and v4-mapped addresses are not another machine's way in.
                guard !(bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80), bytes != Array(repeating: 0, count: 15) + [1] else { continue }
                found.append(("[\(text(of: bytes, family: AF_INET6))]", 5 + (isBridge ? 10 : 0)))
            default:
                continue
            }
        }
        var seen = Set<String>()
        // A stable sort: addresses of equal rank keep the system's interface order.
        return found.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
            .map(\.element.host).filter { seen.insert($0).inserted }
    }

    /// This machine's host name, "localhost" when it has none.
    package static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0, buffer[0] != 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// How likely a phone on the same home network reaches an IPv4 address: lower first.
    private static func rank(ofIPv4 bytes: [UInt8]) -> Int {
        switch (bytes[0], bytes[1]) {
        case (192, 168): 0
        case (10, _): 1
        case (172, 16...31): 2
        default: 3
        }
    }

    /// An address's usual text ("192.168.1.20", "fd00::2").
    private static func text(of bytes: [UInt8], family: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) != nil }
        return ok ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }
}
