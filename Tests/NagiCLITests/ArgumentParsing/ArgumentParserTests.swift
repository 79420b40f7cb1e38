import Testing
@testable import NagiCLI
@testable import NagiOptions

/// The error `line` produces, or `nil` if it parses.
private func parseError(_ line: String) -> ArgumentError? {
    do {
        _ = try NagiTestSpecs.parse(line)
        return nil
    } catch {
        return error
    }
}

private func parseError(_ arguments: [String], for spec: CommandSpec) -> ArgumentError? {
    do {
        _ = try ArgumentParser.parse(arguments, for: spec)
        return nil
    } catch {
        return error
    }
}

@Suite struct ArgumentParserTests {
    // MARK: Values and their forms

    @Test func describeWithOptionsAndFlag() throws {
        let parsed = try NagiTestSpecs.parse("describe box --cycles 10 --json")
        #expect(parsed.commandPath == ["describe"])
        #expect(parsed.command.name == "describe")
        #expect(parsed.positionals == ["box"])
        #expect(parsed.value("--cycles") == "10")
        #expect(parsed.isSet("--json"))
        #expect(!parsed.isSet("--minutes"))
        #expect(parsed.value("--minutes") == nil)
        #expect(parsed.value("--json") == nil)
        #expect(!parsed.isHelpRequested)
    }

    @Test func optionsMayComeBeforePositionals() throws {
        let parsed = try NagiTestSpecs.parse("describe --rate 8000 4-7-8")
        #expect(parsed.positionals == ["4-7-8"])
        #expect(parsed.value("--rate") == "8000")
    }

    @Test func equalsFormKeepsEverythingAfterTheFirstEquals() throws {
        let parsed = try ArgumentParser.parse(["--title=a=b c", "--rate=44100"], for: NagiTestSpecs.render)
        #expect(parsed.value("--title") == "a=b c")
        #expect(parsed.value("--rate") == "44100")
    }

