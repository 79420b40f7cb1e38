import Synth

extension Soundscape.Cues {
    /// Reads `"cues"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: [
            "gainDecibels", "attackSeconds", "lengthSeconds", "fadeOutSeconds", "partials", "inhale", "hold", "exhale",
            "stage", "tick", "clipGainDecibels", "duckDecibels",
        ])
        let gain = try fields.requiredNumber("gainDecibels", in: Self.gainRangeDecibels)
        let attack = try fields.requiredNumber("attackSeconds", in: Self.attackRangeSeconds)
        let length = try fields.requiredNumber("lengthSeconds", in: Self.lengthRangeSeconds)
        let fadeOut = try fields.requiredNumber("fadeOutSeconds", in: Self.fadeOutRangeSeconds)
        var partials: [Partial] = []
        for partial in try fields.requiredObjects("partials", counts: Self.partialCounts) {
            partials.append(try Partial(partial))
        }
        let inhale = try Chime(fields.requiredObject("inhale"))
        let hold = try Chime(fields.requiredObject("hold"))
        let exhale = try Chime(fields.requiredObject("exhale"))
        let stage = try Chime(fields.requiredObject("stage"))
        let tick = try Tick(fields.requiredObject("tick"))
        let clipGain = try fields.requiredNumber("clipGainDecibels", in: Self.clipGainRangeDecibels)
        let duck = try fields.requiredNumber("duckDecibels", in: Self.duckRangeDecibels)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(
                gainDecibels: gain, attackSeconds: attack, lengthSeconds: length, fadeOutSeconds: fadeOut, partials: partials,
                inhale: inhale, hold: hold, exhale: exhale, stage: stage, tick: tick, clipGainDecibels: clipGain, duckDecibels: duck)
        }
    }
}

extension Soundscape.Cues.Tick {
    /// Reads `"tick"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["highHz", "lowHz", "decaySeconds", "lengthSeconds", "gainDecibels"])
        let high = try fields.requiredNumber("highHz", in: Self.frequencyRangeHz)
        let low = try fields.requiredNumber("lowHz", in: Self.frequencyRangeHz)
        let decay = try fields.requiredNumber("decaySeconds", in: Self.decayRangeSeconds)
        let length = try fields.requiredNumber("lengthSeconds", in: Self.lengthRangeSeconds)
        let gain = try fields.requiredNumber("gainDecibels", in: Self.gainRangeDecibels)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(highHz: high, lowHz: low, decaySeconds: decay, lengthSeconds: length, gainDecibels: gain)
        }
    }
}

extension Soundscape.Cues.Partial {
    /// Reads one of `"partials"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["ratio", "amplitude", "decaySeconds"])
        let ratio = try fields.requiredNumber("ratio", in: Self.ratioRange)
        let amplitude = try fields.requiredNumber("amplitude", in: Self.amplitudeRange)
        let decay = try fields.requiredNumber("decaySeconds", in: Self.decayRangeSeconds)
        self = try fields.checking { () throws(SoundscapeError) in try Self(ratio: ratio, amplitude: amplitude, decaySeconds: decay) }
    }
}

extension Soundscape.Cues.Chime {
    /// Reads `"inhale"`, `"hold"`, `"exhale"` or `"stage"` (whether its notes fit the chime's length, `Cues` checks).
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["notesHz", "noteSpacingSeconds", "gainDecibels"])
        let notes = try fields.requiredNumbers("notesHz", in: Self.noteRangeHz, counts: Self.noteCounts)
        let spacing = try fields.requiredNumber("noteSpacingSeconds", in: Self.spacingRangeSeconds)
        let gain = try fields.requiredNumber("gainDecibels", in: Self.gainRangeDecibels)
        self = try fields.checking { () throws(SoundscapeError) in try Self(notesHz: notes, noteSpacingSeconds: spacing, gainDecibels: gain) }
    }
}
