/// The gains a tagged file carries, parsed from what `TagLibFile.read` returns: the track loudness they were made
/// from (−18 − REPLAYGAIN_TRACK_GAIN, or −23 − R128_TRACK_GAIN / 256 in Opus) and the peak.
public struct TrackGainTags: Sendable, Equatable {
    public var trackLoudnessLUFS: Double?
    public var trackPeak: Double?
    public var albumGainText: String?

    /// nil when the file has no track gain.
    public init?(items: [(key: String, value: String)], format: AudioFileFormat) {
        func value(_ key: String) -> String? { items.first { $0.key == key }?.value }
        if format == .opus {
            guard let q78 = value("R128_TRACK_GAIN").flatMap({ Int($0) }) else { return nil }
            trackLoudnessLUFS = ReplayGain.opusReferenceLUFS - Double(q78) / 256
            albumGainText = value("R128_ALBUM_GAIN")
        } else {
            guard let text = value("REPLAYGAIN_TRACK_GAIN"), let gain = Double(text.split(separator: " ").first ?? "") else { return nil }
            trackLoudnessLUFS = ReplayGain.referenceLUFS - gain
            trackPeak = value("REPLAYGAIN_TRACK_PEAK").flatMap { Double($0) }
            albumGainText = value("REPLAYGAIN_ALBUM_GAIN")
        }
    }
}
