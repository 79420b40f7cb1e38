import AudioFile
import Foundation
import NagiTestSupport
import Testing

/// The live keys as a listener meets them: typed through tmux into `nagi play` on PulseAudio's paced null sink,
/// with ALSA's tee plugin capturing every frame played. The capture is read against a render of the same session
/// with the open hold closed at its 5-minute maximum (the plan play compiles), frame for frame.
@Suite("nagi play's live keys: volume, an open hold, skips", .serialized)
struct LiveKeysTests {
    static let rate = 8000
    /// 10 ms: the fade either side of a jump.
    static let fade = 80
    /// 50 ms: past the fade-in after a jump, and past the 40 ms fade-in of an underrun a debug build's seek back
    /// (a replay from frame 0) can cause on a loaded machine; no frame is skipped either way.
    static let settled = 400

    /// Two rounds of 3 quick breaths, a 2 s retention (open, or closed at `closedSeconds`) and one breath.
    static func session(open: Bool, closedSeconds: Int = 300) -> String {
        let hold = open ? "{\"kind\": \"holdOut\", \"seconds\": 2, \"open\": true}" : "{\"kind\": \"holdOut\", \"seconds\": \(closedSeconds)}"
        return """
        {"title": "Live keys", "stages": [{"repeat": 2, "stages": [{"pattern": "1-1", "cycles": 3}, \
        {"pattern": {"phases": [\(hold)]}, "cycles": 1}, {"pattern": "1-1", "cycles": 1}]}]}
        """
    }

    /// The gain (output / reference) over each 200-frame window where the reference is loud enough to divide by.
    static func windowGains(_ capture: [Float], _ reference: [Float], _ range: Range<Int>) -> [Double] {
        stride(from: range.lowerBound, to: range.upperBound - 200, by: 200).compactMap { start in
            var ratios: [Double] = []
            for frame in start..<(start + 200) where abs(reference[frame]) > 0.003 {
                ratios.append(Double(capture[frame]) / Double(reference[frame]))
            }
            guard ratios.count > 20 else { return nil }
            ratios.sort()
            return ratios[ratios.count / 2]
        }
    }

    /// Whether `capture` from `streamFrame` is `reference` from `sessionFrame` times `gain`, for `frameCount` frames.
    static func matches(_ capture: [Float], _ streamFrame: Int, _ reference: [Float], _ sessionFrame: Int, gain: Float, frameCount: Int) -> Bool {
        guard streamFrame >= 0, streamFrame + frameCount <= capture.count, sessionFrame + frameCount <= reference.count else { return false }
        for offset in 0..<frameCount where abs(capture[streamFrame + offset] - reference[sessionFrame + offset] * gain) > 2e-4 {
            return false
        }
        return true
    }

    @Test("volume steps of 2 dB, an open hold logged as held, b and n land on boundaries")
    func volumeHoldAndSkips() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is missing; .ci/run installs it")
        let server = try #require(PulseServer(), "pulseaudio could not start; .ci/run installs it")
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.session(open: true).write(to: folder.appendingPathComponent("live.json"), atomically: true, encoding: .utf8)
        try Self.session(open: false).write(to: folder.appendingPathComponent("closed.json"), atomically: true, encoding: .utf8)
        // No chimes: the reference at 0 dB meets the limiter at their onsets, the quieter capture does not.
        let common = ["--rate", "\(Self.rate)", "--channels", "1", "--bits", "float", "--cues", "none"]
        let rendered = try NagiProcess.run(["render", "closed.json", "-o", "reference.wav", "--quiet"] + common, in: folder)
        #expect(rendered.status == 0, "\(rendered.standardError)")
        let reference = try AudioFileReader.readFloat(path: folder.appendingPathComponent("reference.wav").path)

