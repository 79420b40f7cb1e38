/// Help pages and one-line error messages, rendered from specs and `ArgumentError` values.
public enum UsageText {
    /// Columns a help page is wrapped to when no terminal says otherwise (a pipe, a file, the man page).
    public static let lineWidth = 80
    /// The narrowest page laid out: below it lines may run over (a word is never cut).
    package static let narrowestWidth = 20
    /// Column where option and argument help starts, unless every label is shorter.
    package static let maximumHelpColumn = 28
    /// The fewest columns of help beside the labels; a narrower page puts each help under its label, indented by
    /// `stackedHelpIndent` (the two columns no longer fit).
    package static let narrowestHelpColumnWidth = 30
    /// The help's indentation under its label on a page too narrow for two columns.
    package static let stackedHelpIndent = 6

    /// The help page of `spec`, e.g. for `commandPath` `"nagi render"`, wrapped to `width` columns (the
    /// terminal's; at least `narrowestWidth`); no trailing newline.
    ///
    /// Sections: overview, usage (wrapped at whole items), arguments, options (with allowed values,
    /// and the built-in `-h, --help`), commands, then the discussion.
    public static func help(for spec: CommandSpec, commandPath: String, width requestedWidth: Int = UsageText.lineWidth) -> String {
        let lineWidth = max(narrowestWidth, requestedWidth)
        var sections: [[String]] = []
        sections.append(wrap("OVERVIEW: " + spec.summary, width: lineWidth, hangingIndent: 2))
        sections.append(usageLines(for: spec, commandPath: commandPath, width: lineWidth))

        let argumentRows = spec.subcommands.isEmpty ? spec.positionals.map { ($0.name, $0.help) } : []
        var optionRows = spec.options.map { option -> (String, String) in
            var label = option.names.joined(separator: ", ")
            if let valueName = option.valueName { label += " " + valueName }
            var help = option.help
            if let allowed = option.allowedValues {
                help += (help.isEmpty ? "" : " ") + "(values: " + allowed.joined(separator: ", ") + ")"
            }
            return (label, help)
        }
        optionRows.append((ArgumentParser.helpNames.joined(separator: ", "), "Show this help."))
        let commandRows = spec.subcommands.map { ($0.name, $0.summary) }

        // One help column for all sections, so they line up.
        let longestLabel = (argumentRows + optionRows + commandRows).map(\.0.count).max() ?? 0
        let sideColumn = min(labelIndent + longestLabel + 2, maximumHelpColumn)
        // Too narrow for the help beside the labels: under them, where it has nearly the whole width.
        let helpColumn = lineWidth - sideColumn >= narrowestHelpColumnWidth ? sideColumn : nil
        if !argumentRows.isEmpty {
            sections.append(["ARGUMENTS:"] + table(argumentRows, helpColumn: helpColumn, width: lineWidth))
        }
        sections.append(["OPTIONS:"] + table(optionRows, helpColumn: helpColumn, width: lineWidth))
        if !commandRows.isEmpty {
            sections.append(["COMMANDS:"] + table(commandRows, helpColumn: helpColumn, width: lineWidth))
        }

        if let discussion = spec.discussion, !discussion.isEmpty {
            // Each authored line is wrapped on its own, keeping its leading indentation.
            let lines = discussion.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
                let indent = line.prefix { $0 == " " }.count
                return line.allSatisfy({ $0 == " " })
                    ? [""]
                    : wrap(String(line), width: lineWidth, hangingIndent: indent)
            }
            sections.append(lines)
        }
        return sections.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
    }

    /// The one-line message for `error`: what was wrong, quoted as typed, and what would be right.
    public static func message(for error: ArgumentError) -> String {
        switch error {
        case .unknownOption(let name, let suggestion):
            if let suggestion { return "unknown option '\(name)' (did you mean '\(suggestion)'?)" }
            return "unknown option '\(name)' (see --help for the options)"
        case .missingValue(let option):
            return "option '\(option)' needs a value: '\(option) VALUE' or '\(option)=VALUE'"
        case .repeatedOption(let name):
            return "option '\(name)' was given more than once; give it once"
        case .conflictingOptions(let first, let second):
            return "options '\(first)' and '\(second)' cannot be used together; give only one"
        case .unexpectedArgument(let word):
            return "unexpected argument '\(word)': no more arguments are expected here (see --help)"
        case .missingArgument(let name):
            return "missing argument \(name) (see --help)"
        case .invalidValue(let option, let value, let expected):
            return "invalid value '\(value)' for '\(option)': expected \(expected)"
        case .unknownCommand(let word, let suggestion):
            if let suggestion { return "unknown command '\(word)' (did you mean '\(suggestion)'?)" }
            return "unknown command '\(word)' (see --help for the commands)"
        }
    }

    /// `USAGE: nagi render [PATTERN] [-o FILE] [--cycles N | --minutes M] …`, wrapped at whole items to `width`.
    package static func usageLines(for spec: CommandSpec, commandPath: String, width lineWidth: Int = UsageText.lineWidth) -> [String] {
        var items: [String] = []
        if spec.subcommands.isEmpty {
            items += spec.positionals.map { $0.isOptional ? "[\($0.name)]" : $0.name }
        } else {
            items.append("<command>")
        }
        var listedGroups: Set<Int> = []
        for option in spec.options {
            let groupIndex = spec.exclusiveGroups.firstIndex { group in
                group.contains { option.names.contains($0) }
            }
            guard let groupIndex else {
                items.append("[" + synopsis(of: option) + "]")
                continue
            }
            // A group is shown once, where its first member is declared.
            guard listedGroups.insert(groupIndex).inserted else { continue }
            let members = spec.options.filter { member in
                spec.exclusiveGroups[groupIndex].contains { member.names.contains($0) }
            }
            items.append("[" + members.map(synopsis(of:)).joined(separator: " | ") + "]")
        }

        let prefix = "USAGE: " + commandPath
        // Items under the command's name while that leaves room for them; else under a short indent.
        let indent = prefix.count + 1 <= maximumHelpColumn && lineWidth - (prefix.count + 1) >= narrowestHelpColumnWidth ? prefix.count + 1 : 4
        var lines: [String] = []
        var line = prefix
        for item in items {
            if line.count + 1 + item.count > lineWidth, line.count > indent {
                lines.append(line)
                line = String(repeating: " ", count: indent) + item
            } else {
                line += " " + item
            }
        }
        lines.append(line)
        return lines
    }

    private static func synopsis(of option: OptionSpec) -> String {
        let name = option.names.first ?? ""
        return option.valueName.map { name + " " + $0 } ?? name
    }

    /// Indentation of argument, option and command labels.
    package static let labelIndent = 2

    /// Two columns `width` wide: labels at `labelIndent`, help starting at `helpColumn` and wrapped under
    /// itself. A label too long for the column puts its help on the next line; so does every label when
    /// `helpColumn` is nil (a page too narrow for two columns), the help then at `stackedHelpIndent`.
    package static func table(_ rows: [(label: String, help: String)], helpColumn: Int?, width lineWidth: Int = UsageText.lineWidth) -> [String] {
        let helpStart = helpColumn ?? stackedHelpIndent
        let helpPadding = String(repeating: " ", count: helpStart)
        var lines: [String] = []
        for row in rows {
            let label = String(repeating: " ", count: labelIndent) + row.label
            var helpLines = wrap(row.help, width: lineWidth - helpStart, hangingIndent: 0)
            if let helpColumn, label.count + 2 <= helpColumn {
                let first = helpLines.isEmpty ? "" : helpLines.removeFirst()
                let padded = label + String(repeating: " ", count: helpColumn - label.count) + first
                lines.append(first.isEmpty ? label : padded)
            } else {
                lines.append(label)
            }
            lines += helpLines.map { helpPadding + $0 }
        }
        return lines
    }

    /// Greedy word wrap to `width` columns; lines after the first start with `hangingIndent`
    /// spaces. A word longer than a line stands alone rather than being cut. Leading spaces of
    /// `text` are kept on the first line.
    package static func wrap(_ text: String, width: Int, hangingIndent: Int) -> [String] {
        let leading = String(text.prefix { $0 == " " })
        let words = text.split(separator: " ")
        guard !words.isEmpty else { return [] }
        let continuation = String(repeating: " ", count: hangingIndent)
        var lines: [String] = []
        var line = leading + words[0]
        for word in words.dropFirst() {
            if line.count + 1 + word.count > width {
                lines.append(line)
                line = continuation + word
            } else {
                line += " " + word
            }
        }
        lines.append(line)
        return lines
    }
}
