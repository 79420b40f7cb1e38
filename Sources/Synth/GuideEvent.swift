import Breath

/// One sound of the guide: what plays, on which frame, for which phase.
public struct GuideEvent: Sendable, Equatable {
    /// The sounds the guide places.
    public enum Sound: Sendable, Equatable, Hashable {
        /// A chime from the soundscape (not cut at the next boundary: it rings out).
        case chime(ChimeKind)
        /// A soft tick at a pitch, Hz.
        case tick(pitchHz: Double)
        /// A spoken phrase, keyed by its text; skipped if its clip would run past the phase's end.
        case phrase(String)
        /// A cue-pack clip; cut at the phase's end with a short fade.
        case pack(CuePackSlot)
    }

    /// The chimes a soundscape designs.
    public enum ChimeKind: String, Sendable, Equatable, Hashable, CaseIterable {
        case inhale, hold, exhale
        /// The first phase of a labelled stage whose step changes.
        case stage

        /// The chime of a phase kind (both holds share one).
        public init(_ kind: PhaseKind) {
            switch kind {
            case .inhale: self = .inhale
            case .holdIn, .holdOut: self = .hold
            case .exhale: self = .exhale
            }
        }
    }

    /// The frame the sound's first sample lands on (a boundary, or a whole second after one).
    public var frame: Int64
    /// What plays.
    public var sound: Sound
    /// The phase it belongs to (index into the schedule's phases).
    public var phaseIndex: Int
    /// The phase's end: clips must be over by then.
    public var phaseEndFrame: Int64
}
