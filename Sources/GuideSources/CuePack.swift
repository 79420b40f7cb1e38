import NagiBase

/// A user's own cue clips (`--cue-pack DIR`), each at the session rate, played in place of the chimes.
public struct CuePack: Sendable, Equatable {
    /// The longest clip accepted: a cue marks a boundary, it is not a bed.
    public static let maximumClipSeconds = 30

    public let inhale: CueClip
    public let hold: CueClip
    public let exhale: CueClip
    /// The clip for holds after an exhale, when the pack has one.
    public let holdOut: CueClip?

    /// The clip for a phase: a hold after an exhale uses `hold-out` when present, else `hold`.
    public func clip(for kind: CueKind) -> CueClip {
        switch kind {
        case .inhale: return inhale
        case .hold: return hold
        case .exhale: return exhale
        case .holdOut: return holdOut ?? hold
        }
    }

    /// Loads `inhale.*`, `hold.*`, `exhale.*` and, when present, `hold-out.*` from `folder`, in any format and at
    /// any rate libsndfile reads, mono or stereo, resampled with libsoxr to `sampleRate`.
    /// - Throws: `CuePackError`, for the first clip that fails (in the order inhale, hold, exhale, hold-out).
    public static func load(folder: String, sampleRate: Int) throws(CuePackError) -> CuePack {
        let names = try FolderListing.visibleNames(in: folder)
        var clips: [CueKind: CueClip] = [:]
        for kind in CueKind.allCases {
            let candidates = ClipFileMatcher.candidates(for: kind, among: names)
            if candidates.count > 1 {
                throw .ambiguousClip(kind: kind, candidates: candidates.map { FilePath(folder).appending($0).string })
            }
            guard let name = candidates.first else {
                if kind.isRequired {
                    let ignored = ClipFileMatcher.nonAudio(for: kind, among: names).map { FilePath(folder).appending($0).string }
                    throw .clipMissing(expected: FilePath(folder).appending(kind.baseName + ".*").string, ignored: ignored)
                }
                continue
            }
            do {
                clips[kind] = try ClipLoader.load(path: FilePath(folder).appending(name).string, sampleRate: sampleRate)
            } catch {
                throw .clip(error)
            }
        }
        guard let inhale = clips[.inhale], let hold = clips[.hold], let exhale = clips[.exhale] else {
            // Unreachable: each required kind either loaded or threw above.
            throw .clipMissing(expected: FilePath(folder).appending("inhale.*").string)
        }
        return CuePack(inhale: inhale, hold: hold, exhale: exhale, holdOut: clips[.holdOut])
    }
}
