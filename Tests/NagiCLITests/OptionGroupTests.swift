import Breath
import AudioFile
import Foundation
import NagiTestSupport
import Testing
@testable import NagiCLI
@testable import NagiOptions

@Suite("Option groups: one declaration, one answer on every command")
struct OptionGroupTests {
    /// Every command path (below the root) whose options include all of `names`.
    static func commandPaths(taking names: [String]) -> [[String]] {
        CompletionScript.commands(of: NagiCommandLine.rootSpec).compactMap { path, spec in
            guard !path.isEmpty, names.allSatisfy({ spec.option(named: $0) != nil }) else { return nil }
            return path.split(separator: " ").map(String.init)
        }
    }

    struct Pair: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        /// Commands that must take the pair (so a command dropped from the list fails the test).
        var expectedCommands: Set<String>
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let pairs = [
        Pair(arguments: ["--cycles", "1", "--minutes", "5"], expectedCommands: ["describe", "render", "play", "plot", "course next"]),
        Pair(arguments: ["--cues", "voice", "--no-cues"], expectedCommands: ["render", "play", "course export", "course next"]),
    ]

    @Test("a conflicting pair gets the same exit code and message from every command that takes it", arguments: pairs)
    func sameAnswerEverywhere(pair: Pair) throws {
        let optionNames = pair.arguments.filter { $0.hasPrefix("--") }
        let paths = Self.commandPaths(taking: optionNames)
        #expect(Set(paths.map { $0.joined(separator: " ") }).isSuperset(of: pair.expectedCommands), "\(paths)")
        var answers: Set<String> = []
        for path in paths {
            // A positional is given where one is needed, so nothing but the pair can be wrong.
            let positional = path.last == "next" || path.last == "export" ? ["beginner-21"] : ["box"]
            let result = NagiInProcess.run(path + positional + pair.arguments)
            #expect(result.status == 64, "\(path): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            answers.insert(result.standardError)
        }
        #expect(answers.count == 1, "\(answers)")
        #expect(answers.first == "nagi: error: options '\(optionNames[0])' and '\(optionNames[1])' cannot be used together; give only one\n")
    }

    @Test("no command declares an option twice, and the soundscape is declared once for all")
    func oneDeclaration() {
        for (path, spec) in CompletionScript.commands(of: NagiCommandLine.rootSpec) {
            let names = spec.options.flatMap(\.names)
            #expect(Set(names).count == names.count, "\(path)")
            if let soundscape = spec.option(named: "--soundscape") {
                #expect(soundscape == SoundscapeOptions.group.options[0], "\(path) declares its own --soundscape")
            }
        }
    }

