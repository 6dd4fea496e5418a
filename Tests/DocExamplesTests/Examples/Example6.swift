// swift-format-ignore-file
// Example 6 of docs/library-api.md, the body of a function that is never called: compiling it is
// the test. Made by DocExamplesTests from the docs; do not edit, copy its output here.

import AudioFiles
import BookText
import Conversion
import EPUBReader
import ESpeakEngine

func libraryAPIExample6(path: String) async throws {
    let book = try EPUBBook.open(path: path)
    let options = SectionOptions()
    let index = try SectionIndexer.index(book, options: options)
    let indexed = IndexedBook(path: path, book: book, sections: index.sections, options: options)
    let converter = Converter(
        environment: .epub(
            reusing: indexed, makeEngine: { try ESpeakSpeechEngine() },
            makeSink: { try AudioFileWriter(path: $0.path, encoding: $0.encoding, sampleRate: $0.sampleRate, tags: $0.tags) }))
    var request = ConversionRequest(bookPath: path, outputDirectory: "out")
    request.bookOptions.sections = options   // the options it was indexed with: no second read
    let summary = try await converter.run(request) { event in print(event) }
    print(summary.sectionsDone)
}
