import Glibc
import LiveAudio
import Testing

/// Key reading on a real pseudo-terminal: raw mode, the key map, escape sequences, and restoring the settings.
struct TerminalKeysTests {
    /// A pseudo-terminal pair: keys typed into `controller` arrive at `terminal` as on a real keyboard.
    final class PseudoTerminal {
        let controller: Int32
        let terminal: Int32

        init() throws {
            var controller: Int32 = -1
            var terminal: Int32 = -1
            try #require(openpty(&controller, &terminal, nil, nil, nil) == 0)
            self.controller = controller
            self.terminal = terminal
        }

        deinit {
            close(terminal)
            close(controller)
        }

        var settings: termios {
            var current = termios()
            tcgetattr(terminal, &current)
            return current
        }

        /// Types `bytes` and waits until the terminal side can read them (the line discipline hands them on
        /// asynchronously).
        func type(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBufferPointer { write(controller, $0.baseAddress, $0.count) }
            var request = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
            _ = poll(&request, 1, 5_000)
        }
    }

    @Test func switchesTheTerminalToRawNoEchoInputKeepingSignalKeys() throws {
        let pty = try PseudoTerminal()
        let before = pty.settings
        #expect(before.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO), "a fresh terminal is cooked")

        let keys = TerminalKeys(fileDescriptor: pty.terminal)
        #expect(keys.isReadingKeys)
        let raw = pty.settings
        #expect(raw.c_lflag & tcflag_t(ICANON) == 0)
        #expect(raw.c_lflag & tcflag_t(ECHO) == 0)
        #expect(raw.c_lflag & tcflag_t(ISIG) != 0, "Ctrl-C still raises SIGINT")

        keys.restore()
        #expect(!keys.isReadingKeys)
        #expect(pty.settings.c_lflag == before.c_lflag)
        keys.restore()
        #expect(pty.settings.c_lflag == before.c_lflag)
    }

    @Test func mapsSpaceToPauseAndQOrEscapeToStop() throws {
        let pty = try PseudoTerminal()
        let keys = TerminalKeys(fileDescriptor: pty.terminal)
        #expect(keys.nextCommand() == nil, "nothing typed: returns at once with nothing")

        pty.type(Array(" xq".utf8))
        #expect(keys.nextCommand() == .togglePause)
        #expect(keys.nextCommand() == .stop(reason: .user))
        #expect(keys.nextCommand() == nil)

        #expect(keys.stopKeyName == "q")

        pty.type([0x1B])
        #expect(keys.nextCommand() == .stop(reason: .user))
        #expect(keys.stopKeyName == "Esc", "Esc is reported as Esc (issue 21 item 12)")
        pty.type(Array("Q".utf8))
        #expect(keys.nextCommand() == .stop(reason: .user))
        #expect(keys.stopKeyName == "q")
    }

    @Test func arrowAndFunctionKeysAreNotTakenForEscape() throws {
        let pty = try PseudoTerminal()
        let keys = TerminalKeys(fileDescriptor: pty.terminal)
        // Up arrow (CSI A), F5 (CSI 15~), F1 (SS3 P), Alt+x, then a space.
        pty.type([0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x1B, 0x4F, 0x50, 0x1B, 0x78, 0x20])
        #expect(keys.nextCommand() == .togglePause)
        #expect(keys.nextCommand() == nil)
    }

    @Test func decodesTheLiveKeysArrowsIncludedAndSkipsUnknownOnes() throws {
        let pty = try PseudoTerminal()
        let keys = TerminalKeys(fileDescriptor: pty.terminal)
        // + = - n b, enter, up and down arrows (CSI and SS3), then unknown keys (x, F5, Ctrl-Up, right arrow, z).
        pty.type(Array("+=-nb\r".utf8) + [0x1B, 0x5B, 0x41, 0x1B, 0x5B, 0x42, 0x1B, 0x4F, 0x41, 0x1B, 0x4F, 0x42]
            + Array("x".utf8) + [0x1B, 0x5B, 0x31, 0x35, 0x7E, 0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x41, 0x1B, 0x5B, 0x43] + Array("z ".utf8))
        var decoded: [LiveKey] = []
        while let key = keys.nextKey() { decoded.append(key) }
        #expect(decoded == [.volumeUp, .volumeUp, .volumeDown, .nextStage, .stageStart, .endHold,
                            .volumeUp, .volumeDown, .volumeUp, .volumeDown, .togglePause])
        #expect(keys.stopKeyName == nil, "no unknown key was taken for a stop")
    }

    @Test func deinitRestoresTheTerminal() throws {
        let pty = try PseudoTerminal()
        let before = pty.settings
        do {
            let keys = TerminalKeys(fileDescriptor: pty.terminal)
            #expect(keys.isReadingKeys)
            #expect(pty.settings.c_lflag != before.c_lflag)
        }
        #expect(pty.settings.c_lflag == before.c_lflag)
    }

    @Test func aPipeIsLeftAloneAndNeverRead() throws {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        defer {
            close(descriptors[0])
            close(descriptors[1])
        }
        let keys = TerminalKeys(fileDescriptor: descriptors[0])
        #expect(!keys.isReadingKeys)
        let space: [UInt8] = [0x20]
        _ = space.withUnsafeBufferPointer { write(descriptors[1], $0.baseAddress, 1) }
        #expect(keys.nextCommand() == nil)
        var byte: UInt8 = 0
        #expect(read(descriptors[0], &byte, 1) == 1 && byte == 0x20, "the byte is still there for whoever reads stdin")
    }
}
