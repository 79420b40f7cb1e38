import NagiSystem
import Glibc

/// Why the server could not start or serve, as data.
package enum HTTPServerError: Error, Equatable, Sendable {
    /// `--listen`'s value is no address and port.
    case badAddress(String)
    /// A system call failed (`call` and errno).
    case system(call: String, code: Int32)
    /// The address could not be listened on (in use, not this machine's).
    case cannotListen(address: String, code: Int32)
    /// libmicrohttpd would not start.
    case cannotStart(code: Int32)

    /// One line naming the fault.
    package var message: String {
        switch self {
        case let .badAddress(text): "--listen \(text): expected HOST:PORT, such as 127.0.0.1:8787, localhost:0 or [::1]:8787"
        case let .system(call, code): "\(call): \(Errno(code).description)"
        case let .cannotListen(address, code): "cannot listen on \(address): \(Errno(code).description)"
        case let .cannotStart(code): "cannot start the HTTP server: \(Errno(code).description)"
        }
    }
}
