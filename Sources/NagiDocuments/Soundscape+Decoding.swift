import Synth

/// A soundscape preset read from JSON (`Presets/soundscapes/`): every key is the name of the Synth field it
/// fills, every value checked on the way in (a wrong type, a missing key or an unknown one, a number out of the
/// range Synth gives for it), then by Synth's own initializers (the rules that tie one field to another), each
/// fault named at its JSON path.
extension Soundscape {
    /// The keys a soundscape document may have.
    static let keys = [
        "title", "description", "masterGainDecibels", "tone", "shimmer", "trail", "water", "holdSwell",
        "calming", "sessionDecayDecibels", "envelope", "cues", "rain", "limiter", "bed", "bedLevel",
    ]

    /// Reads a soundscape preset. Every key is required except `rain`, `bed` and `bedLevel`; unknown keys, wrong
    /// types and numbers out of range are errors naming the file and JSON path (`$.tone.lowFrequencyHz`).
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
        let title = try fields.requiredString("title")
        let description = try fields.requiredString("description")
        let masterGain = try fields.requiredNumber("masterGainDecibels", in: masterGainRangeDecibels)
        let tone = try Tone(fields.requiredObject("tone"))
        let shimmer = try Shimmer(fields.requiredObject("shimmer"))
        let trail = try Trail(fields.requiredObject("trail"))
        let water = try Water(fields.requiredObject("water"))
        let holdSwell = try HoldSwell(fields.requiredObject("holdSwell"))
        let calming = try Calming(fields.requiredObject("calming"))
        let sessionDecay = try fields.requiredNumber("sessionDecayDecibels", in: sessionDecayRangeDecibels)
        let envelope = try Envelope(fields.requiredObject("envelope"))
        let cues = try Cues(fields.requiredObject("cues"))
        let limiter = try Limiter(fields.requiredObject("limiter"))
        let bedLevel = try fields.number("bedLevel", in: BedMix.levelRange)
        return try fields.checking { () throws(SoundscapeError) in
            try Soundscape(
                title: title, description: description, masterGainDecibels: masterGain, tone: tone, shimmer: shimmer,
                trail: trail, water: water, holdSwell: holdSwell, calming: calming, sessionDecayDecibels: sessionDecay,
                envelope: envelope, cues: cues, rain: rain, limiter: limiter, bed: bed, bedLevelDecibels: bedLevel)
        }
    }

    /// Reads a soundscape preset from JSON text.
    public static func decode(text: String, file: String) throws(ContentError) -> Soundscape {
        try decode(JSONParser.parse(text, file: file), file: file)
    }
}
