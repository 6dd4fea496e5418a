// swift-tools-version:6.0
// epub2audio: EPUB books to audiobooks, offline. Layers (arrows point down only):
//   CLI (and the service, Server/) → Policy (LiveConversion) → Pipeline (Bundling → Conversion) → Domain
//   (EPUBReader, BookText, Normalization) → Wrappers → Contracts → C modules.
import PackageDescription

/// One system-library target per C library, found through pkg-config, installed from Debian.
func cLibrary(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/C/\(name)", pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "epub2audio",
    products: [
        .executable(name: "epub2audio", targets: ["EPUB2AudioCLI"]),
        .library(
            name: "EPUB2Audio",
            // Every module whose types a shipped public signature names (EPUBBook takes ZipLimits and
            // gives MarkupDocuments; a composition root needs the engine and the writer) is shipped.
            targets: [
                "Contracts", "ZipReader", "Markup", "EPUBReader", "BookText", "Normalization", "ESpeakEngine",
                "AudioFiles", "TagEditing", "Conversion", "Bundling", "Subtitles", "ReadAlong", "NeuralEngine",
                "LiveConversion",
            ]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        // C: one system-library target per C library.
        cLibrary("CLibXML2", pkgConfig: "libxml-2.0", apt: "libxml2-dev"),
        cLibrary("CLibZip", pkgConfig: "libzip", apt: "libzip-dev"),
        cLibrary("CEspeakNG", pkgConfig: "espeak-ng", apt: "libespeak-ng-dev"),
        cLibrary("CSndFile", pkgConfig: "sndfile", apt: "libsndfile1-dev"),
        cLibrary("CSoxr", pkgConfig: "soxr", apt: "libsoxr-dev"),
        // sherpa-onnx's C API, declarations only: the library is opened at run time (dlopen), never linked, so
        // nothing of it is needed to build (docs/architecture.md, "Neural voices").
        .systemLibrary(name: "CSherpaOnnx", path: "Sources/C/CSherpaOnnx"),

        // Contracts: the spoken-text blocks, the speech-engine and audio-sink protocols (samples pass as
        // borrowed Int16 buffers), voices, audio formats and tags, scripts, the chunker. Pure Swift.
        .target(name: "Contracts", path: "Sources/Contracts"),

        // Wrappers: the only code that imports a C module.
        .target(name: "ZipReader", dependencies: ["CLibZip"], path: "Sources/Wrappers/ZipReader"),
        .target(name: "Markup", dependencies: ["CLibXML2", "Contracts"], path: "Sources/Wrappers/Markup"),
        .target(
            name: "ESpeakEngine", dependencies: ["CEspeakNG", "Contracts"], path: "Sources/Wrappers/ESpeakEngine"),
        .target(
            name: "AudioFiles", dependencies: ["CSndFile", "CSoxr", "Contracts"], path: "Sources/Wrappers/AudioFiles"),
        // Neural (Piper) voices through sherpa-onnx, loaded at run time; AudioFiles for its resampler.
        .target(
            name: "NeuralEngine", dependencies: ["CSherpaOnnx", "Contracts", "AudioFiles"],
            path: "Sources/Wrappers/NeuralEngine"),

        // Domain: the EPUB reader and the book text.
        .target(
            name: "EPUBReader", dependencies: ["ZipReader", "Markup", "Contracts"], path: "Sources/Domain/EPUBReader"),
        .target(
            name: "BookText", dependencies: ["EPUBReader", "Markup", "Contracts", "Normalization"],
            path: "Sources/Domain/BookText"),

        // Text normalisation for the ear: numbers, years, Roman numerals, abbreviations. Pure Swift.
        .target(name: "Normalization", path: "Sources/Domain/Normalization"),

        // The tags of finished audio files, edited in place by epub2audio itself: the cover (FLAC PICTURE,
        // ID3v2 APIC, Ogg METADATA_BLOCK_PICTURE), track numbers, FLAC metadata blocks; covers made from other
        // pictures by ffmpeg. Pure Swift over bytes and files.
        .target(name: "TagEditing", dependencies: ["Contracts"], path: "Sources/Pipeline/TagEditing"),

        // Pipeline: sections → chunks → engine → sink; manifest; resume; workers.
        .target(
            name: "Conversion",
            dependencies: ["Contracts", "TagEditing", "EPUBReader", "BookText", "Normalization"],
            path: "Sources/Pipeline/Conversion"),

        // The one-file audiobook (`--bundle`) made by ffmpeg from a finished output folder; AudioFiles reads
        // the length of a section a manifest does not record.
        .target(
            name: "Bundling", dependencies: ["Conversion", "TagEditing", "Contracts", "EPUBReader", "AudioFiles"],
            path: "Sources/Pipeline/Bundling"),

        // Subtitles (`--subtitles`): SRT and WebVTT from the sections' timing files a run leaves in the folder;
        // a stage after the conversion, like the bundle. The layout and the text are pure.
        .target(
            name: "Subtitles", dependencies: ["Contracts", "Conversion"], path: "Sources/Pipeline/Subtitles"),

        // The read-along book (`--bundle epub`): a copy of the EPUB 3 with its spoken sentences in spans and Media
        // Overlays that play the sections' audio; libxml2 (Markup) edits the documents, libzip (ZipReader) writes it.
        .target(
            name: "ReadAlong", dependencies: ["Conversion", "Contracts", "EPUBReader", "Markup", "ZipReader"],
            path: "Sources/Pipeline/ReadAlong"),

        // Policy: what a conversion means, once for every front end: the book opened once, the voice
        // chosen, the request, the live parts (espeak-ng speaks, libsndfile writes), bundles, workers.
        .target(
            name: "LiveConversion",
            dependencies: [
                "Conversion", "Bundling", "Subtitles", "ReadAlong", "EPUBReader", "BookText", "Contracts",
                "Normalization",
                "ESpeakEngine", "AudioFiles", "NeuralEngine",
            ],
            path: "Sources/Policy/LiveConversion"),

        // CLI: parses flags into the policy layer's request, renders its events, maps errors to exit codes.
        .executableTarget(
            name: "EPUB2AudioCLI",
            dependencies: [
                "LiveConversion", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/CLI/epub2audio",
            // mimalloc replaces glibc's malloc in the whole process, libxml2's included: listing a book
            // allocates and frees a tree per document, and spends about a sixth of its time in malloc
            // (docs/benchmarks.md, "Session 13"). Linking it is all it takes.
            linkerSettings: [.linkedLibrary("mimalloc")]),

        // A developer's tool: the neural engine on its own (import, list, speak a text file), for trying voices
        // by hand and for `make bench` until the CLI wires it (issue 33, phase 2). Not a product.
        .executableTarget(
            name: "NeuralSpeak", dependencies: ["NeuralEngine", "AudioFiles", "Contracts"],
            path: "Sources/Tools/NeuralSpeak"),

        // Helpers shared by the test targets (an in-memory ZIP writer for hostile and test books, the
        // wall-clock limits and the one list of books exempt from them in debug builds).
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "ContractsTests", dependencies: ["Contracts"], path: "Tests/ContractsTests"),
        .testTarget(
            name: "ZipReaderTests", dependencies: ["ZipReader", "TestSupport"], path: "Tests/Wrappers/ZipReaderTests"),
        .testTarget(
            name: "MarkupTests", dependencies: ["Markup", "TestSupport"], path: "Tests/Wrappers/MarkupTests"),
        .testTarget(
            name: "ESpeakEngineTests", dependencies: ["ESpeakEngine", "Contracts", "TestSupport"],
            path: "Tests/Wrappers/ESpeakEngineTests"),
        .testTarget(
            name: "AudioFilesTests", dependencies: ["AudioFiles", "Contracts"], path: "Tests/Wrappers/AudioFilesTests"),
        .testTarget(
            name: "NeuralEngineTests", dependencies: ["NeuralEngine", "Contracts", "ESpeakEngine", "TestSupport"],
            path: "Tests/Wrappers/NeuralEngineTests"),
        .testTarget(
            name: "EPUBReaderTests", dependencies: ["EPUBReader", "ZipReader", "TestSupport"],
            path: "Tests/Domain/EPUBReaderTests",
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "BookTextTests", dependencies: ["BookText", "EPUBReader", "Markup", "Contracts", "TestSupport"],
            path: "Tests/Domain/BookTextTests"),
        .testTarget(
            name: "NormalizationTests", dependencies: ["Normalization", "TestSupport"],
            path: "Tests/Domain/NormalizationTests"),
        .testTarget(
            name: "ConversionTests",
            dependencies: [
                "Conversion", "TagEditing", "Contracts", "EPUBReader", "BookText", "ESpeakEngine", "AudioFiles",
                "TestSupport",
            ],
            path: "Tests/Pipeline/ConversionTests"),
        .testTarget(
            name: "TagEditingTests", dependencies: ["TagEditing", "Contracts", "TestSupport"],
            path: "Tests/Pipeline/TagEditingTests"),
        .testTarget(
            name: "BundlingTests", dependencies: ["Bundling", "Conversion", "TagEditing", "EPUBReader", "TestSupport"],
            path: "Tests/Pipeline/BundlingTests"),
        .testTarget(
            name: "SubtitlesTests", dependencies: ["Subtitles", "Conversion", "Contracts", "TestSupport"],
            path: "Tests/Pipeline/SubtitlesTests"),
        .testTarget(
            name: "ReadAlongTests",
            dependencies: ["ReadAlong", "Markup", "ZipReader", "EPUBReader", "Contracts", "TestSupport"],
            path: "Tests/Pipeline/ReadAlongTests"),
        .testTarget(
            name: "LiveConversionTests", dependencies: ["LiveConversion", "NeuralEngine", "Contracts", "TestSupport"],
            path: "Tests/Policy/LiveConversionTests"),
        .testTarget(name: "CLITests", dependencies: ["EPUB2AudioCLI", "TestSupport"], path: "Tests/CLITests"),
        // docs/library-api.md's Swift examples, compiled (DocExamplesTests keeps them the same as the docs).
        .testTarget(
            name: "DocExamplesTests",
            dependencies: [
                "LiveConversion", "Conversion", "Bundling", "ReadAlong", "Contracts", "EPUBReader", "BookText",
                "ESpeakEngine", "AudioFiles",
            ],
            path: "Tests/DocExamplesTests"),
    ]
)
