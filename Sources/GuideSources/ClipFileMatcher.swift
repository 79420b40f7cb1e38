import AudioFile

/// Which file names in a pack's folder are a clip of a given kind.
enum ClipFileMatcher {
    /// Names of the form `BASE.EXT` (BASE as the kind names it, in any letter case; EXT an extension of a format
    /// libsndfile reads), sorted. `hold.*` does not take `hold-out.wav`; sidecar files (`inhale.reapeaks`,
    /// `inhale.txt`), editor backups (`inhale.wav~`) and `inhale.wav.bak` are nobody's clip.
    static func candidates(for kind: CueKind, among names: [String]) -> [String] {
        names.filter { name in
            guard let ext = extensionOfClip(kind, name) else { return false }
            return ReadableAudioExtensions.all.contains(ext.lowercased())
        }.sorted()
    }

    /// Names of the form `BASE.EXT` whose extension names no audio format (`inhale.txt`), sorted: what a message
    /// names when a clip is missing.
    static func nonAudio(for kind: CueKind, among names: [String]) -> [String] {
        names.filter { name in
            guard let ext = extensionOfClip(kind, name) else { return false }
            return !ReadableAudioExtensions.all.contains(ext.lowercased())
        }.sorted()
    }

    /// EXT of a name `BASE.EXT` with BASE the kind's (any case) and EXT non-empty without a dot; nil otherwise.
    private static func extensionOfClip(_ kind: CueKind, _ name: String) -> Substring? {
        guard let dot = name.firstIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        guard name[..<dot].lowercased() == kind.baseName, !ext.isEmpty, !ext.contains(".") else { return nil }
        return ext
    }
}
