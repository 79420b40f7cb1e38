import Breath

/// libFuzzer target: inline patterns ("4-7-8") and the exact decimal reader under them.
///
/// Invariants: parse either throws `.inlinePattern` naming the text, or returns 1 to 4 phases of 1 µs...24 h
/// in inhale-holdIn-exhale-holdOut order whose inline notation parses back to the same phases; decimals
/// agree with floating point and format back to themselves; the pattern schedules cleanly.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInlinePattern(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    checkDecimal(Substring(text))
    let pattern: Pattern
    do {
        pattern = try InlinePattern.parse(text)
    } catch {
        fuzzCheckClean(error, allowed: { if case let .inlinePattern(reported, _) = $0 { reported == text } else { false } }, "inline '\(text)'")
        return 0
    }
    fuzzCheck(InlinePattern.looksInline(text), "'\(text)' parsed but does not look inline")
    fuzzCheck((1...4).contains(pattern.phases.count), "'\(text)': \(pattern.phases.count) phases")
    let order: [PhaseKind] = [.inhale, .holdIn, .exhale, .holdOut]
    var lastOrder = -1
    for phase in pattern.phases {
        fuzzCheck((1...Microseconds.sessionLimit).contains(phase.durationMicroseconds), "'\(text)': phase of \(phase.durationMicroseconds) µs")
        fuzzCheck(phase.targetLevel == nil, "'\(text)': a target level from an inline pattern")
        let position = order.firstIndex(of: phase.kind) ?? -1
        fuzzCheck(position > lastOrder, "'\(text)': kinds out of order")
        lastOrder = position
    }
    if let notation = pattern.inlineNotation {
        do {
            let again = try InlinePattern.parse(notation)
            fuzzCheck(again.phases == pattern.phases, "'\(text)' -> '\(notation)' parses to other phases")
        } catch {
            fuzzCheck(false, "'\(text)' -> '\(notation)' no longer parses: \(error)")
        }
    }
    let session = Session(pattern: pattern)
    let rate = Schedule.sampleRateRange.lowerBound + Int(fuzzHash(bytes) % UInt64(Schedule.sampleRateRange.count))
    for sampleRate in [44_100, rate] {
        ScheduleInvariants.scheduleAndCheck(session, sampleRate: sampleRate, mustSucceed: false, context: "inline '\(text)'")
    }
    return 0
}

/// Each field of the text read as a decimal of seconds and of minutes: exact, bounded, and equal to the
/// floating-point reading within its rounding; seconds format back to the same microseconds.
private func checkDecimal(_ text: Substring) {
    for field in text.split(separator: "-", omittingEmptySubsequences: false).prefix(6) {
        for unit in [Microseconds.perSecond, 60 * Microseconds.perSecond] {
            guard let microseconds = Microseconds.parseDecimal(field, unitMicroseconds: unit) else { continue }
            fuzzCheck((0...Microseconds.sessionLimit).contains(microseconds), "'\(field)' -> \(microseconds) µs")
            if let approximate = Double(field) {
                let expected = approximate * Double(unit)
                fuzzCheck(abs(expected - Double(microseconds)) <= max(1, expected * 1e-12), "'\(field)' × \(unit) -> \(microseconds), floating point says \(expected)")
            } else {
                fuzzCheck(false, "'\(field)' parsed as a decimal but Double cannot read it")
            }
            if unit == Microseconds.perSecond {
                let formatted = Microseconds.formatSeconds(microseconds)
                let again = Microseconds.parseDecimal(Substring(formatted), unitMicroseconds: unit)
                fuzzCheck(again == microseconds, "'\(field)' -> \(microseconds) µs -> '\(formatted)' -> \(String(describing: again))")
            }
        }
    }
}