    @Test("a command built of groups takes their options and their exclusive sets, groups first")
    func specFromGroups() throws {
        let length = OptionGroup(title: "Length", options: [OptionSpec(names: ["--cycles"], valueName: "N", help: "c"), OptionSpec(names: ["--minutes"], valueName: "M", help: "m")], exclusiveGroups: [["--cycles", "--minutes"]])
        let spec = CommandSpec(name: "x", summary: "s", groups: [length], options: [OptionSpec(names: ["--quiet"], help: "q")])
        #expect(spec.options.map(\.canonicalName) == ["--cycles", "--minutes", "--quiet"])
        #expect(spec.ownOptions.map(\.canonicalName) == ["--quiet"])
        #expect(spec.exclusiveGroups == [["--cycles", "--minutes"]])
        #expect(throws: ArgumentError.conflictingOptions("--minutes", "--cycles")) {
            try ArgumentParser.parse(["--minutes", "1", "--cycles", "2"], for: spec)
        }
        #expect(UsageText.usageLines(for: spec, commandPath: "x").joined().contains("[--cycles N | --minutes M] [--quiet]"))
    }

    static func parse(_ line: [String]) throws -> ParsedArguments {
        try ArgumentParser.parse(line, for: NagiCommandLine.rootSpec)
    }

    @Test("guidance options read into typed values, with their defaults")
    func guidanceReads() throws {
        #expect(try GuidanceOptions(Self.parse(["render"])) == GuidanceOptions())
        let all = try GuidanceOptions(Self.parse(["render", "--cues", "both", "--voice", "kal16", "--count", "ticks", "--cue-volume", "-3.5"]))
        #expect(all == GuidanceOptions(cues: .both, voice: .kal16, count: .ticks, cueVolumeDecibels: -3.5))
        #expect(try GuidanceOptions(Self.parse(["play", "--no-cues"])).cues == CueMode.none)
        #expect(try GuidanceOptions(Self.parse(["course", "next", "x", "--count", "voice", "--voice", "rms"])).voice == .rms)
        #expect(CueMode.both.chimes && CueMode.both.speaks)
        #expect(!CueMode.voice.chimes)
    }

    struct BadGuidance: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32
        var mentions: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badGuidance = [
        BadGuidance(arguments: ["--cues", "bell"], status: 64, mentions: "chimes, voice, both, none"),
        BadGuidance(arguments: ["--cue-volume", "13"], status: 64, mentions: "-30 to 12"),
        BadGuidance(arguments: ["--cue-volume", "-30.5"], status: 64, mentions: "--cue-volume"),
        BadGuidance(arguments: ["--voice", "rms"], status: 64, mentions: "--cues voice"),
        BadGuidance(arguments: ["--count", "voice", "--voice", "bob"], status: 64, mentions: "slt, rms, awb, kal16"),
        BadGuidance(arguments: ["--no-cues", "--cue-volume", "3"], status: 64, mentions: "--cue-volume"),
        BadGuidance(arguments: ["--cue-pack", "no/such/folder"], status: 66, mentions: "no/such/folder"),
        // A pack plays in place of the chimes.
        BadGuidance(arguments: ["--cues", "voice", "--cue-pack", "."], status: 64, mentions: "--cues chimes"),
    ]

    @Test("bad guidance options are refused before anything is written", arguments: badGuidance)
    func guidanceRefused(testCase: BadGuidance) throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The case's cue pack is a path in the folder, given absolute: an in-process run has no working directory.
        let arguments = testCase.arguments.indices.map { index in
            index > 0 && testCase.arguments[index - 1] == "--cue-pack" ? folder.appendingPathComponent(testCase.arguments[index]).path : testCase.arguments[index]
        }
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent("out.wav").path] + arguments, home: folder)
        #expect(result.status == testCase.status, "\(result.standardError)")
        #expect(result.standardError.contains(testCase.mentions), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!NagiProcess.names(in: folder).contains("out.wav"))
    }

    @Test("an explicit --soundscape wins over a lesson's own, in course export and in course next")
    func soundscapePrecedence() throws {
        // course next opens ALSA in this process: its pulse hook reads this process's XDG_RUNTIME_DIR, not the run's.
        RuntimeFolder.ensure()
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try CourseTests.writeCourse(in: folder)
        // Lesson 2 names night, lesson 3 rain; lesson 1 names none.
        func exportComments(_ extra: [String], into name: String) throws -> [String] {
            let output = folder.appendingPathComponent(name)
            let result = NagiInProcess.run(["course", "export", file, "-o", output.path, "--format", "wav", "--quiet"] + extra, home: folder)
            #expect(result.status == 0, "\(result.standardError)")
            return try NagiProcess.names(in: output).filter { $0.hasSuffix(".wav") }.map { try AudioFileReader.info(path: output.appendingPathComponent($0).path).tags.comment ?? "" }
        }
        let own = try exportComments([], into: "own")
        #expect(own.count == 3)
        // The comment ends in the soundscape: "2-2 · 2 breaths · horizon".
        #expect(own.count == 3 && own[0].hasSuffix(" · horizon") && own[1].hasSuffix(" · night") && own[2].hasSuffix(" · rain"), "\(own)")
        let flagged = try exportComments(["--soundscape", "dusk"], into: "dusk")
        #expect(flagged.count == 3 && flagged.allSatisfy { $0.hasSuffix(" · dusk") }, "\(flagged)")

        let capture = folder.appendingPathComponent("capture.raw").path
        let device = ["--device", "file:'\(capture)',raw"]
        // Lesson 1 (no soundscape of its own) with the flag, then lesson 2 (night) with and without it.
        #expect(NagiInProcess.run(["course", "next", file, "--soundscape", "dusk"] + device, home: folder).standardError.contains("(soundscape dusk)"))
        let second = NagiInProcess.run(["course", "next", file, "--soundscape", "dusk"] + device, home: folder)
        #expect(second.standardError.contains("Tiny course: lesson 2 of 3"), "\(second.standardError)")
        #expect(second.standardError.contains("(soundscape dusk)"), "\(second.standardError)")
        let third = NagiInProcess.run(["course", "next", file] + device, home: folder)
        #expect(third.standardError.contains("(soundscape rain)"), "\(third.standardError)")
    }

    @Test("course next refuses --cycles with --minutes, and a lesson played shorter is not recorded as done")
    func shortenedLessonNotRecorded() throws {
        // course next opens ALSA in this process: its pulse hook reads this process's XDG_RUNTIME_DIR, not the run's.
        RuntimeFolder.ensure()
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try CourseTests.writeCourse(in: folder)
        let device = ["--device", "file:'\(folder.appendingPathComponent("capture.raw").path)',raw"]
        let both = NagiInProcess.run(["course", "next", file, "--cycles", "1", "--minutes", "5"] + device, home: folder)
        #expect(both.status == 64, "\(both.standardError)")
        let short = NagiInProcess.run(["course", "next", file, "--cycles", "1"] + device, home: folder)
        #expect(short.status == 0, "\(short.standardError)")
        #expect(short.standardError.contains("not recorded as done"), "\(short.standardError)")
        #expect(NagiInProcess.run(["course", "status", file], home: folder).standardOutput.contains("done: 0 / 3"))
        let whole = NagiInProcess.run(["course", "next", file] + device, home: folder)
        #expect(whole.standardError.contains("lesson 1 done (1 / 3)"), "\(whole.standardError)")
    }

    @Test("nagi help reaches every command and subcommand")
    func helpReachesEverything() throws {
        for (path, spec) in CompletionScript.commands(of: NagiCommandLine.rootSpec) {
            let words = path.split(separator: " ").map(String.init)
            let result = NagiInProcess.run(["help"] + words)
            #expect(result.status == 0, "nagi help \(path): \(result.standardError)")
            #expect(result.standardOutput.contains("USAGE: " + (["nagi"] + words).joined(separator: " ")), "\(path)")
            #expect(result.standardOutput.contains(String(spec.summary.prefix(30))), "\(path)")
        }
        let wrong = NagiInProcess.run(["help", "course", "nxt"])
        #expect(wrong.status == 64)
        #expect(wrong.standardError.contains("did you mean 'next'?"))
    }
}
