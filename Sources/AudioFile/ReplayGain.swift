/// Loudness-normalisation values for players: ReplayGain 2.0 (reference −18 LUFS) and, for Opus, the R128 gains of
/// RFC 7845 (reference −23 LUFS, Q7.8 fixed point), from an EBU R 128 integrated loudness.
public struct ReplayGain: Sendable, Equatable {
    /// The track's gated integrated loudness, LUFS.
    public var trackLoudnessLUFS: Double
    /// The track's sample peak, linear (1 = full scale): the largest absolute sample written.
    public var trackPeak: Double
    /// The album's (a whole course export's) integrated loudness and peak, when known.
    public var albumLoudnessLUFS: Double?
    public var albumPeak: Double?

    public init(trackLoudnessLUFS: Double, trackPeak: Double, albumLoudnessLUFS: Double? = nil, albumPeak: Double? = nil) {
        self.trackLoudnessLUFS = trackLoudnessLUFS
        self.trackPeak = trackPeak
        self.albumLoudnessLUFS = albumLoudnessLUFS
        self.albumPeak = albumPeak
    }

    /// ReplayGain 2.0's reference loudness.
    public static let referenceLUFS = -18.0
    /// RFC 7845's reference for R128_TRACK_GAIN and R128_ALBUM_GAIN.
    public static let opusReferenceLUFS = -23.0

    /// "-5.23 dB", as ReplayGain writes a gain.
    static func gainText(loudnessLUFS: Double) -> String {
        let hundredths = ((referenceLUFS - loudnessLUFS) * 100).rounded()
        return fixed(hundredths, decimals: 2) + " dB"
    }

    /// "0.912345", a linear peak.
    static func peakText(_ peak: Double) -> String {
        fixed((peak * 1_000_000).rounded(), decimals: 6)
    }

    /// The Q7.8 integer of an R128 gain: (−23 − loudness) × 256, rounded, within Int16.
    static func opusGain(loudnessLUFS: Double) -> Int {
        let steps = ((opusReferenceLUFS - loudnessLUFS) * 256).rounded()
        return Int(min(max(steps, Double(Int16.min)), Double(Int16.max)))
    }

    /// `scaled` / 10^decimals as text, without Foundation's formatting.
    private static func fixed(_ scaled: Double, decimals: Int) -> String {
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        var divisor: Int64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        let fraction = String(magnitude % divisor)
        return (negative ? "-" : "") + "\(magnitude / divisor)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// The tags to write for `format`: REPLAYGAIN_* everywhere but Opus, R128_* in Opus (RFC 7845 §5.2.1: Opus
    /// files carry no REPLAYGAIN fields). Silent tracks, whose loudness is −∞, get none.
    func fields(for format: AudioFileFormat) -> [(key: String, value: String)] {
        var fields: [(key: String, value: String)] = []
        guard trackLoudnessLUFS.isFinite else { return fields }
        if format == .opus {
            fields.append(("R128_TRACK_GAIN", String(Self.opusGain(loudnessLUFS: trackLoudnessLUFS))))
            if let album = albumLoudnessLUFS, album.isFinite {
                fields.append(("R128_ALBUM_GAIN", String(Self.opusGain(loudnessLUFS: album))))
            }
            return fields
        }
        fields.append(("REPLAYGAIN_TRACK_GAIN", Self.gainText(loudnessLUFS: trackLoudnessLUFS)))
        fields.append(("REPLAYGAIN_TRACK_PEAK", Self.peakText(trackPeak)))
        if let album = albumLoudnessLUFS, album.isFinite {
            fields.append(("REPLAYGAIN_ALBUM_GAIN", Self.gainText(loudnessLUFS: album)))
            if let albumPeak { fields.append(("REPLAYGAIN_ALBUM_PEAK", Self.peakText(albumPeak))) }
        }
        return fields
    }

    /// The album fields alone, for adding to tracks already written.
    func albumFields(for format: AudioFileFormat) -> [(key: String, value: String)] {
        fields(for: format).filter { $0.key.contains("ALBUM") }
    }
}
