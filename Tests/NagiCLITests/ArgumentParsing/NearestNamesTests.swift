import Breath
import NagiDocuments
import Testing
@testable import NagiCLI
@testable import NagiOptions

@Suite struct NearestNamesTests {
    @Test func knownDistances() {
        #expect(NearestNames.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(NearestNames.editDistance(Array(""), Array("abc")) == 3)
        #expect(NearestNames.editDistance(Array("abc"), Array("")) == 3)
        #expect(NearestNames.editDistance(Array("same"), Array("same")) == 0)
        // One swap of neighbours is one edit; plain Levenshtein would say 2.
        #expect(NearestNames.editDistance(Array("--cylces"), Array("--cycles")) == 1)
        // Optimal string alignment edits no substring twice: "ca" → "abc" is 3, not 2.
        #expect(NearestNames.editDistance(Array("ca"), Array("abc")) == 3)
    }

    @Test func nearestFirstTiesInCandidateOrder() {
        let names = nearestNames(to: "bax", among: ["calm", "box", "bay", "4-7-8", "bass"], maxDistance: 2)
        #expect(names == ["box", "bay", "bass"])
    }

    @Test func maxDistanceLimitsAndZeroMeansExact() {
        #expect(nearestNames(to: "box", among: ["box", "fox", "boxes"], maxDistance: 0) == ["box"])
        #expect(nearestNames(to: "boz", among: ["box", "fox"], maxDistance: 1) == ["box"])
        #expect(nearestNames(to: "zzz", among: ["box"], maxDistance: 2).isEmpty)
        #expect(nearestNames(to: "box", among: [], maxDistance: 2).isEmpty)
        #expect(nearestNames(to: "box", among: ["box"], maxDistance: -1).isEmpty)
    }

    @Test func duplicatesAppearOnce() {
        #expect(nearestNames(to: "sea", among: ["sea", "tea", "sea"], maxDistance: 1) == ["sea", "tea"])
    }

    @Test func suggestionDistanceGrowsWithWordLength() {
        #expect(suggestionDistance(for: "-x") == 0)
        #expect(suggestionDistance(for: "--ab") == 0)
        #expect(suggestionDistance(for: "lst") == 1)
        #expect(suggestionDistance(for: "--rate") == 1)
        #expect(suggestionDistance(for: "--cylces") == 2)
        #expect(suggestionDistance(for: "--soundscapes") == 2)
    }
}
