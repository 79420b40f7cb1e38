import Testing
@testable import NagiOptions

/// Options declared once as typed keys: the spec the parser takes and the reading a command gets come from one value.
@Suite("Typed option keys: declared once, read by key")
struct OptionKeyTests {
    enum Tide: String, CaseIterable { case ebb, flood }

    static let count = Option<Int>(["-n", "--count"], valueName: "N", help: "", wholeNumberIn: 1...10)
    static let level = Option<Double>(["--level"], valueName: "DB", help: "", decimalIn: -30...6)
    static let tide = Option<Tide>(["--tide"], valueName: "T", help: "")
    static let name = Option<String>(["--name"], valueName: "N", help: "")
    static let pair = Option<(Int, Int)>(spec: OptionSpec(names: ["--pair"], valueName: "A:B", help: "")) { text throws(InvalidOptionValue) in
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2 else { throw InvalidOptionValue(expected: "two whole numbers, A:B") }
        return (parts[0], parts[1])
    }
    static let force = Flag(["--force"], help: "")
    static let spec = CommandSpec(name: "t", summary: "", options: [count.spec, level.spec, tide.spec, name.spec, pair.spec, force.spec])

    private func parse(_ arguments: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(arguments, for: Self.spec)
    }

    @Test("Each key reads its value typed, under any spelling; an option not given reads nil, a flag not given false")
    func readsTyped() throws {
        let given = try parse(["-n", "7", "--level=-2.5", "--tide", "ebb", "--name", "sea", "--pair", "3:4", "--force"])
        #expect(try given[Self.count] == 7)
        #expect(try given[Self.level] == -2.5)
        #expect(try given[Self.tide] == .ebb)
        #expect(try given[Self.name] == "sea")
        #expect(try given[Self.pair].map { [$0.0, $0.1] } == [3, 4])
        #expect(given[Self.force])
        #expect(given.isSet(Self.count) && given.text(of: Self.count) == "7")
        let none = try parse([])
        #expect(try none[Self.count] == nil)
        #expect(try none[Self.tide] == nil)
        #expect(!none[Self.force] && !none.isSet(Self.name) && none.text(of: Self.name) == nil)
    }

    @Test("A value the key refuses is invalidValue quoting the spelling given and what the key expects")
    func refusalsQuoteTheSpelling() throws {
        #expect(throws: ArgumentError.invalidValue(option: "-n", value: "11", expected: "a whole number from 1 to 10")) { try parse(["-n", "11"])[Self.count] }
        #expect(throws: ArgumentError.invalidValue(option: "--count", value: "x", expected: "a whole number from 1 to 10")) { try parse(["--count=x"])[Self.count] }
        #expect(throws: ArgumentError.invalidValue(option: "--level", value: "nan", expected: "a number from -30 to 6")) { try parse(["--level", "nan"])[Self.level] }
        #expect(throws: ArgumentError.invalidValue(option: "--pair", value: "3", expected: "two whole numbers, A:B")) { try parse(["--pair", "3"])[Self.pair] }
    }

    @Test("A choice key's spec lists its cases, so the parser refuses another word before any reading")
    func choicesFromCases() throws {
        #expect(Self.tide.spec.allowedValues == ["ebb", "flood"])
        #expect(throws: ArgumentError.invalidValue(option: "--tide", value: "neap", expected: "one of: ebb, flood")) { try parse(["--tide", "neap"]) }
    }

    @Test("A key's spec is closed to HTTP unless it says otherwise")
    func closedToHTTPByDefault() {
        #expect(!Self.count.spec.overHTTP && !Self.force.spec.overHTTP)
        #expect(Option<Int>(["--x"], valueName: "N", help: "", wholeNumberIn: 0...1, overHTTP: true).spec.overHTTP)
        #expect(Flag(["--y"], help: "", overHTTP: true).spec.overHTTP)
    }
}
