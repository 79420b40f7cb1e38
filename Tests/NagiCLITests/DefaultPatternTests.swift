import Foundation
import NagiTestSupport
import Testing

/// One rule for a missing PATTERN (issue 46, defect 16): every session command plays, shows or draws 4-7-8,
/// and its --help says so.
@Suite("a missing PATTERN is 4-7-8 in every session command")
struct DefaultPatternTests {
    @Test("describe and plot without PATTERN give what they give for 4-7-8")
    func describeAndPlotDefault() throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bare = NagiInProcess.run(["describe", "--cycles", "2"], home: folder)
        let named = NagiInProcess.run(["describe", "4-7-8", "--cycles", "2"], home: folder)
        #expect(bare.status == 0, "\(bare.standardError)")
        #expect(named.status == 0)
        #expect(bare.standardOutput == named.standardOutput)
        #expect(bare.standardOutput.contains("exhale"))

        let plotted = try NagiProcess.run(["plot", "--cycles", "2", "-o", "-"], in: folder)
        let plottedNamed = try NagiProcess.run(["plot", "4-7-8", "--cycles", "2", "-o", "-"], in: folder)
        #expect(plotted.status == 0, "\(plotted.standardError)")
        #expect(plotted.standardOutput.contains("<svg"))
        #expect(plotted.standardOutput == plottedNamed.standardOutput)
        // Without -o the file is named after the pattern played.
        let file = try NagiProcess.run(["plot", "--cycles", "1", "--quiet"], in: folder)
        #expect(file.status == 0, "\(file.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("4-7-8.svg").path))
    }

    @Test("render, play, describe and plot --help name the default", arguments: ["render", "play", "describe", "plot"])
    func helpSaysTheDefault(command: String) throws {
        let help = NagiInProcess.run([command, "--help"])
        #expect(help.status == 0)
        // The PATTERN entry's help text may wrap; the words are looked for with the wrapping undone.
        let text = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Default: 4-7-8."), "\(command) --help: \(help.standardOutput)")
    }
}
