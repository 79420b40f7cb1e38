/// Which voices a render includes. The product always renders `.all` (the guide chosen by `RenderSettings`);
/// a subset isolates one voice for measurement or plotting, with every other voice sample-identical.
public struct Voices: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The main tone.
    public static let tone = Voices(rawValue: 1 << 0)
    /// The trailing pad.
    public static let trail = Voices(rawValue: 1 << 1)
    /// The water bed.
    public static let water = Voices(rawValue: 1 << 2)
    /// The rain bed (when the soundscape has one).
    public static let rain = Voices(rawValue: 1 << 3)
    /// The guide: chimes, ticks and clips (when the settings ask for them).
    public static let cues = Voices(rawValue: 1 << 4)
    /// Everything.
    public static let all: Voices = [.tone, .trail, .water, .rain, .cues]
}
