import NagiMath

extension ControlCurves {
    /// The bed's loudness as heard at `frame`, LU against the nominal −20 LUFS, for a bed set to
    /// `levelDecibels`: its level moved by the session decay, the envelope (fade-in and release) and the hold
    /// swell, as the renderer applies them (ducking under speech aside). Floored at −120 where it is silent.
    public func bedLevelDecibels(at frame: Int64, levelDecibels: Double) -> Double {
        let factor = holdSwell(at: frame) * envelopeGain(at: frame)
        return levelDecibels + sessionGainDecibels(at: frame) + 20 * log10(max(factor, 1e-6))
    }
}
