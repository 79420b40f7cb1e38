import Foundation
import NagiTestSupport
import Testing

/// Issue 21 item 17: no two pieces of a plot's text are drawn over each other (captions, cue words, tick labels).
@Suite("Plot layout: no text over text")
struct PlotLayoutTests {
    /// A text element's box, estimated as a renderer draws it: its font's size up and a fifth of it down, and a width
    /// of 0.55 em a character (sans-serif at these sizes averages about 0.5 to 0.55).
    struct TextBox: CustomStringConvertible {
        var text: String
        var left, top, right, bottom: Double

        func overlaps(_ other: TextBox) -> Bool {
            left < other.right && other.left < right && top < other.bottom && other.top < bottom
        }

        var description: String { "'\(text)' [\(Int(left)) \(Int(top)) \(Int(right)) \(Int(bottom))]" }
    }

    /// The boxes of every unrotated `<text>` in `svg` (the vertical axis names are rotated and stand apart).
    static func textBoxes(_ svg: String) throws -> [TextBox] {
        let element = try Regex(#"<text([^>]*)>([^<]*)</text>"#)
        var boxes: [TextBox] = []
        for match in svg.matches(of: element) {
            let attributes = String(match.output[1].substring ?? "")
            let text = String(match.output[2].substring ?? "").replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<")
            guard !attributes.contains("rotate") else { continue }
            func number(_ name: String) -> Double? {
                guard let range = attributes.range(of: " \(name)=\"") ?? attributes.range(of: "\(name)=\"") else { return nil }
                return Double(attributes[range.upperBound...].prefix { $0 != "\"" })
            }
            guard let x = number("x"), let y = number("y") else { continue }
            let fontSize = attributes.contains("cue-words") ? 10.0 : (attributes.contains("class=\"title\"") ? 18 : 12)
            let width = Double(text.count) * fontSize * 0.55
            let left = attributes.contains("middle") ? x - width / 2 : (attributes.contains("\"end\"") ? x - width : x)
            boxes.append(TextBox(text: text, left: left, top: y - fontSize * 0.8, right: left + width, bottom: y + fontSize * 0.2))
        }
        return boxes
    }

    @Test("captions, cue words and tick labels never overlap", arguments: [
        ["4-7-8"], ["wim-hof", "--beat", "10:6", "--bed", "bed.wav"], ["box", "--beat", "10"], ["coherent", "--bed", "bed.wav"], ["resonance-steps"],
    ])
    func noTextOverText(arguments: [String]) throws {
        let folder = try NagiProcess.temporaryFolder()
        let sox = try Tool.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", folder.appendingPathComponent("bed.wav").path, "synth", "5", "pinknoise", "vol", "0.3"])
        try #require(sox.status == 0, "\(sox.output)")
        let bed = folder.appendingPathComponent("bed.wav").path
        let result = NagiInProcess.run(["plot"] + arguments.map { $0 == "bed.wav" ? bed : $0 } + ["-o", folder.appendingPathComponent("plot.svg").path, "--quiet"], home: folder)
        try #require(result.status == 0, "\(result.standardError)")
        let svg = try String(contentsOf: folder.appendingPathComponent("plot.svg"), encoding: .utf8)
        let boxes = try Self.textBoxes(svg)
        #expect(boxes.count > 30, "the plot's texts were found")
        var overlapping: [String] = []
        for (index, box) in boxes.enumerated() {
            for other in boxes[(index + 1)...] where box.overlaps(other) {
                overlapping.append("\(box) and \(other)")
            }
        }
        #expect(overlapping.isEmpty, "\(overlapping.prefix(8))")
    }
}
