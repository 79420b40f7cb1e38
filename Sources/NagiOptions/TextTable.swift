/// Plain aligned text tables for the terminal; the first row is the header. Cells may hold text
/// from files (titles), so control characters are shown escaped, never sent to the terminal.
package enum TextTable {
    package static func render(_ rawRows: [[String]], rightAligned: Set<Int> = []) -> String {
        let rows = rawRows.map { $0.map(TerminalText.printable) }
        guard let header = rows.first else { return "" }
        var widths = Array(repeating: 0, count: header.count)
        for row in rows {
            for (column, cell) in row.enumerated() where column < widths.count {
                widths[column] = max(widths[column], cell.count)
            }
        }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }
            text += cells.joined(separator: "  ").replacing(/\s+$/, with: "") + "\n"
        }
        return text
    }
}
