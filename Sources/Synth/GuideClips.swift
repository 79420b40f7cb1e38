/// Recorded or synthesized sounds the guide places on boundaries, as mono Float samples at the session's
/// sample rate (synthesis, file reading and resampling happen outside Synth, which imports no C).
public struct GuideClips: Sendable, Equatable {
    /// Spoken phrases, keyed by their text ("breathe in", "two", "round two").
    public var phrases: [String: [Float]]
    /// A user's cue pack: played in place of the chimes; a hold after an exhale falls back to `hold`.
    public var pack: [CuePackSlot: [Float]]

    /// No clips.
    public static let none = GuideClips(phrases: [:], pack: [:])

    public init(phrases: [String: [Float]] = [:], pack: [CuePackSlot: [Float]] = [:]) {
        self.phrases = phrases
        self.pack = pack
    }

    /// Whether a cue pack replaces the chimes.
    public var hasPack: Bool { !pack.isEmpty }

    /// The pack clip a slot plays: its own, else its fallback's.
    public func packClip(_ slot: CuePackSlot) -> [Float]? {
        pack[slot] ?? slot.fallback.flatMap { pack[$0] }
    }
}
