import AudioFile
import NagiDocuments
import NagiKit
import NagiTestSupport
import Testing

/// A soundtrack's one identity (`SoundtrackIdentity`): its file name, its cache key and its title agree for one
/// request however it is reached (built twice, a course's lesson, a server's cache), and the key parts two requests
/// exactly when their sound differs, as the rendered samples show.
@Suite("a soundtrack's one identity: file name, key and title")
struct SoundtrackIdentityTests {
    /// A request for `pattern` in `soundscape`, two cycles at 8 kHz (small enough to render whole).
    static func request(_ pattern: String = "4-7-8", soundscape: String = "horizon", seed: UInt64 = 1, cues: CueMode = .chimes) throws -> SoundtrackRequest {
        SoundtrackRequest(
            schedule: try KitFixtures.schedule(pattern, cycles: 2, sampleRate: 8000), soundscape: try BuiltinLibrary.soundscape(named: soundscape),
            seed: seed, guide: .init(cues: cues))
    }

    /// Every sample of `request`'s soundtrack, as a listener hears it.
    static func samples(_ request: SoundtrackRequest) throws -> [Float] {
        KitFixtures.renderToEnd(try Soundtrack.prepare(request).makeRenderer())
    }

    @Test("one request built twice has one identity: the same key, title and file name", arguments: ["4-7-8", "box", "coherent"])
    func equalRequestsShareAnIdentity(pattern: String) throws {
        let first = SoundtrackIdentity(request: try Self.request(pattern), format: .flac, title: "Evening \(pattern)", name: pattern)
        let again = SoundtrackIdentity(request: try Self.request(pattern), format: .flac, title: "Evening \(pattern)", name: pattern)
        #expect(first == again)
        #expect(first.fileName == pattern + ".flac")
        #expect(first.soundKey.count == 16 && first.soundKey.allSatisfy(\.isHexDigit), "\(first.soundKey)")
        // The server's cache asks by request and format alone: the same key.
        #expect(SoundtrackIdentity.soundKey(of: try Self.request(pattern), format: .flac) == first.soundKey)
    }

    @Test("the title and the file name are what the listener sees: a hidden character dropped, a path made a name")
    func titleAndNameAreShown() throws {
        let identity = SoundtrackIdentity(request: try Self.request(), format: .mp3, title: "Calm\u{202E} night", name: "../etc/passwd")
        #expect(identity.title == "Calm night")
        #expect(!identity.fileName.contains("/") && !identity.fileName.hasPrefix("."), "\(identity.fileName)")
        #expect(identity.fileName.hasSuffix(".mp3"))
        // What a file is called and titled is not its sound: the key stays.
        let renamed = SoundtrackIdentity(request: try Self.request(), format: .mp3, title: "Another title", name: "another")
        #expect(renamed.soundKey == identity.soundKey)
        #expect(renamed.fileName != identity.fileName && renamed.title != identity.title)
    }

    @Test("the key differs exactly when the samples do: soundscape, seed, guide and pattern change both; a title neither")
    func keyFollowsTheSound() throws {
        let base = try Self.request()
        let baseSamples = try Self.samples(base)
        let baseKey = SoundtrackIdentity.soundKey(of: base, format: .wav)
        let changes: [(String, SoundtrackRequest)] = [
            ("soundscape", try Self.request(soundscape: "rain")),
            ("seed", try Self.request(seed: 2)),
            ("cues", try Self.request(cues: .none)),
            ("pattern", try Self.request("box")),
        ]
        for (what, changed) in changes {
            #expect(SoundtrackIdentity.soundKey(of: changed, format: .wav) != baseKey, "a change of \(what) kept the key")
            #expect(try Self.samples(changed) != baseSamples, "a change of \(what) kept the samples: the test changes nothing")
        }
        // The same request built again renders the same samples under the same key.
        let again = try Self.request()
        #expect(SoundtrackIdentity.soundKey(of: again, format: .wav) == baseKey)
        #expect(try Self.samples(again) == baseSamples)
    }

    @Test("a lossy format's encoder headroom is part of the sound; WAV and FLAC, both PCM, share one")
    func formatsShareAKeyWhenTheirSoundIsOne() throws {
        let request = try Self.request()
        let wav = SoundtrackIdentity.soundKey(of: request, format: .wav)
        #expect(SoundtrackIdentity.soundKey(of: request, format: .flac) == wav)
        #expect(SoundtrackIdentity.soundKey(of: request, format: .mp3) != wav)
        #expect(try Self.samples(request.forEncoder(of: .flac)) == Self.samples(request.forEncoder(of: .wav)))
    }

    @Test("a course's track takes its title, file name and key from its identity, as the server's lesson does")
    func courseTracksAgreeWithTheirIdentity() throws {
        let text = """
            {"name": "identity", "title": "Identity", "lessons": [
              {"title": "Arrive", "pattern": "4-7-8", "minutes": 1},
              {"title": "Settle / rest", "pattern": "box", "minutes": 1, "soundscape": "rain"},
              {"title": "Arrive", "pattern": "4-7-8", "minutes": 1}
            ]}
            """
        let course = try BuiltinLibrary.course(json: text, file: "identity.json")
        var settings = CourseExporter.Settings(folder: "/nonexistent/album")
        settings.format = .ogg
        let catalog = PresetFiles.catalog(userFolder: nil)
        let plans = try course.lessons.indices.map { try CourseExporter.plan(lesson: $0, of: course, settings: settings, catalog: catalog) }
        for plan in plans {
            #expect(plan.title == plan.identity.title)
            #expect(plan.file.tags.title == plan.identity.title)
            #expect(plan.fileName.hasSuffix(" - " + plan.identity.fileName), "\(plan.fileName)")
            #expect(plan.identity.format == .ogg)
            // The key a server keeps the lesson's prepared soundtrack under.
            #expect(plan.identity.soundKey == SoundtrackIdentity.soundKey(of: plan.requestWithTarget, format: .ogg))
        }
        #expect(plans.map(\.fileName) == ["01 - Arrive.ogg", "02 - Settle - rest.ogg", "03 - Arrive.ogg"])
        // Lessons one and three are the same sound under the same title; the second differs.
        #expect(plans[0].identity == plans[2].identity)
        #expect(plans[0].identity.soundKey != plans[1].identity.soundKey)
    }
}
