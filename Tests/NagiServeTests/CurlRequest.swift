import Foundation
import NagiTestSupport

/// One request made by curl, the client that checks a certificate as a browser does (`--cacert`, and
/// `--connect-to` or `--resolve` to reach a printed name or address through 127.0.0.1: the tests send nothing to
/// any other address).
struct CurlRequest {
    /// curl's exit status: 0, or why it failed (60: the certificate is not trusted, 52: an empty reply…).
    var exitStatus: Int32
    /// The HTTP status, nil when there was no answer.
    var status: Int?
    /// The response's headers, as received.
    var headers: String
    /// The response's body.
    var body: String
    /// What curl said on standard error.
    var message: String

    /// `curl -sS OPTIONS URL`, its files in `folder`.
    init(_ url: String, _ options: [String] = [], in folder: TemporaryFolder) throws {
        let bodyPath = folder.file("curl.body")
        let headersPath = folder.file("curl.headers")
        let child = try ChildProcess(
            "/usr/bin/curl", ["-sS", "--max-time", "30", "-o", bodyPath, "-D", headersPath, "-w", "%{http_code}"] + options + [url],
            environment: ["PATH": "/usr/bin:/bin"], standardOutputPath: folder.file("curl.out"), standardErrorPath: folder.file("curl.err"))
        _ = child.wait(seconds: 60)
        exitStatus = child.exitStatus ?? -1
        let code = Int((try? String(contentsOfFile: folder.file("curl.out"), encoding: .utf8)) ?? "") ?? 0
        status = code == 0 ? nil : code
        headers = (try? String(contentsOfFile: headersPath, encoding: .utf8)) ?? ""
        body = (try? String(contentsOfFile: bodyPath, encoding: .utf8)) ?? ""
        message = (try? String(contentsOfFile: folder.file("curl.err"), encoding: .utf8)) ?? ""
        for path in [bodyPath, headersPath] { try? FileManager.default.removeItem(atPath: path) }
    }

    /// `--connect-to` options that send a request for `url`'s host and port to 127.0.0.1 on the same port, with
    /// the URL's host still the name the certificate must hold.
    static func toLoopback(_ url: String) -> [String] {
        guard let schemeEnd = url.range(of: "://"), let slash = url[schemeEnd.upperBound...].firstIndex(of: "/") else { return [] }
        let authority = url[schemeEnd.upperBound..<slash]
        guard let colon = authority.lastIndex(of: ":") else { return [] }
        let port = authority[authority.index(after: colon)...]
        return ["--connect-to", "\(authority):127.0.0.1:\(port)"]
    }
}
