import Foundation
import Testing

/// What `describe` shows of the spoken guide: a phase's own words, its round and stage labels.
@Suite("describe shows the guide's words, rounds and stage labels")
struct GuideDescribeTests {
    @Test("sigh: the JSON says \"sip in more\" on each top-up inhale and null elsewhere; the table has a says column")
    func sighWords() throws {
        let phases = try #require(DescribeTests.describeJSON(["sigh"])["phases"] as? [[String: Any]])
        for (index, phase) in phases.enumerated() {
            if index % 3 == 1 {
                #expect(phase["say"] as? String == "sip in more")
            } else {
                #expect(phase["say"] is NSNull)
            }
            #expect(phase["round"] is NSNull)
            #expect(phase["stageLabel"] is NSNull)
        }
        let table = NagiInProcess.run(["describe", "sigh"])
        let lines = table.standardOutput.split(separator: "\n")
        #expect(lines[1].hasSuffix("says"))
        #expect(lines[3].hasSuffix("sip in more"))
        #expect(!lines[2].hasSuffix("sip in more"))
        // A plain pattern keeps its narrow table.
        let plain = NagiInProcess.run(["describe", "box"]).standardOutput.split(separator: "\n")
        #expect(plain[1].hasSuffix("length"))
    }

    @Test("wim-hof: rounds 1, 2, 3 in the JSON and a round column in the table")
    func wimHofRounds() throws {
        let phases = try #require(DescribeTests.describeJSON(["wim-hof"])["phases"] as? [[String: Any]])
        let rounds = phases.compactMap { $0["round"] as? Int }
        #expect(rounds.count == phases.count)
        #expect(rounds == rounds.sorted())
        #expect(Set(rounds) == [1, 2, 3])
        #expect(rounds.filter { $0 == 2 }.count == phases.count / 3)
        let table = NagiInProcess.run(["describe", "wim-hof"]).standardOutput.split(separator: "\n")
        #expect(table[1].split(separator: " ").prefix(3) == ["#", "round", "cycle"])
    }
}
