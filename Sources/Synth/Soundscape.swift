import NagiBase

/// A complete sound design: every number that shapes how a breathing schedule sounds, read from a JSON preset
/// in `Presets/soundscapes/` (the code holds none of them; NagiDocuments' `Soundscape.decode` reads one).
/// Immutable and `Sendable`.
///
/// The voices, after the horizon picture (docs/sound-design.md): a main tone whose pitch and gain follow the horizon level L, with a
/// restrained shimmer (the horizon's sine wave); a softer trailing pad following L through a lag (the glow);
/// a water bed of filtered noise moved by three slow ripple layers that swell during holds and calm over the
/// session; a chime per phase kind (the haptic tap); an optional rain bed.
public struct Soundscape: Sendable, Equatable {
    /// A short human name ("Horizon").
    public let title: String
    /// One sentence on what it sounds like.
    public let description: String
    /// The gain applied to everything, tuned per preset so every soundscape measures about −20 LUFS.
    public let masterGainDecibels: Double
    /// The main tone.
    public let tone: Tone
    /// The horizon wave's vibrato and tremolo on the main tone.
    public let shimmer: Shimmer
    /// The pad trailing the level curve.
    public let trail: Trail
    /// The water bed and its ripple layers.
    public let water: Water
    /// How the ripples swell through each hold.
    public let holdSwell: HoldSwell
    /// How modulation calms over the session.
    public let calming: Calming
    /// How far the overall level falls from the session's start to its end, in dB (≥ 0; never to silence).
    public let sessionDecayDecibels: Double
    /// Fade-in, release and the closing silence.
    public let envelope: Envelope
    /// The chimes at phase starts.
    public let cues: Cues
    /// The optional rain bed; nil for none.
    public let rain: Rain?
    /// The output safety limiter.
    public let limiter: Limiter
    /// A user's recording to lay under the session (`"bed"`: absolute, or relative to the soundscape file once
    /// `resolvingBed(relativeTo:)` has placed it); nil for none. `--bed` replaces it.
    public var bed: String? = nil
    /// The bed's level (`"bedLevel"`), LU relative to the nominal −20 LUFS; nil for the default.
    public var bedLevelDecibels: Double? = nil

    /// The range of `masterGainDecibels`, dB.
    public static let masterGainRangeDecibels: ClosedRange<Double> = -60...24
    /// The range of `sessionDecayDecibels`, dB.
    public static let sessionDecayRangeDecibels: ClosedRange<Double> = 0...24

    /// A sound design from its parts, checked: each number within its range (`bedLevelDecibels` within
    /// `BedMix.levelRange`), `bed` nil or a path.
    /// - Throws: `SoundscapeError` naming the field at fault.
    public init(
        title: String, description: String, masterGainDecibels: Double, tone: Tone, shimmer: Shimmer, trail: Trail,
        water: Water, holdSwell: HoldSwell, calming: Calming, sessionDecayDecibels: Double, envelope: Envelope, cues: Cues,
        rain: Rain?, limiter: Limiter, bed: String? = nil, bedLevelDecibels: Double? = nil
    ) throws(SoundscapeError) {
        if let bed, bed.isEmpty { throw SoundscapeError(field: "bed", reason: "expected the path of an audio file") }
        self.title = title
        self.description = description
        self.masterGainDecibels = try SoundscapeError.checked(masterGainDecibels, "masterGainDecibels", in: Self.masterGainRangeDecibels)
        (self.tone, self.shimmer, self.trail, self.water) = (tone, shimmer, trail, water)
        (self.holdSwell, self.calming) = (holdSwell, calming)
        self.sessionDecayDecibels = try SoundscapeError.checked(sessionDecayDecibels, "sessionDecayDecibels", in: Self.sessionDecayRangeDecibels)
        (self.envelope, self.cues, self.rain, self.limiter, self.bed) = (envelope, cues, rain, limiter, bed)
        if let bedLevelDecibels { _ = try SoundscapeError.checked(bedLevelDecibels, "bedLevelDecibels", in: BedMix.levelRange) }
        self.bedLevelDecibels = bedLevelDecibels
    }

    /// This soundscape with a relative `bed` path placed in `folder` (the soundscape file's), so it names the
    /// same file from any working directory.
    public func resolvingBed(relativeTo folder: String) -> Soundscape {
        guard let bed else { return self }
        var resolved = self
        resolved.bed = FilePath(bed).resolved(against: FilePath(folder)).string
        return resolved
    }
}
