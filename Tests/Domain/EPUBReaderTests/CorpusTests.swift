import Foundation
import TestSupport
import Testing

@testable import EPUBReader

/// The shared corpus beside the repository (`../shared/corpus`), or nil when it is absent.
private let corpusRoot: URL? = {
    // #filePath is …/Tests/Domain/EPUBReaderTests/CorpusTests.swift: the package root is four levels up.
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    return FileManager.default.fileExists(atPath: corpus.path) ? corpus : nil
}()

private func books(in folder: String) -> [String] {
    guard let corpusRoot else { return [] }
    let directory = corpusRoot.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".epub") }.sorted().map { directory.appendingPathComponent($0).path }
}

extension String {
    fileprivate var collapsedPrefix: String {
        String(split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").prefix(100))
    }
}

@Suite struct CorpusTests {
    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is absent: corpus tests skipped"))
    func everyRealBookOpensWithSpineAndTOC() throws {
        let paths = books(in: "real")
        #expect(!paths.isEmpty)
        for path in paths {
            let clock = ContinuousClock()
            let start = clock.now
            do {
                let book = try EPUBBook.open(path: path)
                let name = (path as NSString).lastPathComponent
                #expect(!book.package.spine.isEmpty, "\(name): empty spine")
                #expect(!book.package.toc.isEmpty, "\(name): no TOC")
                #expect(book.package.tocSource != .none, "\(name)")
                #expect(book.package.metadata.title != nil, "\(name): no title")
                // The first spine document parses.
                var recovered = 0
                for item in book.package.spine {
                    let document = try book.document(forHref: item.href)
                    #expect(!document.root.name.isEmpty)
                    if document.recovered { recovered += 1 }
                }
                // Real books are well-formed: none should need the HTML parser.
                #expect(recovered == 0, "\(name): \(recovered) documents recovered")
                // Most TOC links point at existing files.
                let targets = book.package.toc.flatMap(\.flattened).compactMap(\.target)
                #expect(targets.filter { book.contains(href: $0.path) }.count * 10 >= targets.count * 9, "\(name)")
            } catch {
                Issue.record("\(path): \(error)")
            }
            if !SlowBooks.isExempt(path) {
                #expect(clock.now - start < timeLimit(seconds: 30), "\(path) took too long")
            }
        }
    }

    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is absent: corpus tests skipped"))
    func everyBrokenBookOpensOrThrowsEPUBError() throws {
        let paths = books(in: "broken")
        #expect(!paths.isEmpty)
        var report: [String] = []
        for path in paths {
            let name = (path as NSString).lastPathComponent
            let clock = ContinuousClock()
            let start = clock.now
            do {
                let book = try EPUBBook.open(path: path)
                // Reading every spine document must not crash either.
                var documentProblems = 0
                var documentWarnings: [String] = []
                for item in book.package.spine.prefix(50) {
                    do {
                        let document = try book.document(forHref: item.href)
                        documentWarnings += document.warnings.map { "[\(item.href)] \($0)" }
                        if document.recovered { documentWarnings.append("[\(item.href)] recovered") }
                        documentWarnings.append("[\(item.href)] text: \(document.root.textContent.collapsedPrefix)")
                    } catch is EPUBError { documentProblems += 1 }
                }
                let warnings = book.package.warnings.map(\.description).prefix(4).joined(separator: " | ")
                report.append(
                    "OPEN    \(name): spine \(book.package.spine.count), toc \(book.package.tocSource.rawValue)"
                        + (documentProblems > 0 ? ", \(documentProblems) unreadable document(s)" : "")
                        + " — \(book.package.warnings.count) warning(s): \(warnings)"
                        + "\n        title: \(book.package.metadata.title ?? "-"); "
                        + documentWarnings.prefix(6).joined(separator: "\n        "))
            } catch let error as EPUBError {
                report.append("REFUSE  \(name): \(error)")
            } catch {
                Issue.record("\(name): threw a non-EPUBError: \(error)")
            }
            if !SlowBooks.isExempt(path) {
                #expect(clock.now - start < timeLimit(seconds: 30), "\(name) took too long")
            }
        }
        let output = report.joined(separator: "\n")
        if let file = ProcessInfo.processInfo.environment["EPUB_CORPUS_REPORT"] {
            try output.write(toFile: file, atomically: true, encoding: .utf8)
        }
    }
}
