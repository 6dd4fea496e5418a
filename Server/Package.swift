// swift-tools-version:6.0
// epub2audio-server: the conversion service over the epub2audio library, in a package of its own so the
// CLI's build does not carry the server's dependencies (docs/service.md).
import PackageDescription

let package = Package(
    name: "epub2audio-server",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "epub2audio-server", targets: ["EPUB2AudioServer"])
    ],
    dependencies: [
        .package(name: "epub2audio", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.4.0"),
        // GET /docs renders openapi.yaml (already in the build: swift-openapi-generator reads it with Yams).
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // The service: HTTP API (generated from openapi.yaml), job store, blob store, scheduler.
        .target(
            name: "ServerCore",
            dependencies: [
                .product(name: "EPUB2Audio", package: "epub2audio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                // A request the HTTP parser refuses is answered in JSON (ParserErrorResponder).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Yams", package: "Yams"),
            ],
            plugins: [
                .plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator"),
                // GET /openapi.yaml serves the very file the routes are generated from.
                "EmbedOpenAPIDocument",
            ]),
        // Writes a file's bytes into Swift source, for the plugin below.
        .executableTarget(name: "EmbedFile", path: "Tools/EmbedFile"),
        .plugin(name: "EmbedOpenAPIDocument", capability: .buildTool(), dependencies: ["EmbedFile"]),
        // The executable: flags → ServerCore; also the hidden worker and fork-server subcommands.
        .executableTarget(
            name: "EPUB2AudioServer",
            dependencies: [
                "ServerCore",
                .product(name: "EPUB2Audio", package: "epub2audio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "ServerCoreTests",
            dependencies: [
                "ServerCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The store tests write rows as earlier versions did, and read the migrations back.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
    ]
)
