import NagiDocuments
import NagiPresets
import NagiTestSupport
import Testing
@testable import Breath

/// Inputs that broke (or were built to break) the parsers and the expander, kept so they stay fixed: each
/// must end in a clean BreathError or in a schedule that keeps its invariants — never a trap or a hang.
/// The fuzz targets under Fuzz/ (scripts/fuzz.sh) found the ones marked "fuzz"; the rest are hostile by design.
@Suite("Fuzz regressions and hostile inputs")
struct FuzzRegressionTests {
    static let catalog = PresetCatalog(builtinFiles: BuiltinPresets.files)
    static let decoder = SessionDecoder(catalog: catalog)

    /// How a document ended: refused with an error, or decoded and scheduled.
    enum Outcome {
        case refused(BreathError)
        case scheduled(Schedule)

        var error: BreathError? {
            if case let .refused(error) = self { error } else { nil }
        }
    }

    /// Parses, decodes and schedules `text` at `sampleRate`, checking any schedule against its invariants.
    static func outcome(_ text: String, sampleRate: Int = 48_000) -> Outcome {
        do throws(BreathError) {
            let session = try BreathError.reportingContent { () throws(ContentError) in
                try decoder.decodeDocument(try JSONParser.parse(text, file: "hostile.json"), file: "hostile.json").session
            }
            let schedule = try Schedule(session: session, sampleRate: sampleRate)
            checkInvariants(schedule)
            return .scheduled(schedule)
        } catch {
            #expect(!error.message.isEmpty)
            return .refused(error)
        }
    }

    /// Schedules an API-built session, checking the invariants when it is accepted.
    static func outcome(stages: [Stage], sampleRate: Int = 48_000) -> Outcome {
        do {
            let schedule = try Schedule(session: Session(stages: stages), sampleRate: sampleRate)
            checkInvariants(schedule, allowZeroLength: true)
            return .scheduled(schedule)
        } catch {
            return .refused(error)
        }
    }

