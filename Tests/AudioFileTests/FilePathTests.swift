import NagiBase
import Glibc
import NagiSystem
import NagiTestSupport
import Testing

/// The one path arithmetic and the one file-kind query every module uses.
@Suite("Paths and file kinds")
struct FilePathTests {
    @Test("the last component, the parent and the extension of each shape of path")
    func components() {
        #expect(FilePath("/a/b.wav").lastComponent == "b.wav")
        #expect(FilePath("b.wav").lastComponent == "b.wav")
        #expect(FilePath("/a/b/").lastComponent == "b")
        #expect(FilePath("/").lastComponent == "/")
        #expect(FilePath("/a/b.wav").parent == "/a")
        #expect(FilePath("/b.wav").parent == "/")
        #expect(FilePath("b.wav").parent == ".")
        #expect(FilePath("a/b.tar.gz").fileExtension == "gz")
        #expect(FilePath("a/.hidden").fileExtension == nil)
        #expect(FilePath("a.d/b").fileExtension == nil)
    }

    @Test("appending a name and resolving a relative path against a folder")
    func joining() {
        #expect(FilePath("a").appending("b.wav") == "a/b.wav")
        #expect(FilePath("a/").appending("b.wav") == "a/b.wav")
        #expect(FilePath("").appending("b.wav") == "b.wav")
        #expect(FilePath("beds/rain.flac").resolved(against: "/home/u/courses") == "/home/u/courses/beds/rain.flac")
        #expect(FilePath("/srv/rain.flac").resolved(against: "/home/u/courses") == "/srv/rain.flac")
    }

    @Test("the kind of a file, a folder, a pipe, a device, a link and nothing")
    func kinds() throws {
        let folder = try TemporaryFolder()
        let file = FilePath(folder.path).appending("a.txt").string
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let pipe = FilePath(folder.path).appending("p").string
        #expect(mkfifo(pipe, 0o600) == 0)
        let link = FilePath(folder.path).appending("l").string
        #expect(symlink(file, link) == 0)
        #expect(FileKind.of(file) == .regularFile)
        #expect(FileKind.of(folder.path) == .folder)
        #expect(FileKind.of(pipe) == .pipe)
        #expect(FileKind.of("/dev/null") == .device)
        #expect(FileKind.of(link) == .regularFile)
        #expect(FileKind.of(link, followingLinks: false) == .symbolicLink)
        #expect(FileKind.of(FilePath(folder.path).appending("none").string) == .missing)
        #expect(FileKind.of(pipe).refusalToRead == "not a regular file (a named pipe)")
        #expect(Errno(ENOSPC).description == "No space left on device")
    }

    @Test("folders made with their missing parents, an existing one left as it is, a file in the way refused")
    func makingFolders() throws {
        let folder = try TemporaryFolder()
        let nested = FilePath(folder.path).appending("a/b/c").string
        #expect(FileSystem.makeFolders(nested) == nil)
        #expect(FileKind.of(nested) == .folder)
        #expect(FileSystem.makeFolders(nested) == nil)
        let file = FilePath(folder.path).appending("f").string
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(FileSystem.makeFolders(FilePath(file).appending("sub").string)?.hasPrefix("cannot create") == true)
    }
}
