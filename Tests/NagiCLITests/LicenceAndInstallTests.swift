import Foundation
import Testing

@Suite("Licence, install steps and help texts for outputs")
struct LicenceAndInstallTests {
    /// The package's root folder, three levels above this file (Tests/NagiCLITests/...).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("LICENSE is the MIT licence")
    func licence() throws {
        let licence = try Self.text("LICENSE")
        #expect(licence.hasPrefix("MIT License\n"))
        #expect(licence.contains("Permission is hereby granted, free of charge"))
    }

    struct Library: Sendable, CustomTestStringConvertible {
        var name: String
        var package: String
        var licence: String
        /// Words of the licence that Debian's copyright file for the package holds.
        var evidence: String
        /// Whether CI installs it with the build (the others arrive with the features that link them).
        var isRequired: Bool
        var testDescription: String { name }
    }

    static let libraries = [
        Library(name: "libsndfile", package: "libsndfile1", licence: "LGPL-2.1+", evidence: "License: LGPL-2.1+", isRequired: true),
        Library(name: "alsa-lib", package: "libasound2", licence: "LGPL-2.1+", evidence: "either version 2.1 of", isRequired: true),
        Library(name: "flite", package: "libflite1", licence: "BSD-style", evidence: "Permission is hereby granted, free of charge, to use and distribute", isRequired: false),
        Library(name: "libsoxr", package: "libsoxr0", licence: "LGPL-2.1+", evidence: "License: LGPL-2.1+", isRequired: false),
        Library(name: "libebur128", package: "libebur128-1", licence: "MIT (Expat)", evidence: "License: Expat", isRequired: false),
        Library(name: "TagLib", package: "libtag1v5-vanilla", licence: "LGPL-2.1 / MPL-1.1 (either)", evidence: "License: LGPL-2.1 or MPL-1.1", isRequired: true),
        Library(name: "libmicrohttpd", package: "libmicrohttpd12", licence: "LGPL-2.1+", evidence: "License: LGPL-2.1+", isRequired: true),
        Library(name: "libarchive", package: "libarchive13", licence: "BSD-2-clause", evidence: "License: BSD-2-clause", isRequired: true),
        Library(name: "libqrencode", package: "libqrencode4", licence: "LGPL-2.1+", evidence: "License: LGPL-2.1+", isRequired: true),
        Library(name: "GnuTLS", package: "libgnutls30", licence: "LGPL-2.1+", evidence: "the GNU Lesser General Public License (LGPL) version 2.1 or later", isRequired: true),
    ]

    @Test("docs/install.md names each linked library with the licence its Debian copyright file states", arguments: libraries)
    func linkedLibrary(library: Library) throws {
        let install = try Self.text("docs/install.md")
        let section = try #require(install.components(separatedBy: "\n## Licences\n").dropFirst().first, "no Licences section")
        let row = try #require(section.split(separator: "\n").first { $0.hasPrefix("| \(library.name) ") }, "no row for \(library.name)")
        #expect(row.hasSuffix("| \(library.licence) |"), "\(row)")
        let copyrightPath = "/usr/share/doc/\(library.package)/copyright"
        guard library.isRequired || FileManager.default.fileExists(atPath: copyrightPath) else { return }
        let copyright = try String(contentsOfFile: copyrightPath, encoding: .utf8)
        #expect(copyright.contains(library.evidence), "\(copyrightPath) does not say \(library.evidence)")
    }

    @Test("The package's copyright file names each library nagi links with the licence docs/install.md gives it", arguments: libraries.filter { $0.name != "libebur128" })
    func packagedLibrary(library: Library) throws {
        let copyright = try Self.text("packaging/copyright")
        let start = try #require(copyright.range(of: "\n  \(library.name) ("), "packaging/copyright does not name \(library.name)")
        // The library's entry: its line and the indented lines that continue it.
        let lines = copyright[start.upperBound...].split(separator: "\n")
        let entry = ([lines[0]] + lines.dropFirst().prefix { $0.hasPrefix("    ") }).joined(separator: " ")
        // The licence as the table writes it, up to its first space ("LGPL-2.1+", "BSD-style", "LGPL-2.1 / MPL-1.1").
        let firstTerm = try #require(library.licence.split(separator: " ").first)
        #expect(entry.contains(firstTerm), "\(library.name): \(entry)")
    }

    @Test("The package's copyright file is machine-readable and gives the Swift runtime linked in its licence")
    func packagedRuntime() throws {
        let copyright = try Self.text("packaging/copyright")
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        #expect(copyright.contains("Files: usr/bin/nagi\n"))
        #expect(copyright.contains("License: Expat and Apache-2.0 with Runtime-Library exception\n"))
        // Every licence a Files paragraph names has its paragraph: Expat, Apache-2.0 with the exception.
        #expect(copyright.contains("\nLicense: Expat\n Permission is hereby granted"))
        #expect(copyright.contains("\nLicense: Apache-2.0 with Runtime-Library exception\n"))
        #expect(copyright.contains("Runtime Library Exception to the Apache 2.0 License"))
    }

    @Test("docs/install.md says how to install the binary, the completions and the man page")
    func installSteps() throws {
        let install = try Self.text("docs/install.md")
        let section = try #require(install.components(separatedBy: "\n## Installing the binary\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        for step in ["swift build -c release", "install -Dm755 .build/release/nagi /usr/local/bin/nagi", "nagi completions bash", "nagi completions zsh", "nagi completions fish", "docs/nagi.1"] {
            #expect(section.contains(step), "missing: \(step)")
        }
    }

    @Test("render and plot help say what - means and which formats there are")
    func helpTexts() throws {
        let render = NagiInProcess.run(["render", "--help"]).standardOutput
        #expect(render.contains("-o, --output FILE|-"))
        #expect(render.contains("--labels FILE|-"))
        #expect(render.contains("(values: wav, flac, ogg, opus, mp3, raw)"))
        #expect(render.contains("141"))
        let plot = NagiInProcess.run(["plot", "--help"]).standardOutput
        #expect(plot.contains("-o, --output FILE.svg|-"))
    }
}
