import Breath

/// Everything besides the schedule that decides a render's samples: one value shared by the renderer, the
/// CLI's jobs and the export fingerprint, so two renders with equal settings are equal sample for sample.
public struct RenderSettings: Sendable, Equatable {
    /// The sound design.
    public var soundscape: Soundscape
    /// Interleaved channels per frame: 1 or 2.
    public var channelCount: Int
    /// Fixes the noise beds.
    public var seed: UInt64
    /// What marks each phase's start.
    public var cues: CueMode
    /// What marks the seconds inside a phase.
    public var count: CountMode
    /// Moves every guide sound (chimes, ticks, clips) by this many dB, −30…+12.
    public var cueVolumeDecibels: Double
    /// Spoken phrases and cue-pack clips at the session's rate (empty until the CLI supplies them).
    public var clips: GuideClips
    /// The voices included (a subset isolates voices for measurement; every other sample stays identical).
    public var voices: Voices
    /// A beat on the main tone (binaural or isochronic); nil for none.
    public var beat: Beat? = nil
    /// One gain on the whole output, dB, before the limiter (a loudness target's measured gain; 0 keeps the
    /// soundscape's calibrated level). The limiter's knee and ceiling move with it (see `RenderPlan`).
    public var loudnessGainDecibels: Double = 0
    /// How far under its ceiling the limiter holds the true peak for an encoder that adds peaks of its own, dB
    /// (≥ 0; 0 for PCM, `RenderPlan.lossyEncodingHeadroomDecibels` for Vorbis, Opus and MP3).
    public var encodingHeadroomDecibels: Double = 0
    /// A user's recording under the session and its level (nil: none); the samples reach the renderer through
    /// a `FrameReader`.
    public var bed: BedMix?
    /// Seconds of get-ready countdown before the first inhale (0: none; see `SessionFraming`).
    public var countdownSeconds: Int = 0
    /// Whether an end bell (and, with the voice, "the session is complete") follows the release.
    public var endBell: Bool = false

    /// The range `cueVolumeDecibels` accepts.
    public static let cueVolumeRange = SoundSettingRanges.cueVolumeDecibels

    public init(
        soundscape: Soundscape, channelCount: Int = 2, seed: UInt64 = 1, cues: CueMode = .chimes, count: CountMode = .none,
        cueVolumeDecibels: Double = 0, clips: GuideClips = .none, voices: Voices = .all, bed: BedMix? = nil
    ) {
        self.soundscape = soundscape
        self.channelCount = channelCount
        self.seed = seed
        self.cues = cues
        self.count = count
        self.cueVolumeDecibels = cueVolumeDecibels
        self.clips = clips
        self.voices = voices
        self.bed = bed
    }

    /// A one-line summary for fingerprints and logs (clips by phrase and length, not by sample).
    public var fingerprint: String {
        let phrases = clips.phrases.keys.sorted().map { "\($0):\(clips.phrases[$0]?.count ?? 0)" }.joined(separator: ",")
        let pack = CuePackSlot.allCases.compactMap { slot in clips.pack[slot].map { "\(slot.rawValue):\($0.count)" } }.joined(separator: ",")
        return "soundscape \(soundscape); channels \(channelCount); seed \(seed); cues \(cues.rawValue); count \(count.rawValue); "
            + "cue volume \(cueVolumeDecibels) dB; voices \(voices.rawValue); phrases [\(phrases)]; pack [\(pack)]"
            + (beat.map { "; beat \($0)" } ?? "") + (loudnessGainDecibels != 0 ? "; loudness gain \(loudnessGainDecibels) dB" : "")
            + (encodingHeadroomDecibels != 0 ? "; encoding headroom \(encodingHeadroomDecibels) dB" : "")
            + (bed.map { "; bed \($0.path) at \($0.gainDecibels) dB" } ?? "")
            + (countdownSeconds != 0 ? "; countdown \(countdownSeconds) s" : "") + (endBell ? "; end bell" : "")
    }
}
