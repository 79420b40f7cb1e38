import Breath

/// libFuzzer target: the strict JSON parser, pattern/session decoding, command-line style overrides and
/// expansion into Schedules at several sample rates.
///
/// Invariants: parse errors and decode errors are clean ContentErrors; a parsed document writes back to JSON
/// that parses to the same value; a decoded session schedules without error (the decoder measured it) and
/// every schedule keeps ScheduleInvariants; out-of-range sample rates are refused.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let hash = fuzzHash(bytes)
    let decoder = SessionDecoder(catalog: FuzzCatalog.shared)
    if size <= 48 && !bytes.contains(UInt8(ascii: "\n")) {
        resolveAsArgument(bytes, decoder: decoder, hash: hash)
    }
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes, file: "fuzz.json")
    } catch {
        fuzzCheckClean(error, file: "fuzz.json", "parse")
        return 0
    }
    checkRoundTrip(value)
    let resolved: SessionDecoder.Resolved
    do {
        resolved = try decoder.decodeDocument(value, file: "fuzz.json")
    } catch {
        fuzzCheckClean(error, file: "fuzz.json", "decode")
        return 0
    }
    let isSession: Bool
    if case .session = resolved { isSession = true } else { isSession = false }
    checkSession(resolved.session, mustSucceed: isSession, hash: hash, context: "document")
    checkOverride(resolved.session, hash: hash)
    return 0
}

/// parse(write(value)) == value.
private func checkRoundTrip(_ value: JSONValue) {
    let text = JSONWriter.text(value)
    do {
        let again = try JSONParser.parse(text, file: "fuzz.json")
        fuzzCheck(again == value, "round trip changed the value: \(text)")
    } catch {
        fuzzCheck(false, "round trip no longer parses: \(error) in \(text)")
    }
}

/// Schedules at 44.1 kHz and, for sessions of modest size, at 8 kHz, 192 kHz and a rate picked by the input.
private func checkSession(_ session: Session, mustSucceed: Bool, hash: UInt64, context: String) {
    ScheduleInvariants.scheduleAndCheck(session, sampleRate: 44_100, mustSucceed: mustSucceed, context: context)
    for rate in [7_999, 192_001, 0, -44_100] {
        do {
            _ = try Schedule(session: session, sampleRate: rate)
            fuzzCheck(false, "\(context): sample rate \(rate) accepted")
        } catch {
            fuzzCheckClean(error, allowed: { if case .limitExceeded = $0 { true } else { false } }, context)
        }
    }
    let phaseCount = (try? SessionExpander.expand(session.stages).count) ?? 0
    guard phaseCount <= 20_000 else { return }
    let picked = Schedule.sampleRateRange.lowerBound + Int(hash % UInt64(Schedule.sampleRateRange.count))
    for rate in [8_000, 192_000, picked] {
        ScheduleInvariants.scheduleAndCheck(session, sampleRate: rate, mustSucceed: mustSucceed, context: context)
    }
}

/// `--cycles N` / `--minutes M` as the command line applies them: either a clean limit error or a session
/// that keeps the invariants.
private func checkOverride(_ session: Session, hash: UInt64) {
    let lengths: [SessionLength] = [
        .cycles(Int(hash % 7) + 1),
        .cycles(SessionExpander.phaseLimit),
        .duration(microseconds: Int64(hash % 1_800) * Microseconds.perSecond + 1),
        .duration(microseconds: Microseconds.sessionLimit),
    ]
    for length in lengths {
        let resized: Session
        do {
            resized = try session.withLength(length)
        } catch {
            fuzzCheckClean(error, allowed: { if case .limitExceeded = $0 { true } else { false } }, "override \(length)")
            continue
        }
        ScheduleInvariants.scheduleAndCheck(resized, sampleRate: 48_000, mustSucceed: false, context: "override \(length)")
    }
}

/// A short input read as a command-line reference: a preset name, an inline pattern, or (ending in .json or
/// holding a '/') a file whose content is the input itself.
private func resolveAsArgument(_ bytes: [UInt8], decoder: SessionDecoder, hash: UInt64) {
    let reference = String(decoding: bytes, as: UTF8.self)
    do {
        let (resolved, _) = try decoder.resolveArgument(reference) { (path: String) throws(BreathError) -> (text: [UInt8], file: String) in
            if hash % 2 == 0 { throw .fileNotFound(path: path, reason: "no such file") }
            return (bytes, "fuzz.json")
        }
        ScheduleInvariants.scheduleAndCheck(resolved.session, sampleRate: 48_000, mustSucceed: false, context: "argument '\(reference)'")
    } catch {
        fuzzCheckClean(error, allowed: { _ in true }, "argument '\(reference)'")
    }
}
