import Breath
import NagiMath

/// Where every guide sound goes: chimes (or cue-pack clips) and words on boundaries, ticks or counted numbers
/// on whole seconds. Pure: the CLI asks it which phrases to synthesize (`requiredPhrases`), then hands the
/// renderer the clips; nothing here starts before its phase's first frame.
///
/// Rules: `cues` chimes|voice|both|none; words are the phase's own (`spokenWords`) or its kind's default
/// ("breathe in", "hold", "breathe out"); in round-based sessions (Wim Hof) the quick breaths pass unspoken (the
/// tone carries them) and the round's turning points are spoken: a hold after a breath out "breathe out, hold", a
/// hold after a breath in "hold", the breath after a hold "breathe in" or "let go" (`roundWords`); the round's
/// first breath keeps its words, and rounds after the first open with "round two", "round three", …; the first phase
/// of a labelled stage gets the stage chime and, with a voice, the stage's announcement; `count` ticks put a
/// tick on every whole second inside a phase (pitch falling through it), `count` voice speaks the phase word
/// on its first frame then "two", "three", … on each following whole second while at least 0.8 s remains. An open
/// hold (`ScheduledPhase.isOpen`, held live until enter) is counted by the clock instead: ticks every 30 s, and a
/// voice says "one minute", "two minutes", … on each whole minute held.
public struct GuidePlan: Sendable, Equatable {
    /// Every event, ordered by frame.
    public let events: [GuideEvent]
    /// Each distinct phrase the events speak, in order of first use: synthesize each once.
    public let requiredPhrases: [String]
    /// The cue-pack slots the events play.
    public let requiredPackSlots: [CuePackSlot]
    /// The countdown and end bell outside the breathing (their events on the output's timeline).
    public let framing: SessionFraming

    /// Words of the kinds' phases when a pattern gives none.
    public static func defaultWords(for kind: PhaseKind) -> String {
        switch kind {
        case .inhale: "breathe in"
        case .holdIn, .holdOut: "hold"
        case .exhale: "breathe out"
        }
    }

    /// A counted number must leave at least this much of its phase, seconds.
    public static let countedRemainderSeconds = 0.8

    /// The plan for `schedule` under `settings`; each phase's own words, round and stage come from the phases
    /// (`ScheduledPhase.spokenWords`, …) unless `text` (parallel to the phases) replaces them.
    public init(schedule: Schedule, settings: RenderSettings, text: [PhaseGuideText]? = nil) {
        let text = text ?? schedule.phases.map(PhaseGuideText.init)
        let rate = Int64(schedule.sampleRate)
        let countRemainder = Int64((Self.countedRemainderSeconds * Double(rate)).rounded())
        let ticks = settings.soundscape.cues.tick
        var events: [GuideEvent] = []
        var previousRound: Int?
        // The kind of the last phase that lasts (a 0 s phase is no turning point).
        var previousKind: PhaseKind?
        for (index, phase) in schedule.phases.enumerated() {
            let info = index < text.count ? text[index] : PhaseGuideText()
            let roundStart = info.roundIndex != nil && (index == 0 || info.roundIndex != previousRound)
            previousRound = info.roundIndex
            guard phase.frameCount > 0 else { continue }
            let afterHold = previousKind?.isHold ?? false
            previousKind = phase.kind
            let start = phase.startFrame
            let end = phase.endFrame
            func add(_ frame: Int64, _ sound: GuideEvent.Sound) {
                events.append(GuideEvent(frame: frame, sound: sound, phaseIndex: index, phaseEndFrame: end))
            }
            let stage = info.stageLabel != nil
            if settings.cues.chimes {
                if stage {
                    add(start, .chime(.stage))
                } else if settings.clips.hasPack {
                    add(start, .pack(CuePackSlot.preferred(for: phase.kind)))
                } else {
                    add(start, .chime(GuideEvent.ChimeKind(phase.kind)))
                }
            }
            if settings.cues.speaks || settings.count == .voice,
               let words = Self.words(for: phase, info: info, roundStart: roundStart, stage: stage, afterHold: afterHold) {
                add(start, .phrase(words))
            }
            if phase.isOpen {
                Self.addOpenHoldMarks(start: start, end: end, rate: rate, settings: settings, ticks: ticks, add: add)
                continue
            }
            switch settings.count {
            case .none:
                break
            case .ticks:
                // A tick on the boundary only when nothing else marks it.
                var second: Int64 = settings.cues == .none ? 0 : 1
                while start + second * rate < end {
                    let progress = Double(second * rate) / Double(phase.frameCount)
                    add(start + second * rate, .tick(pitchHz: ticks.highHz * exp2(progress * log2(ticks.lowHz / ticks.highHz))))
                    second += 1
                }
            case .voice:
                var second: Int64 = 1
                while end - (start + second * rate) >= countRemainder {
                    add(start + second * rate, .phrase(Self.numberWords(Int(second) + 1)))
                    second += 1
                }
            }
        }
        // Phases come in order and each phase's events in order of frame: the list is sorted as built.
        self.events = events
        framing = SessionFraming(schedule: schedule, settings: settings)
        var seen = Set<String>()
        var phrases: [String] = []
        var slots: [CuePackSlot] = []
        // The framing's phrases after the session's, so a render without it asks for the same phrases as before.
        for event in events + framing.events {
            switch event.sound {
            case let .phrase(words) where seen.insert(words).inserted: phrases.append(words)
            case let .pack(slot) where !slots.contains(slot): slots.append(slot)
            default: break
            }
        }
        requiredPhrases = phrases
        requiredPackSlots = slots
    }

