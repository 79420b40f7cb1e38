/// A user's cue clip at the session rate, as the renderer mixes it.
///
/// Mixing: a mono clip goes into every output channel at its own level (centred, no pan-law cut); a stereo clip
/// goes left to left and right to right, and into a mono output as (left + right) / 2. The clip's first frame
/// lands on the phase's first frame; the renderer cuts it at the next boundary with a short fade.
public struct CueClip: Sendable, Equatable {
    /// Interleaved samples, ±1 full scale, as recorded (only resampled).
    public let samples: [Float]
    /// 1 or 2.
    public let channelCount: Int
    /// The session rate the clip was resampled to.
    public let sampleRate: Int
    /// The file it came from, for messages.
    public let sourcePath: String

    public var frameCount: Int { samples.count / channelCount }
    public var durationSeconds: Double { Double(frameCount) / Double(sampleRate) }

    public init(samples: [Float], channelCount: Int, sampleRate: Int, sourcePath: String) {
        self.samples = samples
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.sourcePath = sourcePath
    }
}
