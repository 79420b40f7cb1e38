import Foundation
import Glibc
import NagiTestSupport

/// A `nagi serve` of the test's own: the real binary started as a user would (`nagi serve --listen 127.0.0.1:0`),
/// with its own HOME, XDG folders and TMPDIR in a temporary folder, found through the URL it prints first; and a
/// shell in the very same environment, with the binary as `$NAGI`.
final class ServeProcess: LoopbackServer {
    /// The folder everything of this server lives in (HOME): `config/`, `state/`, `tmp/`, `runtime/`, `output/`.
    let home: TemporaryFolder
    let child: ChildProcess
    /// The first line it printed: `http://HOST:PORT/` or `https://…` (with `?token=…` when there is one).
    let url: String
    /// The port it listens on.
    let port: UInt16
    /// The token in the URL, nil when there is none.
    let token: String?
    private let standardErrorPath: String

    /// Starts `nagi serve ARGUMENTS` (default: a free loopback port) and waits for its URL.
    /// - Throws: when it exits or prints nothing in `seconds`, with what it said.
    init(_ arguments: [String] = ["--listen", "127.0.0.1:0"], seconds: Double = 20) throws {
        home = try Self.makeHome()
        let standardOutputPath = home.file("serve.stdout")
        standardErrorPath = home.file("serve.stderr")
        let child = try ChildProcess(
            NagiBinary.url.path, ["serve"] + arguments, environment: Self.environment(home), workingDirectory: home.file("output"),
            standardOutputPath: standardOutputPath, standardErrorPath: standardErrorPath)
        self.child = child
        var firstLine: String?
        _ = Poll.until(seconds: seconds, every: 0.01) {
            let text = (try? String(contentsOfFile: standardOutputPath, encoding: .utf8)) ?? ""
            if let newline = text.firstIndex(of: "\n") { firstLine = String(text[..<newline]) }
            return firstLine != nil || !child.isRunning
        }
        guard let firstLine, let port = Self.port(in: firstLine) else {
            let error = (try? String(contentsOfFile: home.file("serve.stderr"), encoding: .utf8)) ?? ""
            throw ServeStartError(message: "nagi serve \(arguments.joined(separator: " ")) printed no URL; stderr: \(error)")
        }
        url = firstLine
        self.port = port
        token = firstLine.range(of: "?token=").map { String(firstLine[$0.upperBound...]) }
    }

    deinit {
        if child.isRunning {
            child.signal(SIGKILL)
            _ = child.wait(seconds: 10)
        }
    }

    /// A new HOME for a server: its `config/`, `state/`, `tmp/`, `runtime/` and `output/` folders made.
    static func makeHome() throws -> TemporaryFolder {
        let home = try TemporaryFolder()
        for folder in ["config", "state", "tmp", "runtime", "output"] {
            try FileManager.default.createDirectory(atPath: home.file(folder), withIntermediateDirectories: true)
        }
        return home
    }

    /// The environment of the server and of the command line run beside it: a bare PATH, C.UTF-8, and every folder
    /// nagi reads or writes inside `home`.
    static func environment(_ home: TemporaryFolder) -> [String: String] {
        [
            "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home.path,
            "XDG_CONFIG_HOME": home.file("config"), "XDG_STATE_HOME": home.file("state"),
            "XDG_RUNTIME_DIR": home.file("runtime"), "TMPDIR": home.file("tmp"),
        ]
    }

    /// The port of `http://HOST:PORT/…` or `https://HOST:PORT/…`.
    static func port(in url: String) -> UInt16? {
        guard let schemeEnd = url.range(of: "://"), ["http", "https"].contains(url[..<schemeEnd.lowerBound]),
              let slash = url[schemeEnd.upperBound...].firstIndex(of: "/") else { return nil }
        let authority = url[schemeEnd.upperBound..<slash]
        guard let colon = authority.lastIndex(of: ":") else { return nil }
        return UInt16(authority[authority.index(after: colon)...])
    }

    /// What the server printed on standard error so far.
    var standardError: String {
        (try? String(contentsOfFile: standardErrorPath, encoding: .utf8)) ?? ""
    }

    /// The names left in the server's TMPDIR.
    var temporaryFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home.file("tmp"))) ?? []).sorted()
    }

    /// Sends `signal` and waits up to `seconds` for the server to exit; its exit status, nil when it did not.
    func stop(_ signal: Int32 = SIGTERM, seconds: Double = 10) -> Int32? {
        child.signal(signal)
        guard child.wait(seconds: seconds) else { return nil }
        return child.exitStatus
    }

    /// CPU seconds the server has used so far (user and system, all its threads), from /proc.
    var cpuSeconds: Double {
        guard let text = try? String(contentsOfFile: "/proc/\(child.pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")")
        else { return 0 }
        // After "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The server's resident memory now, bytes (VmRSS, from /proc).
    var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kibibytes * 1024
    }

    /// `script` run by /bin/sh in this server's environment, with `$NAGI` the binary; its exit status.
    func shell(_ script: String, seconds: Double = 60) throws -> Int32 {
        var environment = Self.environment(home)
        environment["NAGI"] = NagiBinary.url.path
        let run = try ChildProcess("/bin/sh", ["-c", script], environment: environment, workingDirectory: home.file("output"))
        guard run.wait(seconds: seconds) else {
            run.signal(SIGKILL)
            _ = run.wait(seconds: 10)
            return -1
        }
        return run.exitStatus ?? -1
    }

    /// The path of `name` in the folder the command line writes into.
    func output(_ name: String) -> String { home.file("output/" + name) }
}

/// One run of the command line.
struct NagiRun {
    var status: Int32
    var standardOutput: [UInt8]
    var standardError: String

    /// Standard output as UTF-8 text.
    var standardOutputText: String { String(decoding: standardOutput, as: UTF8.self) }
}

/// `nagi serve` exited or printed nothing where a URL was expected.
struct ServeStartError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A session's options written once and given both ways: as a request's query (the option names without the
/// dashes) and as the command line's arguments.
struct SessionOptions {
    /// PATTERN; nil for none (`--bpm`).
    var pattern: String?
    /// (name, value) pairs; a flag has the empty value (`end-bell=` in a query, which turns it on).
    var options: [(name: String, value: String)]

    init(_ pattern: String?, _ options: [(name: String, value: String)] = []) {
        self.pattern = pattern
        self.options = options
    }

    /// `pattern=…&name=value…`, percent-encoded.
    var query: String {
        ((pattern.map { [("pattern", $0)] } ?? []) + options).map { "\($0.name)=\(Self.encoded($0.value))" }.joined(separator: "&")
    }

    /// `PATTERN --name value…` (a flag alone).
    var arguments: [String] {
        (pattern.map { [$0] } ?? []) + options.flatMap { $0.value.isEmpty ? ["--" + $0.name] : ["--" + $0.name, $0.value] }
    }

    static func encoded(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
