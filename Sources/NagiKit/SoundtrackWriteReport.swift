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

    /// Audio length in seconds.
    public var audioSeconds: Double { Double(frameCount) / Double(sampleRate) }
    /// How many times faster than real time the write ran.
    public var speedRatio: Double { wallSeconds > 0 ? audioSeconds / wallSeconds : .infinity }
}