    @Test("Tokens given already cut (a request's parameters): an option's value and a positional are read as given, whatever they hold")
    func tokensAreInterpretedAsGiven() throws {
        let tokens: [SplitArguments.Token] = [.option("--title", value: "--output"), .option("--seed", value: "-o"), .value("--help")]
        let parsed = try ArgumentParser.interpret(tokens, for: NagiTestSpecs.render)
        #expect(parsed.value("--title") == "--output")
        #expect(parsed.value("--seed") == "-o")
        #expect(parsed.positionals == ["--help"])
        #expect(!parsed.isHelpRequested)
        #expect(!parsed.isSet("--output"))
        // The errors are argv's own: a repeated option, a value outside its choices, a flag given a value.
        #expect(throws: ArgumentError.repeatedOption("--title")) {
            try ArgumentParser.interpret([.option("--title", value: "a"), .option("--title", value: "b")], for: NagiTestSpecs.render)
        }
        #expect(throws: ArgumentError.invalidValue(option: "--channels", value: "--help", expected: ParsedArguments.describeChoices(["1", "2"]))) {
            try ArgumentParser.interpret([.option("--channels", value: "--help")], for: NagiTestSpecs.render)
        }
        // argv cut by `parse` and the same tokens given to `interpret` read alike.
        let line = ["--title=x", "--seed", "-3", "box"]
        #expect(try ArgumentParser.parse(line, for: NagiTestSpecs.render) == ArgumentParser.interpret(SplitArguments(line).tokens, for: NagiTestSpecs.render))
    }

    @Test func emptyEqualsValueIsAnEmptyValue() throws {
        let parsed = try ArgumentParser.parse(["--title="], for: NagiTestSpecs.render)
        #expect(parsed.isSet("--title"))
        #expect(parsed.value("--title") == "")
    }

    @Test func shortAndLongSpellingsAreOneOption() throws {
        let short = try NagiTestSpecs.parse("render -o out.wav")
        let long = try NagiTestSpecs.parse("render --output out.wav")
        let attached = try NagiTestSpecs.parse("render -o=out.wav")
        for parsed in [short, long, attached] {
            #expect(parsed.value("-o") == "out.wav")
            #expect(parsed.value("--output") == "out.wav")
        }
        #expect(short.positionals.isEmpty)
    }

    @Test func loneDashIsAValue() throws {
        let parsed = try NagiTestSpecs.parse("render box -o -")
        #expect(parsed.value("-o") == "-")
    }

    // MARK: Values that start with a dash

    @Test func negativeNumberIsTakenAsValue() throws {
        let parsed = try NagiTestSpecs.parse("render --seed -3")
        #expect(parsed.value("--seed") == "-3")
        #expect(try parsed.int("--seed", in: Int.min...Int.max) == -3)
    }

    @Test func unknownDashWordIsTakenAsValue() throws {
        let parsed = try NagiTestSpecs.parse("render --title -calm- --force")
        #expect(parsed.value("--title") == "-calm-")
        #expect(parsed.isSet("--force"))
    }

    @Test func knownOptionAfterValueOptionMeansTheValueIsMissing() {
        #expect(parseError("render --title --force") == .missingValue(option: "--title"))
        #expect(parseError("render --title -o x.wav") == .missingValue(option: "--title"))
        #expect(parseError("render --title --force=x") == .missingValue(option: "--title"))
        #expect(parseError("render --title --help") == .missingValue(option: "--title"))
    }

    @Test func equalsFormCarriesAValueThatLooksLikeAnOption() throws {
        let parsed = try NagiTestSpecs.parse("render --title=--force")
        #expect(parsed.value("--title") == "--force")
        #expect(!parsed.isSet("--force"))
    }

    @Test func valueOptionAtTheEndIsMissingItsValue() {
        #expect(parseError("render box -o") == .missingValue(option: "-o"))
        #expect(parseError("describe box --cycles") == .missingValue(option: "--cycles"))
    }

    @Test func terminatorIsNotAValue() {
        #expect(parseError("render --title -- box") == .missingValue(option: "--title"))
    }

    // MARK: --

    @Test func terminatorMakesDashWordsPositional() throws {
        let parsed = try NagiTestSpecs.parse("render --force -- -odd-name")
        #expect(parsed.positionals == ["-odd-name"])
        #expect(parsed.isSet("--force"))
    }

    @Test func optionsAfterTerminatorAreNotOptions() {
        #expect(parseError("render box -- --force") == .unexpectedArgument("--force"))
        #expect(parseError("describe -- --help") == nil)
    }

    @Test func secondTerminatorIsAPositional() throws {
        let parsed = try NagiTestSpecs.parse("render -- --")
        #expect(parsed.positionals == ["--"])
    }

    // MARK: Errors

    @Test func flagGivenAValueIsInvalid() {
        #expect(parseError("render --force=yes")
            == .invalidValue(option: "--force", value: "yes", expected: "no value (it is a flag)"))
        #expect(parseError("render --help=yes")
            == .invalidValue(option: "--help", value: "yes", expected: "no value (it is a flag)"))
    }

    @Test func repeatedOptionsAreErrors() {
        #expect(parseError("render --seed 1 --seed 2") == .repeatedOption("--seed"))
        #expect(parseError("render -o a.wav --output b.wav") == .repeatedOption("--output"))
        #expect(parseError("render --force --force") == .repeatedOption("--force"))
        #expect(parseError("render --title= --title=x") == .repeatedOption("--title"))
    }

    @Test func exclusiveGroupMembersConflictInCommandLineOrder() {
        #expect(parseError("describe box --cycles 3 --minutes 2") == .conflictingOptions("--cycles", "--minutes"))
        #expect(parseError("render --minutes=2 --rate 8000 --cycles 3") == .conflictingOptions("--minutes", "--cycles"))
    }

    @Test func exclusiveGroupMayNameAnySpelling() {
        let spec = CommandSpec(
            name: "t", summary: "",
            options: [
                OptionSpec(names: ["-a", "--alpha"], help: ""),
                OptionSpec(names: ["-b", "--beta"], help: ""),
            ],
            exclusiveGroups: [["-a", "--beta"]]
        )
        #expect(parseError(["--alpha", "-b"], for: spec) == .conflictingOptions("--alpha", "-b"))
        #expect(parseError(["--alpha"], for: spec) == nil)
    }

    @Test func unknownOptionSuggestsNearestKnown() {
        #expect(parseError("describe box --cylces 3") == .unknownOption("--cylces", suggestion: "--cycles"))
        #expect(parseError("render --minute 3") == .unknownOption("--minute", suggestion: "--minutes"))
        #expect(parseError("render --fromat=wav") == .unknownOption("--fromat", suggestion: "--format"))
        #expect(parseError("render -cycles 3") == .unknownOption("-cycles", suggestion: "--cycles"))
        #expect(parseError("render --hepl") == .unknownOption("--hepl", suggestion: "--help"))
    }

    @Test func unknownOptionFarFromAllHasNoSuggestion() {
        #expect(parseError("render --loudness 3") == .unknownOption("--loudness", suggestion: nil))
        #expect(parseError("render -x") == .unknownOption("-x", suggestion: nil))
        #expect(parseError("describe -3") == .unknownOption("-3", suggestion: nil))
    }

    @Test func optionsBelongToTheCommandTheyFollow() {
        #expect(parseError("--cycles 3 describe box") == .unknownOption("--cycles", suggestion: nil))
        #expect(parseError("describe box --version") == .unknownOption("--version", suggestion: nil))
    }

    @Test func extraPositionalsAreUnexpected() {
        #expect(parseError("describe box extra") == .unexpectedArgument("extra"))
        #expect(parseError("presets all") == .unexpectedArgument("all"))
        #expect(parseError("course show calm21 again") == .unexpectedArgument("again"))
    }

    @Test func missingRequiredPositional() {
        #expect(parseError("describe") == .missingArgument("PATTERN"))
        #expect(parseError("describe --json") == .missingArgument("PATTERN"))
        #expect(parseError("plot -o x.svg") == .missingArgument("PATTERN"))
        #expect(parseError("course export -o tracks") == .missingArgument("NAME"))
    }

    @Test func optionalPositionalMayBeLeftOut() throws {
        let parsed = try NagiTestSpecs.parse("render -o out.wav")
        #expect(parsed.positionals.isEmpty)
    }

    @Test func valueOutsideAllowedValuesIsRejectedWhileParsing() {
        #expect(parseError("render --format aiff")
            == .invalidValue(option: "--format", value: "aiff", expected: "one of: wav, flac, ogg, opus, mp3"))
        #expect(parseError("render --channels=3") == .invalidValue(option: "--channels", value: "3", expected: "one of: 1, 2"))
        #expect(parseError("render --bits FLOAT")
            == .invalidValue(option: "--bits", value: "FLOAT", expected: "one of: 16, 24, float"))
    }

    @Test func firstErrorInCommandLineOrderWins() {
        #expect(parseError("render --cylces 3 --force --force") == .unknownOption("--cylces", suggestion: "--cycles"))
        #expect(parseError("render --force --force --cylces 3") == .repeatedOption("--force"))
    }

    @Test func everyArgumentErrorIsAUsageExit() {
        #expect(ArgumentError.missingArgument("X").exitCode == 64)
        #expect(ArgumentError.unknownCommand("x", suggestion: nil).exitCode == 64)
    }

    // MARK: Subcommands

    @Test func nestedSubcommandWithPositionalAndOptions() throws {
        let parsed = try NagiTestSpecs.parse("course export calm21 -o tracks --jobs 2")
        #expect(parsed.commandPath == ["course", "export"])
        #expect(parsed.command.name == "export")
        #expect(parsed.positionals == ["calm21"])
        #expect(parsed.value("--output") == "tracks")
        #expect(parsed.value("--jobs") == "2")
    }

    @Test func statusReset() throws {
        let parsed = try NagiTestSpecs.parse("course status calm21 --reset")
        #expect(parsed.commandPath == ["course", "status"])
        #expect(parsed.isSet("--reset"))
    }

    @Test func unknownCommandSuggestsNearest() {
        #expect(parseError("rendr box") == .unknownCommand("rendr", suggestion: "render"))
        #expect(parseError("plya") == .unknownCommand("plya", suggestion: "play"))
        #expect(parseError("course lst") == .unknownCommand("lst", suggestion: "list"))
        #expect(parseError("breathe") == .unknownCommand("breathe", suggestion: nil))
    }

    @Test func commandWithoutSubcommandNamedStopsThePath() throws {
        #expect(try NagiTestSpecs.parse("course").commandPath == ["course"])
        let root = try NagiTestSpecs.parse("")
        #expect(root.commandPath.isEmpty)
        #expect(root.command.name == "nagi")
    }

    @Test func rootVersionFlag() throws {
        let parsed = try NagiTestSpecs.parse("--version")
        #expect(parsed.isSet("--version"))
        #expect(parsed.commandPath.isEmpty)
    }

    @Test func rootOptionsStayReadableAfterSubcommand() throws {
        let parsed = try NagiTestSpecs.parse("--version presets")
        #expect(parsed.isSet("--version"))
        #expect(parsed.commandPath == ["presets"])
    }

    @Test func helpCommandTakesACommandName() throws {
        let parsed = try NagiTestSpecs.parse("help render")
        #expect(parsed.commandPath == ["help"])
        #expect(parsed.positionals == ["render"])
    }

    // MARK: Built-in help

    @Test func helpStopsParsingAndSkipsMissingPositionals() throws {
        let parsed = try NagiTestSpecs.parse("describe --help")
        #expect(parsed.isHelpRequested)
        #expect(parsed.command.name == "describe")
        #expect(parsed.commandPath == ["describe"])
    }

    @Test func shortHelpAtRootAndAfterOtherArguments() throws {
        #expect(try NagiTestSpecs.parse("-h").isHelpRequested)
        #expect(try NagiTestSpecs.parse("-h").command.name == "nagi")
        let parsed = try NagiTestSpecs.parse("course export calm21 -h --bogus")
        #expect(parsed.isHelpRequested)
        #expect(parsed.commandPath == ["course", "export"])
    }

    @Test func errorsBeforeHelpAreStillReported() {
        #expect(parseError("render --cylces 3 --help") == .unknownOption("--cylces", suggestion: "--cycles"))
    }
}
