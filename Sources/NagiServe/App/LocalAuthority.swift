import CNagiTLS
import NagiBase
import Glibc
import NagiKit
import NagiOptions
import NagiSystem

/// The small certificate authority `nagi serve` keeps in the user's config folder
/// (`$XDG_CONFIG_HOME/nagi/tls/`), so that a phone trusts the server once (its `ca.crt`) and then opens it over
/// HTTPS — the secure context service workers, the wake lock and Web Bluetooth need.
///
/// Made once: `ca.key` and `ca.crt` (ten years) on the first start beyond loopback; `server.key` and `server.crt`
/// (397 days), signed by it for the machine's host names and addresses, made again only when a name or address is
/// new or fewer than 30 days are left. Keys are written 0600 in a 0700 folder, each file whole or not at all
/// (written beside and renamed).
package struct LocalAuthority: Sendable {
    /// `$XDG_CONFIG_HOME/nagi/tls`.
    package let folder: String

    /// The authority in `configRoot/tls` (default: `$XDG_CONFIG_HOME/nagi`); nil when there is no config folder.
    package init?(configRoot: String? = PresetEnvironment.userPresetFolder) {
        guard let configRoot else { return nil }
        folder = FilePath(configRoot).appending("tls").string
    }

    /// The authority's certificate, PEM, made first when there is none.
    /// - Throws: `LocalAuthorityError` when it can be neither read nor made.
    package func authorityCertificate() throws(LocalAuthorityError) -> String {
        try authority().certificatePEM
    }

    /// The server's certificate and key for `hostNames` and `addresses` (IPv4 or IPv6 text, no brackets), signed
    /// by the authority: the kept one when it names them all and has 30 days left, else a new one, kept.
    /// - Throws: `LocalAuthorityError` when a file cannot be read or written, or GnuTLS fails.
    package func serverIdentity(hostNames: [String], addresses: [String]) throws(LocalAuthorityError) -> TLSIdentity {
        let authority = try authority()
        let certificatePath = path("server.crt")
        let keyPath = path("server.key")
        if let certificate = Self.readText(certificatePath), let key = Self.readText(keyPath),
           Self.withCStrings(hostNames, addresses, { names, nameCount, ips, ipCount in
               nagi_tls_certificate_covers(certificate, names, nameCount, ips, ipCount, Self.renewalDays) == 1
           }) {
            return TLSIdentity(certificatePEM: certificate, keyPEM: key)
        }
        var pair = nagi_tls_pair()
        var error = [CChar](repeating: 0, count: 256)
        let code = Self.withCStrings(hostNames, addresses) { names, nameCount, ips, ipCount in
            nagi_tls_make_server_certificate(authority.certificatePEM, authority.keyPEM, names, nameCount, ips, ipCount, Self.serverDays, &pair, &error, error.count)
        }
        defer { nagi_tls_free(&pair) }
        guard code == 0, let certificate = pair.certificate_pem, let key = pair.key_pem else {
            throw .cannotMake(Self.text(error))
        }
        let identity = TLSIdentity(certificatePEM: String(cString: certificate), keyPEM: String(cString: key))
        try write(identity.keyPEM, to: keyPath, mode: 0o600)
        try write(identity.certificatePEM, to: certificatePath, mode: 0o644)
        return identity
    }

    /// Days a server certificate is valid: under Apple's 398-day limit for certificates issued since 2020.
    static let serverDays: UInt32 = 397
    /// Days the authority is valid.
    static let authorityDays: UInt32 = 3650
    /// A server certificate with fewer days left than this is made again.
    static let renewalDays: UInt32 = 30

    /// The authority's certificate and key: read, or made and written the first time.
    private func authority() throws(LocalAuthorityError) -> TLSIdentity {
        let certificatePath = path("ca.crt")
        let keyPath = path("ca.key")
        if let certificate = Self.readText(certificatePath), let key = Self.readText(keyPath) {
            return TLSIdentity(certificatePEM: certificate, keyPEM: key)
        }
        if let reason = FileSystem.makeFolders(folder) { throw .cannotWrite(reason) }
        chmod(folder, 0o700)
        var pair = nagi_tls_pair()
        var error = [CChar](repeating: 0, count: 256)
        let name = "nagi local authority (\(LANAddresses.hostName))"
        let code = nagi_tls_make_authority(name, Self.authorityDays, &pair, &error, error.count)
        defer { nagi_tls_free(&pair) }
        guard code == 0, let certificate = pair.certificate_pem, let key = pair.key_pem else { throw .cannotMake(Self.text(error)) }
        let identity = TLSIdentity(certificatePEM: String(cString: certificate), keyPEM: String(cString: key))
        try write(identity.keyPEM, to: keyPath, mode: 0o600)
        try write(identity.certificatePEM, to: certificatePath, mode: 0o644)
        return identity
    }

    private func path(_ name: String) -> String { FilePath(folder).appending(name).string }

    /// `text` written to `path` with `mode`, whole: into a new file beside it, then renamed over it.
    private func write(_ text: String, to path: String, mode: mode_t) throws(LocalAuthorityError) {
        let partial = path + ".partial"
        unlink(partial)
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .cannotWrite("cannot create '\(partial)': \(FileSystem.lastErrorText)") }
        let written = FileSystem.writeAll(descriptor, Array(text.utf8)) && fsync(descriptor) == 0
        let reason = FileSystem.lastErrorText
        close(descriptor)
        guard written, rename(partial, path) == 0 else {
            unlink(partial)
            throw .cannotWrite("cannot write '\(path)': \(reason)")
        }
    }

    /// A small text file's contents, nil when it cannot be read or is empty.
    private static func readText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// `body` with `names` and `addresses` as C string arrays and their counts.
    private static func withCStrings<Result>(
        _ names: [String], _ addresses: [String],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, Int, UnsafePointer<UnsafePointer<CChar>?>?, Int) -> Result
    ) -> Result {
        let nameCopies = names.map { strdup($0) }
        let addressCopies = addresses.map { strdup($0) }
        defer { (nameCopies + addressCopies).forEach { free($0) } }
        let namePointers = nameCopies.map { UnsafePointer($0) }
        let addressPointers = addressCopies.map { UnsafePointer($0) }
        return namePointers.withUnsafeBufferPointer { nameBuffer in
            addressPointers.withUnsafeBufferPointer { addressBuffer in
                body(nameBuffer.baseAddress, names.count, addressBuffer.baseAddress, addresses.count)
            }
        }
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Why the local authority could not give a certificate.
package enum LocalAuthorityError: Error, Equatable {
    /// A file of its folder could not be written (the reason, one line).
    case cannotWrite(String)
    /// GnuTLS could not make a key or certificate (its words).
    case cannotMake(String)

    /// One line saying so.
    package var message: String {
        switch self {
        case let .cannotWrite(reason): "the local certificate authority: \(reason)"
        case let .cannotMake(reason): "the local certificate authority: \(reason)"
        }
    }
}
