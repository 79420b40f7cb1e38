import Foundation

/// A server this test reaches over a socket on 127.0.0.1 (a process of its own, or one in this process): how a
/// request goes to it as a browser on this machine sends one.
protocol LoopbackServer {
    /// The port it listens on.
    var port: UInt16 { get }
    /// The token requests need, nil for none.
    var token: String? { get }
}

extension LoopbackServer {
    /// The Host header a browser on this machine sends.
    var host: String { "127.0.0.1:\(port)" }

    /// The header that carries the token (an empty Bearer when there is none).
    var authorization: (String, String) { ("Authorization", "Bearer \(token ?? "")") }

    /// A new connection to the server.
    func connect(receiveTimeoutSeconds: Int = 30) throws -> LoopbackConnection {
        try LoopbackConnection(port: port, receiveTimeoutSeconds: receiveTimeoutSeconds)
    }

    /// `method target` on a connection of its own, with this machine's Host (unless `headers` names one), the token
    /// as a Bearer header when `authorized` (and neither the target nor the headers bring one of their own) and
    /// `Connection: close`; its whole reply.
    func request(_ method: String = "GET", _ target: String, headers: [(String, String)] = [], body: [UInt8] = [], authorized: Bool = true) throws -> HTTPReply {
        let connection = try connect()
        let all = Self.headers(headers, for: target, host: host, token: authorized ? token : nil) + [("Connection", "close")]
        try connection.sendRequest(method, target, headers: all, body: body)
        return try connection.readReply(isHead: method == "HEAD")
    }

    /// `given` as a browser on this machine sends them to `target`: the Host first (unless `given` names one), and
    /// `token` as a Bearer header unless the target or `given` brings one of its own.
    static func headers(_ given: [(String, String)], for target: String, host: String, token: String?) -> [(String, String)] {
        var all = given
        if !given.contains(where: { $0.0.lowercased() == "host" }) { all.insert(("Host", host), at: 0) }
        if let token, !target.contains("token="), !given.contains(where: { ["authorization", "cookie"].contains($0.0.lowercased()) }) {
            all.append(("Authorization", "Bearer \(token)"))
        }
        return all
    }

    /// `GET target`.
    func get(_ target: String, headers: [(String, String)] = [], authorized: Bool = true) throws -> HTTPReply {
        try request("GET", target, headers: headers, authorized: authorized)
    }
}

/// The client side alone: a port and its token, for a server known by nothing else.
struct LoopbackClient: LoopbackServer {
    let port: UInt16
    let token: String?
}
