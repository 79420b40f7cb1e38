import NagiOptions
import NagiServe
import Testing

/// A query is handed to the parser as tokens, never as command-line text: a value that looks like an option is read
/// as the value, and the parser's own lines still name the parameter at fault.
@Suite struct QueryArgumentsTests {
    /// No user folders: the options tested name none.
    let folders = UserFolders(root: nil)

    @Test("A value that looks like an option (title=--force, title=-o, pattern=--help) is read as the value")
    func optionShapedValuesAreValues() throws {
        for value in ["--force", "-o", "--help", "-", "--", "--title=x", "-3"] {
            let arguments = try QueryArguments.parse([("pattern", "box"), ("title", value), ("artist", "--album")], for: RenderOptions.spec, folders: folders)
            #expect(try arguments[RenderOptions.title] == value)
            #expect(try arguments[TagOptions.artist] == "--album")
            #expect(!arguments.isHelpRequested)
            #expect(arguments.positionals == ["box"])
        }
        for pattern in ["--help", "-o", "--force", "--"] {
            let arguments = try QueryArguments.parse([("pattern", pattern), ("cycles", "2")], for: DescribeOptions.spec, folders: folders)
            #expect(!arguments.isHelpRequested, "pattern=\(pattern) asked for help")
            #expect(arguments.positionals == [pattern])
        }
    }

    @Test("The parser's own line names the parameter at fault, as the command line names the option")
    func errorsNameTheParameter() throws {
        let cases: [([(name: String, value: String)], String)] = [
            ([("title", "a"), ("title", "b")], "title"),
            ([("channels", "3")], "channels"),
            ([("pattern", "box"), ("pattern", "4-4")], "pattern"),
            ([("end-bell", "maybe")], "end-bell"),
        ]
        for (query, parameter) in cases {
            #expect {
                _ = try QueryArguments.parse(query, for: RenderOptions.spec, folders: folders)
            } throws: { error in
                (error as? QueryError)?.parameter == parameter
            }
        }
    }

    @Test("Over HTTP a title that looks like an option is the file's title: the render answers, under a tag of its own")
    func optionShapedTitleRenders() throws {
        let server = try InProcessServer()
        var tags: Set<String> = []
        for title in ["--force", "-o", "--help"] {
            let reply = try server.request("HEAD", "/api/render.flac?pattern=box&cycles=1&rate=8000&title=\(title)")
            #expect(reply.status == 200, "title=\(title): \(reply.text.prefix(200))")
            tags.insert(try #require(reply.header("etag")))
        }
        #expect(tags.count == 3, "titles that differ share a tag")
        let described = try server.get("/api/describe?pattern=--help")
        #expect(described.status != 200)
        #expect(try described.jsonObject()["parameter"] as? String == "pattern", "\(described.text.prefix(200))")
    }
}
