import Testing
@testable import NagiServe

/// The server's routes as a table of values: how a path matches, and what a request meets for a path no route
/// answers or a method the route does not take.
@Suite("nagi serve: routes") struct ServeRouteTests {
    @Test("A path matches exactly, under a prefix (the rest captured) or by segments (each open segment captured)")
    func pathsMatch() {
        #expect(Route.Path.exact(["/", "/pace"]).match("/pace") == [])
        #expect(Route.Path.exact(["/", "/pace"]).match("/pace/") == nil)
        #expect(Route.Path.under("/api/render.").match("/api/render.flac") == ["flac"])
        #expect(Route.Path.under("/api/render.").match("/api/renders") == nil)
        let done = Route.Path.segments(["api", "courses", nil, "lessons", nil, "done"])
        #expect(done.match("/api/courses/calm/lessons/3/done") == ["calm", "3"])
        #expect(done.match("/api/courses/calm/lessons/3") == nil)
        #expect(done.match("/api/courses/calm/lessons/3/done/") == nil)
        #expect(done.match("/api/courses/calm/lesson/3/done") == nil)
    }

    @Test("Each route takes its methods (405 names them in Allow); a path no route answers is 404 whatever the method")
    func methodsAndUnknownPaths() throws {
        let server = try InProcessServer()
        for (method, target, allowed) in [
            ("POST", "/api/describe?pattern=box", "GET, HEAD"), ("GET", "/api/resonance?pattern=box", "POST"),
            ("DELETE", "/", "GET, HEAD"), ("GET", "/api/courses/sleep-7/lessons/1/done", "POST"),
            ("PUT", "/api/courses/sleep-7/progress", "GET, HEAD"),
        ] {
            let reply = try server.request(method, target)
            #expect(reply.status == 405, "\(method) \(target)")
            #expect(reply.header("allow") == allowed, "\(method) \(target)")
        }
        for method in ["GET", "POST"] {
            let reply = try server.request(method, "/api/nothing")
            #expect(reply.status == 404, "\(method)")
            #expect(try reply.jsonObject()["error"] as? String == "no such page or API: /api/nothing")
        }
        #expect(try server.get("/assets/pacer.js").header("content-type") == "text/javascript; charset=utf-8")
        #expect(try server.get("/api/render.raw?pattern=box").status == 404)
        #expect(try server.request("HEAD", "/api/courses/sleep-7/progress").status == 200)
    }

    @Test("A course that does not exist is 404 on every course path, said for the web and naming no query parameter")
    func unknownCourseIsNotFound() throws {
        let server = try InProcessServer()
        for target in ["/api/courses/no-such-course", "/api/courses/no-such-course/lessons/1.wav", "/api/courses/no-such-course/progress",
                       "/api/courses/no-such-course/album.zip", "/api/courses/sleep-8/lessons/1/describe"] {
            let reply = try server.get(target)
            #expect(reply.status == 404, "\(target): \(reply.text)")
            let object = try reply.jsonObject()
            let line = object["error"] as? String ?? ""
            #expect(line.hasPrefix("no course named '"), "\(target): \(line)")
            #expect(line.contains("/api/presets lists the courses"), "\(target): \(line)")
            #expect(!line.contains("nagi presets") && !line.contains("JSON file"), "a command line's advice: \(line)")
            #expect(object["parameter"] == nil, "\(target) names a parameter: \(reply.text)")
        }
        // The nearest name is offered, as on the command line.
        #expect(try server.get("/api/courses/sleep-8").text.contains("'sleep-7'"))
    }
}
