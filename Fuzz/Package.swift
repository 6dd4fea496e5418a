// swift-tools-version:6.0
// Fuzz targets for epub2audio's readers of untrusted input (libFuzzer + AddressSanitizer; run scripts/fuzz.sh
// or `make fuzz`). A separate package so the main one keeps its targets and its normal build: it depends on the
// main package by path and is only built with `--sanitize fuzzer --sanitize address`.
import PackageDescription

/// Each fuzz target is an executable defining `LLVMFuzzerTestOneInput`; libFuzzer supplies `main`.
func fuzzTarget(_ name: String, path: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, path: "Sources/\(path)")
}

let package = Package(
    name: "epub2audio-fuzz",
    // `name:` pins the identity to "epub2audio" whatever the checkout folder is called.
    dependencies: [.package(name: "epub2audio", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "EPUB2Audio", package: "epub2audio")]),
        fuzzTarget("fuzz-read", path: "FuzzRead"),
        fuzzTarget("fuzz-parts", path: "FuzzParts"),
        fuzzTarget("fuzz-markup", path: "FuzzMarkup"),
        fuzzTarget("fuzz-text", path: "FuzzText"),
        fuzzTarget("fuzz-chapters", path: "FuzzChapters"),
    ]
)
