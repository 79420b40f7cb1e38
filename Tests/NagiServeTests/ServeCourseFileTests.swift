import AudioFile
import Foundation
import NagiTestSupport
import Testing

/// The course endpoints as files: every lesson and album answer honours `format`, every link the course document
/// gives answers, and the album's ZIP names its files in UTF-8 (general purpose bit 11), with a playlist and a cue
/// sheet that name only what it holds, and each track's chapters as a label track.
@Suite struct ServeCourseFileTests {
    /// A server whose user has a course of two short lessons, titled with a dash no code page but UTF-8 has.
    static func serverWithCourse() throws -> InProcessServer {
        let server = try InProcessServer()
        let folder = server.home.file("config/nagi/courses")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let course = """
            {"name": "tiny", "title": "Tiny — two days", "description": "Two short lessons.", "lessons": [
             {"title": "Day 1 — Arrive", "pattern": "box", "cycles": 1, "cues": "none"},
             {"title": "Day 2 — Stay", "pattern": "4-7-8", "cycles": 1}]}
            """
        try course.write(toFile: folder + "/tiny.json", atomically: true, encoding: .utf8)
        return server
    }

    /// The codec ffprobe finds in `bytes`.
    static func codec(of bytes: [UInt8], in server: InProcessServer, name: String) throws -> String {
        let path = server.output(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name", "-of", "default=nw=1:nk=1", path])
        #expect(run.status == 0, "\(run.output)")
        return run.output.split(separator: "\n").first.map(String.init) ?? ""
    }

    @Test("Every link of the course document answers 200: each lesson's render, describe and pace, and the album")
    func everyLinkAnswers() throws {
        let server = try Self.serverWithCourse()
        let document = try server.get("/api/courses/tiny")
        #expect(document.status == 200)
        let object = try document.jsonObject()
        let lessons = try #require(object["lessons"] as? [[String: Any]])
        #expect(lessons.count == 2)
        var links = [try #require(object["album"] as? String)]
        for lesson in lessons {
            for key in ["render", "describe", "pace"] { links.append(try #require(lesson[key] as? String)) }
        }
        for link in links {
            let reply = try server.get(link)
            #expect(reply.status == 200, "\(link): \(reply.status) \(reply.text.prefix(200))")
            #expect(!reply.body.isEmpty, "\(link)")
        }
        // The studio's own download links: the render link with the format's extension.
        let render = try #require(lessons[0]["render"] as? String)
        #expect(try server.get(render + ".mp3?download=1").status == 200)
    }

    @Test("A lesson honours format, by its extension or its parameter; two that disagree are refused")
    func lessonHonoursFormat() throws {
        let server = try Self.serverWithCourse()
        let byParameter = try server.get("/api/courses/tiny/lessons/1?format=mp3")
        #expect(byParameter.status == 200)
        #expect(byParameter.header("content-type") == "audio/mpeg")
        #expect(try Self.codec(of: byParameter.body, in: server, name: "lesson.mp3") == "mp3")
        let byPath = try server.get("/api/courses/tiny/lessons/2.opus?download=1")
        #expect(byPath.status == 200)
        #expect(try Self.codec(of: byPath.body, in: server, name: "lesson.opus") == "opus")
        #expect(byPath.header("content-disposition")?.contains("filename*=UTF-8''02%20-%20Day%202%20%E2%80%94%20Stay.opus") == true,
                "\(byPath.header("content-disposition") ?? "none")")
        let plain = try server.get("/api/courses/tiny/lessons/1")
        #expect(plain.header("content-type") == "audio/flac")
        let clash = try server.get("/api/courses/tiny/lessons/1.ogg?format=wav")
        #expect(clash.status == 400)
        #expect(try clash.jsonObject()["parameter"] as? String == "format")
        // Every other sound option too: the rate.
        let rate = try server.get("/api/courses/tiny/lessons/1.wav?rate=44100")
        #expect(rate.status == 200)
        let sampleRate = Int(rate.body[24]) | Int(rate.body[25]) << 8 | Int(rate.body[26]) << 16
        #expect(sampleRate == 44_100)
    }

    @Test("The album in MP3: MP3 tracks, each name flagged UTF-8, a playlist and cue sheet naming only its files, and each track's chapters")
    func albumHonoursFormatAndFlagsUTF8() throws {
        let server = try Self.serverWithCourse()
        let reply = try server.get("/api/courses/tiny/album.zip?format=mp3")
        #expect(reply.status == 200)
        let zipPath = server.output("tiny.zip")
        try Data(reply.body).write(to: URL(fileURLWithPath: zipPath))
        let entries = try ZIPCentralDirectory(reply.body).entries
        let names = entries.map(\.name)
        #expect(names.contains("tiny/01 - Day 1 — Arrive.mp3"), "\(names)")
        #expect(names.contains("tiny/02 - Day 2 — Stay.mp3"), "\(names)")
        #expect(names.contains("tiny/01 - Day 1 — Arrive.txt") && names.contains("tiny/tiny.cue") && names.contains("tiny/tiny.m3u8"), "\(names)")
        #expect(!names.contains { $0.hasSuffix(".flac") }, "\(names)")
        // Every name beyond ASCII is flagged (libarchive leaves an ASCII name, the same in every code page, as it is).
        let unicodeNames = entries.filter { !$0.name.allSatisfy(\.isASCII) }
        #expect(unicodeNames.count == 4, "\(names)")
        for entry in unicodeNames {
            #expect(entry.flags & 0x0800 != 0, "\(entry.name): general purpose bit 11 (UTF-8) not set")
        }
        // zipinfo, which reads names as UTF-8 under the flag, lists them as written.
        let listing = try Tool.run("/usr/bin/zipinfo", ["-1", zipPath])
        #expect(listing.status == 0)
        #expect(listing.output.split(separator: "\n").map(String.init).sorted() == names.sorted(), "\(listing.output)")
        let folder = try TemporaryFolder()
        #expect(try Tool.run("/usr/bin/unzip", ["-q", zipPath, "-d", folder.path]).status == 0)
        let files = Set(names.map { String($0.dropFirst("tiny/".count)) })
        let playlist = try String(contentsOfFile: folder.file("tiny/tiny.m3u8"), encoding: .utf8)
        let listed = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        #expect(listed == ["01 - Day 1 — Arrive.mp3", "02 - Day 2 — Stay.mp3"], "\(playlist)")
        #expect(listed.allSatisfy(files.contains))
        let sheet = try String(contentsOfFile: folder.file("tiny/tiny.cue"), encoding: .utf8)
        let sheetFiles = sheet.split(separator: "\n").filter { $0.hasPrefix("FILE ") }.map { line in
            String(line.split(separator: "\"")[1])
        }
        #expect(sheetFiles == listed, "\(sheet)")
        #expect(sheet.contains("FILE \"01 - Day 1 — Arrive.mp3\" MP3"))
        // Each track's chapters as its label track: one line a chapter, the first at 0.
        let labels = try String(contentsOfFile: folder.file("tiny/01 - Day 1 — Arrive.txt"), encoding: .utf8)
        #expect(labels.split(separator: "\n").count >= 4, "\(labels)")
        #expect(labels.hasPrefix("0.000000\t"), "\(labels)")
        let track = try Self.codec(of: Array(try Data(contentsOf: URL(fileURLWithPath: folder.file("tiny/01 - Day 1 — Arrive.mp3")))), in: server, name: "track.mp3")
        #expect(track == "mp3")
    }
}

/// A ZIP's central directory read straight from its bytes: each entry's name and general purpose flags.
struct ZIPCentralDirectory {
    struct Entry {
        var name: String
        var flags: Int
    }

    var entries: [Entry] = []

    init(_ bytes: [UInt8]) throws {
        func little(_ offset: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        // The end of central directory record: its signature, searched from the end (no comment here).
        guard let end = stride(from: bytes.count - 22, through: 0, by: -1).first(where: { little($0, 4) == 0x0605_4B50 }) else {
            throw HTTPClientError.malformed("no end of central directory")
        }
        let count = little(end + 10, 2)
        var offset = little(end + 16, 4)
        for _ in 0..<count {
            guard little(offset, 4) == 0x0201_4B50 else { throw HTTPClientError.malformed("no central header at \(offset)") }
            let nameLength = little(offset + 28, 2), extraLength = little(offset + 30, 2), commentLength = little(offset + 32, 2)
            let name = String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
            entries.append(Entry(name: name, flags: little(offset + 8, 2)))
            offset += 46 + nameLength + extraLength + commentLength
        }
    }
}
