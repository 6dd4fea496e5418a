import Foundation
import Testing

/// Saying what is skipped: the words read and skipped in `--list` and `--list --json`, and a warning
/// on standard error when a skipped section is large.
@Suite("epub2audio: words read and skipped")
struct SkippedTextCLITests {
    /// Three chapters of `chapterWords` and, after them, an appendix of about 4,000 words (skipped by
    /// default when the chapters hold more words: the book is not mostly its appendix).
    static func bookWithLargeAppendix(in scratch: Scratch, chapterWords: Int = 1_400) throws -> String {
        var chapters = (1...3).map {
            TestBook.Chapter(title: "Chapter \($0)", paragraphs: prose(words: chapterWords, seed: $0))
        }
        chapters.append(
            TestBook.Chapter(title: "Appendix", paragraphs: prose(words: 4_000, seed: 9), epubType: "appendix"))
        let url = scratch.file("appendix.epub")
        try TestBook(title: "The Long Appendix", chapters: chapters).write(to: url)
        return url.path
    }

    /// Three chapters and nothing else.
    static func plainBook(in scratch: Scratch) throws -> String {
        let url = scratch.file("plain.epub")
        try TestBook(
            title: "Nothing Aside",
            chapters: (1...3).map { TestBook.Chapter(title: "Chapter \($0)", paragraphs: prose(words: 80, seed: $0)) }
        ).write(to: url)
        return url.path
    }

    /// Sections of `--list --json`, with the words of those read and of those skipped.
    static func sections(_ book: String, _ extra: [String] = []) async throws
        -> (json: [String: Any], read: [[String: Any]], skipped: [[String: Any]])
    {
        let json = try await ListTests.listJSON(book, extra)
        let sections = try #require(json["sections"] as? [[String: Any]])
        return (
            json, sections.filter { $0["included"] as? Bool == true },
            sections.filter { $0["included"] as? Bool == false }
        )
    }

    static func words(_ sections: [[String: Any]]) -> Int {
        sections.reduce(0) { $0 + ($1["words"] as? Int ?? 0) }
    }