    /// Seconds between the ticks of an open hold.
    public static let openHoldTickSeconds: Int64 = 30

    /// The marks inside an open hold: a tick every 30 s (`count` ticks) and the minutes held spoken (a voice
    /// cue or `count` voice), each while at least 0.8 s of the phase remains.
    private static func addOpenHoldMarks(start: Int64, end: Int64, rate: Int64, settings: RenderSettings, ticks: Soundscape.Cues.Tick, add: (Int64, GuideEvent.Sound) -> Void) {
        let remainder = Int64((countedRemainderSeconds * Double(rate)).rounded())
        let speaks = settings.cues.speaks || settings.count == .voice
        var seconds = openHoldTickSeconds
        while end - (start + seconds * rate) >= remainder {
            if speaks, seconds % 60 == 0 {
                let minutes = Int(seconds / 60)
                add(start + seconds * rate, .phrase(numberWords(minutes) + (minutes == 1 ? " minute" : " minutes")))
            } else if settings.count == .ticks {
                add(start + seconds * rate, .tick(pitchHz: ticks.lowHz))
            }
            seconds += openHoldTickSeconds
        }
    }

    /// Words of a round's turning points (Wim Hof's retention and recovery) when the pattern gives none: the
    /// retention begins on the last breath out, the recovery breath is let go after its hold.
    public static func roundWords(for kind: PhaseKind) -> String {
        switch kind {
        case .inhale: "breathe in"
        case .holdIn: "hold"
        case .holdOut: "breathe out, hold"
        case .exhale: "let go"
        }
    }

    /// What a phase says on its first frame, or nil for silence. Inside a round only the turning points speak:
    /// a hold, and the breath right after one (`afterHold`); the quick breaths between pass unspoken.
    private static func words(for phase: ScheduledPhase, info: PhaseGuideText, roundStart: Bool, stage: Bool, afterHold: Bool) -> String? {
        if stage, let announcement = info.stageAnnouncement { return announcement }
        guard let round = info.roundIndex else { return info.spokenWords ?? defaultWords(for: phase.kind) }
        if roundStart { return round == 0 ? info.spokenWords ?? defaultWords(for: phase.kind) : "round " + numberWords(round + 1) }
        guard phase.kind.isHold || afterHold else { return nil }
        return info.spokenWords ?? roundWords(for: phase.kind)
    }

    /// English words for 1…999 ("twenty one"); digits beyond.
    public static func numberWords(_ number: Int) -> String {
        let ones = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
        let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        switch number {
        case 0..<20: return ones[number]
        case 20..<100: return tens[number / 10] + (number % 10 == 0 ? "" : " " + ones[number % 10])
        case 100..<1000:
            let rest = number % 100
            return ones[number / 100] + " hundred" + (rest == 0 ? "" : " " + numberWords(rest))
        default: return String(number)
        }
    }
}
