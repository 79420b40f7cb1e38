import Foundation

/// The built `nagi` executable, for the suites that run it as a user would (the command line's, the server's).
public enum NagiBinary {
    /// The `nagi` executable next to the test bundle in the build products folder.
    public static var url: URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // The test binary lives inside nagiPackageTests.xctest on some layouts.
        while !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("nagi").path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("nagi")
    }
}
