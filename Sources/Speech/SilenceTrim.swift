/// Cuts the silence flite leaves around a phrase, so the first audible sample is the clip's first.
enum SilenceTrim {
    /// Samples under this fraction of the clip's peak (−40 dB) count as silence at either end.
    static let thresholdRatio: Float = 0.01
    /// A clip whose peak stays under this (−34 dBFS) is flite's noise floor, not speech: words peak at 0.19
    /// (kal16) to 0.8 (slt), while text flite cannot pronounce comes back as noise peaking near 0.001.
    static let minimumPeak: Float = 0.02
    /// Linear fade laid over what follows the last audible sample, so the cut makes no click.
    static let fadeOutSeconds = 0.010

    /// `samples` from the zero crossing just before the first audible sample to the last audible sample plus a
    /// short fade; empty when nothing is audible (the peak under `minimumPeak`).
    static func trimmed(_ samples: [Float], sampleRate: Int) -> [Float] {
        var peak: Float = 0
        for sample in samples { peak = max(peak, abs(sample)) }
        guard peak >= minimumPeak else { return [] }
        let threshold = peak * thresholdRatio
        guard let firstAudible = samples.firstIndex(where: { abs($0) >= threshold }),
            let lastAudible = samples.lastIndex(where: { abs($0) >= threshold })
        else { return [] }
        // Back up to where the wave last touched or crossed zero, so the clip starts without a step. flite's
        // leading silence is a noise floor a few LSB high, so this stops within the rising first half cycle.
        var start = firstAudible
        while start > 0, samples[start - 1] != 0, (samples[start - 1] > 0) == (samples[firstAudible] > 0) {
            start -= 1
        }
        let fadeFrames = min(Int(fadeOutSeconds * Double(sampleRate)), samples.count - 1 - lastAudible)
        var clip = Array(samples[start...(lastAudible + fadeFrames)])
        if fadeFrames > 0 {
            let fadeStart = clip.count - fadeFrames
            for index in 0..<fadeFrames {
                clip[fadeStart + index] *= Float(fadeFrames - index) / Float(fadeFrames + 1)
            }
        }
        return clip
    }
}
