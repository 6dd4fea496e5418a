import BookText
import EPUBReader
import Foundation
import Testing

/// The partition invariant on every book of the shared corpus, real and broken (those that open):
/// every block of the spine in exactly one section, none spoken by two.
@Suite struct CorpusPartitionTests {
    static let corpus = CorpusDumpTests.corpus.deletingLastPathComponent()

    static func books(_ folder: String) -> [URL] {
        let directory = corpus.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".epub") }.sorted().map { directory.appendingPathComponent($0) }
    }

    static let corpusIsPresent = FileManager.default.fileExists(atPath: corpus.path)

    @Test(.enabled(if: corpusIsPresent, "../shared/corpus is absent: the corpus partition test is skipped"))
    func everyRealBookIsAPartitionOfItsSpine() throws {
        let paths = Self.books("real")
        #expect(paths.count >= 40)
        for path in paths {
            let book = try EPUBBook.open(path: path.path)
            try SectionPartitionTests.expectPartition(
                of: book, index: try SectionIndexer.index(book), name: path.lastPathComponent)
        }
    }

    @Test(.enabled(if: corpusIsPresent, "../shared/corpus is absent: the corpus partition test is skipped"))
    func everyBrokenBookThatOpensIsAPartitionOfItsSpine() throws {
        var opened = 0
        for path in Self.books("broken") {
            guard let book = try? EPUBBook.open(path: path.path), let index = try? SectionIndexer.index(book) else {
                continue
            }
            opened += 1
            try SectionPartitionTests.expectPartition(of: book, index: index, name: path.lastPathComponent)
        }
        #expect(opened >= 20)
    }
}
