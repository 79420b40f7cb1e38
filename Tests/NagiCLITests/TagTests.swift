import AudioFile
import Foundation
import NagiTestSupport
import Testing

/// Tags, chapters and gains as players read them: through ffprobe, ffmpeg's loudness meter and mutagen, tools
/// that share no code with TagLib.
@Suite("tags, chapters and gains through TagLib")
struct TagTests {
    /// A real 8x8 PNG, made by ffmpeg.
    static func coverPNG(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("cover.png").path
        let made = try Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=8x8", "-frames:v", "1", path])
        #expect(made.status == 0, "\(made.output)")
        return path
    }

    /// ffprobe's JSON for a file: format and stream tags merged, and the chapters.
    static func probe(_ path: String) throws -> (tags: [String: String], chapters: [(start: Double, title: String)]) {
        let result = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_chapters", "-show_entries", "format_tags:stream_tags", "-of", "json", path])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        var tags: [String: String] = [:]
        if let format = json["format"] as? [String: Any], let formatTags = format["tags"] as? [String: String] {
            for (key, value) in formatTags { tags[key.lowercased()] = value }
        }
        for stream in json["streams"] as? [[String: Any]] ?? [] {
            for (key, value) in stream["tags"] as? [String: String] ?? [:] where tags[key.lowercased()] == nil { tags[key.lowercased()] = value }
        }
        let chapters = (json["chapters"] as? [[String: Any]] ?? []).compactMap { chapter -> (Double, String)? in
            guard let start = (chapter["start_time"] as? String).flatMap(Double.init) else { return nil }
            return (start, (chapter["tags"] as? [String: String])?["title"] ?? "")
        }
        return (tags, chapters)
    }

