// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "nagi",
    products: [
        .executable(name: "nagi", targets: ["nagi"]),
        // The soundtrack engine as a library: prepare a session's sound once, then pull, seek, write or play it.
        .library(name: "NagiKit", targets: ["NagiKit"]),
        // Live playback over the engine: a `LiveSession` plays a soundtrack into ALSA or the app's own device.
        .library(name: "NagiLive", targets: ["NagiLive"]),
        // The pure core alone: the breath model, the documents and the synthesis, pulled frame by frame. Links no
        // system library (on Linux only the synthesis kernel's AVX twin, C of its own), so an app on any Swift
        // platform can use it; scripts/check-core.sh builds it alone (Examples/NagiCoreExample).
        .library(name: "NagiCore", targets: ["Breath", "NagiDocuments", "Synth", "NagiBase"]),
    ],
    targets: [
        // The C library's elementary functions behind one small module, so the pure model and DSP
        // import neither Glibc nor Foundation.
        .target(name: "NagiMath", dependencies: ["CLibrary"]),
        // The platform's C library under one name (Glibc, Darwin, Musl...: `#if canImport`), for NagiMath alone.
        .target(name: "CLibrary"),
        // The vocabulary every layer shares, pure Swift with no dependency, so the portable core, the C libraries'
        // wrappers and the layers above all see it: what kind of fault an error is (`FaultCategory`; the command line
        // alone maps it to exit codes), the one rule for outside text nagi shows (`DisplayText`), paths as values
        // (`FilePath`), and the one contract for pulling interleaved frames a block at a time (`FrameReader`: what
        // the bed's decoder and streams, the looped bed and the renderer give and live playback pulls).
        .target(name: "NagiBase"),
        // Pure breath model: patterns, sessions, exact schedules, easing, horizon level.
        .target(name: "Breath", dependencies: ["NagiMath", "NagiBase"]),
        // The documents nagi reads and writes: JSON, the preset catalogue, pattern, session, course, progress and
        // soundscape files. Pure Swift, no Foundation.
        .target(name: "NagiDocuments", dependencies: ["NagiBase", "Breath", "Synth"]),
        // A heart-rate record read against the session it was breathed to (`nagi resonance analyze`): RR parsing,
        // artefact cleaning, cubic resampling, Welch spectra, alignment and per-step scores. Pure Swift.
        .target(name: "HeartRhythm", dependencies: ["Breath", "NagiBase", "NagiMath"]),
        // DSP: soundscapes and the pulled renderer. Imports no C but its own kernel's AVX twin, on Linux.
        .target(name: "Synth", dependencies: ["NagiBase", "Breath", "NagiMath", .target(name: "CNagiSynthKernel", condition: .when(platforms: [.linux]))]),
        // The synthesis kernel's plain loops in AVX's eight Float lanes, chosen at run time (Swift reaches AVX
        // only with whole-module CPU flags); pure arithmetic, no library call. Other machines, and other
        // platforms (where Synth builds without it), take Swift's loops: the same samples to the bit.
        .target(name: "CNagiSynthKernel"),

        // C libraries, found through pkg-config; installed from Debian.
        .systemLibrary(
            name: "CSndFile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        .systemLibrary(
            name: "CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        // ALSA helpers Swift cannot call directly (variadic error handler, alloca macros).
        .target(name: "CNagiALSA", dependencies: ["CALSA"]),
        // Async-signal-safe stop flags (SIGINT / SIGTERM) and early writeback (sync_file_range).
        .target(name: "CNagiSystem"),
        // The system layer over the C library: one file-kind query, errno as a typed value, system calls retried on
        // EINTR, the XDG folders.
        .target(name: "NagiSystem", dependencies: ["NagiBase"]),
        // Float to 16-bit PCM in SSE2's rounding conversion and saturating pack (the writer's hottest loop).
        .target(name: "CNagiPCM"),

        // TagLib (C++) behind a C interface: a finished file's tags, chapters, gains and cover, written and read
        // back. A shim rather than Swift's C++ interop: only this target compiles TagLib's headers, every
        // module that imports AudioFile stays plain Swift (no -cxx-interoperability-mode spreading to the tests
        // and tools), and the TagLib objects live and die inside one C call.
        .target(name: "CTagLib", linkerSettings: [.linkedLibrary("tag")]),
        // Files through libsndfile: formats, cue points, atomic output; tags through TagLib.
        .target(name: "AudioFile", dependencies: ["CSndFile", "CNagiSystem", "NagiSystem", "NagiBase", "CNagiPCM", "CTagLib", "NagiMath"]),
        // Live playback through ALSA.
        .target(name: "LiveAudio", dependencies: ["CALSA", "CNagiALSA", "NagiBase"]),

        // Presets/ and Web/ carried inside the binary: generated [relativePath: text] tables.
        .executableTarget(name: "EmbeddedTableGenerator"),
        .plugin(
            name: "FileEmbedder",
            capability: .buildTool(),
            dependencies: ["EmbeddedTableGenerator"]
        ),
        .target(name: "NagiPresets", plugins: ["FileEmbedder"]),

        // The soundtrack engine (issue 19): a request prepared once (bed, guide, loudness), then rendered,
        // sought in and written. What an app depends on.
        .target(
            name: "NagiKit",
            dependencies: ["NagiSystem", "NagiBase", "Breath", "NagiDocuments", "NagiPresets", "Synth", "AudioFile", "BedSource", "GuideSources", "Speech", "Loudness", "Locking"]
        ),
        // Live playback (`nagi play`, an app's own device): a prepared soundtrack played through ALSA or a `PCMSink`,
        // steered by keys, its breaths and holds tallied as they are heard. A layer over the engine, so NagiKit
        // links no ALSA.
        .target(name: "NagiLive", dependencies: ["NagiKit", "LiveAudio", "Breath", "Synth", "NagiBase"]),
        // A session's plan drawn as SVG (`nagi plot`), from the renderer's own curves.
        .target(name: "NagiPlot", dependencies: ["Breath", "NagiDocuments", "Synth", "HeartRhythm"]),
        // libmicrohttpd (LGPL, linked dynamically) and the one call of it Swift cannot make (its variadic start).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CNagiHTTP", dependencies: ["CMicroHTTPD"]),
        // libqrencode (LGPL-2.1+, linked dynamically), and a QR code's modules drawn for a terminal and as SVG: how a
        // phone joins `nagi serve` (its URL shown as a code the camera reads).
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "QRCode", dependencies: ["CQREncode"]),
        // GnuTLS (LGPL-2.1+, linked dynamically; libmicrohttpd serves HTTPS through it too): the local certificate
        // authority `nagi serve` makes once and the server certificates it signs, so a phone opens it over HTTPS.
        .target(name: "CNagiTLS", linkerSettings: [.linkedLibrary("gnutls")]),
        // `nagi serve`: the engine over HTTP, NagiKit's second client (it never imports NagiCLI).
        // libarchive, for a course's album as one ZIP download.
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .target(name: "NagiServe", dependencies: ["NagiSystem", "NagiBase", "NagiKit", "NagiOptions", "HeartRhythm", "NagiPlot", "NagiDocuments", "AudioFile", "Locking", "CMicroHTTPD", "CNagiHTTP", "CArchive", "QRCode", "CNagiTLS"],
            // The pages it shows (Web/: the pacer and the studio), embedded as base64 by the FileEmbedder plugin.
            plugins: ["FileEmbedder"]),
        // The options as users name them (command-line flags, and the same names as `nagi serve`'s query
        // parameters): declared once, read into NagiKit's requests with the command line's one-line errors.
        .target(
            name: "NagiOptions",
            dependencies: ["NagiSystem", "NagiBase", "NagiKit", "NagiPlot", "HeartRhythm", "Breath", "NagiDocuments", "Synth", "AudioFile", "BedSource", "GuideSources", "Speech", "CNagiSystem"]
        ),
        // The command line: parse, run, report; a thin client of NagiKit.
        .target(
            name: "NagiCLI",
            dependencies: ["Locking", "NagiSystem", "NagiBase", "NagiOptions", "NagiServe", "NagiKit", "NagiPlot", "HeartRhythm", "Breath", "NagiDocuments", "Synth", "AudioFile", "LiveAudio", "NagiLive", "NagiPresets", "CNagiSystem", "GuideSources", "Speech", "BedSource", "QRCode"]
        ),
        // A release build links Swift's runtime and Foundation in: the command starts in about 8 ms instead of 12
        // (fewer libraries to load and relocate), which every invocation pays, from a shell completion to a
        // render. (The two libraries FoundationEssentials' archive needs are named: only a compile with
        // -static-stdlib would bring them in itself. A debug build stays dynamic: the test bundle, which links
        // this target, cannot take Swift Testing and XCTest statically. The linker's warning about `mktemp` is
        // glibc's note on a call inside Foundation's archive, not nagi's.)
        .executableTarget(
            name: "nagi", dependencies: ["NagiCLI"],
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims"], .when(configuration: .release))]),

        // What every test suite shares: self-cleaning temporary folders, child processes, tmpfs mounts, the
        // seeded generator and the schedule invariants the fuzz targets also check.
        .target(name: "NagiTestSupport", dependencies: ["Breath"], path: "Tests/NagiTestSupport"),
        // libebur128, the independent loudness meter the tests check nagi's own against (`LoudnessMeter`); no
        // product links it.
        .systemLibrary(name: "CEbur128", path: "Tests/CEbur128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .target(name: "LoudnessReference", dependencies: ["CEbur128"], path: "Tests/LoudnessReference"),
        .testTarget(name: "BreathTests", dependencies: ["NagiBase", "Breath", "NagiDocuments", "NagiPresets", "NagiTestSupport"]),
        .testTarget(name: "SynthTests", dependencies: ["NagiBase", "Synth", "Breath", "NagiDocuments", "NagiPresets", "NagiTestSupport"]),
        .testTarget(name: "AudioFileTests", dependencies: ["NagiSystem", "NagiBase", "AudioFile", "CSndFile", "NagiTestSupport"]),
        .testTarget(name: "LiveAudioTests", dependencies: ["NagiBase", "LiveAudio", "NagiTestSupport"]),
        .testTarget(name: "NagiCLITests", dependencies: ["NagiCLI", "NagiLive", "NagiOptions", "HeartRhythm", "HeartRhythmTestSupport", "NagiKit", "NagiPlot", "BedSource", "nagi", "AudioFile", "Breath", "NagiDocuments", "Synth", "NagiPresets", "NagiTestSupport", "LoudnessReference"]),

        // Guidance and beds (issues 11 and 15): speech through flite, resampling through libsoxr, loudness
        // by nagi's own meter, user cue packs and streamed beds.
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        // A pthread lock that ThreadSanitizer understands, for state shared by threads.
        .target(name: "Locking"),
        // flite loaded when the guide first speaks (dlopen: linked, its voices cost every process 6 MB), and
        // spoken in forked children too (C only after the fork), so a guide's phrases use more than one core.
        .target(name: "CNagiSpeech"),
        .target(name: "Speech", dependencies: ["Breath", "CNagiSpeech", "Locking"]),
        .target(name: "Resampling", dependencies: ["CSoxr"]),
        // K-weighting of two segments in AVX's four Double lanes, chosen at run time; other machines take Swift's loop.
        .target(name: "CNagiKWeighting"),
        .target(name: "Loudness", dependencies: ["NagiMath", "CNagiKWeighting"]),
        .target(name: "GuideSources", dependencies: ["NagiBase", "NagiSystem", "AudioFile", "Resampling", "Speech"]),
        .target(name: "BedSource", dependencies: ["AudioFile", "Resampling", "Loudness", "NagiBase", "Locking"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "Resampling", "NagiTestSupport"]),
        .testTarget(name: "ResamplingTests", dependencies: ["Resampling", "NagiTestSupport"]),
        .testTarget(name: "LoudnessTests", dependencies: ["Loudness", "LoudnessReference", "AudioFile", "Synth", "NagiTestSupport"]),
        .testTarget(name: "GuideSourcesTests", dependencies: ["NagiBase", "GuideSources", "AudioFile", "Speech", "NagiTestSupport"]),
        .testTarget(name: "NagiKitTests", dependencies: ["NagiKit", "NagiBase", "LoudnessReference", "NagiTestSupport"]),
        // Synthetic heart-rate records from a known physiology, for the analysis and the command line's tests.
        .target(name: "HeartRhythmTestSupport", dependencies: ["HeartRhythm", "Breath", "NagiDocuments", "NagiPresets", "NagiTestSupport"], path: "Tests/HeartRhythmTestSupport"),
        .testTarget(name: "HeartRhythmTests", dependencies: ["HeartRhythm", "HeartRhythmTestSupport", "NagiTestSupport"], exclude: ["welch_check.py"], resources: [.copy("Fixtures")]),
        .testTarget(name: "BedSourceTests", dependencies: ["NagiBase", "BedSource", "AudioFile", "Resampling", "NagiTestSupport"]),
        // `nagi serve` as its clients meet it: the real binary on a free loopback port, held against the command line.
        .testTarget(name: "NagiServeTests", dependencies: ["nagi", "NagiCLI", "NagiServe", "NagiOptions", "AudioFile", "Locking", "NagiTestSupport"]),
    ]
)
