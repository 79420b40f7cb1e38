import Foundation
import NagiTestSupport
import Testing

/// The README as a manual (issue 46): at most 300 lines, its first code block the two commands a fresh Debian
/// machine needs (what nagi needs to build and run, then the tests), both agreeing with the scripts CI runs, and
/// every page the README and the docs link to present.
@Suite("README: a manual whose first commands and links hold")
struct ReadmeManualTests {
    /// The package's root folder, three levels above this file (Tests/NagiCLITests/...).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    /// The README's first fenced code block, as its non-empty lines.
    static func firstCommands() throws -> [String] {
        let readme = try text("README.md")
        let block = try #require(readme.components(separatedBy: "```").dropFirst().first, "README has no code block")
        return block.split(separator: "\n").dropFirst().map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The packages `scripts/install-packages.sh` installs: `packages=(…)` alone, or with `--tests` what
    /// `packages+=(…)` adds (over several lines).
    static func scriptPackages(tests: Bool) throws -> Set<String> {
        let script = try text("scripts/install-packages.sh")
        func list(after opening: String) throws -> [String] {
            let start = try #require(script.range(of: "\n" + opening) ?? script.range(of: opening), "no '\(opening)' in install-packages.sh")
            let body = try #require(script[start.upperBound...].split(separator: ")", maxSplits: 1).first)
            return body.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        }
        let base = try list(after: "packages=(")
        return Set(tests ? try list(after: "packages+=(") : base)
    }

    @Test("README.md is at most 300 lines")
    func readmeIsShort() throws {
        let lineCount = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lineCount <= 301, "README.md has \(lineCount) lines")
    }

    @Test("the first code block is two commands: nagi's own packages and a render, then scripts/test")
    func firstCommandsAreTheTwo() throws {
        let commands = try Self.firstCommands()
        try #require(commands.count == 2, "\(commands)")
        let parts = commands[0].components(separatedBy: " && ")
        try #require(parts.count == 3, "want 'apt-get update && apt-get install -y … && swift run -c release nagi …': \(commands[0])")
        #expect(parts[0] == "apt-get update")
        let install = parts[1].split(separator: " ").map(String.init)
        #expect(Array(install.prefix(3)) == ["apt-get", "install", "-y"], "\(parts[1])")
        let packages = Set(install.dropFirst(3))
        let needed = try Self.scriptPackages(tests: false)
        #expect(packages == needed, "the README installs \(packages.sorted()), scripts/install-packages.sh \(needed.sorted())")
        let testOnly = try Self.scriptPackages(tests: true)
        #expect(!testOnly.isEmpty && packages.isDisjoint(with: testOnly), "test-only packages in the first command: \(packages.intersection(testOnly).sorted())")
        #expect(parts[2].hasPrefix("swift run -c release nagi render "), "\(parts[2])")
        #expect(commands[1] == "scripts/test")
        // The second command is what CI runs, and it installs what only the tests need.
        #expect(try Self.text(".ci/run").split(separator: "\n").contains("scripts/test"))
        #expect(try Self.text("scripts/test").contains("scripts/install-packages.sh --tests"))
    }

    @Test("the first command's render writes the file it names")
    func firstCommandRenders() throws {
        let commands = try Self.firstCommands()
        let render = try #require(commands.first?.components(separatedBy: " && ").last)
        let arguments = render.split(separator: " ").dropFirst(5).map(String.init)  // after "swift run -c release nagi"
        let output = try #require(arguments.firstIndex(of: "-o").map { arguments[$0 + 1] }, "\(arguments)")
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try NagiProcess.run(arguments + ["--quiet"], in: folder, timeout: 300)
        #expect(run.status == 0, "\(run.standardError)")
        let frames = try Tool.run("/usr/bin/soxi", ["-s", folder.appendingPathComponent(output).path])
        // 4-7-8 at its preset length: 5 minutes of whole breaths, 48 kHz, plus the closing tail.
        let frameCount = Int(frames.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(frameCount > 4 * 60 * 48_000 && frameCount < 6 * 60 * 48_000, "\(frames.output)")
    }

    @Test("the README shows the pacer at an inhale's top and an exhale's bottom, light and dark, and the studio at 390 px")
    func screenshotsShown() throws {
        let readme = try Self.text("README.md")
        for picture in ["pacer-inhale-light", "pacer-exhale-light", "pacer-inhale-dark", "pacer-exhale-dark", "studio-390"] {
            #expect(readme.contains("<img src=\"docs/\(picture).png\""), "README does not show docs/\(picture).png")
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("docs/\(picture).png").path))
        }
    }

    /// The headings of a Markdown page as GitHub makes their anchors: lower case, spaces as dashes, punctuation
    /// dropped.
    static func anchors(in page: String) -> Set<String> {
        var anchors: Set<String> = []
        var fenced = false
        for line in page.split(separator: "\n") {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            anchors.insert(String(title.compactMap { $0 == " " ? "-" : ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : nil }))
        }
        return anchors
    }

    @Test("every relative link in the README and docs/*.md names a file that exists, and a heading it has")
    func linksResolve() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var checked = 0
        for page in ["README.md"] + docs {
            let text = try Self.text(page)
            let folder = URL(fileURLWithPath: page).deletingLastPathComponent().relativePath
            var rest = Substring(text)
            // Markdown links and images, `](target)`, and HTML `src="target"`.
            while let open = [rest.range(of: "]("), rest.range(of: "src=\"")].compactMap({ $0 }).min(by: { $0.lowerBound < $1.lowerBound }) {
                let closing: Character = rest[open].hasSuffix("(") ? ")" : "\""
                let target = rest[open.upperBound...].prefix { $0 != closing }
                rest = rest[open.upperBound...]
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = parts[0].isEmpty ? page : (folder == "." ? "" : folder + "/") + parts[0]
                let url = Self.root.appendingPathComponent(path)
                #expect(FileManager.default.fileExists(atPath: url.path), "\(page) links to \(target), which is missing")
                if parts.count == 2, FileManager.default.fileExists(atPath: url.path), path.hasSuffix(".md") {
                    let anchors = Self.anchors(in: try String(contentsOf: url, encoding: .utf8))
                    #expect(anchors.contains(String(parts[1])), "\(page) links to \(target): no such heading in \(path)")
                }
                checked += 1
            }
        }
        #expect(checked >= 30, "only \(checked) links found")
    }
}
