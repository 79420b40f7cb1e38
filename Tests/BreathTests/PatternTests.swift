import NagiBase
import Testing
@testable import Breath

@Suite("Inline patterns and exact durations")
struct PatternTests {
    @Test("inline strings become phases; 0 skips a phase")
    func inlineForms() throws {
        #expect(try InlinePattern.parse("4-7-8").phases.map(\.kind) == [.inhale, .holdIn, .exhale])
        #expect(try InlinePattern.parse("4-4-4-4").phases.map(\.kind) == [.inhale, .holdIn, .exhale, .holdOut])
        #expect(try InlinePattern.parse("5.5-5.5").phases.map(\.durationMicroseconds) == [5_500_000, 5_500_000])
        #expect(try InlinePattern.parse("3-0-6-2").phases.map(\.kind) == [.inhale, .exhale, .holdOut])
        #expect(try InlinePattern.parse("0.000001-1").phases[0].durationMicroseconds == 1)
        #expect(try InlinePattern.parse("1.500000-2").phases[0].durationMicroseconds == 1_500_000)
    }

    @Test("malformed inline strings are refused with exit 64", arguments: [
        "4", "4-7-8-1-2", "4--8", "-4-8", "4-x-8", "4-7-8.", "0-0", "0.0000001-4", "4-1e3", "４-７-８", "4-86401", "99999999999999999999-1", "4-NaN", "4-inf", "4-7.5.1", "4- 7",
    ])
    func malformedInline(text: String) {
        #expect(throws: BreathError.self) { try InlinePattern.parse(text) }
        do {
            _ = try InlinePattern.parse(text)
        } catch {
            #expect(error.category == .usage)
            #expect(error.message.contains(text))
        }
    }

    @Test("an inline pattern that never breathes in or never breathes out is refused with exit 64 (issue 46)", arguments: [
        "0-4", "4-0", "0-4-0", "0-0-0-4", "4-4-0", "0-7-8", "4-0-0-4", "0-4-0-4",
    ])
    func inlineWithoutBreath(text: String) {
        let error = #expect(throws: BreathError.self) { try InlinePattern.parse(text) }
        #expect(error?.category == .usage)
        #expect(error?.message.contains(text) == true && error?.message.contains("never breathes") == true, "\(error?.message ?? "")")
    }

    @Test("decimal parsing is exact in any unit")
    func decimals() {
        #expect(Microseconds.parseDecimal("2.5", unitMicroseconds: 60_000_000) == 150_000_000)
        #expect(Microseconds.parseDecimal("0.1", unitMicroseconds: 1_000_000) == 100_000)
        #expect(Microseconds.parseDecimal(".5", unitMicroseconds: 1_000_000) == 500_000)
        #expect(Microseconds.parseDecimal("1440", unitMicroseconds: 60_000_000) == Microseconds.sessionLimit)
        #expect(Microseconds.parseDecimal("1440.01", unitMicroseconds: 60_000_000) == nil)
        #expect(Microseconds.parseDecimal(".", unitMicroseconds: 1_000_000) == nil)
        #expect(Microseconds.parseDecimal("", unitMicroseconds: 1_000_000) == nil)
        #expect(Microseconds.formatSeconds(5_500_000) == "5.5")
        #expect(Microseconds.formatSeconds(1) == "0.000001")
        #expect(Microseconds.formatClock(3_723_004_500) == "1:02:03.005")
    }

    @Test("a length in minutes rounds to the nearest whole cycle, at least one")
    func minutesToCycles() {
        #expect(SessionLength.duration(microseconds: 300_000_000).cycleCount(cycleMicroseconds: 19_000_000) == 16)
        #expect(SessionLength.duration(microseconds: 1_000_000).cycleCount(cycleMicroseconds: 19_000_000) == 1)
        #expect(SessionLength.duration(microseconds: 28_500_000).cycleCount(cycleMicroseconds: 19_000_000) == 2)
        #expect(SessionLength.cycles(7).cycleCount(cycleMicroseconds: 1) == 7)
    }
}
