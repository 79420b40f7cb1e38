/// What `Soundtrack.write` produced.
public struct SoundtrackWriteReport: Sendable, Equatable {
    /// Frames written.
    public var frameCount: Int64
    /// Frames per second.
    public var sampleRate: Int
    /// The file's size in bytes (0 for standard output).
    public var byteCount: Int64
    /// Wall-clock time the write took, seconds.
    public var wallSeconds: Double
    /// The written audio's integrated loudness (LUFS), measured while it was written; nil when not measured
    /// (a stream, raw PCM). −∞ for silence.
    public var loudnessLUFS: Double? = nil
    /// The largest absolute sample written (1 = full scale), with `loudnessLUFS`.
    public var samplePeak: Double? = nil

    /// Audio length in seconds.
    public var audioSeconds: Double { Double(frameCount) / Double(sampleRate) }
    /// How many times faster than real time the write ran.
    public var speedRatio: Double { wallSeconds > 0 ? audioSeconds / wallSeconds : .infinity }
}
