import Foundation
import NagiTestSupport
import Testing

/// The JSON answers as a page reads them: written by one encoder, any text a user put in a course (a quote, a
/// backslash, markup, non-ASCII) comes back the same through `JSONSerialization`, awkward input quoted in a refusal
/// (a newline, control characters) never breaks the JSON, and each key keeps the type the pages read (numbers,
/// `null`, lists).
@Suite("nagi serve: the JSON answers") struct ServeJSONTests {
    /// What a course's text may hold that JSON escapes or a hand-written writer got wrong: quotes, a backslash, a
    /// slash, markup and non-ASCII (control characters and newlines are refused in titles: `DisplayText`).
    static let awkward = #"a "quoted" b\c </script> & é — \u0041"#
    /// Input a request may carry: every character a JSON string must escape.
    static let hostile = "a \"quoted\" b\\c\nd\re\tf\u{1}g\u{1F} é"

    /// A server whose user has course `odd` titled, described and with a lesson titled `awkward`.
    static func serverWithAwkwardCourse() throws -> InProcessServer {
        let server = try InProcessServer()
        let folder = server.home.file("config/nagi/courses")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let course: [String: Any] = [
            "name": "odd", "title": awkward, "description": awkward,
            "lessons": [["title": awkward, "pattern": "box", "cycles": 1, "cues": "none"], ["title": "Two", "pattern": "box", "cycles": 1, "cues": "none"]],
        ]
        try JSONSerialization.data(withJSONObject: course).write(to: URL(fileURLWithPath: folder + "/odd.json"))
        return server
    }

    @Test("A course's awkward title, description and lesson title come back the same in the course and the preset list")
    func awkwardTextRoundTrips() throws {
        let server = try Self.serverWithAwkwardCourse()
        let document = try server.get("/api/courses/odd")
        #expect(document.status == 200, "\(document.text.prefix(300))")
        let course = try document.jsonObject()
        #expect(course["title"] as? String == Self.awkward)
        #expect(course["summary"] as? String == Self.awkward)
        let lessons = try #require(course["lessons"] as? [[String: Any]])
        #expect(lessons.first?["title"] as? String == Self.awkward)
        #expect(lessons.first?["number"] as? Int == 1)
        #expect((lessons.first?["seconds"] as? NSNumber)?.doubleValue ?? 0 > 0)
        #expect((course["totalSeconds"] as? NSNumber)?.doubleValue ?? 0 > 0)
        #expect(document.text.filter { $0 == "\n" }.count == 1, "one line")

        let presets = try server.get("/api/presets").jsonObject()
        let courses = try #require(presets["courses"] as? [[String: Any]])
        let listed = try #require(courses.first { $0["name"] as? String == "odd" })
        #expect(listed["title"] as? String == Self.awkward)
        #expect(listed["lessonCount"] as? Int == 2)
        #expect(listed["user"] as? Bool == true)
        let soundscapes = try #require(presets["soundscapes"] as? [[String: Any]])
        #expect(soundscapes.last?["name"] as? String == "auto" && soundscapes.last?["user"] as? Bool == false)
        #expect(presets["beds"] is [String] && presets["cuePacks"] is [String])
    }

    @Test("A course without a description answers its summary as null")
    func absentSummaryIsNull() throws {
        let server = try InProcessServer()
        let folder = server.home.file("config/nagi/courses")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try #"{"name": "bare", "title": "Bare", "lessons": [{"title": "One", "pattern": "box", "cycles": 1}]}"#
            .write(toFile: folder + "/bare.json", atomically: true, encoding: .utf8)
        let course = try server.get("/api/courses/bare").jsonObject()
        #expect(course["summary"] is NSNull, "\(course)")
    }

    @Test("A refusal that quotes hostile input (quotes, a backslash, a newline, control characters) is one JSON object that reads back")
    func refusalIsValidJSON() throws {
        let server = try InProcessServer()
        let encoded = try #require(Self.hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        for target in ["/api/describe?pattern=" + encoded, "/api/describe?pattern=box&minutes=" + encoded, "/api/courses/" + encoded] {
            let refused = try server.get(target)
            #expect((400...499).contains(refused.status), "\(target): \(refused.status)")
            // No raw control character reaches the wire, and the answer is one line.
            #expect(!refused.body.dropLast().contains { $0 < 0x20 }, "\(target): \(refused.text)")
            let object = try refused.jsonObject()
            let error = try #require(object["error"] as? String, "\(target): \(refused.text)")
            #expect(!error.isEmpty)
        }
        let minutes = try server.get("/api/describe?pattern=box&minutes=" + encoded)
        let object = try minutes.jsonObject()
        #expect(object["parameter"] as? String == "minutes", "\(minutes.text)")
        #expect((object["error"] as? String)?.contains(#""quoted" b\c"#) == true, "the value quoted as given: \(minutes.text)")
        // On loopback no other device can join: a refusal with no parameter at fault leaves the key out.
        let unjoinable = try server.get("/api/qr.svg")
        #expect(unjoinable.status == 404)
        #expect(try unjoinable.jsonObject()["parameter"] == nil, "\(unjoinable.text)")
    }

    @Test("Progress answers numbers for the lessons done and the next, then null once the course is complete")
    func progressTypes() throws {
        let server = try Self.serverWithAwkwardCourse()
        let start = try server.get("/api/courses/odd/progress").jsonObject()
        #expect(start["course"] as? String == "odd")
        #expect((start["done"] as? [Int]) == [])
        #expect(start["next"] as? Int == 1)
        #expect((start["practised"] as? [String]) == [])
        let token = try #require(start["token"] as? String)
        let headers = [("Origin", "http://" + server.host), ("X-Nagi-Token", token)]
        let first = try server.request("POST", "/api/courses/odd/lessons/1/done", headers: headers)
        #expect(first.status == 200, "\(first.text)")
        let afterFirst = try first.jsonObject()
        #expect((afterFirst["done"] as? [Int]) == [1])
        #expect(afterFirst["next"] as? Int == 2)
        #expect((afterFirst["practised"] as? [String])?.first?.count == 10)
        let complete = try server.request("POST", "/api/courses/odd/lessons/2/done", headers: headers).jsonObject()
        #expect((complete["done"] as? [Int]) == [1, 2])
        #expect(complete["next"] is NSNull, "\(complete)")
    }
}
