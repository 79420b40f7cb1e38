import FoundationEssentials
import NagiKit
import NagiOptions

/// How the command line prepares a soundtrack: stopped by SIGINT or SIGTERM, the loudness pass drawn as a progress
/// bar on a terminal, the guide's phrases spoken in a process a core unless the caller says otherwise.
enum Preparation {
    /// `request` prepared (the bed opened and measured, the guide's clips made, the loudness pass run) before any
    /// output exists, so a bad one leaves nothing. `showsLoudnessPass` draws the loudness pass as a progress bar on
    /// standard error ("measuring loudness…") when that is a terminal: on a long session the pass takes seconds
    /// before anything else shows. `holdsBed`: as `Soundtrack.prepare`'s.
    static func prepare(
        _ request: SoundtrackRequest, guideClips: GuideClipCache = GuideClipCache(speaker: FliteSpeaker(processCount: speechProcessCount)),
        holdsBed: Bool = true, showsLoudnessPass: Bool = false
    ) throws(NagiError) -> Soundtrack {
        let bar = ProgressBar(enabled: showsLoudnessPass && request.loudnessTargetLUFS != nil && Console.standardErrorIsTerminal, label: loudnessPassLabel)
        defer { bar.finish() }
        do {
            return try Soundtrack.prepare(request, guide: guideClips, cancel: Console.cancellation, holdsBed: holdsBed, loudnessProgress: { bar.update($0) })
        } catch {
            throw NagiError(error)
        }
    }

    /// How many processes speak the guide's phrases when the caller does not say: one a core (`FliteSpeaker`).
    static var speechProcessCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// What the progress bar of the loudness pass says.
    static let loudnessPassLabel = "measuring loudness…"
}
