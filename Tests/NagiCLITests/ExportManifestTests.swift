import Foundation
import Testing
@testable import NagiCLI
@testable import NagiOptions
import NagiKit

@Suite("ExportManifest: what nagi wrote, or began writing, survives a kill")
struct ExportManifestTests {
    @Test func aTrackBegunButNotRecordedIsNagisToRedoNotSkipped() throws {
        let folder = try NagiProcess.temporaryFolder().path
        let manifest = ExportManifest(folder: folder, course: "tiny")
        manifest.record("01 - a.flac", fingerprint: "f1")
        manifest.beginWriting("02 - b.flac")

        // As the next run reads it after a kill between the track's rename and its record.
        let reread = ExportManifest(folder: folder, course: "tiny")
        #expect(reread.fingerprint(for: "01 - a.flac") == "f1")
        #expect(reread.fingerprint(for: "02 - b.flac") == nil)
        #expect(reread.isExported("02 - b.flac"))
        #expect(!reread.isExported("03 - c.flac"))

        // Rewriting a recorded track first forgets its old fingerprint, so a kill midway cannot leave it skipped.
        reread.beginWriting("01 - a.flac")
        #expect(ExportManifest(folder: folder, course: "tiny").fingerprint(for: "01 - a.flac") == nil)
        reread.record("01 - a.flac", fingerprint: "f2")
        reread.record("02 - b.flac", fingerprint: "f3")
        let text = try String(contentsOfFile: folder + "/" + ExportManifest.fileName, encoding: .utf8)
        #expect(!text.contains("writing"), "\(text)")
        let last = ExportManifest(folder: folder, course: "tiny")
        #expect(last.fingerprint(for: "01 - a.flac") == "f2")
        #expect(last.fingerprint(for: "02 - b.flac") == "f3")
    }

    @Test func aManifestInTheFormWrittenBeforeTheOneEncoderStillReads() throws {
        let folder = try NagiProcess.temporaryFolder().path
        // As the hand-written writer left it: keys in its own order, ": " between key and value.
        let old = """
            {
              "course": "tiny",
              "tracks": {
                "01 - a.flac": {"fingerprint": "f1", "bytes": 12, "modifiedNanoseconds": "1796674019956596021"},
                "02 - b.flac": {"fingerprint": "f2"}
              },
              "writing": ["03 - c.flac"]
            }

            """
        try old.write(toFile: folder + "/" + ExportManifest.fileName, atomically: true, encoding: .utf8)
        let manifest = ExportManifest(folder: folder, course: "tiny")
        #expect(manifest.fingerprint(for: "01 - a.flac") == "f1")
        #expect(manifest.fingerprint(for: "02 - b.flac") == "f2")
        #expect(manifest.isExported("03 - c.flac"))
        // Rewritten by the encoder, it reads back the same.
        manifest.record("04 - d.flac", fingerprint: "f4")
        let reread = ExportManifest(folder: folder, course: "tiny")
        #expect(reread.fingerprint(for: "01 - a.flac") == "f1" && reread.fingerprint(for: "04 - d.flac") == "f4")
        #expect(reread.isExported("03 - c.flac"))
    }
}
