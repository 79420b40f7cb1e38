/// Which file names in a pack's folder are a clip of a given kind.
enum ClipFileMatcher {
    /// Names of the form `BASE.EXT` (BASE as the kind names it, in any letter case; EXT one or more characters
    /// without a dot), sorted. `hold.*` does not take `hold-out.wav`, and `inhale.wav.bak` is nobody's clip.
    static func candidates(for kind: CueKind, among names: [String]) -> [String] {
        names.filter { name in
            guard let dot = name.firstIndex(of: "."), dot != name.startIndex else { return false }
            let base = name[..<dot]
            let ext = name[name.index(after: dot)...]
            return base.lowercased() == kind.baseName && !ext.isEmpty && !ext.contains(".")
        }.sorted()
    }
}