    /// The schedule's promises, recomputed by the invariants the fuzz targets check.
    /// `allowZeroLength`: API-built sessions may hold phases of 0 µs, which the decoder skips.
    static func checkInvariants(_ schedule: Schedule, allowZeroLength: Bool = false) {
        let violations = ScheduleInvariants.violations(of: schedule, session: nil, context: "hostile", allowZeroLength: allowZeroLength)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    /// Whether `error` is bad content whose message contains `fragment`.
    static func isContent(_ error: BreathError?, _ fragment: String) -> Bool {
        guard case let .invalidContent(file, _, reason)? = error else { return false }
        return file == "hostile.json" && reason.contains(fragment)
    }

    static func isLimit(_ error: BreathError?) -> Bool {
        if case .limitExceeded? = error { true } else { false }
    }

    static let phase4 = Phase(kind: .inhale, durationMicroseconds: 4 * Microseconds.perSecond)
    static let box = Pattern(phases: [phase4, Phase(kind: .exhale, durationMicroseconds: 4 * Microseconds.perSecond)])

    // MARK: - Deliberately hostile documents

    @Test("10 000-deep arrays, objects and stage trees are refused at the depth limit, not by a stack overflow")
    func deepNesting() {
        let depth = 10_000
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        let stages = String(repeating: "{\"stages\":[{\"pattern\":", count: depth) + "\"box\"" + String(repeating: ",\"cycles\":1}]}", count: depth)
        let repeats = "{\"stages\":[" + String(repeating: "{\"repeat\":2,\"stages\":[", count: depth) + "{\"pattern\":\"4-4\",\"cycles\":1}" + String(repeating: "]}", count: depth) + "]}"
        let unclosed = String(repeating: "[", count: depth)
        for text in [arrays, objects, stages, repeats, unclosed] {
            #expect(Self.isContent(Self.outcome(text).error, "nested deeper than \(JSONParser.depthLimit) levels"))
        }
    }

    @Test("a 2 MB string is read as a title, and refused cleanly as a pattern name, a key or an unclosed string")
    func twoMegabyteString() throws {
        let huge = String(repeating: "ब", count: 2_000_000 / 3)
        guard case let .scheduled(schedule) = Self.outcome("{\"title\":\"\(huge)\",\"phases\":[{\"kind\":\"inhale\",\"seconds\":4},{\"kind\":\"exhale\",\"seconds\":4}],\"cycles\":2}") else {
            Issue.record("a 2 MB title was refused")
            return
        }
        #expect(schedule.phases.count == 4)
        let resolved = try Self.decoder.decodeDocument(try JSONParser.parse("{\"title\":\"\(huge)\",\"phases\":[{\"kind\":\"inhale\",\"seconds\":4}]}", file: "hostile.json"), file: "hostile.json")
        #expect(resolved.title == huge)
        #expect(Self.isContent(Self.outcome("{\"stages\":[{\"pattern\":\"\(huge)\",\"cycles\":1}]}").error, "no pattern named"))
        #expect(Self.isContent(Self.outcome("{\"\(huge)\":1,\"phases\":[]}").error, "unknown key"))
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"\(huge)\",\"seconds\":4}]}").error, "unknown kind"))
        #expect(Self.isContent(Self.outcome("{\"title\":\"\(huge)").error, "the string is not closed"))
        let digits = String(repeating: "9", count: 2_000_000)
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"inhale\",\"seconds\":\(digits)}]}").error, "out of range"))
    }

    @Test("a million-element array of phases decodes as one pattern and is refused at the 500 000-phase limit")
    func millionPhases() throws {
        let element = "{\"kind\":\"inhale\",\"seconds\":1}"
        let text = "{\"phases\":[" + Array(repeating: element, count: 1_000_000).joined(separator: ",") + "]}"
        let resolved = try Self.decoder.decodeDocument(try JSONParser.parse(text, file: "hostile.json"), file: "hostile.json")
        guard case let .pattern(pattern) = resolved else {
            Issue.record("expected a pattern")
            return
        }
        #expect(pattern.phases.count == 1_000_000)
        #expect(Self.isLimit(Self.outcome(stages: resolved.session.stages).error))
    }

    @Test("1e308 seconds or minutes is past the 24-hour limit, 1e309 out of range, 1e-7 finer than a µs, 1e-308 is 0")
    func hugeNumbers() {
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"inhale\",\"seconds\":1e308}]}").error, "1e308 seconds is longer than nagi's 24-hour limit"))
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"inhale\",\"seconds\":4}],\"minutes\":1e308}").error, "24-hour limit"))
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"inhale\",\"seconds\":4}],\"cycles\":1e308}").error, "is outside 1...500000"))
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"inhale\",\"seconds\":-1e308}]}").error, "negative"))
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"inhale\",\"seconds\":1e309}]}").error, "out of range"))
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"inhale\",\"seconds\":1e-7}]}").error, "1e-7 seconds is finer than a microsecond"))
        // 1e-308 s is 0 µs within floating-point noise, like 0: the phase is skipped, and a pattern of only it is empty.
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"inhale\",\"seconds\":1e-308}]}").error, "every phase is 0 s long"))
        #expect(Self.isContent(Self.outcome("{\"phases\":[{\"kind\":\"inhale\",\"seconds\":86400.000001}]}").error, "24-hour limit"))
    }

    @Test("a repeat of 2^62 is refused in JSON and through the API")
    func repeatOfTwoToThe62() {
        let json = "{\"stages\":[{\"repeat\":4611686018427387904,\"stages\":[{\"pattern\":\"4-4\",\"cycles\":1}]}]}"
        #expect(Self.isContent(Self.outcome(json).error, "4611686018427387904 is outside 1...500000"))
        #expect(Self.isLimit(Self.outcome(stages: [.group(count: 1 << 62, stages: [.pattern(Self.box, .cycles(1))])]).error))
        #expect(Self.isLimit(Self.outcome(stages: [.pattern(Self.box, .cycles(1 << 62))]).error))
    }

    @Test("nested repeats whose product overflows Int64 are refused, not wrapped")
    func nestedRepeatOverflow() {
        let nested = String(repeating: "{\"repeat\":500000,\"stages\":[", count: 4) + "{\"pattern\":\"0.000001-0.000001\",\"cycles\":1}" + String(repeating: "]}", count: 4)
        #expect(Self.isContent(Self.outcome("{\"stages\":[\(nested)]}").error, "500000 phases"))
        // Through the API each level alone overflows: (2^62)^2 phases and 2^62 × 8 s.
        let inner = Stage.group(count: 1 << 62, stages: [.pattern(Self.box, .cycles(1))])
        #expect(Self.isLimit(Self.outcome(stages: [.group(count: 1 << 62, stages: [inner])]).error))
        #expect(Self.isLimit(Self.outcome(stages: [.group(count: Int.max, stages: [.group(count: Int.max, stages: [.pattern(Self.box, .cycles(Int.max))])])]).error))
    }

    @Test("a ramp between two huge lengths is refused; one between 1 µs and 12 h is exact")
    func rampBetweenHugeLengths() throws {
        #expect(Self.isContent(Self.outcome("{\"stages\":[{\"ramp\":{\"from\":\"86400-86400\",\"to\":\"86400-86400\"},\"cycles\":2}]}").error, "24 hours"))
        // One inhale alone, 1 µs to a day: as phase objects, since an inline pattern must breathe in and out.
        func inhale(_ seconds: String) -> String { "{\"phases\":[{\"kind\":\"inhale\",\"seconds\":\(seconds)}]}" }
        #expect(Self.isContent(Self.outcome("{\"stages\":[{\"ramp\":{\"from\":\(inhale("0.000001")),\"to\":\(inhale("86400"))},\"minutes\":1440}]}").error, "24 hours"))
        guard case let .scheduled(schedule) = Self.outcome("{\"stages\":[{\"ramp\":{\"from\":\(inhale("0.000001")),\"to\":\(inhale("43200"))},\"cycles\":2}]}") else {
            Issue.record("a 12-hour ramp was refused")
            return
        }
        #expect(schedule.phases.map(\.durationMicroseconds) == [1, 43_200 * Microseconds.perSecond])
    }

    // MARK: - Found by the expander target (sessions built through the API)

    /// fuzz (expander, crash-00c24d125cfa923e257da1c123561fee574089a6, the first seed run): the 56 input bytes
    /// built two pattern stages — one with no phases repeated Int.max times, one whose phases were
    /// [Int64.min, -437141669932218060, 62802, Int64.min] µs — and Pattern.cycleMicroseconds trapped on overflow.
    static let crashInput: [UInt8] = [
        0x4D, 0x33, 0xBA, 0x0D, 0x24, 0x6A, 0xC0, 0x4C, 0x81, 0xB1, 0xBA, 0xF2, 0x3E, 0x3B, 0xF9, 0xEE, 0xF5, 0xF7, 0x9F, 0x2B,
        0x49, 0x34, 0xAF, 0x87, 0xF5, 0x52, 0x0B, 0x69, 0xB9, 0x4B, 0x0D, 0x98, 0x2E, 0x85, 0xBB, 0x55, 0xB6, 0x72, 0xA8, 0x72,
        0x63, 0x7A, 0xCD, 0x74, 0x66, 0xFC, 0xB6, 0x0E, 0x0E, 0x8F, 0xF1, 0x84, 0x63, 0xB0, 0xE4, 0xB2,
    ]

    @Test("fuzz: phase lengths whose sum overflows Int64 are refused instead of trapping")
    func overflowingPhaseLengths() {
        #expect(Self.crashInput.count == 56)
        let empty = Stage.pattern(Pattern(phases: []), .cycles(Int.max))
        let hostile = Stage.pattern(Pattern(phases: [
            Phase(kind: .holdIn, durationMicroseconds: .min),
            Phase(kind: .exhale, durationMicroseconds: -437_141_669_932_218_060, targetLevel: 62 / 255),
            Phase(kind: .holdOut, durationMicroseconds: 62_802),
            Phase(kind: .holdOut, durationMicroseconds: .min),
        ]), .duration(microseconds: 1))
        #expect(Self.isLimit(Self.outcome(stages: [empty, hostile]).error))
        let halves = Pattern(phases: [Phase(kind: .inhale, durationMicroseconds: .max / 2), Phase(kind: .exhale, durationMicroseconds: .max / 2 + 2)])
        #expect(Self.isLimit(Self.outcome(stages: [.pattern(halves, .cycles(1))]).error))
        #expect(throws: BreathError.self) { try SessionExpander.totalMicroseconds(of: [.pattern(halves, .cycles(1))]) }
        #expect(throws: BreathError.self) { try SessionExpander.expand([.pattern(halves, .cycles(1))]) }
    }

    @Test("fuzz: a pattern with no phases or a group with no stages is refused instead of looping 2^62 times")
    func emptyPartsRepeatedForever() {
        #expect(Self.isLimit(Self.outcome(stages: [.pattern(Pattern(phases: []), .cycles(1 << 62))]).error))
        #expect(Self.isLimit(Self.outcome(stages: [.pattern(Pattern(phases: [Phase(kind: .holdIn, durationMicroseconds: 0)]), .cycles(1 << 62))]).error))
        #expect(Self.isLimit(Self.outcome(stages: [.group(count: 1 << 62, stages: [])]).error))
        #expect(Self.isLimit(Self.outcome(stages: [.ramp(from: Pattern(phases: []), to: Pattern(phases: []), .cycles(1 << 62))]).error))
    }

    @Test("negative phase lengths are refused instead of giving frames that run backwards")
    func negativePhaseLengths() {
        let backwards = Pattern(phases: [Phase(kind: .inhale, durationMicroseconds: -4_000_000), Phase(kind: .exhale, durationMicroseconds: 5_000_000)])
        #expect(Self.isLimit(Self.outcome(stages: [.pattern(backwards, .cycles(2))]).error))
        #expect(Self.isLimit(Self.outcome(stages: [.ramp(from: Self.box, to: backwards, .cycles(3))]).error))
    }

    @Test("a ramp between lengths near Int64.max, or a duration of Int64.max µs, is refused instead of trapping")
    func rampAndDurationNearInt64Max() {
        let huge = Pattern(phases: [Phase(kind: .inhale, durationMicroseconds: .max / 2), Phase(kind: .exhale, durationMicroseconds: .max / 2)])
        #expect(Self.isLimit(Self.outcome(stages: [.ramp(from: huge, to: Self.box, .cycles(2))]).error))
        #expect(Self.isLimit(Self.outcome(stages: [.ramp(from: Self.box, to: huge, .duration(microseconds: .max))]).error))
        #expect(Self.isLimit(Self.outcome(stages: [.pattern(Self.box, .duration(microseconds: .max))]).error))
        #expect(SessionLength.duration(microseconds: .max).cycleCount(cycleMicroseconds: 3) == Int(Int64.max / 3))
        // The rounding is unchanged: to the nearest whole cycle, halves up, at least one.
        #expect(SessionLength.duration(microseconds: 10).cycleCount(cycleMicroseconds: 4) == 3)
        #expect(SessionLength.duration(microseconds: 9).cycleCount(cycleMicroseconds: 4) == 2)
        #expect(SessionLength.duration(microseconds: 9).cycleCount(cycleMicroseconds: 5) == 2)
        #expect(SessionLength.duration(microseconds: 7).cycleCount(cycleMicroseconds: 5) == 1)
        #expect(SessionLength.duration(microseconds: -5).cycleCount(cycleMicroseconds: 5) == 1)
        // Through withLength, as `--minutes` would pass it.
        #expect(throws: BreathError.self) {
            try Schedule(session: Session(pattern: Self.box).withLength(.duration(microseconds: .max)), sampleRate: 48_000)
        }
    }

    @Test("a ramp is held to the 24-hour limit by its exact length, not by its longer end times its cycles")
    func rampLimitUsesTheExactTotal() throws {
        let short = try InlinePattern.parse("4-4")
        let long = try InlinePattern.parse("16-16")
        // 8 s → 32 s over 3780 cycles: 3780 × 20 s = 21 h, though 3780 × 32 s would be 33.6 h.
        let accepted = Self.outcome(stages: [.ramp(from: short, to: long, .cycles(3780))])
        guard case let .scheduled(schedule) = accepted else {
            Issue.record("a 21-hour ramp was refused: \(String(describing: accepted.error))")
            return
        }
        #expect(schedule.totalMicroseconds == 3780 * 20_000_000)
        // One cycle more per hour over the limit is still refused.
        #expect(Self.isLimit(Self.outcome(stages: [.ramp(from: short, to: long, .cycles(4321))]).error))
    }

    // MARK: - Slow input

    /// Every nesting level measures its stages again, and a ramp was measured by a loop over its cycles: this
    /// 450 KB course (999 lessons, each a 125 000-cycle ramp inside 14 nested repeats) took 15 s to decode.
    @Test("a course of deeply nested long ramps decodes, and ramp totals in closed form equal the cycle-by-cycle sum")
    func nestedRampCourse() throws {
        let ramp = "{\"ramp\":{\"from\":\"0.1-0.1-0.1-0.1\",\"to\":\"0.15-0.15-0.15-0.15\"},\"cycles\":125000}"
        let nested = String(repeating: "{\"repeat\":1,\"stages\":[", count: 14) + ramp + String(repeating: "]}", count: 14)
        let lesson = "{\"title\":\"a\",\"pattern\":{\"stages\":[\(nested)]}}"
        let text = "{\"name\":\"x\",\"title\":\"x\",\"lessons\":[" + Array(repeating: lesson, count: CourseDecoder.lessonLimit).joined(separator: ",") + "]}"
        let course = try CourseDecoder(catalog: Self.catalog).decode(try JSONParser.parse(text, file: "hostile.json"), file: "hostile.json")
        #expect(course.lessons.count == 999)
        // 125 000 cycles from 0.4 s to 0.6 s: 0.5 s on average.
        #expect(try SessionExpander.totalMicroseconds(of: course.lessons[998].session.stages) == 62_500 * Microseconds.perSecond)

        func pattern(_ lengths: [Int64]) -> Pattern {
            let kinds: [PhaseKind] = [.inhale, .holdIn, .exhale, .holdOut]
            return Pattern(phases: lengths.enumerated().map { Phase(kind: kinds[$0.offset], durationMicroseconds: $0.element) })
        }
        let limit = Microseconds.sessionLimit
        let cases: [([Int64], [Int64], [Int])] = [
            ([1], [12], Array(1...40)),
            ([12], [1], Array(1...40)),
            ([7, 0, 3], [2, 9, 3], Array(1...60)),
            ([4_000_000, 4_000_000], [4_000_000, 8_000_000], [2, 3, 74, 75, 1000]),
            ([0, 1], [limit, 1], [2, 3, 499_999]),
            ([limit - 1], [1], [2, 250_001, 500_000]),
        ]
        var mismatches = 0
        for (from, to, cycleCounts) in cases {
            let lanes = try RampLanes(from: pattern(from), to: pattern(to))
            for cycles in cycleCounts {
                var loop: Int64 = 0
                for lane in lanes.lanes {
                    for cycle in 0..<cycles { loop += lane.length(cycle: cycle, of: cycles) }
                }
                if lanes.totalMicroseconds(cycles: cycles) != loop { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }
}
