import Foundation
import NagiTestSupport
import Testing
@testable import NagiCLI
@testable import NagiOptions

/// `--help` laid out for the terminal it is read on: its width, 80 columns when standard output is no terminal, and
/// the help under each option once two columns no longer fit; never a word broken across lines.
@Suite("--help fits the terminal's width")
struct HelpWidthTests {
    /// Every word of `text`, in order.
    static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    }

    @Test("laid out for 80, 60, 40 and 24 columns: no line longer unless one word is, the same words in the same order", arguments: [80, 60, 40, 24])
    func pageFitsWidth(width: Int) throws {
        for spec in [RenderOptions.spec, NagiCommandLine.rootSpec, PlayCommand.spec] {
            let page = UsageText.help(for: spec, commandPath: "nagi \(spec.name)", width: width)
            for line in page.split(separator: "\n") where line.count > width {
                // Only what cannot be cut may run over: one word, or one usage item ("[--cycles N | --minutes M]").
                let text = line.trimmingCharacters(in: .whitespaces)
                let usageItem = text.hasPrefix("[") && text.hasSuffix("]") && !text.dropFirst().contains("[")
                #expect(text.split(separator: " ").count == 1 || usageItem, "\(spec.name) at \(width): \(line)")
            }
            #expect(Self.words(page) == Self.words(UsageText.help(for: spec, commandPath: "nagi \(spec.name)")), "\(spec.name) at \(width)")
        }
    }

    @Test("at 60 columns the help sits beside the options; at 40 it goes under each, indented")
    func narrowPageStacksTheHelp() throws {
        let wide = UsageText.help(for: RenderOptions.spec, commandPath: "nagi render", width: 60).split(separator: "\n")
        #expect(wide.contains { $0.hasPrefix("  --cycles N") && $0.count > "  --cycles N".count + 4 })
        let narrow = UsageText.help(for: RenderOptions.spec, commandPath: "nagi render", width: 40).split(separator: "\n")
        let index = try #require(narrow.firstIndex { $0.hasPrefix("  --cycles N") })
        #expect(narrow[index].trimmingCharacters(in: .whitespaces) == "--cycles N")
        #expect(narrow[index + 1].hasPrefix(String(repeating: " ", count: UsageText.stackedHelpIndent)) && narrow[index + 1].dropFirst(UsageText.stackedHelpIndent).first != " ")
    }

    @Test("not a terminal (a pipe, a run in process): 80 columns")
    func notATerminalIs80() {
        let run = NagiInProcess.run(["render", "--help"])
        #expect(run.status == 0)
        #expect(run.standardOutput == UsageText.help(for: RenderOptions.spec, commandPath: "nagi render") + "\n")
        #expect(run.standardOutput.split(separator: "\n").contains { $0.count > 70 })
    }

    @Test("in a 60-column terminal (tmux) no line of render --help wraps: the terminal's width is read")
    func terminalOf60Columns() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing; .ci/run installs it")
        let folder = try NagiProcess.temporaryFolder()
        let session = "nagi-help-\(getpid())"
        let script = "'\(NagiProcess.executableURL.path)' render --help; echo \"exit=$?\" > '\(folder.path)/status.txt'; sleep 30"
        _ = try TerminalViewTests.tmux(["new-session", "-d", "-s", session, "-x", "60", "-y", "20", script])
        defer { _ = try? TerminalViewTests.tmux(["kill-session", "-t", session]) }
        let status = PlayViewWidthTests.waitForFile(folder.path + "/status.txt", seconds: 20)
        #expect(status.contains("exit=0"), "\(status)")
        // -J joins the rows tmux wrapped: a line over 60 columns would come back whole, longer than 60.
        let screen = try TerminalViewTests.tmux(["capture-pane", "-t", session, "-p", "-J", "-S", "-"])
        let lines = screen.split(separator: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
        #expect(lines.contains { $0.hasPrefix("OVERVIEW:") }, "\(screen.prefix(300))")
        for line in lines where line.count > 60 && line.trimmingCharacters(in: .whitespaces).contains(" ") {
            Issue.record("a line of \(line.count) columns: \(line)")
        }
        #expect(lines.contains { $0.count > 50 }, "the page is narrower than the terminal needs")
    }
}
