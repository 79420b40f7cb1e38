import NagiTestSupport
import Foundation
import Testing
@testable import NagiCLI
@testable import NagiOptions

@Suite("Shell completions generated from the command specs")
struct CompletionTests {
    /// Runs bash's completion function for `words` (the last is the word being completed) and
    /// returns COMPREPLY, with nagi on PATH and a user preset in the configuration folder.
    static func complete(_ words: [String], folder: URL) throws -> [String] {
        let script = folder.appendingPathComponent("nagi.bash")
        let generated = NagiInProcess.run(["completions", "bash"])
        #expect(generated.status == 0, "\(generated.standardError)")
        try generated.standardOutput.write(to: script, atomically: true, encoding: .utf8)
        let quotedWords = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = """
        source '\(script.path)'
        COMP_WORDS=(\(quotedWords)); COMP_CWORD=\(words.count - 1)
        _nagi
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let output = folder.appendingPathComponent("reply.txt").path
        let nagiFolder = NagiProcess.executableURL.deletingLastPathComponent().path
        let child = try ChildProcess("/usr/bin/bash", ["--norc", "-c", program], environment: ["PATH": "\(nagiFolder):/usr/bin:/bin", "HOME": folder.path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path], workingDirectory: folder.path, standardOutputPath: output)
        #expect(child.wait(seconds: 30))
        #expect(child.exitStatus == 0)
        return try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    static func withUserPresets<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let patterns = folder.appendingPathComponent("config/nagi/patterns")
        try FileManager.default.createDirectory(at: patterns, withIntermediateDirectories: true)
        try #"{"title": "Mine", "phases": [{"kind": "inhale", "seconds": 3}, {"kind": "exhale", "seconds": 6}]}"#.write(to: patterns.appendingPathComponent("my-own.json"), atomically: true, encoding: .utf8)
        return try body(folder)
    }

    @Test("bash completes commands, subcommands, options, values, presets and courses")
    func bash() throws {
        try Self.withUserPresets { folder in
            #expect(try Self.complete(["nagi", "re"], folder: folder) == ["render", "resonance"])
            #expect(try Self.complete(["nagi", "resonance", ""], folder: folder) == ["analyze"])
            #expect(try Self.complete(["nagi", ""], folder: folder).contains("completions"))
            #expect(try Self.complete(["nagi", "course", ""], folder: folder) == ["list", "show", "export", "next", "status"])
            let options = try Self.complete(["nagi", "render", "--cu"], folder: folder)
            #expect(options == ["--cues", "--cue-pack", "--cue-volume", "--cue-sheet"])
            #expect(try Self.complete(["nagi", "render", "--format", ""], folder: folder) == ["wav", "flac", "ogg", "opus", "mp3", "raw"])
            #expect(try Self.complete(["nagi", "play", "box", "--voice", "k"], folder: folder) == ["kal16"])
            // A value-taking option's value is skipped when finding the positional.
            let patterns = try Self.complete(["nagi", "render", "-o", "x.wav", ""], folder: folder)
            #expect(patterns.contains("4-7-8") && patterns.contains("wim-hof") && patterns.contains("my-own"), "\(patterns)")
            #expect(try Self.complete(["nagi", "describe", "my"], folder: folder) == ["my-own"])
            let soundscapes = try Self.complete(["nagi", "plot", "box", "--soundscape", ""], folder: folder)
            #expect(["horizon", "night", "dusk", "rain", "auto"].allSatisfy(soundscapes.contains), "\(soundscapes)")
            #expect(try Self.complete(["nagi", "course", "next", "b"], folder: folder) == ["beginner-21"])
            #expect(try Self.complete(["nagi", "course", "export", "sleep-7", "--cues", ""], folder: folder) == ["chimes", "voice", "both", "none"])
            #expect(try Self.complete(["nagi", "help", "course", "ne"], folder: folder) == ["next"])
            #expect(try Self.complete(["nagi", "completions", "f"], folder: folder) == ["fish"])
            // --start-from-progress takes the name of a course or a pattern that was played (issue 46).
            let recorded = try Self.complete(["nagi", "resonance", "analyze", "rr.csv", "--start-from-progress", ""], folder: folder)
            #expect(["beginner-21", "sleep-7", "4-7-8", "resonance-steps", "my-own"].allSatisfy(recorded.contains), "\(recorded)")
            #expect(try Self.complete(["nagi", "resonance", "analyze", "rr.csv", "--start-from-progress", "b"], folder: folder) == ["beginner-21", "box"])
            // Options of the subcommand, not of its parent.
            #expect(try Self.complete(["nagi", "course", "status", "x", "--r"], folder: folder) == ["--reset"])
        }
    }

    @Test("the zsh and fish scripts parse", arguments: [("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")])
    func otherShellsParse(shell: String, interpreter: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: interpreter), "\(shell) is not installed")
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let generated = NagiInProcess.run(["completions", shell])
        #expect(generated.status == 0)
        let script = folder.appendingPathComponent("nagi.\(shell)")
        try generated.standardOutput.write(to: script, atomically: true, encoding: .utf8)
        let errors = folder.appendingPathComponent("errors.txt").path
        let child = try ChildProcess(interpreter, ["-n", script.path], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], standardErrorPath: errors)
        #expect(child.wait(seconds: 30))
        #expect(child.exitStatus == 0, "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        // Every option of every command is in the script, so it cannot lag behind --help.
        for (_, spec) in CompletionScript.commands(of: NagiCommandLine.rootSpec) {
            for option in spec.options {
                let long = option.names.first { $0.hasPrefix("--") } ?? option.names[0]
                let spelled = shell == "fish" ? (long.hasPrefix("--") ? "-l \(long.dropFirst(2))" : "-s \(long.dropFirst())") : long
                #expect(generated.standardOutput.contains(spelled), "\(shell) lacks \(long) of \(spec.name)")
            }
        }
    }

    @Test("an unknown shell is refused with 64")
    func unknownShell() throws {
        let result = NagiInProcess.run(["completions", "tcsh"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("bash, zsh, fish"))
    }
}
