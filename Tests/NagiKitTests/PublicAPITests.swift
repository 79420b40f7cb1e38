import Foundation
import NagiTestSupport
import Testing

/// NagiKit's public surface is the documented one: the symbols of NagiKit and of the modules it re-exports, as the
/// symbol graph of the built modules lists them, are exactly the list in docs/library.md. A public symbol added
/// without being documented (or removed while still listed) fails here: make it non-public, or list it
/// (`scripts/public-api.py --write`) and say in docs/library.md what it is for.
@Suite("NagiKit's public API: the documented list")
struct PublicAPITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the symbol graph's public symbols are docs/library.md's list, no more and no fewer")
    func publicSymbolsAreDocumented() throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/out.txt"
        let script = Self.root.appendingPathComponent("scripts/public-api.py").path
        let build = Self.root.appendingPathComponent(".build/debug").path
        let child = try ChildProcess("/usr/bin/env", ["python3", script, "--check", build], environment: ProcessInfo.processInfo.environment, standardOutputPath: output, standardErrorPath: output)
        let ended = child.wait(seconds: 120)
        let report = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(ended && child.exitStatus == 0, "\(report)")
        #expect(report.contains("public symbols are the documented list"), "\(report)")
    }
}
