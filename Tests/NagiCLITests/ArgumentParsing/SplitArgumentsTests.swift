import Testing
@testable import NagiCLI
@testable import NagiOptions

@Suite struct SplitArgumentsTests {
    private func kinds(_ arguments: [String]) -> [SplitArguments.Token.Kind] {
        SplitArguments(arguments).tokens.map(\.kind)
    }

    @Test func longOptionsWithAndWithoutValues() {
        #expect(kinds(["--json", "--rate=48000", "--title=a=b", "--title="]) == [
            .option(name: "--json", attachedValue: nil),
            .option(name: "--rate", attachedValue: "48000"),
            .option(name: "--title", attachedValue: "a=b"),
            .option(name: "--title", attachedValue: ""),
        ])
    }

    @Test func shortOptionsAndDashShapedWords() {
        #expect(kinds(["-o", "-o=x.wav", "-3", "-"]) == [
            .option(name: "-o", attachedValue: nil),
            .option(name: "-o", attachedValue: "x.wav"),
            .option(name: "-3", attachedValue: nil),
            .value("-"),
        ])
    }

    @Test func valuesIncludingEmptyString() {
        #expect(kinds(["box", "", "4-7-8"]) == [.value("box"), .value(""), .value("4-7-8")])
    }

    @Test func terminatorMakesEverythingAfterItAValue() {
        #expect(kinds(["--force", "--", "--quiet", "--", "-o", "x"]) == [
            .option(name: "--force", attachedValue: nil),
            .terminator,
            .value("--quiet"),
            .value("--"),
            .value("-o"),
            .value("x"),
        ])
    }

    @Test func equalsWithoutNameKeepsTheWholeToken() {
        #expect(kinds(["--=x", "-=y"]) == [
            .option(name: "--=x", attachedValue: nil),
            .option(name: "-=y", attachedValue: nil),
        ])
    }

    @Test func originalTextIsKept() {
        #expect(SplitArguments(["--rate=8000", "-3"]).tokens.map(\.original) == ["--rate=8000", "-3"])
    }
}
