import Breath

/// libFuzzer target: sessions built directly through the public API (as a caller other than the JSON
/// decoder could), with any Int64 lengths and counts, ramps, nested repeats and empty parts.
///
/// Invariants: `SessionExpander.totalMicroseconds`, `expand` and `Schedule.init` either refuse the session
/// with `.limitExceeded` or produce a schedule that keeps ScheduleInvariants; nothing traps or runs away.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpander(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var reader = FuzzReader(fuzzBytes(data, size))
    var stages: [Stage] = []
    let stageCount = Int(reader.byte() % 4) + 1
    for _ in 0..<stageCount { stages.append(readStage(&reader, depth: 0)) }
    let easing: Easing
    switch reader.byte() % 3 {
    case 0: easing = .cosine
    case 1: easing = .linear
    default: easing = .cubicBezier(x1: reader.unitDouble(), y1: reader.unitDouble(), x2: reader.unitDouble(), y2: reader.unitDouble())
    }
    let session = Session(easing: easing, stages: stages)
    let measured: Int64
    do {
        measured = try SessionExpander.totalMicroseconds(of: stages)
    } catch {
        fuzzCheckClean(error, allowed: isLimitError, "measure")
        do {
            _ = try SessionExpander.expand(stages)
            fuzzCheck(false, "expand accepted a session that measure refused")
        } catch {
            fuzzCheckClean(error, allowed: isLimitError, "expand")
        }
        return 0
    }
    fuzzCheck((0...Microseconds.sessionLimit).contains(measured), "measured \(measured) µs")
    let rate = [8_000, 44_100, 48_000, 192_000][Int(reader.byte() % 4)]
    ScheduleInvariants.scheduleAndCheck(session, sampleRate: rate, mustSucceed: true, context: "api session", allowZeroLength: true)
    for length in [SessionLength.cycles(reader.count()), .duration(microseconds: reader.microseconds())] {
        do {
            let resized = try session.withLength(length)
            ScheduleInvariants.scheduleAndCheck(resized, sampleRate: 48_000, mustSucceed: false, context: "withLength(\(length))", allowZeroLength: true)
        } catch {
            fuzzCheckClean(error, allowed: isLimitError, "withLength(\(length))")
        }
    }
    return 0
}

private func isLimitError(_ error: BreathError) -> Bool {
    if case .limitExceeded = error { true } else { false }
}

private func readStage(_ reader: inout FuzzReader, depth: Int) -> Stage {
    let choice = depth >= 6 ? reader.byte() % 2 : reader.byte() % 3
    switch choice {
    case 0:
        return .pattern(readPattern(&reader), readLength(&reader))
    case 1:
        return .ramp(from: readPattern(&reader), to: readPattern(&reader), readLength(&reader))
    default:
        let count = reader.count()
        var inner: [Stage] = []
        for _ in 0..<Int(reader.byte() % 4) { inner.append(readStage(&reader, depth: depth + 1)) }
        return .group(count: count, stages: inner)
    }
}

private func readPattern(_ reader: inout FuzzReader) -> Pattern {
    let kinds: [PhaseKind] = [.inhale, .holdIn, .exhale, .holdOut]
    var phases: [Phase] = []
    for _ in 0..<Int(reader.byte() % 6) {
        let kind = kinds[Int(reader.byte() % 4)]
        let target: Double? = !kind.isHold && reader.byte() % 2 == 0 ? reader.unitDouble() : nil
        phases.append(Phase(kind: kind, durationMicroseconds: reader.microseconds(), targetLevel: target))
    }
    let defaultLength: SessionLength? = reader.byte() % 2 == 0 ? readLength(&reader) : nil
    return Pattern(phases: phases, defaultLength: defaultLength)
}

private func readLength(_ reader: inout FuzzReader) -> SessionLength {
    reader.byte() % 2 == 0 ? .cycles(reader.count()) : .duration(microseconds: reader.microseconds())
}
