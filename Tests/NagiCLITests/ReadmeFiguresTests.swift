import Foundation
import NagiTestSupport
import Testing

/// The README's measured figures agree with what `scripts/readme-figures.sh` printed (`docs/figures.txt`), and
/// that file still describes this build's sound (the script's short check run again here). Issue 21's section
/// "README figures that differ from what a user measures"; the README example that pipes into sox works.
@Suite("README figures come from the script that measures them")
struct ReadmeFiguresTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `docs/figures.txt` as KEY → the numbers on its line ("soundscape horizon" → [-19.8, -6.7]).
    static func figures() throws -> [String: [Double]] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/figures.txt"), encoding: .utf8)
        var figures: [String: [Double]] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            figures[String(line[..<colon])] = numbers(in: line[line.index(after: colon)...])
        }
        return figures
    }

    /// The decimal numbers in `text`, the README's minus sign (U+2212) read as "-", clock times ("1:55:15") as seconds.
    static func numbers(in text: Substring) -> [Double] {
        let plain = text.replacingOccurrences(of: "\u{2212}", with: "-")
        var values: [Double] = []
        for token in plain.split(whereSeparator: { !($0.isNumber || $0 == "-" || $0 == "." || $0 == ":") }) {
            let parts = token.split(separator: ":")
            if parts.count > 1, let clock = parts.reduce(Optional(0.0), { total, part in total.flatMap { t in Double(part).map { t * 60 + $0 } } }) {
                values.append(clock)
            } else if let value = Double(token.trimmingCharacters(in: CharacterSet(charactersIn: ".:"))) {
                values.append(value)
            }
        }
        return values
    }

    /// The first `count` numbers within 120 characters after `marker` in `text` (a README whose lines are joined).
    static func readmeNumbers(after marker: String, count: Int, in text: String) throws -> [Double] {
        let range = try #require(text.range(of: marker), "README has no '\(marker)'")
        return Array(numbers(in: text[range.upperBound...].prefix(120)).prefix(count))
    }

    @Test("every README figure the script prints is within 0.1 (0.5 MiB) of docs/figures.txt")
    func readmeAgreesWithFigures() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8).replacingOccurrences(of: "\n", with: " ")
        // The loudness table's calibrated column: its rows, after its header.
        let loudnessTable = String(try #require(readme.range(of: "| soundscape | calibrated |")).map { readme[$0.upperBound...] } ?? "")
        let figures = try Self.figures()
        // (where the README states it, how many numbers, the figures key, which of its numbers).
        var checks: [(marker: String, count: Int, key: String, indexes: [Int], text: String)] = []
        for (name, label) in [("horizon", "`horizon` (default) |"), ("night", "`night` | darker"), ("dusk", "`dusk` | between"), ("rain", "`rain` | with a soft")] {
            checks.append((label, 2, "soundscape \(name)", [0, 1], readme))
        }
        for name in ["horizon", "night", "dusk", "rain"] {
            checks.append(("| `\(name)` | ", 2, "soundscape \(name)", [0, 1], loudnessTable))
        }
        let sentences: [(marker: String, count: Int, key: String, indexes: [Int])] = [
            ("mono at `--loudness -16` reaches", 1, "mono --loudness -16", [0]),
            ("`--cues both --count voice` on horizon measures", 1, "cues both count voice", [0]),
            ("the bed alone then measures", 1, "bed alone under box", [0]),
            ("half the size of WAV:", 1, "beginner-21 flac", [0]),
            ("MiB against", 1, "beginner-21 wav", [0]),
            ("beginner-21`: 21 tracks,", 1, "course beginner-21", [0]),
        ]
        checks += sentences.map { ($0.marker, $0.count, $0.key, $0.indexes, readme) }
        for check in checks {
            let stated = try Self.readmeNumbers(after: check.marker, count: check.count, in: check.text)
            let measured = try #require(figures[check.key], "docs/figures.txt has no '\(check.key)'; run scripts/readme-figures.sh --long > docs/figures.txt")
            let expected = check.indexes.map { measured[$0] }
            let precision = check.key.hasPrefix("beginner-21") ? 0.5 : 0.1
            #expect(stated.count == expected.count && zip(stated, expected).allSatisfy { abs($0 - $1) <= precision + 1e-9 },
                    "README '\(check.marker)' says \(stated), docs/figures.txt '\(check.key)' \(expected)")
        }
    }

    @Test("docs/figures.txt still describes this build: the script's short checks give its check lines")
    func figuresAreCurrent() throws {
        let figures = try Self.figures()
        // The binary under test, not a release build of its own.
        let run = try Tool.run("/usr/bin/env", ["NAGI=\(NagiProcess.executableURL.path)", "/bin/bash", Self.root.appendingPathComponent("scripts/readme-figures.sh").path, "--check"], timeoutSeconds: 300)
        #expect(run.status == 0, "\(run.output)")
        for key in ["check 4-7-8 2 cycles", "check 4-7-8 2 cycles over a bed"] {
            let expected = try #require(figures[key], "docs/figures.txt has no '\(key)'")
            let line = try #require(run.output.split(separator: "\n").first { $0.hasPrefix(key + ":") }, "\(run.output)")
            let measured = Self.numbers(in: line.drop { $0 != ":" }.dropFirst())
            #expect(measured.count == 2 && zip(measured, expected).allSatisfy { abs($0 - $1) <= 0.1 + 1e-9 },
                    "'\(key)': the script now measures \(measured), docs/figures.txt says \(expected): the sound changed; rerun scripts/readme-figures.sh --long > docs/figures.txt and update the README")
        }
    }

    @Test("the README's sox example works with Debian's sox: a FLAC of the whole render, no failure")
    func soxPipeExampleWorks() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try #require(readme.range(of: "`nagi render box -o - | sox -t wav - box.flac`"), "the README's example changed")
        _ = example
        let folder = try NagiProcess.temporaryFolder()
        let command = "'\(NagiProcess.executableURL.path)' render box --cycles 1 -o - --quiet | sox -t wav - box.flac"
        let run = try ChildProcess("/bin/sh", ["-c", command], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], workingDirectory: folder.path, standardErrorPath: folder.appendingPathComponent("err.txt").path)
        #expect(run.wait(seconds: 120) && run.exitStatus == 0)
        let errors = (try? String(contentsOf: folder.appendingPathComponent("err.txt"), encoding: .utf8)) ?? ""
        #expect(!errors.contains("FAIL"), "\(errors)")
        let duration = try Tool.run("/usr/bin/soxi", ["-s", folder.appendingPathComponent("box.flac").path])
        #expect(Int(duration.output.trimmingCharacters(in: .whitespacesAndNewlines)) == 926_400, "\(duration.output)")
    }
}