    /// describe --json's phase starts in seconds, and its names as chapter titles.
    static func describedStarts(_ arguments: [String]) throws -> [(seconds: Double, kind: String)] {
        let result = NagiInProcess.run(["describe"] + arguments + ["--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let rate = try #require(json["sampleRate"] as? Int)
        let phases = try #require(json["phases"] as? [[String: Any]])
        return phases.compactMap { phase in
            guard let frame = phase["startFrame"] as? Int, let kind = phase["kind"] as? String else { return nil }
            return (Double(frame) / Double(rate), kind)
        }
    }

    /// What mutagen reads as one ID3 frame of a WAV file's id3 chunk (ffmpeg keeps only its INFO list as tags).
    static func mutagenID3Text(_ path: String, frame: String) throws -> String? {
        let script = "import sys, mutagen.wave\nf = mutagen.wave.WAVE(sys.argv[1])\nprint(f.tags[sys.argv[2]].text[0] if f.tags and sys.argv[2] in f.tags else '')"
        let result = try Tool.run("/usr/bin/python3", ["-c", script, path, frame])
        #expect(result.status == 0, "\(result.output)")
        let text = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    @Test("MP3, Ogg, Opus, FLAC and WAV: ffprobe reads the Unicode title, every tag, the chapters (WAV: labelled cue points) at describe's boundaries (±1 ms) and gains within 0.1 dB of ffmpeg's meter", arguments: ["mp3", "ogg", "opus", "flac", "wav"])
    func chaptersTagsAndGains(format: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let cover = try Self.coverPNG(in: folder)
        let path = folder.appendingPathComponent("t.\(format)").path
        let session = ["4-7-8", "--cycles", "2", "--rate", "48000"]
        let render = NagiInProcess.run(["render"] + session + ["--title", "Night 1 — Unwind", "--album", "Sleep · 7", "--cover", cover, "-o", path, "--quiet"], home: folder)
        #expect(render.status == 0, "\(render.standardError)")
        let (tags, chapters) = try Self.probe(path)
        #expect(tags["title"] == "Night 1 — Unwind")
        #expect(tags["album"] == "Sleep · 7")
        #expect(tags["artist"] == "nagi")
        #expect(tags["genre"] == "Meditation")
        #expect(tags["comment"] == "4-7-8 · 2 breaths · horizon")
        #expect(tags["encoder"]?.hasPrefix("nagi ") == true, "\(tags)")
        #expect(tags["date"]?.count == 4)

        let described = try Self.describedStarts(session)
        #expect(chapters.count == described.count)
        for (chapter, phase) in zip(chapters, described) {
            #expect(abs(chapter.start - phase.seconds) <= 0.001, "chapter at \(chapter.start) s, phase at \(phase.seconds) s")
            let expected = phase.kind == "inhale" ? "Inhale" : phase.kind == "exhale" ? "Exhale" : "Hold"
            #expect(chapter.title == expected)
        }

        let measured = try FFmpegLoudness.integratedLUFS(of: path)
        if format == "opus" {
            let q78 = try #require(tags["r128_track_gain"].flatMap { Int($0) }, "\(tags)")
            #expect(tags["replaygain_track_gain"] == nil)
            #expect(abs(Double(q78) / 256 - (-23 - measured)) <= 0.1, "R128 \(q78) against \(measured) LUFS")
        } else {
            let gainText = try #require(format == "wav" ? Self.mutagenID3Text(path, frame: "TXXX:REPLAYGAIN_TRACK_GAIN") : tags["replaygain_track_gain"], "\(tags)")
            let gain = try #require(Double(gainText.split(separator: " ")[0]))
            #expect(gainText.hasSuffix(" dB"))
            #expect(abs(gain - (-18 - measured)) <= 0.1, "gain \(gain) dB against \(measured) LUFS")
            let peakText = format == "wav" ? try Self.mutagenID3Text(path, frame: "TXXX:REPLAYGAIN_TRACK_PEAK") : tags["replaygain_track_peak"]
            let peak = try #require(peakText.flatMap(Double.init))
            #expect(peak > 0 && peak <= 1)
        }
    }

    @Test("a WAV's cue points are its chapters, every one titled: ffprobe lists wim-hof's rounds, not a chapter per phase; --chapters phases titles each phase")
    func wavChaptersAreTitledCuePoints() throws {
        let folder = try NagiProcess.temporaryFolder()
        // Two rounds of 30 breaths (60 phases), a retention and a recovery (3): 128 phases. A cue point on every
        // phase start read as 128 chapters, all but the rounds' two untitled.
        let session = ["wim-hof", "--cycles", "2", "--rate", "8000", "--channels", "1", "--no-cues"]
        let rounds = NagiInProcess.run(["render"] + session + ["-o", folder.appendingPathComponent("rounds.wav").path, "--quiet"], home: folder)
        #expect(rounds.status == 0, "\(rounds.standardError)")
        let (_, chapters) = try Self.probe(folder.appendingPathComponent("rounds.wav").path)
        #expect(chapters.map(\.title) == ["Round 1", "Round 2"], "\(chapters.count) chapters: \(chapters.prefix(4))")
        let phases = NagiInProcess.run(["render"] + session + ["--chapters", "phases", "-o", folder.appendingPathComponent("phases.wav").path, "--quiet"], home: folder)
        #expect(phases.status == 0, "\(phases.standardError)")
        let (_, phaseChapters) = try Self.probe(folder.appendingPathComponent("phases.wav").path)
        #expect(phaseChapters.count == 128 && phaseChapters.allSatisfy { ["Inhale", "Hold", "Exhale"].contains($0.title) }, "\(phaseChapters.count) chapters")
    }

    @Test("wim-hof in FLAC: one chapter per round, for one round and for many", arguments: [1, 2, 3])
    func oneChapterPerRound(rounds: Int) throws {
        let folder = try NagiProcess.temporaryFolder()
        let path = folder.appendingPathComponent("rounds.flac").path
        let render = NagiInProcess.run(["render", "wim-hof", "--cycles", String(rounds), "--rate", "8000", "--channels", "1", "--no-cues", "-o", path, "--quiet"], home: folder)
        #expect(render.status == 0, "\(render.standardError)")
        let (_, chapters) = try Self.probe(path)
        #expect(chapters.map(\.title) == (1...rounds).map { "Round \($0)" }, "\(chapters.count) chapters: \(chapters.prefix(4))")
    }

    @Test("mutagen reads back every tag nagi wrote, in every format, with the cover; WAV keeps its cue points")
    func mutagenReadsEveryFormat() throws {
        let folder = try NagiProcess.temporaryFolder()
        let cover = try Self.coverPNG(in: folder)
        let script = """
        import json, sys, mutagen
        f = mutagen.File(sys.argv[1])
        tags = {}
        for key in (f.tags.keys() if f.tags is not None else []):
            value = f.tags[key]
            text = value.text if hasattr(value, "text") else value
            tags[key.upper()] = str(text[0]) if isinstance(text, list) else str(text)
        pictures = len(getattr(f, "pictures", [])) + len([k for k in tags if k.startswith("APIC")]) + len([k for k in tags if k == "METADATA_BLOCK_PICTURE"])
        print(json.dumps({"tags": tags, "pictures": pictures}))
        """
        let scriptPath = folder.appendingPathComponent("read.py").path
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        for format in ["wav", "flac", "ogg", "opus", "mp3"] {
            let path = folder.appendingPathComponent("m.\(format)").path
            let render = NagiInProcess.run(["render", "box", "--cycles", "1", "--title", "Box — one", "--artist", "Ünïcode ☯", "--cover", cover, "-o", path, "--quiet"], home: folder)
            #expect(render.status == 0, "\(render.standardError)")
            let read = try Tool.run("/usr/bin/python3", [scriptPath, path])
            #expect(read.status == 0, "\(format): \(read.output)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [String: Any])
            let tags = try #require(json["tags"] as? [String: String])
            func tag(_ vorbis: String, _ id3: String) -> String? { tags[vorbis] ?? tags[id3] }
            #expect(tag("TITLE", "TIT2") == "Box — one", "\(format): \(tags)")
            #expect(tag("ARTIST", "TPE1") == "Ünïcode ☯", "\(format): \(tags)")
            #expect(tag("GENRE", "TCON") == "Meditation", "\(format): \(tags)")
            #expect(tag("ENCODER", "TSSE")?.hasPrefix("nagi ") == true, "\(format): \(tags)")
            #expect(tags.keys.contains { $0.hasPrefix("COMM") || $0 == "COMMENT" }, "\(format): \(tags)")
            if format == "opus" {
                #expect(tags["R128_TRACK_GAIN"].flatMap { Int($0) } != nil, "\(tags)")
            } else {
                #expect(tag("REPLAYGAIN_TRACK_GAIN", "TXXX:REPLAYGAIN_TRACK_GAIN")?.hasSuffix(" dB") == true, "\(format): \(tags)")
            }
            #expect(json["pictures"] as? Int == 1, "\(format): \(json)")
            if format == "wav" {
                #expect(try AudioFileReader.info(path: path).cueFrames.count == 4)
            }
        }
    }

    @Test("a cover that is no image or over 4 MiB is exit 65, a title with a control character exit 64; nothing is written")
    func hostileInputs() throws {
        let folder = try NagiProcess.temporaryFolder()
        let text = folder.appendingPathComponent("cover.png").path
        try "not a picture".write(toFile: text, atomically: true, encoding: .utf8)
        var large = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 8, 0, 0, 0, 8])
        large.append(Data(count: 4 * 1024 * 1024))
        let largePath = folder.appendingPathComponent("large.png").path
        try large.write(to: URL(fileURLWithPath: largePath))
        // A real PNG cut to 100 bytes: its signature and IHDR are whole, the rest is gone (issue 46).
        let cutPath = folder.appendingPathComponent("cut.png").path
        let whole = try NagiProcess.temporaryFolder().appendingPathComponent("whole.png").path
        let made = try Tool.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=64x48", "-frames:v", "1", whole])
        try #require(made.status == 0, "\(made.output)")
        try Data(try Data(contentsOf: URL(fileURLWithPath: whole)).prefix(100)).write(to: URL(fileURLWithPath: cutPath))
        let cases: [([String], Int32, String)] = [
            (["--cover", text], 65, "not a PNG or JPEG"),
            (["--cover", cutPath], 65, "cut.png"),
            (["--cover", largePath], 65, "at most 4194304"),
            (["--title", "bad\u{1B}[31m title"], 64, "control character"),
        ]
        for (options, status, words) in cases {
            for format in ["mp3", "flac"] {
                let result = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent("out.\(format)").path] + options, home: folder)
                #expect(result.status == status, "\(options): \(result.standardError)")
                #expect(result.standardError.contains(words), "\(result.standardError)")
                #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
                #expect(!NagiProcess.names(in: folder).contains { $0.hasPrefix("out.") || $0.contains("nagi-partial") }, "\(NagiProcess.names(in: folder))")
            }
        }
    }

    @Test("an MP3 course export with em-dash titles: tagged tracks, album gains, label tracks, real lengths in the playlist")
    func courseExportAsMP3() throws {
        let folder = try NagiProcess.temporaryFolder()
        _ = try Self.coverPNG(in: folder)
        let course = #"""
        {"name": "nights", "title": "Nights", "artist": "A teacher", "cover": "cover.png",
         "lessons": [
           {"title": "Night 1 — Unwind", "pattern": "2-2", "cycles": 2},
           {"title": "Night 2 — Rest", "pattern": "box", "cycles": 1, "soundscape": "rain"}
         ]}
        """#
        let file = folder.appendingPathComponent("nights.json").path
        try course.write(toFile: file, atomically: true, encoding: .utf8)
        let album = folder.appendingPathComponent("album")
        let export = NagiInProcess.run(["course", "export", file, "--format", "mp3", "-o", album.path, "--labels"], home: folder)
        #expect(export.status == 0, "\(export.standardError)")
        let names = NagiProcess.names(in: album)
        #expect(names.contains("01 - Night 1 — Unwind.mp3") && names.contains("02 - Night 2 — Rest.txt"), "\(names)")
        var albumGains: Set<String> = []
        for (index, name) in ["01 - Night 1 — Unwind.mp3", "02 - Night 2 — Rest.mp3"].enumerated() {
            let (tags, chapters) = try Self.probe(album.appendingPathComponent(name).path)
            #expect(tags["title"] == (index == 0 ? "Night 1 — Unwind" : "Night 2 — Rest"))
            #expect(tags["artist"] == "A teacher")
            #expect(tags["album"] == "Nights")
            #expect(tags["track"] == "\(index + 1)/2")
            #expect(!chapters.isEmpty)
            albumGains.insert(try #require(tags["replaygain_album_gain"], "\(tags)"))
        }
        #expect(albumGains.count == 1)
        let playlist = try String(contentsOfFile: album.appendingPathComponent("nights.m3u8").path, encoding: .utf8)
        let lengths = playlist.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap { Int($0.dropFirst(8).split(separator: ",")[0]) }
        let probed = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", album.appendingPathComponent("01 - Night 1 — Unwind.mp3").path])
        let duration = try #require(Double(probed.output.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(lengths.count == 2)
        #expect(abs(Double(lengths[0]) - duration) < 1, "playlist \(lengths[0]) s, file \(duration) s")
        let described = NagiInProcess.run(["describe", album.appendingPathComponent("02 - Night 2 — Rest.mp3").path])
        #expect(described.status == 0)
        #expect(described.standardOutput.contains("Night 2 — Rest") && described.standardOutput.contains("replaygain_album_gain"), "\(described.standardOutput)")
    }
}
