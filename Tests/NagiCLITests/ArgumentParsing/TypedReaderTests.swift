import Testing
@testable import NagiCLI
@testable import NagiOptions

/// A command with one value option in two spellings, so readers are tested on any text.
private let spec = CommandSpec(
    name: "t",
    summary: "",
    options: [
        OptionSpec(names: ["-n", "--number"], valueName: "N", help: ""),
        OptionSpec(names: ["--kind"], valueName: "K", help: "", allowedValues: ["calm", "sea"]),
        OptionSpec(names: ["--flag"], help: ""),
    ]
)

private func given(_ value: String, as spelling: String = "--number") throws -> ParsedArguments {
    try ArgumentParser.parse([spelling + "=" + value], for: spec)
}

private func intError(_ value: String, in range: ClosedRange<Int> = 1...100) throws -> ArgumentError? {
    let parsed = try given(value)
    do {
        _ = try parsed.int("--number", in: range)
        return nil
    } catch {
        return error
    }
}

private func decimalError(_ value: String, in range: ClosedRange<Double> = 0.1...600) throws -> ArgumentError? {
    let parsed = try given(value)
    do {
        _ = try parsed.decimal("--number", in: range)
        return nil
    } catch {
        return error
    }
}

@Suite struct TypedReaderTests {
    // MARK: int

    @Test func wholeNumbersInRange() throws {
        #expect(try given("1").int("--number", in: 1...100) == 1)
        #expect(try given("100").int("-n", in: 1...100) == 100)
        #expect(try given("+7").int("--number", in: 1...100) == 7)
        #expect(try given("007").int("--number", in: 1...100) == 7)
        #expect(try given("-3").int("--number", in: -5...5) == -3)
        #expect(try given("9223372036854775807").int("--number", in: 0...Int.max) == Int.max)
    }

    @Test func readersReturnNilWhenNotGiven() throws {
        let parsed = try ArgumentParser.parse([], for: spec)
        #expect(try parsed.int("--number", in: 1...2) == nil)
        #expect(try parsed.decimal("--number", in: 1...2) == nil)
        #expect(try parsed.choice("--kind") == nil)
    }

    @Test(arguments: ["", "  ", " 5", "5 ", "１２", "٣", "0x10", "1.5", "1e2", "+", "-", "--5", "5a", "99999999999999999999", "-99999999999999999999"])
    func malformedWholeNumbersAreRejected(text: String) throws {
        #expect(try intError(text)
            == .invalidValue(option: "--number", value: text, expected: "a whole number from 1 to 100"))
    }

    @Test func wholeNumbersOutOfRangeSayTheRange() throws {
        #expect(try intError("0") == .invalidValue(option: "--number", value: "0", expected: "a whole number from 1 to 100"))
        #expect(try intError("101") == .invalidValue(option: "--number", value: "101", expected: "a whole number from 1 to 100"))
        #expect(try intError("-1", in: 0...Int.max)
            == .invalidValue(option: "--number", value: "-1", expected: "a whole number of at least 0"))
        #expect(try intError("x", in: Int.min...Int.max) == .invalidValue(option: "--number", value: "x", expected: "a whole number"))
        #expect(try intError("9", in: Int.min...8) == .invalidValue(option: "--number", value: "9", expected: "a whole number of at most 8"))
    }

    @Test func errorQuotesTheSpellingTheUserTyped() throws {
        let parsed = try given("abc", as: "-n")
        #expect(throws: ArgumentError.invalidValue(option: "-n", value: "abc", expected: "a whole number from 1 to 9")) {
            try parsed.int("--number", in: 1...9)
        }
    }

    @Test func separateValueTokenReadsTheSame() throws {
        let parsed = try ArgumentParser.parse(["-n", "42"], for: spec)
        #expect(try parsed.int("--number", in: 1...100) == 42)
    }

    // MARK: decimal

    @Test func decimalForms() throws {
        #expect(try given("2.5").decimal("--number", in: 0...10) == 2.5)
        #expect(try given(".5").decimal("--number", in: 0...10) == 0.5)
        #expect(try given("5.").decimal("--number", in: 0...10) == 5)
        #expect(try given("+3").decimal("--number", in: 0...10) == 3)
        #expect(try given("1e3").decimal("--number", in: 0...1000) == 1000)
        #expect(try given("2.5E-1").decimal("--number", in: 0...1) == 0.25)
        #expect(try given("600").decimal("--number", in: 0.1...600) == 600)
    }

    @Test func negativeZeroReadsAsPositiveZero() throws {
        let value = try #require(try given("-0").decimal("--number", in: 0...1))
        #expect(value == 0)
        #expect(value.sign == .plus)
    }

    @Test(arguments: [
        "", "  ", " 1", "1 ", "nan", "NaN", "-nan", "inf", "-inf", "infinity", "Infinity", "1e999", "-1e999",
        "１２", "٣", "0x10", "0x1p3", "1,5", "1e", "e3", ".", "-.", "1.2.3", "--1", "1_000",
        "1" + String(repeating: "0", count: 400),
    ])
    func malformedOrNonFiniteDecimalsAreRejected(text: String) throws {
        #expect(try decimalError(text, in: -.infinity ... .infinity)
            == .invalidValue(option: "--number", value: text, expected: "a number"))
    }

    @Test func decimalOutOfRangeSaysTheRange() throws {
        #expect(try decimalError("0.05") == .invalidValue(option: "--number", value: "0.05", expected: "a number from 0.1 to 600"))
        #expect(try decimalError("600.5") == .invalidValue(option: "--number", value: "600.5", expected: "a number from 0.1 to 600"))
        #expect(try decimalError("-1", in: 0 ... .infinity)
            == .invalidValue(option: "--number", value: "-1", expected: "a number of at least 0"))
        #expect(try decimalError("2", in: -.infinity ... 1.5)
            == .invalidValue(option: "--number", value: "2", expected: "a number of at most 1.5"))
    }

    // MARK: choice

    @Test func choiceReturnsAnAllowedValue() throws {
        let parsed = try ArgumentParser.parse(["--kind", "sea"], for: spec)
        #expect(try parsed.choice("--kind") == "sea")
    }

    @Test func choiceOfFreeTextOptionReturnsIt() throws {
        #expect(try given("anything").choice("--number") == "anything")
    }

    @Test func choiceOfEmptyValueIsRejectedWhileParsing() {
        #expect(throws: ArgumentError.invalidValue(option: "--kind", value: "", expected: "one of: calm, sea")) {
            try ArgumentParser.parse(["--kind="], for: spec)
        }
    }

    @Test func flagsHaveNoValueToRead() throws {
        let parsed = try ArgumentParser.parse(["--flag"], for: spec)
        #expect(parsed.isSet("--flag"))
        #expect(try parsed.int("--flag", in: 0...1) == nil)
    }
}
