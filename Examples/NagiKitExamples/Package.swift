// swift-tools-version:6.0
// Four programs built on NagiKit from outside the nagi package, as an app would depend on it (by path here).
// scripts/check-examples.sh builds them and checks their output against the nagi command line.
import PackageDescription

let package = Package(
    name: "NagiKitExamples",
    dependencies: [
        .package(name: "nagi", path: "../.."),
    ],
    targets: [
        // docs/library.md's example, word for word (the README shows its core lines): 4-7-8 over a bed, with the spoken guide, at -16 LUFS, to FLAC.
        .executableTarget(name: "RenderWithBed", dependencies: [.product(name: "NagiKit", package: "nagi")]),
        // Ten seconds pulled into planar buffers after a seek.
        .executableTarget(name: "SeekPlanar", dependencies: [.product(name: "NagiKit", package: "nagi")]),
        // A course exported as an album, as `nagi course export` does.
        .executableTarget(name: "ExportCourse", dependencies: [.product(name: "NagiKit", package: "nagi")]),
        // A live session played into a device of the app's own (NagiLive, over NagiKit), with a skip sent as `n` sends it.
        .executableTarget(name: "PlayIntoOwnDevice", dependencies: [.product(name: "NagiKit", package: "nagi"), .product(name: "NagiLive", package: "nagi")]),
    ]
)
