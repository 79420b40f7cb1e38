import Breath

/// What sounds outside the breathing: a get-ready countdown before the first inhale and an end bell after the
/// release, on the output's own timeline (frame 0 is the render's first frame, not the schedule's).
///
/// The breathing part is the render without either, moved `leadInFrameCount` frames later and otherwise
/// untouched, so every boundary moves by exactly that many frames and its samples are those of a render
/// without a countdown.
///
/// - Countdown (`RenderSettings.countdownSeconds` N > 0): N seconds before the first inhale. With the voice on
///   (`cues` voice or both, or `count` voice) a get-ready lead of `getReadySeconds` comes first, with "get
///   ready" on its first frame, and the numbers N … 1 are spoken on the whole seconds N … 1 before the first
///   inhale ("three" 3 s before it); without the voice a soft tick marks those seconds when the cues chime, and
///   with `cues` none the lead-in is silent. The tone fades in from the first inhale as without a countdown.
/// - Ending (`RenderSettings.endBell`): the stage chime rings from the release's last frame on (with any `cues` but
///   none: the bell was asked for by name), "the session is complete" follows a whole second later with the voice on, and `endingSeconds` after
///   the bell the soundscape's closing silence follows (it replaces the silence that closed the release). With
///   neither a chime nor a voice there is no ending and the render ends as without one.
public struct SessionFraming: Sendable, Equatable {
    /// The countdowns accepted, whole seconds.
    public static let countdownRange = 0...60
    /// The lead before the numbers when the voice says "get ready", seconds.
    public static let getReadySeconds: Int64 = 2
    /// How long the end bell and the closing words sound before the closing silence, seconds: at least this, and
    /// longer when the soundscape's chimes ring longer (up to 5 s), so the bell dies away before the silence.
    public static let endingSeconds: Int64 = 4
    /// The seconds after the bell at which the closing words begin.
    public static let closingWordsDelaySeconds: Int64 = 1
    /// What the voice says at the start of the lead-in.
    public static let getReadyWords = "get ready"
    /// What the voice says after the bell.
    public static let closingWords = "the session is complete"

    /// Frames before the first inhale (0 without a countdown).
    public let leadInFrameCount: Int64
    /// The frames of the render without a countdown or ending that this render plays from `leadInFrameCount` on:
    /// the schedule and the release, and the closing silence too when there is no ending.
    public let breathingFrameCount: Int64
    /// Frames after the release with an ending (the bell's ring, the words and the closing silence); 0 without one.
    public let endingFrameCount: Int64
    /// The guide's sounds before and after the breathing, on the output's timeline, in order of frame. A lead-in
    /// event's `phaseIndex` is −1 and an ending's the schedule's phase count; `phaseEndFrame` is the frame by
    /// which its sound must be over (a phrase that would run past it is left out).
    public let events: [GuideEvent]

    /// The framing of `schedule` under `settings` (its countdown, end bell, cues, count and soundscape).
    public init(schedule: Schedule, settings: RenderSettings) {
        let rate = Int64(schedule.sampleRate)
        let envelope = settings.soundscape.envelope
        let silenceStart = schedule.totalFrames + ControlCurves.releaseFrameCount(envelope: envelope, sampleRate: schedule.sampleRate)
        let silenceFrames = ControlCurves.silenceFrameCount(envelope: envelope, sampleRate: schedule.sampleRate)
        let speaks = settings.cues.speaks || settings.count == .voice
        let chimes = settings.cues.chimes
        let countdown = Int64(min(max(settings.countdownSeconds, 0), Self.countdownRange.upperBound))
        let leadIn = countdown == 0 ? 0 : (countdown + (speaks ? Self.getReadySeconds : 0)) * rate
        var events: [GuideEvent] = []
        if countdown > 0 && speaks {
            events.append(GuideEvent(frame: 0, sound: .phrase(Self.getReadyWords), phaseIndex: -1, phaseEndFrame: Self.getReadySeconds * rate))
        }
        if countdown > 0 && (speaks || chimes) {
            let tickHz = settings.soundscape.cues.tick.highHz
            for second in stride(from: countdown, through: 1, by: -1) {
                let frame = leadIn - second * rate
                let sound: GuideEvent.Sound = speaks ? .phrase(GuidePlan.numberWords(Int(second))) : .tick(pitchHz: tickHz)
                events.append(GuideEvent(frame: frame, sound: sound, phaseIndex: -1, phaseEndFrame: frame + rate))
            }
        }
        // The bell was asked for by name: it rings with any cues but none, the voice's cues included.
        let rings = settings.cues != .none
        let hasEnding = settings.endBell && (rings || speaks)
        let ringSeconds = rings ? Int64(settings.soundscape.cues.lengthSeconds.rounded(.up)) : 0
        let endingSeconds = max(Self.endingSeconds, ringSeconds)
        if hasEnding {
            let bell = leadIn + silenceStart
            let end = bell + endingSeconds * rate
            let after = schedule.phases.count
            if rings { events.append(GuideEvent(frame: bell, sound: .chime(.stage), phaseIndex: after, phaseEndFrame: end)) }
            if speaks {
                events.append(GuideEvent(
                    frame: bell + Self.closingWordsDelaySeconds * rate, sound: .phrase(Self.closingWords), phaseIndex: after, phaseEndFrame: end))
            }
        }
        leadInFrameCount = leadIn
        breathingFrameCount = hasEnding ? silenceStart : silenceStart + silenceFrames
        endingFrameCount = hasEnding ? endingSeconds * rate + silenceFrames : 0
        self.events = events
    }

    /// Every frame the render writes.
    public var totalFrameCount: Int64 { leadInFrameCount + breathingFrameCount + endingFrameCount }

    /// The output frame the ending starts on (the release's end), or the render's end without one.
    public var endingStartFrame: Int64 { leadInFrameCount + breathingFrameCount }

    /// The lead-in in microseconds (whole seconds, so exact).
    public func leadInMicroseconds(sampleRate: Int) -> Int64 { leadInFrameCount * Microseconds.perSecond / Int64(sampleRate) }

    /// Whether anything sounds or waits outside the breathing.
    public var isEmpty: Bool { leadInFrameCount == 0 && endingFrameCount == 0 }
}
