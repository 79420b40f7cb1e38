// swift-tools-version:6.0
// A program on nagi's pure core alone (the NagiCore product: Breath, NagiDocuments, Synth), as an app on any Swift
// platform would depend on it (by path here). scripts/check-core.sh builds it by itself, checks what it renders
// against `nagi render` and that it links none of the system libraries the command line uses.
import PackageDescription

let package = Package(
    name: "NagiCoreExample",
    dependencies: [
        .package(name: "nagi", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "NagiCoreExample", dependencies: [.product(name: "NagiCore", package: "nagi")]),
    ]
)
