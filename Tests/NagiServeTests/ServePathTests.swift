import Foundation
import NagiTestSupport
import Testing

/// No file path ever comes from a request: patterns and soundscapes by preset name or inline text, beds and cue
/// packs by name from the user's own folders, and the options that name files refused.
@Suite struct ServePathTests {
    /// Requests that name a file, each with the status it must get.
    static let pathRequests: [(target: String, status: Int)] = [
        ("/api/render.wav?pattern=/etc/passwd", 404),
        ("/api/describe?pattern=/etc/passwd", 404),
        ("/api/describe?pattern=../../../../etc/passwd", 404),
        ("/api/describe?pattern=%2Fetc%2Fpasswd", 404),
        ("/api/plot.svg?pattern=/etc/hostname", 404),
        ("/api/render.wav?pattern=box&soundscape=/etc/passwd", 404),
        ("/api/render.flac?pattern=box&soundscape=../soundscapes/rain.json", 404),
        ("/api/plot.svg?pattern=box&soundscape=%2Fetc%2Fpasswd", 404),
        ("/api/render.wav?pattern=box&bed=/etc/passwd", 404),
        ("/api/render.wav?pattern=box&bed=../../../../etc/passwd", 404),
        ("/api/render.wav?pattern=box&bed=..", 404),
        ("/api/render.wav?pattern=box&bed=.hidden", 404),
        ("/api/render.wav?pattern=box&cue-pack=/etc", 404),
        ("/api/render.wav?pattern=box&cue-pack=..", 404),
        ("/api/render.wav?pattern=box&output=/tmp/nagi-served.wav", 400),
        ("/api/render.wav?pattern=box&labels=/tmp/nagi-labels.txt", 400),
        ("/api/render.wav?pattern=box&cue-sheet=/tmp/nagi.cue", 400),
        ("/api/render.flac?pattern=box&cover=/etc/passwd", 400),
        ("/api/courses/..%2F..%2F..%2Fetc%2Fpasswd", 404),
        ("/api/courses/%2Fetc%2Fpasswd", 404),
        ("/assets/../../../etc/passwd", 404),
        ("/assets/%2E%2E/%2E%2E/etc/passwd", 404),
        ("/../../etc/passwd", 404),
    ]

    @Test("A request naming a path is refused with one JSON line, never the file's contents")
    func pathsAreRefused() throws {
        let server = try InProcessServer()
        for (target, status) in Self.pathRequests {
            let reply = try server.get(target)
            #expect(reply.status == status, "\(target): \(reply.status) \(reply.text.prefix(200))")
            #expect(try reply.jsonObject()["error"] is String, "\(target)")
            #expect(!reply.text.contains("root:"), "\(target)")
        }
        // Nothing was written where a request asked.
        for path in ["/tmp/nagi-served.wav", "/tmp/nagi-labels.txt", "/tmp/nagi.cue"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path)")
        }
    }

    @Test("A bed is named from the user's beds folder; a link in it that leads outside is 404")
    func bedsOnlyFromTheUsersFolder() throws {
        let server = try InProcessServer()
        let beds = server.home.file("config/nagi/beds")
        try FileManager.default.createDirectory(atPath: beds, withIntermediateDirectories: true)
        // A real bed in the folder, rendered by nagi itself, and a link out of it to another recording.
        let recording = server.output("waves.wav")
        #expect(try server.nagi(["render", "box", "--cycles", "1", "--soundscape", "rain", "--rate", "22050", "-o", recording, "--quiet"]).status == 0)
        try FileManager.default.copyItem(atPath: recording, toPath: beds + "/waves.wav")
        try FileManager.default.createSymbolicLink(atPath: beds + "/outside.wav", withDestinationPath: recording)
        try FileManager.default.createSymbolicLink(atPath: beds + "/passwd.wav", withDestinationPath: "/etc/passwd")

        let presets = try server.get("/api/presets").jsonObject()
        #expect(presets["beds"] as? [String] == ["waves"], "\(presets["beds"] ?? "none")")
        let served = try server.get("/api/render.wav?pattern=box&cycles=1&bed=waves", headers: [("Range", "bytes=0-43")])
        #expect(served.status == 206, "\(served.text.prefix(300))")
        for name in ["outside", "passwd", "waves.wav", "beds/waves", "nothing"] {
            let reply = try server.get("/api/render.wav?pattern=box&cycles=1&bed=\(SessionOptions.encoded(name))")
            #expect(reply.status == 404, "bed=\(name)")
            #expect(try reply.jsonObject()["parameter"] as? String == "bed", "bed=\(name)")
        }
    }
}
