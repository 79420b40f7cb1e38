import CFlite
import Glibc
import Locking

/// Speaks phrases through flite, each distinct phrase once per process.
///
/// flite keeps global state and is not thread-safe, so every call into it runs under one process-wide lock,
/// and each (voice, pace, phrase) is synthesized once and then served from a cache: render workers can ask for
/// the same words at any time without calling flite again.
public struct SpeechSynthesizer: Sendable {
    /// nagi's pace: flite's default slowed by a fifth, the middle of the 1.15 to 1.25 asked for (chosen by
    /// measurement, not yet by ear). On slt "breathe in" lasts 0.71 s of sound and "breathe out" 0.67 s (0.60
    /// and 0.56 s at flite's own pace); every voice slows by the factor given, within 2 %.
    public static let defaultDurationStretch = 1.2
    /// The paces accepted: half to twice flite's own.
    public static let durationStretchRange = 0.5...2.0

    public let voice: SpeechVoice
    /// flite's `duration_stretch`: 1 is its own pace, larger is slower.
    public let durationStretch: Double

    /// - Precondition: `durationStretch` lies in `durationStretchRange`.
    public init(voice: SpeechVoice = .standard, durationStretch: Double = Self.defaultDurationStretch) {
        precondition(Self.durationStretchRange.contains(durationStretch), "duration stretch \(durationStretch)")
        self.voice = voice
        self.durationStretch = durationStretch
    }

    /// The phrase spoken, mono at the voice's rate, leading and trailing silence removed.
    /// - Throws: `SpeechError` when flite gives nothing audible.
    public func speak(_ phrase: SpeechPhrase) throws(SpeechError) -> SpeechClip {
        let key = FliteState.Key(voice: voice, durationStretch: durationStretch, text: phrase.text)
        let result: Result<SpeechClip, SpeechError> = fliteState.withLock { state in
            if let clip = state.clips[key] { return .success(clip) }
            let outcome = state.synthesize(key)
            if case .success(let clip) = outcome { state.clips[key] = clip }
            return outcome
        }
        return try result.get()
    }

    /// Forgets every clip spoken so far (for tests that need flite to run again).
    static func removeCachedClips() {
        fliteState.withLock { $0.clips.removeAll() }
    }

    /// How many times flite itself has spoken `phrase` with this voice and pace in this process (for tests of
    /// the cache; counted per phrase so that other speakers in the same process cannot disturb it).
    func synthesisCount(of phrase: SpeechPhrase) -> Int {
        let key = FliteState.Key(voice: voice, durationStretch: durationStretch, text: phrase.text)
        return fliteState.withLock { $0.synthesisCounts[key, default: 0] }
    }
}

/// Everything that touches flite, behind one lock.
private let fliteState = FliteGuard()

/// flite's state and the lock every use of it takes.
private final class FliteGuard: @unchecked Sendable {
    private let lock = Lock()
    private var state = FliteState()

    /// Runs `body` on the state while holding the lock.
    func withLock<Result>(_ body: (inout FliteState) -> Result) -> Result {
        lock.withLock { body(&state) }
    }
}

/// flite's voices (created once, kept for the process) and the clips already spoken.
private struct FliteState: ~Copyable {
    struct Key: Hashable {
        var voice: SpeechVoice
        var durationStretch: Double
        var text: String
    }

    /// flite keeps a feature's name pointer rather than copying it (cst_features.c, feat_set), so the name must
    /// outlive every voice: a C string made once and never freed. A Swift string passed directly is a temporary,
    /// and the stretch then silently fails to apply on the clustergen voices.
    private let durationStretchName: UnsafePointer<CChar> = {
        let text = "duration_stretch".utf8CString
        let name = UnsafeMutablePointer<CChar>.allocate(capacity: text.count)
        for (index, byte) in text.enumerated() { (name + index).initialize(to: byte) }
        return UnsafePointer(name)
    }()

    var isInitialized = false
    var voices: [SpeechVoice: UnsafeMutablePointer<cst_voice>] = [:]
    var clips: [Key: SpeechClip] = [:]
    var synthesisCounts: [Key: Int] = [:]

    mutating func synthesize(_ key: Key) -> Result<SpeechClip, SpeechError> {
        if !isInitialized {
            flite_init()
            isInitialized = true
        }
        guard let voice = voices[key.voice] ?? key.voice.register() else {
            return .failure(.voiceUnavailable(key.voice))
        }
        voices[key.voice] = voice
        feat_set_float(voice.pointee.features, durationStretchName, Float(key.durationStretch))
        synthesisCounts[key, default: 0] += 1
        // The clustergen voices excite unvoiced sounds with libc's rand(): seeding it as a fresh process does makes
        // each phrase the same whatever was spoken before it (and the same as the flite tool's), so renders repeat.
        srand(1)
        guard let wave = flite_text_to_wave(key.text, voice) else {
            return .failure(.synthesisFailed(phrase: key.text, voice: key.voice))
        }
        defer { delete_wave(wave) }
        let sampleRate = Int(wave.pointee.sample_rate)
        let frameCount = Int(wave.pointee.num_samples)
        guard sampleRate > 0, frameCount > 0, wave.pointee.num_channels == 1, let source = wave.pointee.samples else {
            return .failure(.synthesisFailed(phrase: key.text, voice: key.voice))
        }
        var samples = [Float](repeating: 0, count: frameCount)
        for index in 0..<frameCount {
            samples[index] = Float(source[index]) / 32_768
        }
        let trimmed = SilenceTrim.trimmed(samples, sampleRate: sampleRate)
        guard !trimmed.isEmpty else { return .failure(.silent(phrase: key.text, voice: key.voice)) }
        return .success(SpeechClip(samples: trimmed, sampleRate: sampleRate))
    }
}
