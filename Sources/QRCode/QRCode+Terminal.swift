extension QRCode {
    /// The code as lines of terminal text, two module rows to a line (Unicode half blocks), quiet zone included.
    ///
    /// A light module is drawn as the glyph (bright white) and a dark one as the cell's background (black), both
    /// set by escape sequences, so the code reads the same on a light and a dark terminal theme; every line ends
    /// by resetting the colours.
    public var terminalText: String {
        let first = -Self.quietZoneWidth
        let end = width + Self.quietZoneWidth
        var text = ""
        for row in stride(from: first, to: end, by: 2) {
            text += "\u{1B}[40;97m"
            for column in first..<end {
                let topLight = !isDark(column: column, row: row)
                // The last row pair of an odd total height has no lower row: it is quiet zone, light.
                let bottomLight = row + 1 >= end || !isDark(column: column, row: row + 1)
                let glyph: String = switch (topLight, bottomLight) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
                text += glyph
            }
            text += "\u{1B}[0m\n"
        }
        return text
    }
}
