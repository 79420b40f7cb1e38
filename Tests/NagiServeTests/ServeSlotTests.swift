import Foundation
import Glibc
import NagiTestSupport
import Testing

/// A render's slot and its client (issue 51): the render is decoupled from sending (spooled), so a client that
/// reads nothing does not keep the one slot of `--jobs 1`; and a client gone before or during its answer stops its
/// render within a second, leaving nothing in TMPDIR.
@Suite struct ServeSlotTests {
    @Test("With --jobs 1, a render whose client reads nothing still ends and frees the slot: the next render starts within 3 s")
    func slowReaderHoldsNoSlot() throws {
        let server = try InProcessServer(["--jobs", "1"], mode: .live)
        // The second render once first, so that its preparation is kept (the server keeps four): beside the stalled
        // client, what it waits for is then the slot alone, not its own loudness pass on a busy machine.
        let second = "/api/render.wav?pattern=4-7-8&cycles=1&cues=none"
        #expect(try server.get(second).status == 200)
        // Three minutes of WAV: 35 MB, far more than the socket's and the pipe's buffers hold, so a render that waited
        // for its client would wait for ever (until the idle timeout, 20 s).
        let stalled = try server.connect(receiveTimeoutSeconds: 120)
        try stalled.sendRequest("GET", "/api/render.wav?pattern=box&minutes=3&cues=none", headers: [("Host", server.host), ("Authorization", "Bearer \(server.token ?? "")")])
        #expect(try stalled.readHead().status == 200)
        // Its render ends (into its spool) and gives the one slot back, though its client has read nothing.
        #expect(Poll.until(seconds: 60, every: 0.05) { server.server.slots.counts.running == 0 }, "the stalled client's render did not end")
        let start = Date()
        let next = try server.connect(receiveTimeoutSeconds: 15)
        try next.sendRequest("GET", second, headers: [("Host", server.host), ("Authorization", "Bearer \(server.token ?? "")"), ("Connection", "close")])
        let head = try next.readHead()
        let seconds = Date().timeIntervalSince(start)
        #expect(head.status == 200)
        #expect(seconds < 3, "the second render took \(seconds) s to start beside a client that reads nothing")
        // The stalled client still reads its file, from the spool: its first megabyte.
        #expect(try stalled.readBytes(1 << 20).count == 1 << 20)
    }

    @Test("A client gone while its render is prepared or streamed: the server's CPU stops within a second, TMPDIR is left empty",
          arguments: ["/api/render.wav?pattern=box&minutes=60&soundscape=rain", "/api/render.flac?pattern=box&minutes=60&soundscape=rain&download=1"])
    func goneClientStopsItsRender(target: String) throws {
        let server = try ServeProcess(["--listen", "127.0.0.1:0", "--jobs", "1"])
        let connection = try server.connect()
        try connection.sendRequest("GET", target, headers: [("Host", server.host), server.authorization])
        // Gone before the first byte: the hour is still being prepared (metered) or rendered.
        Thread.sleep(forTimeInterval: 0.5)
        connection.reset()
        Thread.sleep(forTimeInterval: 1)
        let before = server.cpuSeconds
        Thread.sleep(forTimeInterval: 2)
        let spent = server.cpuSeconds - before
        #expect(spent < 0.3, "the server used \(spent) s of CPU in the 2 s from 1 s after its client left")
        #expect(server.temporaryFiles.isEmpty, "left in TMPDIR: \(server.temporaryFiles)")
        // The slot is free again.
        let next = try server.get("/api/render.wav?pattern=box&cycles=1&cues=none")
        #expect(next.status == 200)
    }
}
