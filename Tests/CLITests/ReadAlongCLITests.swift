import Foundation
import TestSupport
import Testing

/// `--bundle epub`: the read-along book made by a real conversion, checked with EPUBCheck 5.3.0.
enum ReadAlongRuns {
    /// Java and EPUBCheck are installed (`make epubcheck-deps`).
    static let checkerReady = EPUBCheck.missing == nil

    /// Corpus books (`../shared/corpus/real`) of different producers and languages.
    static let corpusBooks = [
        "se_h-g-wells_the-time-machine.epub",  // Standard Ebooks, English
        "pandoc_pushkin_povesti-belkina_ru.epub",  // pandoc, Russian
        "framabook_histoires-et-cultures-du-libre_fr.epub",  // Framabook, French
        "pg_nietzsche_also-sprach-zarathustra_de.epub",  // Project Gutenberg, German
        "idpf_regime-anticancer-arabic.epub",  // IDPF sample, Arabic
        "epubjs_carroll_alice-in-wonderland.epub",  // epub.js sample, English
        "pg_dickens_a-christmas-carol.epub",  // Project Gutenberg, EPUB 2, English
        "sigil_andersen_eventyr-og-historier_da.epub",  // Sigil, EPUB 2, Danish
    ]

    /// The first two sections the classifier reads that have between 50 and 2,500 words (else its
    /// shortest one), as `--chapters` takes them: a content document or two, quick to convert.
    static func twoSections(of book: String) async throws -> String {
        let list = try await BinaryRunner.run([book, "--list", "--json"], timeout: 300)
        let json = try #require(jsonObject(list.stdout))
        let sections = try #require(json["sections"] as? [[String: Any]]).filter {
            ($0["included"] as? Bool) == true && ($0["words"] as? Int ?? 0) > 0
        }
        var chosen = sections.filter { (50...2_500).contains($0["words"] as? Int ?? 0) }.prefix(2)
        if chosen.isEmpty {
            chosen = sections.sorted { ($0["words"] as? Int ?? 0) < ($1["words"] as? Int ?? 0) }.prefix(1)
        }
        let numbers = chosen.compactMap { $0["number"] as? Int }
        try #require(!numbers.isEmpty)
        return numbers.map(String.init).joined(separator: ",")
    }

    /// Converts `book` with `--bundle epub` (and `extra` flags) into `scratch/out`; returns the
    /// read-along book's path after checking the run and the folder.
    static func convert(_ book: String, _ extra: [String], in scratch: Scratch) async throws -> String {
        let out = scratch.file("out").path
        let result = try await BinaryRunner.run(
            [book, "--bundle", "epub", "-o", out, "--progress", "plain"] + extra, timeout: 900)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("read-along book written:"), "\(result.stderr)")
        // "(126 of 133 sentences highlighted": the ones missed are alt text and dashes, never many.
        if let match = result.stderr.firstMatch(of: /\((\d+) of (\d+) sentences? highlighted/),
            let placed = Int(match.1), let spoken = Int(match.2)
        {
            #expect(placed * 10 >= spoken * 9, "\(placed) of \(spoken) sentences highlighted")
        } else {
            Issue.record("no count of sentences highlighted: \(result.stderr)")
        }
        let name = try #require(listing(out).first { $0.hasSuffix(" (read-along).epub") }, "\(listing(out))")
        #expect(!listing(out).contains { $0.hasPrefix(AtomicPrefix.value) }, "no temporary file left")
        let format = extra.contains("--format") ? "opus" : "mp3"
        #expect(listing(out).contains { $0.hasSuffix("." + format) }, "the sections are MP3 unless --format")
        return out + "/" + name
    }
}

/// The temporary-name prefix of the output folder (`AtomicFile.tempPrefix`).
enum AtomicPrefix {
    static let value = ".epub2audio-tmp-"
}

extension EndToEnd {
    @Suite("The read-along book (--bundle epub)")
    struct ReadAlong {
        @Test(
            "the sample's read-along book (MP3, Opus) gives EPUBCheck 5.3.0 no message the source does not give",
            .enabled(if: ReadAlongRuns.checkerReady, "Java or EPUBCheck is missing (make epubcheck-deps)"),
            arguments: [[], ["--format", "opus", "--chapters", "9,10"]])
        func sample(flags: [String]) async throws {
            let scratch = try Scratch("readalong-sample")
            let source = BinaryRunner.sample("the-lighthouse-keepers-daughter.epub")
            let book = try await ReadAlongRuns.convert(source, flags, in: scratch)
            let new = try EPUBCheck.newMessages(in: book, comparedWith: source)
            #expect(new.isEmpty, "\(new.map(\.description).joined(separator: "\n"))")
        }

        /// The copy of an EPUB 2 book is an EPUB 3 package: EPUBCheck checks it with EPUB 3 rules.
        @Test(
            "the EPUB 2 sample's read-along book gives EPUBCheck 5.3.0 no message the source does not give",
            .enabled(if: ReadAlongRuns.checkerReady, "Java or EPUBCheck is missing (make epubcheck-deps)"))
        func epub2Sample() async throws {
            let scratch = try Scratch("readalong-epub2")
            let source = BinaryRunner.sample("a-treatise-on-small-machines.epub")
            let book = try await ReadAlongRuns.convert(source, [], in: scratch)
            let new = try EPUBCheck.newMessages(in: book, comparedWith: source)
            #expect(new.isEmpty, "\(new.map(\.description).joined(separator: "\n"))")
        }

        @Test(
            "corpus books' read-along books give EPUBCheck 5.3.0 no new message",
            .enabled(if: ReadAlongRuns.checkerReady, "Java or EPUBCheck is missing (make epubcheck-deps)"),
            .enabled(if: BinaryRunner.sharedCorpus != nil, "../shared/corpus is absent"),
            arguments: ReadAlongRuns.corpusBooks)
        func corpusBook(name: String) async throws {
            let corpus = try #require(BinaryRunner.sharedCorpus)
            let source = corpus.appendingPathComponent("real/\(name)").path
            let scratch = try Scratch("readalong-corpus")
            let chapters = try await ReadAlongRuns.twoSections(of: source)
            let book = try await ReadAlongRuns.convert(source, ["--chapters", chapters], in: scratch)
            let new = try EPUBCheck.newMessages(in: book, comparedWith: source)
            #expect(new.isEmpty, "\(name): \(new.map(\.description).joined(separator: "\n"))")
        }

        @Test("--bundle epub with FLAC sections is a usage error before the book is read (exit 64)")
        func flacIsRefused() async throws {
            let scratch = try Scratch("readalong-flac")
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [
                    BinaryRunner.sample("the-lighthouse-keepers-daughter.epub"), "--bundle", "epub", "--format", "flac",
                    "-o", out,
                ])
            #expect(result.status == 64)
            #expect(result.stderr.contains("--bundle epub needs --format mp3 or opus"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
