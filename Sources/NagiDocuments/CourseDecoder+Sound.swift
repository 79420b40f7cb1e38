import Breath

/// A lesson's beat and loudness target: `"beat": 10` or `"beat": "10:6"` (0.5 to 40 Hz, a glide across the
/// lesson), `"beatStyle": "binaural" | "isochronic"`, `"loudness": -16` (LUFS, −30 to −10) — the values the
/// command line's `--beat`, `--beat-style` and `--loudness` take, checked the same way.
extension CourseDecoder {
    /// The lesson keys read here.
    static let soundKeys = ["beat", "beatStyle", "loudness"]
    /// The beat rates a lesson may ask for, Hz.
    public static let beatRange: ClosedRange<Double> = 0.5...40
    /// The loudness targets a lesson may ask for, LUFS.
    public static let loudnessRange: ClosedRange<Double> = -30...(-10)
    /// The beat styles.
    public static let beatStyles = ["binaural", "isochronic"]

    func decodeSound(_ fields: JSONFields, into lesson: inout Course.Lesson) throws(ContentError) {
        let style = try fields.string("beatStyle")
        if let style, !Self.beatStyles.contains(style) {
            throw fields.error("beatStyle", "expected \"binaural\" or \"isochronic\", not \"\(style)\"")
        }
        switch fields.value("beat") {
        case nil:
            if style != nil { throw fields.error("beatStyle", "a beat style needs \"beat\": a rate in Hz") }
        case .number:
            guard let hz = try fields.number("beat", in: Self.beatRange) else { break }
            lesson.beat = LessonBeat(startHz: hz, endHz: hz, style: style)
        case let .string(text):
            guard let (start, end) = Self.beatRates(text) else {
                throw fields.error("beat", "expected a rate in Hz or FROM:TO, each 0.5 to 40, not \"\(text)\"")
            }
            lesson.beat = LessonBeat(startHz: start, endHz: end, style: style)
        default:
            throw fields.error("beat", "expected a rate in Hz (a number) or \"FROM:TO\"")
        }
        lesson.loudnessLUFS = try fields.number("loudness", in: Self.loudnessRange)
    }

    /// "10" or "10:6" as rates in `beatRange`; nil for anything else.
    public static func beatRates(_ text: String) -> (startHz: Double, endHz: Double)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        var rates: [Double] = []
        for part in parts {
            guard let rate = Double(part), rate.isFinite, beatRange.contains(rate) else { return nil }
            rates.append(rate)
        }
        return (rates[0], rates[rates.count - 1])
    }
}
