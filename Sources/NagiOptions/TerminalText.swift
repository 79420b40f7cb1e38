import NagiBase

/// Text from files and the command line made safe to show on a terminal.
///
/// A title in a JSON file may hold an ESC sequence or a newline; printed raw it would move the
/// cursor, recolour the screen or forge a line. Every piece of outside text a command prints goes
/// through here, as error lines go through `ErrorLine`.
package enum TerminalText {
    /// `text` with the characters `DisplayText` refuses (controls, bidi and zero-width characters) shown as `\n`,
    /// `\t` or `\u{…}`.
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

    /// C0, DEL and C1 controls would move the cursor or start an escape sequence; bidi and zero-width
    /// characters would reorder or hide what the reader sees: `DisplayText`'s rule.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        DisplayText.isHidden(scalar)
    }
}
