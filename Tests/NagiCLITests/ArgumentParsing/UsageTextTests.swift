import Testing
@testable import NagiCLI
@testable import NagiOptions

@Suite struct UsageTextTests {
    private let renderHelp = UsageText.help(for: NagiTestSpecs.render, commandPath: "nagi render")

    @Test func helpContainsEveryOptionWithItsHelpAndAllowedValues() {
        // Wrapping may break a help sentence anywhere: compare with whitespace runs collapsed.
        let flowing = renderHelp.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in NagiTestSpecs.render.options {
            var row = option.names.joined(separator: ", ")
            if let valueName = option.valueName { row += " " + valueName }
            row += " " + option.help
            if let allowed = option.allowedValues { row += " (values: " + allowed.joined(separator: ", ") + ")" }
            #expect(flowing.contains(row), "missing: \(row)")
        }
        #expect(flowing.contains("-h, --help Show this help."))
    }

    @Test func sectionsShareOneHelpColumn() {
        #expect(renderHelp.contains("\n  PATTERN                 A preset name"))
        #expect(renderHelp.contains("\n  --force                 Overwrite"))
        let rootHelp = UsageText.help(for: NagiTestSpecs.root, commandPath: "nagi")
        #expect(rootHelp.contains("\n  --version   Print the version."))
        #expect(rootHelp.contains("\n  describe    Print a pattern's phases and timing."))
    }

    @Test func helpHasOverviewArgumentsAndDiscussion() {
        #expect(renderHelp.hasPrefix("OVERVIEW: Render a breathing session to an audio file.\n\nUSAGE: nagi render [PATTERN] "))
        #expect(renderHelp.contains("ARGUMENTS:\n  PATTERN "))
        #expect(renderHelp.contains("A preset name or a pattern such as 4-7-8."))
        #expect(renderHelp.contains("Examples:\n  nagi render 4-7-8 --minutes 10 -o calm.flac\n"))
        #expect(!renderHelp.hasSuffix("\n"))
    }

    @Test func usageLineShowsGroupsOnceAndOptionalPositionals() {
        let usage = UsageText.usageLines(for: NagiTestSpecs.render, commandPath: "nagi render").joined(separator: "\n")
        #expect(usage.contains("[--cycles N | --minutes M]"))
        #expect(usage.components(separatedBy: "--minutes").count == 2)
        #expect(usage.contains("[-o FILE]"))
        #expect(usage.contains("[--force]"))
        let describeUsage = UsageText.usageLines(for: NagiTestSpecs.describe, commandPath: "nagi describe")
        #expect(describeUsage == ["USAGE: nagi describe PATTERN [--cycles N | --minutes M] [--rate HZ] [--json]"])
    }

    @Test func usageWrapsWithHangingIndentAtWholeItems() {
        let lines = UsageText.usageLines(for: NagiTestSpecs.render, commandPath: "nagi render")
        #expect(lines.count > 1)
        let indent = String(repeating: " ", count: "USAGE: nagi render ".count)
        for line in lines.dropFirst() {
            #expect(line.hasPrefix(indent + "["), "\(line)")
        }
        // No bracketed item is cut across lines.
        for line in lines {
            #expect(line.filter { $0 == "[" }.count == line.filter { $0 == "]" }.count, "\(line)")
        }
    }

    @Test func noLineIsWiderThanTheLineWidth() {
        let pages = [
            renderHelp,
            UsageText.help(for: NagiTestSpecs.root, commandPath: "nagi"),
            UsageText.help(for: NagiTestSpecs.course, commandPath: "nagi course"),
        ]
        for page in pages {
            for line in page.split(separator: "\n") {
                #expect(line.count <= UsageText.lineWidth, "\(line)")
            }
        }
    }

