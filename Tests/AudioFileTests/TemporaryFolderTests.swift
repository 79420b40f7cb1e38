import Foundation
import NagiTestSupport
import Testing

@Suite("TemporaryFolder: every test's files go, with the folder")
struct TemporaryFolderTests {
    @Test func aReleasedFolderIsRemovedWithItsFiles() throws {
        var folder: TemporaryFolder? = try TemporaryFolder()
        let path = try #require(folder?.path)
        #expect(path.hasPrefix(TemporaryFolder.root.path + "/"))
        #expect(FileManager.default.createFile(atPath: path + "/take.wav", contents: Data([1, 2, 3])))
        #expect(folder?.contents == ["take.wav"])
        folder = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func foldersHandedOutByURLLiveInTheRootRemovedAtExit() throws {
        let url = try TemporaryFolder.makeURL()
        #expect(url.deletingLastPathComponent().path == TemporaryFolder.root.path)
        #expect(FileManager.default.fileExists(atPath: url.path))
    }
}
