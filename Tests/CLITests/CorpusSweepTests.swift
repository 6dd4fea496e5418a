import Foundation
import Testing

/// What cases.json says a robust converter must do with a broken book.
enum ExpectedOutcome: String {
    case refuse, convert, either

    init(_ behaviour: String) {
        if behaviour.hasPrefix("Refuse") || behaviour.hasPrefix("Detect") {
            self = .refuse
        } else if behaviour.hasPrefix("Should convert") {
            self = .convert
        } else {
            self = .either
        }
    }
}

struct BrokenCase: Sendable, CustomTestStringConvertible {
    var file: String
    var behaviour: String
    var testDescription: String { file }
}

/// Cases from ../shared/corpus/broken/cases.json, or none when ../shared is absent.
func brokenCases() -> [BrokenCase] {
    guard let corpus = BinaryRunner.sharedCorpus,
        let data = FileManager.default.contents(atPath: corpus.appendingPathComponent("broken/cases.json").path),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let cases = object["cases"] as? [[String: Any]]
    else { return [] }
    return cases.compactMap { entry in
        guard let file = entry["file"] as? String, let behaviour = entry["expected_behaviour"] as? String else {
            return nil
        }
        return BrokenCase(file: file, behaviour: behaviour)
    }
}

/// Real books from ../shared/corpus/real, or none when ../shared is absent.
func realBooks() -> [String] {
    guard let corpus = BinaryRunner.sharedCorpus else { return [] }
    let folder = corpus.appendingPathComponent("real")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".epub") }.sorted().map { "real/\($0)" }
}

/// Deliberate departures from cases.json, each with its reason (docs/hardening.md lists them too).
/// A book whose container.xml has one stray element next to a valid `<rootfiles>` is readable:
/// refusing it would be a lecture, not a service, so it is read with a warning.
let salvagedDespiteCases: [String: String] = [
    "broken/epubcheck_ocf-container-content-model-error.epub":
        "container.xml has a stray <foo/> beside a valid <rootfiles>: read with a warning"
]

/// Exit codes a refused book may end with: unreadable (3) or protected (4).
let refusalCodes: Set<Int32> = [3, 4]

@Suite("Corpus sweep (needs ../shared)")
struct CorpusSweepTests {
    @Test("../shared is present, or the corpus tests are skipped")
    func sharedPresence() {
        if BinaryRunner.sharedCorpus == nil {
            print("note: ../shared/corpus is absent: corpus sweep tests are skipped")
        }
    }

    @Test("every broken book lists or is refused with one clear line", arguments: brokenCases())
    func brokenBookLists(_ brokenCase: BrokenCase) throws {
        let corpus = try #require(BinaryRunner.sharedCorpus)
        let path = corpus.appendingPathComponent(brokenCase.file).path
        let result = try BinaryRunner.run([path, "--list"], timeout: 10)
        #expect(!result.timedOut, "took longer than 10 s")
        #expect(result.status < 128, "died from a signal: \(result.stderr)")
        #expect(result.peakMemory < 1 << 30, "peak memory \(result.peakMemory >> 20) MiB")
        var outcome = ExpectedOutcome(brokenCase.behaviour)
        if salvagedDespiteCases[brokenCase.file] != nil {
            outcome = .convert
            #expect(result.stderr.contains("warning:"), "a salvaged book must say what was wrong")
        }
        switch outcome {
        case .refuse: #expect(refusalCodes.contains(result.status), "expected a refusal: \(result.stdout)")
        case .convert: #expect(result.status == 0, "expected success: \(result.stderr)")
        case .either: #expect(result.status == 0 || refusalCodes.contains(result.status), "\(result.stderr)")
        }
        if result.status != 0 {
            let errorLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
            #expect(errorLines.count == 1, "one error line expected: \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test("every real book lists without error", arguments: realBooks())
    func realBookLists(_ file: String) throws {
        let corpus = try #require(BinaryRunner.sharedCorpus)
        let result = try BinaryRunner.run([corpus.appendingPathComponent(file).path, "--list", "--json"], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sections = try #require(json["sections"] as? [[String: Any]])
        #expect(!sections.isEmpty)
        // A book with body text has something to read; a picture book (image-only pages) may have nothing.
        let bodyWithText = sections.contains { ($0["role"] as? String) == "body" && (($0["words"] as? Int) ?? 0) > 0 }
        if bodyWithText { #expect(sections.contains { ($0["included"] as? Bool) == true }) }
    }
}
