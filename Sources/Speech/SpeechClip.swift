/// A spoken phrase as mono samples at the voice's own rate, its first audible sample at index 0.
public struct SpeechClip: Sendable, Equatable {
    /// Mono samples, ±1 full scale.
    public let samples: [Float]
    /// Frames per second (16 000 for every voice nagi links).
    public let sampleRate: Int

    public var frameCount: Int { samples.count }
    public var durationSeconds: Double { Double(samples.count) / Double(sampleRate) }

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }
}