    static func warningLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
    }

    @Test("--list --json: readWords and skippedWords add up the sections' words")
    func jsonTotals() async throws {
        for book in [ListTests.lighthouse, ListTests.treatise] {
            let (json, read, skipped) = try await Self.sections(book)
            #expect(!skipped.isEmpty)
            #expect(json["readWords"] as? Int == Self.words(read), "\(book)")
            #expect(json["skippedWords"] as? Int == Self.words(skipped), "\(book)")
            #expect((json["skippedWords"] as? Int ?? 0) > 0)
        }
        // --chapters moves words from one side to the other.
        let (json, read, _) = try await Self.sections(ListTests.lighthouse, ["--chapters", "3-5"])
        #expect(read.count == 3)
        #expect(json["readWords"] as? Int == Self.words(read))
        // Keys stay sorted, so the output is byte-stable.
        let raw = try await BinaryRunner.run([ListTests.lighthouse, "--list", "--json"]).stdout
        let topLevel = raw.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        #expect(topLevel.contains("readWords") && topLevel.contains("skippedWords"))
        #expect(topLevel == topLevel.sorted(), "\(topLevel)")
    }

    /// The header line that starts with `reading `, split around its rough audio length.
    /// The minutes of audio the `--list` header estimates ("about 1 h 5 min of audio": 65).
    static func minutes(_ stdout: String) -> Int {
        guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("reading ") }),
            let about = line.range(of: "(about "), let end = line.range(of: " of audio)")
        else { return -1 }
        let parts = line[about.upperBound..<end.lowerBound].split(separator: " ")
        var total = 0
        for (value, unit) in zip(parts, parts.dropFirst()) where Int(value) != nil {
            total += (Int(value) ?? 0) * (unit == "h" ? 60 : 1)
        }
        return total
    }

    /// The seconds of audio `--list --json` estimates for `book` with `flags`.
    static func estimatedSeconds(_ book: String, _ flags: [String]) async throws -> Double {
        let listed = try await BinaryRunner.run([book, "--list", "--json"] + flags)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        return try #require((listing["estimate"] as? [String: Any])?["audioSeconds"] as? Double)
    }

    static func readingLine(_ stdout: String) throws -> (beforeDuration: String, afterDuration: String) {
        let line = try #require(stdout.split(separator: "\n").first { $0.hasPrefix("reading ") }, "\(stdout)")
        let open = try #require(line.range(of: " (about "), "\(line)")
        let close = try #require(line.range(of: " of audio)"), "\(line)")
        return (String(line[..<open.lowerBound]), String(line[close.upperBound...]))
    }

    @Test(
        "--list: the header says the words read and the words skipped",
        arguments: [ListTests.lighthouse, ListTests.treatise])
    func listSummaryLine(_ book: String) async throws {
        let (_, read, skipped) = try await Self.sections(book)
        let result = try await BinaryRunner.run([book, "--list"])
        #expect(result.status == 0)
        let line = try Self.readingLine(result.stdout)
        #expect(line.beforeDuration == "reading \(ListTests.grouped(Self.words(read))) words in \(read.count) sections")
        #expect(
            line.afterDuration
                == "; skipping \(ListTests.grouped(Self.words(skipped))) words in \(skipped.count) sections")
        // The audio's length is estimated at the rate asked for: twice the rate, the words take half as
        // long and the pauses as long as before.
        let normal = try await Self.estimatedSeconds(book, [])
        let twice = try await Self.estimatedSeconds(book, ["--rate", "350"])
        #expect(twice > normal / 2 && twice < normal * 0.6, "\(normal) and \(twice) s")
        // The header's length is the estimate's.
        #expect(normal > 60 && abs(Double(Self.minutes(result.stdout)) - normal / 60) <= 1, "\(result.stdout)")
        // Thousands are grouped: the lighthouse sample reads more than a thousand words.
        if book == ListTests.lighthouse { #expect(line.beforeDuration.contains(",")) }
    }

    @Test("--list: nothing skipped is said briefly; one section is singular")
    func nothingSkipped() async throws {
        let scratch = try Scratch("skipped")
        let book = try Self.plainBook(in: scratch)
        let (_, read, skipped) = try await Self.sections(book)
        #expect(skipped.isEmpty && read.count == 3)
        let all = try Self.readingLine(try await BinaryRunner.run([book, "--list"]).stdout)
        #expect(all.beforeDuration == "reading \(Self.words(read)) words in 3 sections")
        #expect(all.afterDuration == "; nothing skipped")

        let (json, oneRead, _) = try await Self.sections(book, ["--chapters", "2"])
        let skippedWords = try #require(json["skippedWords"] as? Int)
        let one = try Self.readingLine(try await BinaryRunner.run([book, "--list", "--chapters", "2"]).stdout)
        // What --chapters leaves out is the user's choice, not skipped text.
        #expect(one.beforeDuration == "reading \(Self.words(oneRead)) words in 1 section chosen with --chapters")
        #expect(one.afterDuration == "; leaving out \(skippedWords) words in 2 others")
    }

    @Test("a large skipped section gets one warning line saying how to read it")
    func largeSectionWarning() async throws {
        let scratch = try Scratch("skipped")
        let book = try Self.bookWithLargeAppendix(in: scratch)
        let (json, _, skipped) = try await Self.sections(book)
        let appendix = try #require(skipped.first)
        #expect(skipped.count == 1 && appendix["kind"] as? String == "appendix" && appendix["number"] as? Int == 4)
        let words = try #require(appendix["words"] as? Int)
        #expect(words > 3_000 && json["skippedWords"] as? Int == words)

        let result = try await BinaryRunner.run([book, "--list"])
        #expect(result.status == 0)
        #expect(
            Self.warningLines(result.stderr) == [
                "warning: section 4 (appendix, \(ListTests.grouped(words)) words) is skipped; "
                    + "read it with --chapters 4 or --include appendix"
            ], "\(result.stderr)")
        // Warnings stay off standard output and out of the JSON.
        #expect(!result.stdout.contains("warning:"))
        let raw = try await BinaryRunner.run([book, "--list", "--json"])
        #expect(raw.stderr.isEmpty, "\(raw.stderr)")

        // Not with --quiet, not once the section is read, not when --chapters chose what to read.
        for extra in [["--quiet"], ["--include", "appendix"], ["--include", "all"], ["--chapters", "1-3"]] {
            let quiet = try await BinaryRunner.run([book, "--list"] + extra)
            #expect(quiet.status == 0)
            #expect(Self.warningLines(quiet.stderr).isEmpty, "\(extra): \(quiet.stderr)")
        }
    }

    @Test("in a batch each warning line names its book")
    func batchWarningsNameTheirBook() async throws {
        let scratch = try Scratch("skipped-batch")
        let book = try Self.bookWithLargeAppendix(in: scratch)
        let plain = try Self.plainBook(in: scratch)
        let result = try await BinaryRunner.run(
            [plain, book, "-o", scratch.file("out").path, "--progress", "none"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = Self.warningLines(result.stderr)
        let name = URL(fileURLWithPath: book).lastPathComponent
        #expect(
            !lines.isEmpty && lines.allSatisfy { $0.hasPrefix("warning: \(name): section 4 (appendix") }, "\(lines)")
    }

    @Test("a book that is mostly its appendix reads it, and says so on one line")
    func mostlyItsAppendix() async throws {
        let scratch = try Scratch("mostly-appendix")
        let book = try Self.bookWithLargeAppendix(in: scratch, chapterWords: 60)
        let (_, read, skipped) = try await Self.sections(book)
        #expect(skipped.isEmpty && read.count == 4)
        #expect(read.last?["kind"] as? String == "appendix")
        let result = try await BinaryRunner.run([book, "--list"])
        #expect(result.status == 0)
        let lines = Self.warningLines(result.stderr)
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(
            lines.first?.hasPrefix(
                "warning: section 4 is marked or named appendix but holds more words than all the sections read ("
            ) == true, "\(result.stderr)")
    }

    @Test("a large skipped share: --list does not point to --list, a conversion does")
    func largeShareWarning() async throws {
        let scratch = try Scratch("share")
        var chapters = (1...3).map {
            TestBook.Chapter(title: "Chapter \($0)", paragraphs: prose(words: 300, seed: $0))
        }
        for n in 1...2 {
            chapters.append(
                TestBook.Chapter(
                    title: "Appendix \(n)", paragraphs: prose(words: 800, seed: 10 + n), epubType: "appendix"))
        }
        let url = scratch.file("share.epub")
        try TestBook(title: "Two Appendices", chapters: chapters).write(to: url)
        let listed = try await BinaryRunner.run([url.path, "--list"])
        #expect(listed.status == 0)
        let line = try #require(Self.warningLines(listed.stderr).first, "\(listed.stderr)")
        #expect(line.contains("2 skipped sections hold") && line.hasSuffix("read everything with --include all"))
        #expect(!line.contains("see --list"), "\(line)")
        let converted = try await BinaryRunner.run([url.path, "--text", "-o", scratch.file("out").path])
        #expect(converted.status == 0)
        #expect(
            Self.warningLines(converted.stderr).contains { $0.contains("see --list, or read everything") },
            "\(converted.stderr)")
    }

    @Test("no skipped-text warning for a normal book", arguments: [ListTests.lighthouse, ListTests.treatise])
    func normalBookIsQuiet(_ book: String) async throws {
        let result = try await BinaryRunner.run([book, "--list"])
        #expect(result.status == 0)
        #expect(!result.stderr.contains("skipped"), "\(result.stderr)")
        #expect(!result.stderr.contains("--include all"), "\(result.stderr)")
    }
}

