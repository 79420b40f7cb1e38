import Breath
import NagiDocuments

/// A complete sound design: every number that shapes how a breathing schedule sounds, read from a JSON preset
/// in `Presets/soundscapes/` (the code holds none of them). Immutable and `Sendable`.
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

    static let keys = [
        "title", "description", "masterGainDecibels", "tone", "shimmer", "trail", "water", "holdSwell",
        "calming", "sessionDecayDecibels", "envelope", "cues", "rain", "limiter", "bed", "bedLevel",
    ]

    /// Reads a soundscape preset. Every key is required except `rain`; unknown keys, wrong types and numbers
    /// out of range are errors naming the file and JSON path (`$.tone.lowFrequencyHz`).
    public static func decode(_ value: JSONValue, file: String) throws(ContentError) -> Soundscape {
        let fields = try JSONFields(value, file: file, path: "$")
        try fields.rejectUnknownKeys(allowed: keys)
        let rain: Rain?
        if let rainFields = try fields.object("rain") {
            rain = try Rain(rainFields)
        } else {
            rain = nil
        }
        let bed = try fields.string("bed")
        if let bed, bed.isEmpty { throw fields.error("bed", "expected the path of an audio file") }
        return Soundscape(
            title: try fields.requiredDisplayText("title"),
            description: try fields.requiredDisplayText("description"),
            masterGainDecibels: try fields.requiredNumber("masterGainDecibels", in: -60...24),
            tone: try Tone(fields.requiredObject("tone")),
            shimmer: try Shimmer(fields.requiredObject("shimmer")),
            trail: try Trail(fields.requiredObject("trail")),
            water: try Water(fields.requiredObject("water")),
            holdSwell: try HoldSwell(fields.requiredObject("holdSwell")),
            calming: try Calming(fields.requiredObject("calming")),
            sessionDecayDecibels: try fields.requiredNumber("sessionDecayDecibels", in: 0...24),
            envelope: try Envelope(fields.requiredObject("envelope")),
            cues: try Cues(fields.requiredObject("cues")),
            rain: rain,
            limiter: try Limiter(fields.requiredObject("limiter")),
            bed: bed,
            bedLevelDecibels: try fields.number("bedLevel", in: BedMix.levelRange)
        )
    }

    /// This soundscape with a relative `bed` path placed in `folder` (the soundscape file's), so it names the
    /// same file from any working directory.
    public func resolvingBed(relativeTo folder: String) -> Soundscape {
        guard let bed, !bed.hasPrefix("/") else { return self }
        var resolved = self
        resolved.bed = folder.isEmpty ? bed : (folder.hasSuffix("/") ? folder : folder + "/") + bed
        return resolved
    }

    /// Reads a soundscape preset from JSON text.
    public static func decode(text: String, file: String) throws(ContentError) -> Soundscape {
        try decode(JSONParser.parse(text, file: file), file: file)
    }
}
