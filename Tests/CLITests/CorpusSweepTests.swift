import Foundation
import TestSupport
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

/// Set `EPUB2AUDIO_SLOW_TESTS=1` to run the tests tagged `.slow` that are off by default (they would
/// push the CLITests suite past ~3 minutes on a 2-core machine with a debug build).
let slowTestsEnabled = ProcessInfo.processInfo.environment["EPUB2AUDIO_SLOW_TESTS"] == "1"

extension Tag {
    /// Tests that take long with a debug build; some are off unless `EPUB2AUDIO_SLOW_TESTS=1`.
    @Tag static var slow: Self
}

/// Real books whose `--list` a debug binary cannot finish within the limit (`SlowBooks`, the list every
/// timed test shares): with a debug binary listed only with `EPUB2AUDIO_SLOW_TESTS=1`.
let slowRealBooks = realBooks().filter { SlowBooks.isExempt($0, debug: BinaryRunner.isDebugBinary) }

extension EndToEnd {
    /// In the serialized end-to-end tree: dozens of listings in parallel on 2 cores made the timing limits flaky.
    @Suite("Corpus sweep (needs ../shared)", .tags(.slow))
    struct CorpusSweepTests {
        @Test(
            "../shared/corpus holds real books to sweep (skipped, and the sweep with it, when it is absent)",
            .enabled(if: BinaryRunner.sharedCorpus != nil, "../shared/corpus is absent: corpus sweep tests are skipped")
        )
        func sharedCorpusHasBooks() {
            #expect(!realBooks().isEmpty, "../shared/corpus/real holds no .epub")
        }

        @Test("every real book lists without error", arguments: realBooks().filter { !slowRealBooks.contains($0) })
        func realBookLists(_ file: String) async throws {
            try await listRealBook(file)
        }

        @Test(
            "the largest real books list without error (EPUB2AUDIO_SLOW_TESTS=1)", .enabled(if: slowTestsEnabled),
            arguments: realBooks().filter { slowRealBooks.contains($0) })
        func slowRealBookLists(_ file: String) async throws {
            try await listRealBook(file)
        }

        func listRealBook(_ file: String) async throws {
            let corpus = try #require(BinaryRunner.sharedCorpus)
            let result = try await BinaryRunner.run(
                [corpus.appendingPathComponent(file).path, "--list", "--json"], timeout: 30)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let sections = try #require(json["sections"] as? [[String: Any]])
            #expect(!sections.isEmpty)
            // A book with body text has something to read; a picture book (image-only pages) may have nothing.
            let bodyWithText = sections.contains {
                ($0["role"] as? String) == "body" && (($0["words"] as? Int) ?? 0) > 0
            }
            if bodyWithText { #expect(sections.contains { ($0["included"] as? Bool) == true }) }
        }
    }
}

/// How one broken book ended in the conversion sweep.
enum SweepOutcome: String, CaseIterable {
    case ok, salvaged, refused, failed
}

extension EndToEnd {
    @Suite("Broken-book conversion sweep (needs ../shared)")
    struct BrokenConversionSweep {
        /// Books with more sections than this convert only their first section with words (a 10,000-item
        /// spine would otherwise take minutes to speak); the rest convert their default selection.
        static let manySections = 20
        static let timeLimit = 10.0
        static let memoryLimit = 1 << 30

        @Test(
            "every broken book lists, then converts (files) or is refused (one line, nothing written), in 10 s and 1 GB"
        )
        func sweep() async throws {
            let cases = brokenCases()
            guard let corpus = BinaryRunner.sharedCorpus, !cases.isEmpty else {
                print("note: ../shared/corpus/broken is absent: broken-book conversion sweep skipped")
                return
            }
            let brokenFolder = corpus.appendingPathComponent("broken").path
            let corpusBefore = tree(brokenFolder).map { ($0, identity(brokenFolder + "/" + $0)) }
            var tally: [SweepOutcome: Int] = [:]
            var slowest = (file: "", seconds: 0.0)
            var peak = (file: "", bytes: 0)
            for brokenCase in cases {
                let outcome = try await convert(brokenCase, corpus: corpus)
                tally[outcome.outcome, default: 0] += 1
                if outcome.seconds > slowest.seconds { slowest = (brokenCase.file, outcome.seconds) }
                if outcome.peakMemory > peak.bytes { peak = (brokenCase.file, outcome.peakMemory) }
            }
            let counts = SweepOutcome.allCases.map { "\(tally[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
            print(
                "broken-book conversion sweep: \(cases.count) books: \(counts); slowest \(slowest.file) "
                    + "\(String(format: "%.1f", slowest.seconds)) s; peak memory \(peak.bytes >> 20) MiB (\(peak.file))"
            )
            #expect(
                tree(brokenFolder).map { ($0, identity(brokenFolder + "/" + $0)) }.elementsEqual(corpusBefore) {
                    $0.0 == $1.0 && $0.1 == $1.1
                }, "the corpus folder changed")
        }

