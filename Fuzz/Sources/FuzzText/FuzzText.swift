// fuzz-text: XHTML to spoken text. The fuzzer's bytes are the one content document of an in-memory book whose
// TOC points at the document and at `#s` inside it; the section indexer (flattener, classifier) and the spoken
// text extractor (notes, tables, code, images, math, normaliser, citation filter) then run over every section.
import BookText
import EPUBReader
import FuzzSupport
import Markup

struct OneDocumentBook: BookContent {
    let package: EPUBPackage
    let parsed: MarkupDocument

    func document(forHref href: String) throws -> MarkupDocument { parsed }
}

let package: EPUBPackage = {
    let chapter = ManifestItem(id: "c1", href: "text/one.xhtml", mediaType: "application/xhtml+xml")
    let notes = ManifestItem(id: "c2", href: "text/notes.xhtml", mediaType: "application/xhtml+xml")
    return EPUBPackage(
        packagePath: "OEBPS/content.opf", packageDirectory: "OEBPS/", version: "3.0",
        metadata: EPUBMetadata(titles: ["Fuzz"], title: "Fuzz", creators: [], contributors: [], languages: ["en"]),
        manifest: [chapter, notes], spine: [SpineItem(index: 0, item: chapter), SpineItem(index: 1, item: notes)],
        toc: [
            TOCEntry(
                label: "One", target: EPUBLink(path: "text/one.xhtml"),
                children: [TOCEntry(label: "Part", target: EPUBLink(path: "text/one.xhtml", fragment: "s"))]),
            TOCEntry(label: "Notes", target: EPUBLink(path: "text/notes.xhtml", fragment: "n1")),
        ],
        tocSource: .nav, tocDocument: "nav.xhtml")
}()

let everything = SpokenTextOptions(notes: .end, tables: .read, code: .read, images: .read, math: .read)

/// libFuzzer's entry point: one input, 0 when it was handled (a crash or a trap is the finding).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let parsed = try? MarkupParser.parseXHTML(bytes, documentName: "text/one.xhtml") else { return 0 }
    let book = OneDocumentBook(package: package, parsed: parsed)
    guard let index = try? SectionIndexer.index(book, options: SectionOptions(includeAll: true)) else { return 0 }
    var sink = Hasher()
    for section in index.sections {
        sink.combine(section)
        for options in [SpokenTextOptions(), everything] {
            if let blocks = try? SpokenTextExtractor.blocks(for: section, in: book, options: options) {
                sink.combine(blocks)
                sink.combine(SpokenTextExtractor.plainText(blocks))
            }
        }
    }
    blackHole(sink.finalize())
    return 0
}
