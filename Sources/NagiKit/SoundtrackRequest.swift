import AudioFile
import Breath
import Speech
import Synth

/// Everything that decides a soundtrack's samples, as a plain value: what `Soundtrack.prepare` turns into
/// sound. Two equal requests prepare soundtracks that are equal sample for sample.
public struct SoundtrackRequest: Sendable {
    /// The guide: what marks each phase and its seconds, in which voice, how loud.
    public struct Guide: Sendable, Equatable {
        /// What marks each phase's start: chimes (the default), spoken words, both or nothing.
        public var cues: CueMode
        /// What marks the seconds inside a phase.
        public var count: CountMode
        /// The flite voice spoken cues and counts use.
        public var voice: SpeechVoice
        /// A folder of clips played in place of the chimes (nil: the chimes).
        public var cuePackFolder: String?
        /// Moves every guide sound by this many dB (`RenderSettings.cueVolumeRange`).
        public var cueVolumeDecibels: Double
        /// Seconds of get-ready countdown before the first inhale, 0 for none (`SessionFraming.countdownRange`).
        public var countdownSeconds: Int
        /// Whether an end bell (and, with the voice, "the session is complete") follows the release.
        public var endBell: Bool

        /// A guide; the defaults are the chimes alone, no count, the voice `slt`, at 0 dB, no countdown, no end bell.
        public init(
            cues: CueMode = .chimes, count: CountMode = .none, voice: SpeechVoice = .slt, cuePackFolder: String? = nil, cueVolumeDecibels: Double = 0,
            countdownSeconds: Int = 0, endBell: Bool = false
        ) {
            (self.cues, self.count, self.voice) = (cues, count, voice)
            (self.cuePackFolder, self.cueVolumeDecibels) = (cuePackFolder, cueVolumeDecibels)
            (self.countdownSeconds, self.endBell) = (countdownSeconds, endBell)
        }
    }

    /// A user's recording under the whole session.
    public struct Bed: Sendable, Equatable {
        /// The recording (WAV, FLAC, Ogg, Opus, MP3...; 1 to 8 channels).
        public var path: String
        /// Its loudness in LU against the session's −20 LUFS (`BedMix.levelRange`).
        public var levelDecibels: Double

        /// A bed at `levelDecibels` (default `BedMix.defaultLevelDecibels`).
        public init(path: String, levelDecibels: Double = BedMix.defaultLevelDecibels) {
            self.path = path
            self.levelDecibels = levelDecibels
        }
    }

    /// The exact schedule: the session at its sample rate.
    public var schedule: Schedule
    /// The sound design.
    public var soundscape: Soundscape
    /// Interleaved channels per frame: 1 or 2.
    public var channelCount: Int
    /// Fixes the noise beds.
    public var seed: UInt64
    /// The guide.
    public var guide: Guide
    /// A recording under the session, nil for none.
    public var bed: Bed?
    /// A binaural or isochronic beat on the main tone (stereo only when binaural), nil for none.
    public var beat: Beat?
    /// An integrated loudness target, LUFS: measured in a first pass and reached with one gain (nil: the
    /// soundscape's calibrated level).
    public var loudnessTargetLUFS: Double?
    /// How far under its true-peak ceiling the limiter holds the output for the encoder it goes to, dB: 0 for PCM
    /// and live play, `RenderPlan.lossyEncodingHeadroomDecibels` for Vorbis, Opus and MP3
    /// (`encodingHeadroomDecibels(for:)`). The loudness pass meters the render at it, so the gain it chooses
    /// and the loudness it says it reached are those of the encoded file, not of a PCM render limited less.
    public var encodingHeadroomDecibels: Double = 0

    /// A request for `schedule` in `soundscape`; the defaults are stereo, seed 1, the chimes, no bed, no beat,
    /// the calibrated level.
    public init(
        schedule: Schedule, soundscape: Soundscape, channelCount: Int = 2, seed: UInt64 = 1, guide: Guide = Guide(),
        bed: Bed? = nil, beat: Beat? = nil, loudnessTargetLUFS: Double? = nil
    ) {
        precondition(channelCount == 1 || channelCount == 2, "channelCount must be 1 or 2, not \(channelCount)")
        self.schedule = schedule
        self.soundscape = soundscape
        self.channelCount = channelCount
        self.seed = seed
        self.guide = guide
        self.bed = bed
        self.beat = beat
        self.loudnessTargetLUFS = loudnessTargetLUFS
    }

    /// The encoding headroom a `format` file needs (`encodingHeadroomDecibels`): the lossy encoders add peaks
    /// of their own.
    public static func encodingHeadroomDecibels(for format: AudioFileFormat) -> Double {
        format.isLossy ? RenderPlan.lossyEncodingHeadroomDecibels : 0
    }

    /// This request as prepared for a `format` file's encoder: its `encodingHeadroomDecibels` the format's.
    public func forEncoder(of format: AudioFileFormat) -> SoundtrackRequest {
        var request = self
        request.encodingHeadroomDecibels = Self.encodingHeadroomDecibels(for: format)
        return request
    }

    /// The rule for every setting three places may give — the caller's explicit choice over a course lesson's
    /// over the soundscape's default: the first of them that is set. Every command resolves its options with it.
    public static func chosen<Value>(_ explicit: Value?, lesson: Value?, soundscape: Value? = nil) -> Value? {
        explicit ?? lesson ?? soundscape
    }
}
