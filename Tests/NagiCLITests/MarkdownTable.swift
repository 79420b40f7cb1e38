import Foundation

/// A table of a Markdown page, read as the documentation's tests read their figures: the rows of the first table
/// whose header line begins with a given text, each row's cells trimmed (`\|` inside a cell kept as `|`).
struct MarkdownTable {
    /// The rows under the header and its `| --- |` line, each a list of cells.
    let rows: [[String]]

    /// The table in `text` whose header begins with `header`; nil when there is none.
    init?(in text: String, header: String) {
        let lines = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return nil }
        rows = lines[(start + 1)...]
            .prefix { $0.hasPrefix("|") }
            .filter { !$0.hasPrefix("| ---") && !$0.hasPrefix("|---") }
            .map(Self.cells)
    }

    /// The cells of the row whose first cell is exactly `firstCell`.
    func row(_ firstCell: String) -> [String]? {
        rows.first { $0.first == firstCell }
    }

    /// A row's cells: split on `|` that is not escaped, without the empty ends.
    static func cells(_ line: String) -> [String] {
        let placeholder = "\u{0}"
        let parts = line.replacingOccurrences(of: "\\|", with: placeholder).split(separator: "|", omittingEmptySubsequences: false)
        return parts.dropFirst().dropLast().map { $0.replacingOccurrences(of: placeholder, with: "|").trimmingCharacters(in: .whitespaces) }
    }

    /// The decimal numbers in `text`, the typographic minus sign (U+2212) read as "-", clock times ("1:55:15") as
    /// seconds.
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

    static func numbers(in text: String) -> [Double] {
        numbers(in: Substring(text))
    }
}
