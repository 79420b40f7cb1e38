import Foundation
import NagiTestSupport
import Testing

/// The measured figures in the tables of the README and the docs agree with what `scripts/readme-figures.sh` printed
/// (`docs/figures.txt`) and with the tables they are taken from, and that file still describes this build's sound
/// (the script's short check run again here). Issue 21's section "README figures that differ from what a user
/// measures"; issue 46: figures are read from tables, never from sentences. The README example that pipes into
/// sox works.
@Suite("README figures come from the script that measures them")
struct ReadmeFiguresTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `docs/figures.txt` as KEY → the numbers on its line ("soundscape horizon" → [-19.8, -6.7]).
    static func figures() throws -> [String: [Double]] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/figures.txt"), encoding: .utf8)
        var figures: [String: [Double]] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            figures[String(line[..<colon])] = MarkdownTable.numbers(in: line[line.index(after: colon)...])
        }
        return figures
    }

    /// The table of the page at `path` (from the package's root) whose header begins with `header`.
    static func table(_ path: String, _ header: String) throws -> MarkdownTable {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        return try #require(MarkdownTable(in: text, header: header), "\(path) has no table headed '\(header)'")
    }

    /// The numbers in the cells `columns` of the row `row`, in order.
    static func numbers(_ table: MarkdownTable, row: String, columns: [Int]) throws -> [Double] {
        let cells = try #require(table.row(row), "no row '\(row)'")
        return columns.flatMap { column in column < cells.count ? MarkdownTable.numbers(in: cells[column]) : [] }
    }

    /// One figure stated in a table: the page, its table, the row, which cells, and the docs/figures.txt line it
    /// must agree with (all of that line's numbers, or those at `indexes`).
    struct Stated: CustomTestStringConvertible, Sendable {
        var page: String
        var header: String
        var row: String
        var columns: [Int]
        var key: String
        var indexes: [Int]
        var testDescription: String { "\(page): \(row) ↔ \(key)" }
    }

    static let stated: [Stated] = {
        var stated: [Stated] = []
        let loudness = "docs/loudness-and-beds.md"
        for (name, row) in [("horizon", "`horizon` (default)"), ("night", "`night`"), ("dusk", "`dusk`"), ("rain", "`rain`")] {
            stated.append(Stated(page: loudness, header: "| soundscape | character |", row: row, columns: [2, 3], key: "soundscape \(name)", indexes: [0, 1]))
            stated.append(Stated(page: loudness, header: "| soundscape | calibrated |", row: "`\(name)`", columns: [1], key: "soundscape \(name)", indexes: [0, 1]))
        }
        stated.append(Stated(page: loudness, header: "| render | integrated loudness |", row: "horizon, `--cues both --count voice`", columns: [1, 2], key: "cues both count voice", indexes: [0, 1]))
        stated.append(Stated(page: loudness, header: "| render | integrated loudness |", row: "mono, `--loudness -16`", columns: [1, 2], key: "mono --loudness -16", indexes: [0, 1]))
        stated.append(Stated(page: loudness, header: "| render | integrated loudness |", row: "the bed alone, pink noise under box at the default `--bed-level`", columns: [1], key: "bed alone under box", indexes: [0]))
        let courses = "docs/courses.md"
        stated.append(Stated(page: courses, header: "| course | breathing |", row: "`beginner-21`", columns: [1], key: "course beginner-21", indexes: [0]))
        stated.append(Stated(page: courses, header: "| course | breathing |", row: "`beginner-21`", columns: [2], key: "beginner-21 flac", indexes: [0]))
        stated.append(Stated(page: courses, header: "| course | breathing |", row: "`beginner-21`", columns: [3], key: "beginner-21 wav", indexes: [0]))
        stated.append(Stated(page: courses, header: "| course | breathing |", row: "`sleep-7`", columns: [1], key: "course sleep-7", indexes: [0]))
        return stated
    }()

    @Test("every table figure the script prints is within 0.1 (0.5 MiB) of docs/figures.txt", arguments: stated)
    func tableAgreesWithFigures(_ figure: Stated) throws {
        let numbers = try Self.numbers(try Self.table(figure.page, figure.header), row: figure.row, columns: figure.columns)
        let measured = try #require(try Self.figures()[figure.key], "docs/figures.txt has no '\(figure.key)'; run scripts/readme-figures.sh --long > docs/figures.txt")
        let expected = figure.indexes.map { measured[$0] }
        let precision = figure.key.hasPrefix("beginner-21") ? 0.5 : 0.1
        #expect(numbers.count == expected.count && zip(numbers, expected).allSatisfy { abs($0 - $1) <= precision + 1e-9 },
                "\(figure.page) '\(figure.row)' says \(numbers), docs/figures.txt '\(figure.key)' \(expected)")
    }

    /// The README's guarantees table, row by row.
    static func guarantee(_ row: String) throws -> [Double] {
        try numbers(try table("README.md", "| guarantee | figure |"), row: row, columns: [1])
    }

    @Test("the README's guarantees agree with the figures and tables they come from")
    func guaranteesAgreeWithTheirSources() throws {
        let figures = try Self.figures()
        // Loudness: the soundscapes' range, as measured.
        let soundscapes = try ["horizon", "night", "dusk", "rain"].map { try #require(figures["soundscape \($0)"]?.first) }
        let loudness = try Self.guarantee("loudness")
        #expect(loudness.prefix(2).elementsEqual([soundscapes.min() ?? 0, soundscapes.max() ?? 0], by: { abs($0 - $1) <= 0.05 }),
                "README says \(loudness), docs/figures.txt \(soundscapes)")
        #expect(loudness.dropFirst(2).first == 0.5, "\(loudness)")
        // True peak: the ceiling stated is above every true peak measured, in figures.txt and in the loudness table.
        let ceiling = try #require(try Self.guarantee("true peak").first)
        #expect(ceiling == -1.0)
        let measuredPeaks = figures.values.filter { $0.count == 2 }.map { $0[1] }
        let targetTable = try Self.table("docs/loudness-and-beds.md", "| soundscape | calibrated |")
        let tablePeaks = targetTable.rows.flatMap { $0.dropFirst() }.compactMap { cell in
            MarkdownTable.numbers(in: cell.prefix { $0 != "(" }).dropFirst().first
        }
        #expect(measuredPeaks.count >= 7 && tablePeaks.count == 16, "\(measuredPeaks) \(tablePeaks)")
        for peak in measuredPeaks + tablePeaks {
            #expect(peak <= ceiling, "a true peak of \(peak) dBTP is over the README's \(ceiling)")
        }
        // Speed: the range of the five runs in docs/performance.md's table.
        let runs = try Self.table("docs/performance.md", "| case | goal | 18:57")
        let renderRow = try #require(runs.row("`render 4-7-8 --minutes 10` / sox"))
        let ratios = renderRow.dropFirst(2).compactMap { MarkdownTable.numbers(in: $0).first }
        #expect(ratios.count == 5)
        let speed = try Self.guarantee("speed")
        #expect(speed.prefix(2).elementsEqual([ratios.min() ?? 0, ratios.max() ?? 0]), "README says \(speed), docs/performance.md \(ratios)")
        // Memory: the 3-hour FLAC in docs/performance.md's memory table.
        let memory = try Self.numbers(try Self.table("docs/performance.md", "| run | peak resident memory |"), row: "a 3-hour FLAC", columns: [1])
        let stated = try Self.guarantee("memory")
        #expect(memory.count == 1 && stated.first == memory.first, "README says \(stated), docs/performance.md \(memory)")
        // Exact frames: the 12-hour run's phase count, from docs/reliability.md's long-session table.
        let longRun = try #require(try String(contentsOf: Self.root.appendingPathComponent("docs/reliability.md"), encoding: .utf8)
            .components(separatedBy: "\n").first { $0.contains("| check | 12 hours (") })
        let phaseCount = MarkdownTable.numbers(in: longRun).dropFirst().first
        let exact = try Self.guarantee("exact frames")
        #expect(phaseCount.map { exact.last == $0 } == true, "README says \(exact), docs/reliability.md \(longRun)")
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
            let measured = MarkdownTable.numbers(in: line.drop { $0 != ":" }.dropFirst())
            #expect(measured.count == 2 && zip(measured, expected).allSatisfy { abs($0 - $1) <= 0.1 + 1e-9 },
                    "'\(key)': the script now measures \(measured), docs/figures.txt says \(expected): the sound changed; rerun scripts/readme-figures.sh --long > docs/figures.txt and update the README")
        }
    }

    @Test("the README's sox example works with Debian's sox: a FLAC of the whole render, no failure")
    func soxPipeExampleWorks() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let examples = try #require(readme.components(separatedBy: "\n## Examples\n").dropFirst().first?.components(separatedBy: "```").dropFirst().first)
        #expect(examples.contains("\nnagi render box -o - | sox -t wav - box.flac "), "the README's example changed")
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
