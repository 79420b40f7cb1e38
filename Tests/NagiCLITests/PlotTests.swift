import Breath
import Foundation
import FoundationXML
import NagiDocuments
import NagiPresets
import NagiTestSupport
import Synth
import Testing

@Suite("nagi plot, end to end")
struct PlotTests {
    /// Renders a plot and parses it as XML.
    static func plot(_ arguments: [String], in folder: URL) throws -> XMLDocument {
        let result = NagiInProcess.run(["plot"] + arguments + ["-o", folder.appendingPathComponent("plot.svg").path], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let data = try Data(contentsOf: folder.appendingPathComponent("plot.svg"))
        return try XMLDocument(data: data)
    }

    static func curve(_ document: XMLDocument, _ name: String) throws -> [(Int64, Double)] {
        func attribute(_ attribute: String) throws -> String {
            let nodes = try document.nodes(forXPath: "//*[@data-curve='\(name)']/@\(attribute)")
            return try #require(nodes.first?.stringValue, "no curve \(name) with \(attribute)")
        }
        let frames = try attribute("data-frames").split(separator: " ").compactMap { Int64($0) }
        let values = try attribute("data-values").split(separator: " ").compactMap { Double($0) }
        #expect(frames.count == values.count)
        return Array(zip(frames, values))
    }

    static func loadSoundscape(_ name: String) throws -> Soundscape {
        try Soundscape.decode(text: try #require(BuiltinPresets.files["soundscapes/\(name).json"]), file: name)
    }

    @Test("the SVG holds labelled bands, cue marks, a Hz axis and curves that match the renderer's functions", arguments: ["4-7-8", "box", "wim-hof", "longer-exhale-ramp"])
    func curvesMatchRenderer(pattern: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let document = try Self.plot([pattern], in: folder)
        let text = try String(contentsOf: folder.appendingPathComponent("plot.svg"), encoding: .utf8)
        #expect(!text.contains("<script"))
        #expect(!text.contains("href"))
        for word in [">inhale<", ">exhale<", "Hz", "dB"] {
            #expect(text.contains(word), "missing \(word)")
        }
        if pattern != "longer-exhale-ramp" { #expect(text.contains(">hold<")) }
        #expect(try document.nodes(forXPath: "//*[@data-cue-frame]").count >= 3)

        let catalog = PresetCatalog(builtinFiles: BuiltinPresets.files)
        let session = try SessionDecoder(catalog: catalog).resolveArgument(pattern) { _ throws(BreathError) in throw .fileNotFound(path: "", reason: "") }.resolved.session
        let schedule = try Schedule(session: session, sampleRate: 48000)
        let curves = ControlCurves(schedule: schedule, soundscape: try Self.loadSoundscape("horizon"))
        let checks: [(String, (Int64) -> Double)] = [
            ("level", { curves.level(at: $0) }), ("pitch", { curves.pitchHz(at: $0) }), ("gain", { curves.toneGainDecibels(at: $0) }),
            ("envelope", { curves.modulationEnvelope(at: $0) }), ("calming", { curves.calming(at: $0) }),
            ("overview-level", { curves.level(at: $0) }), ("overview-envelope", { curves.modulationEnvelope(at: $0) }),
        ]
        for (name, function) in checks {
            let samples = try Self.curve(document, name)
            #expect(samples.count >= 300, "\(name) has \(samples.count) points")
            for (frame, value) in samples {
                #expect(abs(function(frame) - value) <= 1e-6 * max(1, abs(value)), "\(name) at frame \(frame)")
            }
        }
        // The overview covers the whole session.
        let overview = try Self.curve(document, "overview-level")
        #expect(overview.last.map { $0.0 >= schedule.totalFrames - 1 } == true)
    }

    @Test("librsvg renders the plot to a PNG")
    func rendersToPNG() throws {
        let folder = try NagiProcess.temporaryFolder()
        _ = try Self.plot(["4-7-8"], in: folder)
        let converter = try ChildProcess("/usr/bin/rsvg-convert", ["-o", folder.appendingPathComponent("plot.png").path, folder.appendingPathComponent("plot.svg").path], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
        #expect(converter.wait(seconds: 60))
        #expect(converter.exitStatus == 0)
        let png = try Data(contentsOf: folder.appendingPathComponent("plot.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 10_000)
    }

    @Test("an existing SVG is kept without --force")
    func safeOutput() throws {
        let folder = try NagiProcess.temporaryFolder()
        try Data("mine".utf8).write(to: folder.appendingPathComponent("plot.svg"))
        let result = NagiInProcess.run(["plot", "box", "-o", folder.appendingPathComponent("plot.svg").path], home: folder)
        #expect(result.status == 73)
        #expect(try Data(contentsOf: folder.appendingPathComponent("plot.svg")) == Data("mine".utf8))
    }
}