        /// `--list --json` on a broken book: it lists, or is refused with one clear line, in time and memory.
        func checkListing(_ result: RunResult, _ brokenCase: BrokenCase) {
            let name = brokenCase.file
            #expect(!result.timedOut, "\(name): --list took longer than \(Self.timeLimit) s")
            #expect(!result.signalled, "\(name): --list died from a signal: \(result.stderr)")
            #expect(result.peakMemory < Self.memoryLimit, "\(name): --list peak memory \(result.peakMemory >> 20) MiB")
            var outcome = ExpectedOutcome(brokenCase.behaviour)
            if salvagedDespiteCases[name] != nil {
                outcome = .convert
                let warnings = jsonObject(result.stdout)?["warnings"] as? [Any] ?? []
                #expect(!warnings.isEmpty, "\(name): a salvaged book must say what was wrong")
            }
            switch outcome {
            case .refuse: #expect(refusalCodes.contains(result.status), "\(name): expected a refusal: \(result.stdout)")
            case .convert: #expect(result.status == 0, "\(name): expected success: \(result.stderr)")
            case .either:
                #expect(result.status == 0 || refusalCodes.contains(result.status), "\(name): \(result.stderr)")
            }
            if result.status == 0 {
                #expect(jsonObject(result.stdout)?["sections"] is [[String: Any]], "\(name): --list --json is not JSON")
            } else {
                #expect(result.errorLines.count == 1, "\(name): one error line expected: \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
        }

        /// A book a debug build cannot convert in time (a release build must).
        static func isKnownSlowInDebug(_ file: String) -> Bool {
            SlowBooks.isExempt(file, debug: BinaryRunner.isDebugBinary)
        }

        struct Converted {
            var outcome: SweepOutcome
            var seconds: Double
            var peakMemory: Int
        }

        /// Converts one book in a scratch folder (output in `out/`, run from the empty `work/`) and checks it.
        func convert(_ brokenCase: BrokenCase, corpus: URL) async throws -> Converted {
            let book = corpus.appendingPathComponent(brokenCase.file).path
            let scratch = try Scratch("sweep")
            let work = scratch.file("work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let out = scratch.file("out").path
            var arguments = [book, "-o", out, "--jobs", "2", "--progress", "none"]
            // First the index (what the former per-book listing sweep checked), then the selection from it:
            // a huge book converts one section with words.
            let listed = try await BinaryRunner.run([book, "--list", "--json"], timeout: Self.timeLimit)
            if listed.timedOut && Self.isKnownSlowInDebug(brokenCase.file) {
                withKnownIssue("debug build: indexing a 10,000-section book takes 6-10 s") {
                    Issue.record("\(brokenCase.file): --list killed after \(Self.timeLimit) s")
                }
                return Converted(outcome: .failed, seconds: listed.seconds, peakMemory: listed.peakMemory)
            }
            checkListing(listed, brokenCase)
            if listed.status == 0, let sections = jsonObject(listed.stdout)?["sections"] as? [[String: Any]],
                sections.count > Self.manySections
            {
                let first = sections.first { ($0["words"] as? Int ?? 0) > 0 }?["number"] as? Int ?? 1
                arguments += ["--chapters", String(first)]
            }
            let result = try await BinaryRunner.run(arguments, directory: work, timeout: Self.timeLimit)
            let name = brokenCase.file
            var expected = ExpectedOutcome(brokenCase.behaviour)
            if salvagedDespiteCases[name] != nil { expected = .convert }
            let everything = tree(scratch.path)
            let audio = everything.filter { $0.hasPrefix("out/") && $0.hasSuffix(".wav") }
            let parts = everything.filter { $0.hasSuffix(".part") }
            let converted = result.status == 0 && !audio.isEmpty
            let refused = refusalCodes.contains(result.status)

            var ok = true
            func check(_ condition: Bool, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
                if !condition {
                    ok = false
                    Issue.record("\(name): \(message)", sourceLocation: sourceLocation)
                }
            }
            if result.timedOut && Self.isKnownSlowInDebug(name) {
                // Debug build: indexing the 10,000 sections takes ~7 s and the conversion more. Recorded
                // as a known issue so the suite stays usable; a release build must pass.
                withKnownIssue("debug build: a 10,000-section book takes ~30 s to convert one section") {
                    Issue.record("\(name): killed after \(Self.timeLimit) s")
                }
                return Converted(outcome: .failed, seconds: result.seconds, peakMemory: result.peakMemory)
            }
            check(!result.timedOut, "took longer than \(Self.timeLimit) s")
            check(!result.signalled, "died from a signal: \(result.stderr.suffix(300))")
            check(result.peakMemory < Self.memoryLimit, "peak memory \(result.peakMemory >> 20) MiB")
            check(tree(work.path).isEmpty, "wrote into the current folder: \(tree(work.path))")
            check(
                everything.allSatisfy { $0 == "work" || $0 == "out" || $0.hasPrefix("out/") },
                "wrote outside the output folder: \(everything)")
            check(parts.isEmpty, ".part files left: \(parts)")
            switch expected {
            case .refuse: check(refused, "expected a refusal (3 or 4), got exit \(result.status): \(result.stderr)")
            case .convert:
                check(converted, "expected audio files and exit 0, got exit \(result.status): \(result.stderr)")
            case .either: check(converted || refused, "exit \(result.status), \(audio.count) files: \(result.stderr)")
            }
            if result.status == 0 {
                check(!audio.isEmpty, "exit 0 but no audio file")
                for file in audio {
                    let data = bytes(scratch.path + "/" + file) ?? Data()
                    check((try? readWAV(data))?.frames ?? 0 > 0, "\(file) is not a WAV file with sound")
                }
            } else {
                check(result.errorLines.count == 1, "one error line expected: \(result.stderr)")
                check(
                    result.errorLines.first?.contains(URL(fileURLWithPath: name).lastPathComponent) == true,
                    "the error line should name the book: \(result.stderr)")
                check(audio.isEmpty, "refused, yet audio files were left: \(audio)")
                if refused { check(!everything.contains("out"), "refused, yet the output folder was made") }
            }
            let outcome: SweepOutcome =
                !ok
                ? .failed
                : converted
                    ? (result.stderr.contains("warning:") ? .salvaged : .ok)
                    : refused ? .refused : .failed
            return Converted(outcome: outcome, seconds: result.seconds, peakMemory: result.peakMemory)
        }
    }
}
