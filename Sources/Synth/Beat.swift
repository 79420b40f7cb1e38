import Breath

/// A beat carried by the main tone: binaural (the left and right tones a few hertz apart) or isochronic (the
/// tone's level pulsing). Its rate holds still or glides linearly from `startHz` at the session's first frame to
/// `endHz` at its last; the horizon keeps moving the tone's pitch underneath.
public struct Beat: Sendable, Equatable, CustomStringConvertible {
    /// How the beat is heard.
    public enum Style: String, Sendable, CaseIterable {
        /// Left ear `pitch − beat/2`, right ear `pitch + beat/2`: needs two channels (headphones).
        case binaural
        /// One tone whose level pulses `beat` times a second, with smooth edges: any channel count.
        case isochronic
    }

    /// The rates a beat may take, Hz.
    public static let frequencyRange: ClosedRange<Double> = 0.5...40

    /// How the beat is heard.
    public var style: Style
    /// The beat's rate at the session's start, Hz.
    public var startHz: Double
    /// The beat's rate at the session's end, Hz (equal to `startHz` for a steady beat).
    public var endHz: Double

    /// A beat gliding from `startHz` to `endHz` (both within `frequencyRange`).
    public init(style: Style, startHz: Double, endHz: Double) {
        precondition(Self.frequencyRange.contains(startHz) && Self.frequencyRange.contains(endHz), "beat rates must be 0.5 to 40 Hz")
        self.style = style
        self.startHz = startHz
        self.endHz = endHz
    }

    /// A steady beat.
    public init(style: Style, hz: Double) {
        self.init(style: style, startHz: hz, endHz: hz)
    }

    /// The beat's rate at `frame`, Hz: linear in the session's progress, held after its end.
    public func frequencyHz(at frame: Int64, in schedule: Schedule) -> Double {
        startHz + (endHz - startHz) * schedule.sessionProgress(at: frame)
    }

    /// "binaural 10 Hz" or "isochronic 10→6 Hz".
    public var description: String {
        let rate = startHz == endHz ? "\(startHz)" : "\(startHz)→\(endHz)"
        return "\(style.rawValue) \(rate) Hz"
    }

    /// The isochronic pulse's level at a beat phase whose cosine is `c`: the smoothstep of `0.5 + c` clamped to
    /// [0, 1] — fully on for a third of each cycle, off for a third, and an S-shaped rise and fall (flat at both
    /// ends, so no click) across the thirds between.
    @inline(__always)
    static func pulse(cosine c: Float) -> Float {
        let u = min(1, max(0, 0.5 + c))
        return u * u * (3 - 2 * u)
    }
}
