import Foundation
import Testing

@testable import Normalization

@Suite("Lexicon")
struct LexiconTests {
    @Test func parsesTabsEqualsCommentsAndBlankLines() throws {
        let text = "# names\n\nHermione\tHer-my-oh-nee\nSte. = Sainte\n  # indented comment\n~nasa = nasa\n"
        let lexicon = try Lexicon.parse(text)
        #expect(
            lexicon.entries == [
                Lexicon.Entry(written: "Hermione", spoken: "Her-my-oh-nee"),
                Lexicon.Entry(written: "Ste.", spoken: "Sainte"),
                Lexicon.Entry(written: "nasa", spoken: "nasa", caseInsensitive: true),
            ])
    }

    @Test func handlesCRLFAndByteOrderMark() throws {
        let lexicon = try Lexicon.parse("\u{FEFF}Tolkien = Tol keen\r\nSmaug\tSmowg\r\n")
        #expect(lexicon.entries.map(\.written) == ["Tolkien", "Smaug"])
        #expect(lexicon.entries.map(\.spoken) == ["Tol keen", "Smowg"])
    }

    @Test(arguments: [
        ("no separator here", 1), ("ok = fine\n = nothing written", 2), ("ok = fine\n\n# c\nwritten =  ", 4),
        ("a\tb\nc d", 2),
    ])
    func malformedLinesNameTheLine(text: String, line: Int) {
        #expect(throws: LexiconError.self) { try Lexicon.parse(text, path: "names.txt") }
        do {
            _ = try Lexicon.parse(text, path: "names.txt")
        } catch let error as LexiconError {
            guard case .malformedLine(let path, let number, _, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "names.txt")
            #expect(number == line)
            #expect(error.description.hasPrefix("names.txt:\(line): "))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func loadsAFileAndReportsMissingOnes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lexicon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("names.txt")
        try Data("Hermione = Her-my-oh-nee\n".utf8).write(to: file)
        let lexicon = try Lexicon.load(path: file.path)
        #expect(lexicon.entries.count == 1)

        let missing = directory.appendingPathComponent("missing.txt").path
        #expect {
            try Lexicon.load(path: missing)
        } throws: { error in
            guard let error = error as? LexiconError, case .unreadable(let path, _) = error else { return false }
            return path == missing && error.description.contains(missing)
        }

        let binary = directory.appendingPathComponent("binary.txt")
        try Data([0x41, 0x20, 0x3D, 0x20, 0xFF, 0xFE, 0x0A]).write(to: binary)
        #expect(throws: LexiconError.notUTF8(path: binary.path)) { try Lexicon.load(path: binary.path) }
    }

    @Test func userEntriesReplaceWholeWordsOnly() throws {
        let lexicon = try Lexicon.parse("Hermione = Her-my-oh-nee\n")
        let normalizer = TextNormalizer(language: "en", lexicon: lexicon)
        #expect(normalizer.normalize("Hermione smiled.") == "Her-my-oh-nee smiled.")
        #expect(normalizer.normalize("Hermione's wand") == "Her-my-oh-nee's wand")
        #expect(normalizer.normalize("Hermiones") == "Hermiones")
        #expect(normalizer.normalize("hermione") == "hermione")
    }

    @Test func caseInsensitiveEntries() throws {
        let normalizer = TextNormalizer(language: "en", lexicon: try Lexicon.parse("~gif = jif\n"))
        #expect(normalizer.normalize("a GIF, a gif, a Gif") == "a jif, a jif, a jif")
    }

    @Test func userEntriesWinOverBuiltInsAndLaterLinesWin() throws {
        let lexicon = try Lexicon.parse("Dr. = Drive\nSmith = Smyth\nSmith = Smythe\n")
        let normalizer = TextNormalizer(language: "en", lexicon: lexicon)
        #expect(normalizer.normalize("Dr. Smith") == "Drive Smythe")
    }

    @Test func multiWordAndPunctuatedEntries() throws {
        let lexicon = try Lexicon.parse("Mrs. Dalloway = Missus Dalloway the novel\nC++ = C plus plus\n")
        let normalizer = TextNormalizer(language: "en", lexicon: lexicon)
        #expect(normalizer.normalize("I read Mrs. Dalloway twice") == "I read Missus Dalloway the novel twice")
        #expect(normalizer.normalize("Mrs. Smith") == "Missus Smith")
        #expect(normalizer.normalize("C++ code") == "C plus plus code")
    }

    @Test func unknownLanguagesUseOnlyTheLexicon() throws {
        let normalizer = TextNormalizer(language: "nl", lexicon: try Lexicon.parse("Gogh = Chog\n"))
        #expect(normalizer.normalize("Van Gogh, 1853, Dr. X, $5") == "Van Chog, 1853, Dr. X, $5")
    }

    @Test func mergingKeepsOrder() {
        let a = Lexicon(entries: [Lexicon.Entry(written: "x", spoken: "a")])
        let b = Lexicon(entries: [Lexicon.Entry(written: "x", spoken: "b")])
        #expect(TextNormalizer(language: "en", lexicon: a.merging(b)).normalize("x") == "b")
        #expect(TextNormalizer(language: "en", lexicon: b.merging(a)).normalize("x") == "a")
    }
}
