// swift-tools-version:6.0
// The libFuzzer harness for mock-apns, a package of its own so that the main package's `swift build` never
// needs the fuzzer runtime. Build and run it with `scripts/fuzz` (see README.md, "Fuzzing"); the entry points
// themselves live in the main package (Sources/MockAPNs/Fuzzing) so that `swift test` replays the corpus
// through the same code without a fuzz build.
import PackageDescription

let package = Package(
    name: "mock-apns-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "mock-apns", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "MockAPNsFuzz",
            dependencies: [.product(name: "MockAPNs", package: "mock-apns")]
        )
    ],
    swiftLanguageModes: [.v6]
)
