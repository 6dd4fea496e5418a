import Foundation
import Markup
import Testing

@testable import EPUBReader

/// One minimised input a fuzz target (Fuzz/, docs/hardening.md) found crashing, leaking or hanging, and what
/// reading it must do now. The input file is in `Fixtures/fuzz-regressions/`.
///
/// Leaks only fail under LeakSanitizer: run these with `make test-sanitize` (or `scripts/sanitize.sh asan`).
struct FuzzRegression: Sendable, CustomTestStringConvertible {
    /// Which reader the input goes to: the whole book from bytes, or the XHTML parser.
    enum Reader: Sendable { case book, markup }

    var file: String
    var reader: Reader
    /// What the fuzzer saw before the fix.
    var found: String
    /// The `EPUBError` case (book) or `MarkupError` case (markup) reading must end with; nil: it must succeed.
    var expectedError: String?

    var testDescription: String { "\(file) (\(found))" }

    static let all: [FuzzRegression] = [
        FuzzRegression(
            file: "read-empty-input-leak.epub", reader: .book, found: "fuzz-read: 1-byte leak in ZipArchive(bytes:)",
            expectedError: "notAZip")
    ]
}

private let regressionFolder: URL? = Bundle.module.resourceURL?.appendingPathComponent("Fixtures/fuzz-regressions")

/// The enum case name of an error (`notAZip` for `EPUBError.notAZip(path:reason:)`).
private func caseName(_ error: any Error) -> String {
    Mirror(reflecting: error).children.first?.label ?? String(describing: error)
}

@Suite struct FuzzRegressionTests {
    @Test(arguments: FuzzRegression.all)
    func readsWithoutCrashing(_ regression: FuzzRegression) throws {
        let folder = try #require(regressionFolder)
        let url = folder.appendingPathComponent(regression.file)
        // Data(contentsOf:) leaks 4 KiB reading an empty file (swift-foundation, Swift 6.3), which would fail
        // the LeakSanitizer run: empty inputs are not read.
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        let bytes = size == 0 ? [] : Array(try Data(contentsOf: url))
        switch regression.reader {
        case .book:
            do {
                let book = try EPUBBook(bytes: bytes, name: regression.file)
                // Everything the fuzz target did after opening: every spine document must parse or fail cleanly.
                for item in book.package.spine {
                    do {
                        _ = try book.document(forHref: item.href).root.descendants.count
                    } catch {
                        #expect(error is EPUBError, "\(item.href): \(error)")
                    }
                }
                #expect(regression.expectedError == nil, "opened, expected \(regression.expectedError ?? "")")
            } catch let error as EPUBError {
                #expect(caseName(error) == regression.expectedError, "\(error)")
            }
        case .markup:
            do {
                let document = try MarkupParser.parseXHTML(bytes, documentName: regression.file)
                _ = document.root.descendants.count
                _ = document.root.textContent
                #expect(regression.expectedError == nil, "parsed, expected \(regression.expectedError ?? "")")
            } catch let error as MarkupError {
                #expect(caseName(error) == regression.expectedError, "\(error)")
            }
        }
    }

    /// A committed input without a case here would never be run.
    @Test func everyCommittedInputHasACase() throws {
        let folder = try #require(regressionFolder)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(files) == Set(FuzzRegression.all.map(\.file)))
    }
}
