/// What a server proves itself with over HTTPS: its certificate (with any intermediate after it) and private key,
/// as PEM text, handed to libmicrohttpd's GnuTLS.
package struct TLSIdentity: Sendable {
    /// The certificate chain, PEM.
    package var certificatePEM: String
    /// The private key, PEM.
    package var keyPEM: String

    package init(certificatePEM: String, keyPEM: String) {
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }
}
