import QRCode

/// How another device joins: the URLs beyond loopback and their QR code (`GET /api/qr.svg`).
extension NagiServer {
    /// The URLs another machine opens, one per LAN address (`LANAddresses`), each with the token: what
    /// `nagi serve` prints beyond loopback; with no address found (no network yet), the machine's host name.
    /// On loopback the one `url`.
    package var joinURLs: [String] {
        guard !configuration.address.isLoopback else { return [url] }
        let port = http.withLock { $0?.address.port } ?? configuration.address.port
        let token = configuration.token.map { "?token=\($0)" } ?? ""
        var hosts = LANAddresses.hosts(for: configuration.address)
        if hosts.isEmpty { hosts = [LANAddresses.hostName] }
        return hosts.map { "\(scheme)://\($0):\(port)/\(token)" }
    }


    /// `GET /ca.crt`: the local authority's certificate (public, no token), for a phone to trust once; 404 when
    /// the server has none.
    func authorityCertificate() -> HTTPResponse {
        guard let pem = configuration.authorityCertificatePEM else {
            return APIResponse.error("this server has no local certificate authority (it serves \(scheme == "https" ? "a certificate of its own" : "plain HTTP"))", status: 404)
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/x-x509-ca-cert"), ("Content-Disposition", "attachment; filename=\"nagi-ca.crt\""), ("Cache-Control", "no-cache")],
            body: .bytes(Array(pem.utf8)))
    }

    /// `GET /api/join`: how another device opens this server, for the studio: `{"urls": […], "authority": BOOL}`, the
    /// join URLs (none on loopback: no other device can open it) and whether `/ca.crt` has an authority to trust.
    func join() -> HTTPResponse {
        let urls = configuration.address.isLoopback ? [] : joinURLs
        return APIResponse.json(JoinDocument(urls: urls, authority: configuration.authorityCertificatePEM != nil))
    }

    /// `GET /api/join`'s answer.
    private struct JoinDocument: Encodable {
        var urls: [String]
        /// Whether `/ca.crt` serves an authority to trust.
        var authority: Bool
    }

    /// `GET /api/qr.svg`: the first join URL as a QR code, for the studio to show another device; 404 when the
    /// server listens on loopback only (no other device can open it).
    func joinCode() -> HTTPResponse {
        guard !configuration.address.isLoopback else {
            return APIResponse.error("this server listens on loopback only: no other device can open it (nagi serve --listen 0.0.0.0:PORT)", status: 404)
        }
        guard let first = joinURLs.first, let code = try? QRCode(encoding: first) else {
            return APIResponse.error("no QR code for this server's address", status: 500)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "no-store")], body: .bytes(Array(code.svg().utf8)))
    }
}
