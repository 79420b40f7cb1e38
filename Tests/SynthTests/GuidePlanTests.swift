import Breath
import NagiDocuments
import NagiPresets
import Synth
import Testing

/// Where the guide's sounds go, before any sound: the plan's events against the schedule's frames.
@Suite struct GuidePlanTests {
    let soundscape: Soundscape
    init() throws { soundscape = try Fixtures.soundscape("horizon") }

    func phrases(_ plan: GuidePlan) -> [(frame: Int64, words: String)] {
        plan.events.compactMap { event in
            if case let .phrase(words) = event.sound { return (event.frame, words) }
            return nil
        }
    }

    @Test func eachCueModePlacesItsSoundsOnTheBoundaries() throws {
        let schedule = try Fixtures.schedule("4-7-8", cycles: 2, sampleRate: 16000)
        let starts = schedule.phases.map(\.startFrame)
        let chimes = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .chimes))
        #expect(chimes.events.map(\.frame) == starts)
        #expect(chimes.events.map(\.sound) == schedule.phases.map { .chime(GuideEvent.ChimeKind($0.kind)) })
        #expect(chimes.requiredPhrases.isEmpty)
        let voice = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .voice))
        #expect(phrases(voice).map(\.frame) == starts)
        #expect(phrases(voice).map(\.words) == schedule.phases.map { GuidePlan.defaultWords(for: $0.kind) })
        #expect(voice.requiredPhrases == ["breathe in", "hold", "breathe out"])
        let both = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .both))
        #expect(both.events.count == 2 * schedule.phases.count)
        #expect(GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .none)).events.isEmpty)
        // No event starts before its phase or after it.
        for event in both.events {
            let phase = schedule.phases[event.phaseIndex]
            #expect(event.frame >= phase.startFrame && event.frame < phase.endFrame && event.phaseEndFrame == phase.endFrame)
        }
    }

    @Test func aPhasesOwnWordsReplaceItsKindsDefault() throws {
        let schedule = try Fixtures.schedule("2-1-6", cycles: 1, sampleRate: 16000)
        let text = [PhaseGuideText(), PhaseGuideText(spokenWords: "sip more air"), PhaseGuideText()]
        let plan = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .voice), text: text)
        #expect(phrases(plan).map(\.words) == ["breathe in", "sip more air", "breathe out"])
    }

    @Test func countingSpeaksNumbersOnWholeSecondsWhileEnoughOfThePhaseRemains() throws {
        let rate = 16000
        let schedule = try Fixtures.schedule("4-7.5-3.7", cycles: 1, sampleRate: rate)
        let plan = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .chimes, count: .voice))
        for (index, phase) in schedule.phases.enumerated() {
            let spoken = phrases(plan).filter { $0.frame >= phase.startFrame && $0.frame < phase.endFrame }
            // The phase word on the first frame, then two, three, … each a whole second later.
            #expect(spoken.first?.frame == phase.startFrame && spoken.first?.words == GuidePlan.defaultWords(for: phase.kind))
            for (second, number) in spoken.enumerated().dropFirst() {
                #expect(number.frame == phase.startFrame + Int64(second * rate))
                #expect(number.words == GuidePlan.numberWords(second + 1))
                #expect(phase.endFrame - number.frame >= Int64(0.8 * Double(rate)))
            }
            // 4 s: one, two, three, four? "four" at 3 s leaves 1 s: spoken; 7.5 s: up to "seven" at 6 s (1.5 s left),
            // "eight" at 7 s leaves 0.5 s: not; 3.7 s: "three" at 2 s leaves 1.7 s, "four" at 3 s leaves 0.7 s: not.
            #expect(spoken.count == [4, 7, 3][index], "phase \(index): \(spoken.map(\.words))")
        }
        #expect(GuidePlan.numberWords(21) == "twenty one" && GuidePlan.numberWords(100) == "one hundred" && GuidePlan.numberWords(13) == "thirteen")
    }

    @Test func ticksFallOnEveryWholeSecondWithFallingPitch() throws {
        let rate = 16000
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        let plan = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, count: .ticks))
        for phase in schedule.phases {
            let ticks: [(Int64, Double)] = plan.events.compactMap { event in
                guard case let .tick(pitch) = event.sound, event.frame >= phase.startFrame, event.frame < phase.endFrame else { return nil }
                return (event.frame, pitch)
            }
            let seconds = Int(phase.frameCount / Int64(rate))
            #expect(ticks.map(\.0) == (1..<(seconds + (phase.frameCount % Int64(rate) == 0 ? 0 : 1))).map { phase.startFrame + Int64($0 * rate) })
            #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0.1 > $1.1 }, "pitches \(ticks.map(\.1))")
        }
    }

    /// Wim Hof: the round's first breath, the holds and the breath after each hold are spoken, later rounds open
    /// with "round two", …; the quick breaths between pass unspoken.
    @Test func roundsSpeakTheirFirstBreathTheirTurningPointsAndTheirNumber() throws {
        let rate = 16000
        let schedule = try Fixtures.schedule("1.5-0-1.5-30", cycles: 4, sampleRate: rate)
        // Two rounds of two breath cycles each.
        let text = schedule.phases.map { PhaseGuideText(roundIndex: $0.cycleIndex / 2) }
        let plan = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .voice), text: text)
        let lasting = schedule.phases.filter { $0.frameCount > 0 }
        let expected: [(Int64, String)] = [
            (lasting[0].startFrame, "breathe in"), (lasting[2].startFrame, "breathe out, hold"), (lasting[3].startFrame, "breathe in"),
            (lasting[5].startFrame, "breathe out, hold"), (lasting[6].startFrame, "round two"), (lasting[8].startFrame, "breathe out, hold"),
            (lasting[9].startFrame, "breathe in"), (lasting[11].startFrame, "breathe out, hold"),
        ]
        #expect(phrases(plan).map(\.frame) == expected.map(\.0), "\(phrases(plan))")
        #expect(phrases(plan).map(\.words) == expected.map(\.1))
    }

    @Test func aStageChangeGetsItsOwnChimeAndAnnouncement() throws {
        let schedule = try Fixtures.schedule("4-6", cycles: 3, sampleRate: 16000)
        var text = schedule.phases.map { _ in PhaseGuideText() }
        text[2] = PhaseGuideText(stageLabel: "6 breaths/min", stageAnnouncement: "six breaths a minute")
        let plan = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .both), text: text)
        let atStage = plan.events.filter { $0.frame == schedule.phases[2].startFrame }.map(\.sound)
        #expect(atStage == [.chime(.stage), .phrase("six breaths a minute")])
        #expect(plan.events.filter { $0.sound == .chime(.stage) }.count == 1)
    }

    @Test func aCuePackReplacesTheChimesAndHoldOutFallsBackToHold() throws {
        let schedule = try Fixtures.schedule("4-4-4-4", cycles: 1, sampleRate: 16000)
        let clips = GuideClips(pack: [.inhale: [1], .hold: [1], .exhale: [1]])
        let plan = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, clips: clips))
        #expect(plan.events.map(\.sound) == [.pack(.inhale), .pack(.hold), .pack(.exhale), .pack(.holdOut)])
        #expect(clips.packClip(.holdOut) == [1] && clips.packClip(.inhale) == [1])
    }

    /// The built-in Wim Hof session's own rounds (from the practice model's `roundIndex`): the first breath
    /// and the holds are spoken, "round two" and "round three" open the later rounds.
    @Test func theWimHofPresetSpeaksItsRounds() throws {
        let catalog = PresetCatalog(builtinFiles: BuiltinPresets.files)
        let session = try SessionDecoder(catalog: catalog).resolveArgument("wim-hof") { _ throws(BreathError) in
            throw .fileNotFound(path: "", reason: "")
        }.resolved.session
        let schedule = try Schedule(session: session, sampleRate: 16000)
        let rounds = Set(schedule.phases.compactMap(\.roundIndex))
        #expect(rounds.count >= 3)
        let plan = GuidePlan(schedule: schedule, settings: RenderSettings(soundscape: soundscape, cues: .voice))
        let spoken = phrases(plan).map(\.words)
        #expect(spoken.first == "breathe in")
        #expect(spoken.contains("round two") && spoken.contains("round three"))
        // Far fewer words than phases: the quick breaths inside a round pass unspoken.
        #expect(spoken.count < schedule.phases.count / 4, "\(spoken.count) phrases for \(schedule.phases.count) phases")
    }
}
