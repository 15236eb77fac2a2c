// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "mock-apns",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "MockAPNs", targets: ["MockAPNs"]),
        .library(name: "MockAPNsClient", targets: ["MockAPNsClient"]),
        .library(name: "MockAPNsTesting", targets: ["MockAPNsTesting"]),
        .executable(name: "mock-apns", targets: ["mock-apns"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.2.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"]), .brew(["nghttp2"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(
            name: "MockAPNs",
            dependencies: [
                "CNGHTTP2",
                "COpenSSL",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Atomics", package: "swift-atomics"),
            ],
            // The inspector's page, built into the binary by the plugin (no files beside an installed binary).
            exclude: ["Control/Inspector/Assets"],
            plugins: ["EmbedInspectorAssets"]
        ),
        // Writes the inspector's assets into a Swift file at build time (not a product).
        .executableTarget(name: "EmbedAssets"),
        .plugin(name: "EmbedInspectorAssets", capability: .buildTool(), dependencies: ["EmbedAssets"]),
        // posix_spawn and waitpid for `mock-apns run`'s COMMAND and the tests' child processes (not a product).
        .target(name: "Spawn"),
        .target(
            name: "MockAPNsClient",
            dependencies: [
                "MockAPNs",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .target(
            name: "MockAPNsTesting",
            dependencies: ["MockAPNs", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "mock-apns",
            dependencies: [
                "MockAPNs",
                "MockAPNsClient",
                "Spawn",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "MockAPNsTests",
            dependencies: [
                "MockAPNs",
                "MockAPNsClient",
                "MockAPNsTesting",
                "Spawn",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
