import Foundation
import NagiOptions
import NagiTestSupport
import Testing

/// Which options a request may give is the specs' allow-list (`OptionSpec.overHTTP`): every option a served command
/// declares and does not mark is refused over HTTP with a 400 naming it, and every marked one works.
@Suite("Options over HTTP: an allow-list from the specs")
struct ServeAllowListTests {
    /// Each served command's spec and the endpoint that reads a query with it (before any work).
    static let endpoints: [(spec: CommandSpec, method: String, path: String)] = [
        (RenderOptions.spec, "GET", "/api/render.flac"),
        (DescribeOptions.spec, "GET", "/api/describe"),
        (PlotOptions.spec, "GET", "/api/plot.svg"),
        (ResonanceOptions.spec, "POST", "/api/resonance"),
        (CourseOptions.exportSpec, "GET", "/api/courses/beginner-21/album.zip"),
    ]
    /// A short session, which each sample's own parameters replace.
    static let base: KeyValuePairs<String, String> = ["pattern": "1-1", "cycles": "2", "rate": "8000"]
    /// `resonance analyze` takes no rate.
    static let resonanceBase: KeyValuePairs<String, String> = ["pattern": "1-1", "cycles": "2", "start": "0"]

    /// A query that gives each open option a value it accepts, with what it needs beside it (a beat for its style,
    /// spoken cues for a voice). A newly opened option fails `everyMarkedOptionWorks` until it has one here.
    static let samples: [String: String] = [
        "bpm": "bpm=30", "ratio": "bpm=30&ratio=2:3", "cycles": "cycles=1", "minutes": "minutes=0.1",
        "rate": "rate=11025", "format": "format=flac", "quality": "quality=5", "channels": "channels=1", "bits": "bits=24",
        "soundscape": "soundscape=night", "seed": "seed=7", "cues": "cues=voice", "no-cues": "no-cues=1", "voice": "cues=voice&voice=rms",
        "count": "count=ticks", "cue-pack": "cue-pack=bowls", "cue-volume": "cue-volume=-3", "countdown": "countdown=2",
        "end-bell": "end-bell=1", "bed": "bed=waves", "bed-level": "bed=waves&bed-level=-20", "beat": "beat=10",
        "beat-style": "beat=10&beat-style=isochronic", "loudness": "loudness=-18", "artist": "artist=Sea", "album": "album=Tides",
        "chapters": "chapters=phases", "title": "title=Calm", "start": "start=0", "align": "align=auto", "column": "column=1",
        "settle": "settle=5",
    ]

    /// A heart-rate record the resonance endpoint reads: steady 60 beats a minute for 400 s.
    static let record = Array((0..<400).map { _ in "1000" }.joined(separator: "\n").utf8)

    /// `sample` over `base`: a parameter the sample gives replaces the base's (`minutes` the cycles, `bpm` the pattern).
    static func query(_ sample: String, over base: KeyValuePairs<String, String>) -> String {
        let given = Set(sample.split(separator: "&").map { String($0.prefix { $0 != "=" }) })
        let replaced: [String: Set<String>] = ["minutes": ["cycles"], "bpm": ["pattern"], "align": ["start"]]
        let kept = base.filter { entry in !given.contains(entry.key) && !given.contains { replaced[$0]?.contains(entry.key) == true } }
        return (kept.map { "\($0.key)=\($0.value)" } + [sample]).joined(separator: "&")
    }

    static func parameter(_ option: OptionSpec) -> String {
        String(option.canonicalName.drop { $0 == "-" })
    }

    @Test("Every option a served command declares but does not mark is 400 over HTTP, the parameter named, before any work")
    func unmarkedOptionsAreRefused() throws {
        let server = try InProcessServer()
        var refused: Set<String> = []
        for endpoint in Self.endpoints {
            for option in endpoint.spec.options where !option.overHTTP {
                let name = Self.parameter(option)
                let value = option.takesValue ? "x" : "1"
                let reply = try server.request(endpoint.method, endpoint.path + "?pattern=1-1&\(name)=\(value)", body: Self.record)
                #expect(reply.status == 400, "\(endpoint.path) \(name): \(reply.text.prefix(200))")
                let object = try reply.jsonObject()
                #expect(object["parameter"] as? String == name, "\(endpoint.path) \(name)")
                #expect((object["error"] as? String)?.contains("'\(name)' is not taken here") == true, "\(endpoint.path) \(name): \(object)")
                refused.insert(name)
            }
        }
        // The file system's, the terminal's and the machine's: none open.
        #expect(refused.isSuperset(of: ["output", "labels", "cue-sheet", "cover", "plot", "force", "quiet", "json", "threads", "jobs", "start-from-progress"]))
    }

    @Test("Every option a served command marks open works over HTTP: its endpoint answers 200 with it given")
    func everyMarkedOptionWorks() throws {
        let server = try InProcessServer()
        // A bed and a cue pack in the user's folders, rendered by nagi itself, for bed= and cue-pack= to name.
        let recording = server.output("waves.wav")
        #expect(try server.nagi(["render", "1-1", "--cycles", "1", "--rate", "8000", "-o", recording, "--quiet"]).status == 0)
        let beds = server.home.file("config/nagi/beds"), pack = server.home.file("config/nagi/cue-packs/bowls")
        for folder in [beds, pack] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: recording, toPath: beds + "/waves.wav")
        for clip in ["inhale", "hold", "exhale"] { try FileManager.default.copyItem(atPath: recording, toPath: pack + "/\(clip).wav") }

        var opened: Set<String> = []
        for endpoint in Self.endpoints where endpoint.spec.name != "export" {
            for option in endpoint.spec.options where option.overHTTP {
                let name = Self.parameter(option)
                let sample = try #require(Self.samples[name], "no sample value for the open option '\(name)'")
                let path = endpoint.path + "?" + Self.query(sample, over: endpoint.spec.name == "analyze" ? Self.resonanceBase : Self.base)
                let reply = try server.request(endpoint.method, path, body: Self.record)
                if name == "align" {
                    // A steady record follows no breathing: the alignment align=auto asks for runs and says so.
                    #expect(reply.status == 400 && reply.text.contains("does not follow the paced breathing"), "\(path): \(reply.text.prefix(300))")
                } else {
                    #expect(reply.status == 200, "\(path): \(reply.text.prefix(300))")
                }
                opened.insert(name)
            }
        }
        // The course album takes the render's sound and guide options, already tried above on their own endpoints.
        for option in CourseOptions.exportSpec.options where option.overHTTP {
            #expect(opened.contains(Self.parameter(option)) || Self.parameter(option) == "format", "\(option.canonicalName)")
        }
    }
}