    @Test func optionHelpStartsInOneColumn() throws {
        let optionsSection = try #require(renderHelp.components(separatedBy: "OPTIONS:\n").last)
        let rows = optionsSection.split(separator: "\n")
            .prefix { $0.hasPrefix("  ") }
            .filter { $0.hasPrefix("  -") }
        #expect(rows.count == NagiTestSpecs.render.options.count + 1)
        let forceRow = try #require(rows.first { $0.hasPrefix("  --force ") })
        let column = try #require(forceRow.range(of: "Overwrite")).lowerBound
        let helpColumn = forceRow.distance(from: forceRow.startIndex, to: column)
        for row in rows {
            let characters = Array(row)
            if characters.count > helpColumn {
                #expect(characters[helpColumn - 1] == " ", "\(row)")
                #expect(characters[helpColumn] != " ", "\(row)")
            }
        }
    }

    @Test func longHelpWrapsUnderItsColumnAndLongLabelsGetTheirOwnLine() {
        let spec = CommandSpec(
            name: "t", summary: "s",
            options: [
                OptionSpec(names: ["--a-very-long-option-name-indeed"], valueName: "VALUE", help: "Short help."),
                OptionSpec(names: ["-q"], help: String(repeating: "word ", count: 40)),
            ]
        )
        let lines = UsageText.help(for: spec, commandPath: "t").split(separator: "\n").map(String.init)
        let longLabel = lines.firstIndex { $0 == "  --a-very-long-option-name-indeed VALUE" }
        #expect(longLabel != nil)
        if let longLabel {
            #expect(lines[longLabel + 1] == String(repeating: " ", count: UsageText.maximumHelpColumn) + "Short help.")
        }
        let wrapped = lines.filter { $0.hasSuffix("word") || $0.hasSuffix("word ") }
        #expect(wrapped.count >= 3)
        for line in wrapped.dropFirst() {
            #expect(line.hasPrefix(String(repeating: " ", count: UsageText.maximumHelpColumn) + "word"))
        }
    }

    @Test func rootHelpListsCommandsWithSummaries() {
        let help = UsageText.help(for: NagiTestSpecs.root, commandPath: "nagi")
        #expect(help.contains("USAGE: nagi <command> [--version]"))
        #expect(help.contains("COMMANDS:"))
        for command in NagiTestSpecs.root.subcommands {
            #expect(help.contains("  \(command.name) "), "\(command.name)")
            #expect(help.contains(command.summary))
        }
        #expect(!help.contains("ARGUMENTS:"))
    }

    @Test func wrapKeepsLongWordsWhole() {
        let long = String(repeating: "x", count: 30)
        #expect(UsageText.wrap("a \(long) b", width: 10, hangingIndent: 2) == ["a", "  " + long, "  b"])
        #expect(UsageText.wrap("   ", width: 10, hangingIndent: 0).isEmpty)
        #expect(UsageText.wrap("  indented text", width: 80, hangingIndent: 2) == ["  indented text"])
    }

    // MARK: Messages

    @Test func messagesQuoteTheTokenAndSayWhatWouldBeRight() {
        let cases: [(ArgumentError, String)] = [
            (.unknownOption("--cylces", suggestion: "--cycles"), "unknown option '--cylces' (did you mean '--cycles'?)"),
            (.unknownOption("--x", suggestion: nil), "unknown option '--x' (see --help for the options)"),
            (.missingValue(option: "-o"), "option '-o' needs a value: '-o VALUE' or '-o=VALUE'"),
            (.repeatedOption("--seed"), "option '--seed' was given more than once; give it once"),
            (.conflictingOptions("--cycles", "--minutes"),
             "options '--cycles' and '--minutes' cannot be used together; give only one"),
            (.unexpectedArgument("extra"), "unexpected argument 'extra': no more arguments are expected here (see --help)"),
            (.missingArgument("PATTERN"), "missing argument PATTERN (see --help)"),
            (.invalidValue(option: "--cycles", value: "ten", expected: "a whole number from 1 to 10000"),
             "invalid value 'ten' for '--cycles': expected a whole number from 1 to 10000"),
            (.unknownCommand("rendr", suggestion: "render"), "unknown command 'rendr' (did you mean 'render'?)"),
            (.unknownCommand("x", suggestion: nil), "unknown command 'x' (see --help for the commands)"),
        ]
        for (error, expected) in cases {
            let message = UsageText.message(for: error)
            #expect(message == expected)
            #expect(!message.contains("\n"))
        }
    }
}
