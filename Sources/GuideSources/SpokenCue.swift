import NagiBase
import Resampling
import Speech

/// Spoken guide words as cue clips at the session rate: flite's speech (each phrase synthesized once per
/// process), resampled with libsoxr, its first audible sample at frame 0.
public enum SpokenCue {
    /// `phrase` in `voice` at nagi's pace, mono, at `sampleRate`.
    /// - Throws: `SpokenCueError`.
    public static func clip(
        _ phrase: SpeechPhrase, voice: SpeechVoice = .standard, sampleRate: Int
    ) throws(SpokenCueError) -> CueClip {
        let speech: SpeechClip
        do { speech = try SpeechSynthesizer(voice: voice).speak(phrase) } catch { throw .speech(error) }
        return try clip(speech, voice: voice, sampleRate: sampleRate)
    }

    /// `speech`, flite's words in `voice` at the voice's rate, resampled to `sampleRate`.
    /// - Throws: `SpokenCueError.resampling`.
    public static func clip(_ speech: SpeechClip, voice: SpeechVoice, sampleRate: Int) throws(SpokenCueError) -> CueClip {
        do {
            let samples = try Resampler.resample(speech.samples, channelCount: 1, from: speech.sampleRate, to: sampleRate)
            return CueClip(samples: samples, channelCount: 1, sampleRate: sampleRate, sourcePath: "flite:\(voice.rawValue)")
        } catch { throw .resampling(error) }
    }
}

/// Why spoken words could not become a clip.
public enum SpokenCueError: Error, Equatable, Sendable {
    case speech(SpeechError)
    case resampling(ResamplingError)

    /// Bad data when flite reads the (valid) phrase as silence, so the words need changing; otherwise a failure
    /// of flite or libsoxr.
    public var category: FaultCategory {
        if case .speech(.silent) = self { return .badData }
        return .internalFailure
    }

    /// One line for a human.
    public var message: String {
        switch self {
        case .speech(let error): return error.message
        case .resampling(let error): return error.message
        }
    }
}
