// swift-format-ignore-file
// Example 7 of docs/library-api.md, the body of a function that is never called: compiling it is
// the test. Made by DocExamplesTests from the docs; do not edit, copy its output here.

import Bundling
import Conversion
import EPUBReader
import TagEditing

func libraryAPIExample7(outputDirectory: String, sectionNumbers: [Int], book: EPUBBook, title: String) async throws {
    guard let ffmpeg = AudiobookBundler.locateFFmpeg() else { return }  // not installed
    let bundler = AudiobookBundler(format: .m4b, ffmpegPath: ffmpeg)
    let result = try await bundler.bundle(
        directory: outputDirectory, numbers: sectionNumbers,  // book order
        metadata: AudiobookMetadata(book: book, title: title, narrator: "espeak-ng, voice en"),
        cover: AudiobookCover(book: book, ffmpegPath: ffmpeg)  // with ffmpeg: GIF, WebP, BMP, TIFF, SVG too
    ) { progress in /* progress.audioSeconds of progress.totalSeconds */ }
    print(result.path, result.rebuilt ? "made" : "up to date", result.chapters, result.warnings)
    // result.rebuilt is false when bundle.json says nothing changed; result.warnings: more chapters
    // than m4b's Nero list or FLAC's cue sheet holds
}
