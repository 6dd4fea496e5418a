// swift-format-ignore-file
// Example 8 of docs/library-api.md, the body of a function that is never called: compiling it is
// the test. Made by DocExamplesTests from the docs; do not edit, copy its output here.

import Contracts
import EPUBReader
import ReadAlong

func libraryAPIExample8(bookPath: String, outputDirectory: String, sectionNumbers: [Int], book: EPUBBook, title: String) async throws {
    try ReadAlongEPUB.check(book.package, format: .mp3)  // before converting: EPUB 3, a core audio type
    let result = try ReadAlongEPUB.make(
        bookPath: bookPath, directory: outputDirectory, numbers: sectionNumbers,  // book order
        title: title, authors: book.package.metadata.authors, format: .mp3)
    print(result.path, result.overlaidDocuments, "\(result.placedSentences) of \(result.sentences)", result.warnings)
}
