import Breath

/// How a user's recording sits under the session: which file (for fingerprints and logs) and the gain that
/// puts its measured loudness where the bed belongs under the tone. The samples themselves arrive through a
/// `FrameReader` given to the renderer.
public struct BedMix: Sendable, Equatable {
    /// The recording's path as given.
    public var path: String
    /// The gain applied to the recording's samples before the session's envelope, dB.
    public var gainDecibels: Double

    public init(path: String, gainDecibels: Double) {
        self.path = path
        self.gainDecibels = gainDecibels
    }

    /// The bed's integrated loudness relative to the session's nominal −20 LUFS when `--bed-level` is not
    /// given, LU. Chosen by measurement: at −12 a bed alone measures about −32 LUFS in a render (the session's
    /// decay takes a little more off), clearly under the tone, and lifts the whole render by about 0.3 LU,
    /// well inside the 1 LU the soundscapes' calibration allows.
    public static let defaultLevelDecibels = SoundSettingRanges.defaultBedLevelDecibels
    /// The range `--bed-level` accepts, LU relative to the nominal loudness.
    public static let levelRange = SoundSettingRanges.bedLevelDecibels
    /// The loudness every soundscape is calibrated to, LUFS.
    public static let nominalLoudness = -20.0

    /// The gain that brings a recording measuring `loudness` LUFS to `levelDecibels` under the nominal
    /// loudness, dB, at most `largestGainDecibels`, and at most what keeps its `infrasoundDecibels` (the RMS
    /// under 15 Hz the high-pass left, dBFS) at `largestInfrasoundDecibels` in the mix.
    public static func gainDecibels(loudness: Double, levelDecibels: Double, infrasoundDecibels: Double = -.infinity) -> Double {
        let measured = loudness.isFinite ? max(loudness, -70) : -70
        let matched = min(nominalLoudness + levelDecibels - measured, largestGainDecibels)
        // A recording of infrasound alone measures quiet (K-weighting all but ignores it), so the match would
        // raise what the high-pass left (a 5 Hz sine at -6 dBFS reached the mix at -38 dBFS under 15 Hz).
        guard infrasoundDecibels.isFinite else { return matched }
        return min(matched, largestInfrasoundDecibels - infrasoundDecibels)
    }

    /// The most a bed may put under 15 Hz into the mix at its matched gain, RMS dBFS: 1 dB under the −45 dBFS a
    /// bed's infrasound is held to. No lower: a broadband bed's own rumble left by the high-pass (pink noise matched
    /// at level 0 puts about −49 dBFS there) must not hold the whole bed back (at −50 it did, by 1.3 LU).
    public static let largestInfrasoundDecibels = -46.0

    /// The most a loudness match raises a recording, dB: a very quiet one (a −70 LUFS hiss) stays quiet rather
    /// than coming up with its noise floor.
    public static let largestGainDecibels = 30.0
}
