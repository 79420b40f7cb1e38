import Synth

extension Soundscape.HoldSwell {
    /// Reads `"holdSwell"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["peak", "releaseSeconds"])
        let peak = try fields.requiredNumber("peak", in: Self.peakRange)
        let release = try fields.requiredNumber("releaseSeconds", in: Self.releaseRangeSeconds)
        self = try fields.checking { () throws(SoundscapeError) in try Self(peak: peak, releaseSeconds: release) }
    }
}

extension Soundscape.Calming {
    /// Reads `"calming"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["start", "end"])
        let start = try fields.requiredNumber("start", in: Self.scaleRange)
        let end = try fields.requiredNumber("end", in: Self.scaleRange)
        self = try fields.checking { () throws(SoundscapeError) in try Self(start: start, end: end) }
    }
}

extension Soundscape.Envelope {
    /// Reads `"envelope"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["fadeInSeconds", "releaseSeconds", "silenceSeconds"])
        let fadeIn = try fields.requiredNumber("fadeInSeconds", in: Self.fadeInRangeSeconds)
        let release = try fields.requiredNumber("releaseSeconds", in: Self.releaseRangeSeconds)
        let silence = try fields.requiredNumber("silenceSeconds", in: Self.silenceRangeSeconds)
        self = try fields.checking { () throws(SoundscapeError) in
            try Self(fadeInSeconds: fadeIn, releaseSeconds: release, silenceSeconds: silence)
        }
    }
}

extension Soundscape.Limiter {
    /// Reads `"limiter"`.
    init(_ fields: JSONFields) throws(ContentError) {
        try fields.rejectUnknownKeys(allowed: ["kneeDecibels", "ceilingDecibels"])
        let knee = try fields.requiredNumber("kneeDecibels", in: Self.levelRangeDecibels)
        let ceiling = try fields.requiredNumber("ceilingDecibels", in: Self.levelRangeDecibels)
        self = try fields.checking { () throws(SoundscapeError) in try Self(kneeDecibels: knee, ceilingDecibels: ceiling) }
    }
}
