/// Text from files and the command line made safe to show on a terminal.
///
/// A title in a JSON file may hold an ESC sequence or a newline; printed raw it would move the
/// cursor, recolour the screen or forge a line. Every piece of outside text a command prints goes
/// through here, as error lines go through `ErrorLine`.
package enum TerminalText {
    /// `text` with C0/C1 control characters and bidi overrides shown as `\n`, `\t` or `\u{…}`.
    package static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var visible = ""
        visible.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": visible += "\\n"
            case "\r": visible += "\\r"
            case "\t": visible += "\\t"
            default:
                if needsEscape(scalar) {
                    visible += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    visible.unicodeScalars.append(scalar)
                }
            }
        }
        return visible
    }

    /// C0, DEL and C1 controls would move the cursor or start an escape sequence; bidi controls
    /// would reorder what the reader sees.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F
    }
}