extension ListTests {
    /// 12,345, as the renderer groups thousands (whatever the locale).
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}

extension EndToEnd {
    @Suite("Conversion summary: words read and skipped")
    struct SkippedTextSummary {
        @Test("a conversion warns about the large skipped section, then sums up the words read and skipped")
        func conversionSummary() async throws {
            let scratch = try Scratch("skipped-convert")
            let book = try SkippedTextCLITests.bookWithLargeAppendix(in: scratch)
            let (json, read, _) = try await SkippedTextCLITests.sections(book)
            let skippedWords = try #require(json["skippedWords"] as? Int)
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run([book, "-o", out, "--progress", "plain"], timeout: 90)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Conversions.audio(out).count == 3)
            let lines = result.stderr.split(separator: "\n").map(String.init)
            let warning = try #require(lines.firstIndex { $0.hasPrefix("warning: section 4 (appendix, ") })
            let summary =
                "reading \(ListTests.grouped(SkippedTextCLITests.words(read))) words in 3 sections; "
                + "skipping \(ListTests.grouped(skippedWords)) words in 1 section"
            let line = try #require(lines.firstIndex(of: summary), "no summary line in \(result.stderr)")
            // The warning comes before the work, the totals at the end with the other figures.
            #expect(warning < line)
            #expect(lines.last?.hasPrefix("Output: ") == true)

            // --quiet: errors only.
            let quiet = try await BinaryRunner.run([book, "-o", out, "--quiet"], timeout: 90)
            #expect(quiet.status == 0)
            #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        }
    }
}