        let session = "nagi-keys-\(getpid())"
        let play = (["'\(NagiProcess.executableURL.path)'", "play", "live.json", "--device", "\"tee:pulse,'\(folder.path)/capture.raw',raw\"", "--latency", "400", "--volume", "-10", "--log", "holds.jsonl"] + common).joined(separator: " ")
        let command = "cd '\(folder.path)' && \(server.shellAssignments) \(play) 2>stderr.txt; echo \"exit=$?\" > status.txt; sleep 30"
        _ = try TerminalViewTests.tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "20", command])
        defer { _ = try? TerminalViewTests.tmux(["kill-session", "-t", session]) }
        func send(_ keys: String...) throws { _ = try TerminalViewTests.tmux(["send-keys", "-t", session] + keys) }

        // Round 1's quick breaths: -10, then -12, -10 and (by the up arrow) -8 dB, each held for a while.
        let start = try TerminalViewTests.waitForScreen(session, containing: "volume -10 dB", seconds: 15)
        #expect(start.contains("n/b skip") && start.contains("+/- volume"), "the hint line lists the keys: \(start)")
        // An unknown key first: it must change nothing (the plateaus below start with -10 dB for as long).
        try send("-l", "x")
        for (key, shown) in [("-", "-12"), ("+", "-10"), ("Up", "-8")] {
            Thread.sleep(forTimeInterval: 0.6)
            if key == "Up" { try send("Up") } else { try send("-l", key) }
            _ = try TerminalViewTests.waitForScreen(session, containing: "volume \(shown) dB", seconds: 5)
        }
        // The open hold: held for about 1.5 s, then enter.
        let holding = try TerminalViewTests.waitForScreen(session, containing: "held", seconds: 15)
        #expect(holding.contains("volume -8 dB") && holding.contains("enter breathes in"), "\(holding)")
        Thread.sleep(forTimeInterval: 1.5)
        try send("Enter")
        // Round 2: b, then (after the jump back) n, which ends the session.
        _ = try TerminalViewTests.waitForScreen(session, containing: "breath 6/", seconds: 15)
        try send("b")
        Thread.sleep(forTimeInterval: 1.5)
        try send("n")
        let status = PlayViewWidthTests.waitForFile(folder.path + "/status.txt", seconds: 20)
        let errors = (try? String(contentsOfFile: folder.path + "/stderr.txt", encoding: .utf8)) ?? ""
        #expect(status.contains("exit=0"), "n on the last round ends the session as played through: \(status) \(errors)")

        let data = try Data(contentsOf: folder.appendingPathComponent("capture.raw"))
        let capture = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let holdStart = 6 * Self.rate

        // 1. Volume: the plateaus before the hold, in dB against the reference, each step 2.0 ± 0.2 dB.
        let gains = Self.windowGains(capture, reference, 0..<holdStart).map { 20 * log10($0) }
        var plateaus: [Double] = []
        var run: [Double] = []
        for gain in gains {
            if let first = run.first, abs(gain - first) > 0.05 {
                if run.count >= 3 { plateaus.append(run.reduce(0, +) / Double(run.count)) }
                run = []
            }
            run.append(gain)
        }
        if run.count >= 3 { plateaus.append(run.reduce(0, +) / Double(run.count)) }
        // One volume held is one plateau, however many runs a stray window splits it into (a busy machine moves
        // the keys, and with them where the windows fall against the breath): neighbours within 0.2 dB merge.
        plateaus = plateaus.reduce(into: [Double]()) { merged, level in
            if let last = merged.last, abs(last - level) <= 0.2 { return }
            merged.append(level)
        }
        #expect(plateaus.count == 4, "plateaus \(plateaus)")
        if plateaus.count == 4 {
            for (measured, wanted) in zip(plateaus, [-10.0, -12, -10, -8]) {
                #expect(abs(measured - wanted) <= 0.2, "plateaus \(plateaus)")
            }
        }
        let gain = Float(pow(10, -8.0 / 20))

        // 2. The open hold: the log's length is where the capture leaves the hold for the recovery breath.
        let log = (try? String(contentsOfFile: folder.path + "/holds.jsonl", encoding: .utf8)) ?? ""
        let line = try #require(log.split(separator: "\n").first, "nothing logged: \(errors)")
        let fields = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        let milliseconds = try #require(fields["retentionMs"] as? Int, "\(line)")
        #expect(fields["round"] as? Int == 1 && fields["ended"] as? String == "enter", "\(line)")
        #expect(milliseconds >= 1_000 && milliseconds <= 10_000, "held \(milliseconds) ms for about 1.5 s")
        let holdEnd = 306 * Self.rate
        let predicted = holdStart + milliseconds * Self.rate / 1000
        // Where the capture goes on with the recovery breath (after the 10 ms fade-in): within 20 ms of the log.
        let landing = (-160...160).first { error in
            Self.matches(capture, predicted + error + Self.settled, reference, holdEnd + Self.settled, gain: gain, frameCount: 800)
        }
        #expect(landing != nil, "the capture does not go on with the recovery breath within 20 ms of \(milliseconds) ms held")
        let held = Self.matches(capture, predicted - 800 - Self.fade, reference, predicted - 800 - Self.fade, gain: gain, frameCount: 700)
        #expect(held, "the hold sounds as rendered until enter")
        let afterHold = predicted + (landing ?? 0)

        // 3. b: at a phase boundary of round 2 (every phase is 1 s), on to round 2's start. The boundary is where the
        // capture, followed from the hold's end, is still the session just before it and round 2's start after it.
        let roundTwo = 308 * Self.rate
        let back = (309...315).first { second in
            let boundary = second * Self.rate
            let stream = afterHold + boundary - holdEnd
            return Self.matches(capture, stream - Self.fade - 800, reference, boundary - Self.fade - 800, gain: gain, frameCount: 800)
                && Self.matches(capture, stream + Self.settled, reference, roundTwo + Self.settled, gain: gain, frameCount: 800)
        }
        let backAt = try #require(back, "b did not go back to round 2's start at a boundary")

        // 4. n in the last round: at a boundary, on to the end of the breathing, and the release to the end.
        let backStream = afterHold + backAt * Self.rate - holdEnd
        let breathingEnd = 616 * Self.rate
        let next = (309...315).first { second in
            let boundary = second * Self.rate
            let stream = backStream + boundary - roundTwo
            return Self.matches(capture, stream - Self.fade - 800, reference, boundary - Self.fade - 800, gain: gain, frameCount: 800)
                && Self.matches(capture, stream + Self.settled, reference, breathingEnd + Self.settled, gain: gain, frameCount: 800)
                && capture.count - stream == reference.count - breathingEnd
        }
        #expect(next != nil, "n did not go on to the release at a boundary, or the capture does not end with it")
        #expect(errors.contains("practised"), "\(errors)")
    }
}
