import NagiTestSupport
import Foundation
import Testing
@testable import NagiCLI
@testable import NagiOptions

@Suite("The manual page, docs/nagi.1")
struct ManPageTests {
    static var committedPage: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/nagi.1")
    }

    @Test("the committed page is what `nagi help --man` prints (regenerate: nagi help --man > docs/nagi.1)")
    func notStale() throws {
        let result = NagiInProcess.run(["help", "--man"])
        #expect(result.status == 0)
        let committed = try String(contentsOf: Self.committedPage, encoding: .utf8)
        #expect(result.standardOutput == committed, "docs/nagi.1 is stale; run: nagi help --man > docs/nagi.1")
    }

    @Test("every command, option and exit code is in the page")
    func complete() throws {
        let page = ManPage.roff(root: NagiCommandLine.rootSpec)
        for (path, spec) in CompletionScript.commands(of: NagiCommandLine.rootSpec) where !path.isEmpty {
            #expect(page.contains(".SS \"nagi " + ManPage.escaped(path)), "\(path)")
            for option in spec.options {
                #expect(page.contains("\\fB" + ManPage.escaped(option.names.last ?? "") + "\\fR"), "\(path) \(option.names)")
            }
        }
        for (code, _) in ExitCode.all {
            #expect(page.contains(".B \(code)\n"))
        }
        for section in ["NAME", "SYNOPSIS", "COMMANDS", "EXIT STATUS", "FILES", "EXAMPLES"] {
            #expect(page.contains(".SH \(section)\n"))
        }
        #expect(page.contains("XDG_CONFIG_HOME") && page.contains("XDG_STATE_HOME"))
    }

    @Test("groff formats the page with every warning on and says nothing")
    func noWarnings() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is not installed")
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let errors = folder.appendingPathComponent("errors.txt").path
        let child = try ChildProcess("/usr/bin/groff", ["-man", "-ww", "-z", "-Tutf8", Self.committedPage.path], environment: ["PATH": "/usr/bin:/bin"], standardErrorPath: errors)
        #expect(child.wait(seconds: 30))
        #expect(child.exitStatus == 0)
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == "")
    }

    @Test("roff escaping: hyphens, backslashes, leading dots and non-ASCII")
    func escaping() {
        #expect(ManPage.escaped("--cycles") == "\\-\\-cycles")
        #expect(ManPage.escaped(".hidden") == "\\&.hidden")
        #expect(ManPage.escaped("a\\b") == "a\\eb")
        #expect(ManPage.escaped("4 × 2 — ok") == "4 \\[u00D7] 2 \\[u2014] ok")
    }
}
