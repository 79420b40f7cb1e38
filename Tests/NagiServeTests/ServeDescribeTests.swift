import Foundation
import NagiTestSupport
import Testing

/// `GET /api/describe` against `nagi describe --json`, and the API's refusals against the command line's lines.
@Suite struct ServeDescribeTests {
    @Test("describe through the API is the text of nagi describe --json", arguments: [
        SessionOptions("4-7-8", [("cycles", "2")]),
        SessionOptions("box", [("minutes", "5"), ("end-bell", ""), ("countdown", "3"), ("cues", "voice"), ("count", "voice"), ("rate", "44100")]),
        SessionOptions(nil, [("bpm", "5.5"), ("ratio", "2:3"), ("minutes", "3"), ("cues", "none")]),
        SessionOptions("4-2-6", []),
        SessionOptions("resonance-steps", [("ratio", "2:3")]),
    ])
    func describeEqualsCommandLine(session: SessionOptions) throws {
        let server = try InProcessServer()
        let reply = try server.get("/api/describe?" + session.query)
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
        #expect(reply.header("content-type")?.hasPrefix("application/json") == true)
        let run = try server.nagi(["describe"] + session.arguments + ["--json"])
        try #require(run.status == 0, "\(run.standardError)")
        #expect(reply.body == run.standardOutput, "API:\n\(reply.text.prefix(400))\nCLI:\n\(String(decoding: run.standardOutput.prefix(400), as: UTF8.self))")
    }

    @Test("A bad parameter is 400 with the one line nagi prints for the same option, and the parameter named", arguments: [
        (SessionOptions("box", [("bpm", "fast")]), "bpm"),
        (SessionOptions("box", [("cycles", "-3")]), "cycles"),
        (SessionOptions("1-2-3-4-5", []), "pattern"),
        // Contradictory cues: refused with the command line's sentence, not read as cues=voice.
        (SessionOptions("box", [("cues", "voice"), ("no-cues", "")]), "cues"),
    ])
    func badParameterIsTheCommandLinesLine(session: SessionOptions, parameter: String) throws {
        let server = try InProcessServer()
        let reply = try server.get("/api/describe?" + session.query)
        #expect(reply.status == 400)
        let object = try reply.jsonObject()
        let message = try #require(object["error"] as? String)
        #expect(object["parameter"] as? String == parameter)
        let run = try server.nagi(["describe"] + session.arguments + ["--json"])
        #expect(run.status == 64 || run.status == 65)
        #expect(run.standardError.contains(message), "CLI said: \(run.standardError)")
        #expect(!message.contains("\n"))
    }

    @Test("An unknown preset is 404, an unknown parameter 400, an unknown path 404, a POST to describe 405")
    func unknownNamesAndMethods() throws {
        let server = try InProcessServer()
        #expect(try server.get("/api/describe?pattern=no-such-preset").status == 404)
        let unknown = try server.get("/api/describe?pattern=box&tempo=3")
        #expect(unknown.status == 400)
        #expect(try unknown.jsonObject()["parameter"] as? String == "tempo")
        #expect(try server.get("/api/nothing-here").status == 404)
        #expect(try server.get("/api/render.txt?pattern=box").status == 404)
        let post = try server.request("POST", "/api/describe?pattern=box")
        #expect(post.status == 405)
        #expect(post.header("allow") == "GET, HEAD")
    }
}
