import CNagiSpeech
import Glibc
import Locking

/// Speaks phrases through flite, each distinct phrase once per process.
///
/// flite keeps global state and is not thread-safe, so every call into it runs under one process-wide lock,
/// and each (voice, pace, phrase) is synthesized once and then served from a cache: render workers can ask for
/// the same words at any time without calling flite again. Many phrases at once (`speakAll`) can be spoken in
/// several processes: child processes forked for it speak a share each, which is how flite runs on more than one
/// core.
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
        return try fliteState.withLock { $0.outcome(of: key) }.get()
    }

    /// Every phrase spoken (as `speak` speaks it, the same samples), on up to `processCount` processes at once (no
    /// more than there are cores):
    /// the phrases not yet cached are shared out by length, this process speaks one share and a forked child
    /// each other (`nagi_flite_speak_forked`). A child that fails or dies costs only time: what it did not deliver
    /// is spoken here. Results come in the order of `phrases`.
    public func speakAll(_ phrases: [SpeechPhrase], processCount: Int) -> [Result<SpeechClip, SpeechError>] {
        let keys = phrases.map { FliteState.Key(voice: voice, durationStretch: durationStretch, text: $0.text) }
        return fliteState.withLock { state in
            if processCount > 1 { state.speakInProcesses(keys, processCount: processCount) }
            return keys.map { state.outcome(of: $0) }
        }
    }

    /// Runs `body` under flite's lock with this synthesizer's voice, set to its pace (nil when the voice cannot be
    /// had): for tests that drive a `ForkedSpeaker` themselves.
    /// `body` is `@Sendable` and its result `Sendable`: the voice it is lent belongs to the lock's state and
    /// does not leave it.
    func withVoice<Result: Sendable>(_ body: @Sendable (UnsafeMutableRawPointer) -> Result) -> Result? {
        let key = FliteState.Key(voice: voice, durationStretch: durationStretch, text: "")
        return fliteState.withLock { state in state.preparedVoice(key).map(body) }
    }

    /// Forgets the clips spoken so far with this voice and pace (for tests that need flite to run again): only
    /// these, so that tests running alongside with other voices or paces keep theirs and cannot undo this one's.
    func removeCachedClips() {
        fliteState.withLock { state in
            state.outcomes = state.outcomes.filter { $0.key.voice != voice || $0.key.durationStretch != durationStretch }
        }
    }

    /// How many times flite itself has spoken `phrase` with this voice and pace in this process (for tests of
    /// the cache; counted per phrase so that other speakers in the same process cannot disturb it).
    func synthesisCount(of phrase: SpeechPhrase) -> Int {
        let key = FliteState.Key(voice: voice, durationStretch: durationStretch, text: phrase.text)
        return fliteState.withLock { $0.synthesisCounts[key, default: 0] }
    }
}

/// Everything that touches flite, behind one lock: flite is one instance per process, and not reentrant.
private let fliteState = Locked(FliteState())

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

    /// The cores online: more processes than these speak no sooner.
    static let coreCount = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    var voices: [SpeechVoice: UnsafeMutableRawPointer] = [:]
    /// What each phrase gave, failures included: flite is deterministic (its `rand` seeded per phrase), so a
    /// phrase that failed once fails again.
    var outcomes: [Key: Result<SpeechClip, SpeechError>] = [:]
    var synthesisCounts: [Key: Int] = [:]

    /// What `key` gives: from the cache, else spoken here and cached.
    mutating func outcome(of key: Key) -> Result<SpeechClip, SpeechError> {
        if let known = outcomes[key] { return known }
        let spoken = synthesize(key)
        outcomes[key] = spoken
        return spoken
    }

    /// The voice of `key`, set to its pace: flite loaded and the voice registered on first use.
    mutating func preparedVoice(_ key: Key) -> UnsafeMutableRawPointer? {
        guard let voice = voices[key.voice] ?? key.voice.register() else { return nil }
        voices[key.voice] = voice
        nagi_flite_set_float_feature(voice, durationStretchName, Float(key.durationStretch))
        return voice
    }

    mutating func synthesize(_ key: Key) -> Result<SpeechClip, SpeechError> {
        guard let voice = preparedVoice(key) else { return .failure(.voiceUnavailable(key.voice)) }
        synthesisCounts[key, default: 0] += 1
        // Seeds libc's rand() first, as a forked speaker does (CNagiSpeech.h): each phrase the same whatever was
        // spoken before it, and the same as the flite tool's, so renders repeat.
        guard let wave = nagi_flite_text_to_wave(key.text, voice) else {
            return .failure(.synthesisFailed(phrase: key.text, voice: key.voice))
        }
        defer { nagi_flite_delete_wave(wave) }
        var sampleRate: Int32 = 0, channelCount: Int32 = 0, sampleCount: Int32 = 0
        guard let source = nagi_flite_wave_samples(wave, &sampleRate, &channelCount, &sampleCount), channelCount == 1 else {
            return .failure(.synthesisFailed(phrase: key.text, voice: key.voice))
        }
        return Self.clip(key, samples: UnsafeBufferPointer(start: source, count: Int(max(0, sampleCount))), sampleRate: Int(sampleRate))
    }

    /// flite's 16-bit wave for `key` as a clip: floats, silence trimmed.
    private static func clip(_ key: Key, samples source: UnsafeBufferPointer<Int16>, sampleRate: Int) -> Result<SpeechClip, SpeechError> {
        guard sampleRate > 0, !source.isEmpty else {
            return .failure(.synthesisFailed(phrase: key.text, voice: key.voice))
        }
        var samples = [Float](repeating: 0, count: source.count)
        for index in source.indices {
            samples[index] = Float(source[index]) / 32_768
        }
        let trimmed = SilenceTrim.trimmed(samples, sampleRate: sampleRate)
        guard !trimmed.isEmpty else { return .failure(.silent(phrase: key.text, voice: key.voice)) }
        return .success(SpeechClip(samples: trimmed, sampleRate: sampleRate))
    }

    /// Speaks the keys not yet cached in up to `processCount` processes and caches what they give: shares
    /// balanced by text length (longest first, each to the lightest share), this process speaking the first
    /// while forked children speak the others. Anything a child does not deliver is left uncached, for the
    /// caller to speak here.
    mutating func speakInProcesses(_ keys: [Key], processCount: Int) {
        var pending: [Key] = []
        for key in keys where outcomes[key] == nil && !pending.contains(key) { pending.append(key) }
        let shareCount = min(processCount, pending.count, Self.coreCount)
        guard shareCount > 1, let first = pending.first, let voice = preparedVoice(first) else { return }
        var shares = [[Key]](repeating: [], count: shareCount)
        var weights = [Int](repeating: 0, count: shareCount)
        for key in pending.sorted(by: { $0.text.utf8.count > $1.text.utf8.count }) {
            let lightest = weights.indices.min { weights[$0] < weights[$1] } ?? 0
            shares[lightest].append(key)
            weights[lightest] += key.text.utf8.count + 1
        }
        let children = shares.dropFirst().map { share in ForkedSpeaker(voice: voice, texts: share.map(\.text)).map { (share, $0) } }
        for key in shares[0] { _ = outcome(of: key) }
        for case let (share, child)? in children {
            let waves = child.collect()
            for (key, wave) in zip(share, waves) {
                synthesisCounts[key, default: 0] += 1
                let delivered = wave.samples.withUnsafeBufferPointer { Self.clip(key, samples: $0, sampleRate: wave.sampleRate) }
                // A wave that is no clip here (silent once trimmed) is spoken again by the caller, for its error.
                if case .success = delivered { outcomes[key] = delivered }
            }
        }
    }
}
