// swift-format-ignore-file
// Example 1 of docs/library-api.md, the body of a function that is never called: compiling it is
// the test. Made by DocExamplesTests from the docs; do not edit, copy its output here.

import Foundation
import LiveConversion

func libraryAPIExample1() async throws {
    let book = try OpenedBook.open(path: "moby-dick.epub", options: SectionOptions())  // read and indexed once
    if let nothing = book.nothingToRead { print(nothing); exit(4) }
    let listing = LiveConversion.listing(book, voice: "auto")
    print(String(decoding: try listing.json(), as: UTF8.self))         // what --list --json prints
    var options = ConversionOptions(workers: .inProcess)              // the CLI's defaults
    options.encoding = AudioEncoding(format: .mp3)
    options.bundle = .m4b
    let prepared = try LiveConversion.prepare(book, options: options, outputDirectory: "moby-dick-audio")
    if let refusal = prepared.refusal { print(refusal); exit(6) }    // most of the text no voice speaks
    let conversion = prepared.runnable                                // Sendable: the book stays here
    let summary = try await conversion.run { event in print(event) }
    print("\(summary.sectionsDone) sections made")
    _ = conversion.updateFolderCover()
    if let ffmpeg = AudiobookBundler.locateFFmpeg() {
        _ = try await conversion.bundle(AudiobookBundler(format: .m4b, ffmpegPath: ffmpeg))
    }
    // With options.readAlong (--bundle epub; sections in MP3 or Opus): the read-along copy of the book.
    // _ = try conversion.makeReadAlong()
}
