import Foundation
import Testing

/// Issue 12: every citation form the spoken text must drop, and every look-alike it must keep, read
/// end to end (`--text`) from an EPUB 3 book and from the same book as EPUB 2.
@Suite("Citations in EPUB 2 and 3 books, through the binary")
struct CitationCLITests {
    /// Each paragraph holds one citation form; the citation's text is never heard.
    static let cited: [(paragraph: String, citation: String)] = [
        ("Clocks drift in the cold (Smith, 2020) and stop.", "Smith, 2020"),
        ("It held, as Lindqvist (1998, pp. 12–14) argued at length.", "1998"),
        ("Okafor (2017) disagrees with the keepers.", "2017"),
        ("Later, Okafor (2015a) found more of them.", "2015a"),
        ("The same holds for the lamps (ibid.).", "ibid"),
        ("The same holds for the wicks (ibid., p. 4).", "p. 4"),
        ("It was cold that year (Haddon, op. cit., p. 9).", "op. cit"),
        ("It was new (a point disputed since; cf. Brandt 2003, 17).", "Brandt"),
        ("A rumour (Varga, quoted in Keller 2010, 88) spread.", "Keller"),
        ("Founded early (Royal Society 1902, vol. iii, pp. ix–xi) in London.", "Royal Society"),
        ("Drums were common [7, p. 22] on the coast.", "[7"),
        ("Bells were common [12] inland.", "[12]"),
    ]
    /// Text that looks like a citation and must be heard.
    static let kept = [
        "Wait for the interval [2, 9] seconds.", "The array y[5] holds the sixth value.",
        "We saw the film Titanic (1997) twice.", "The Reform Act (1832) widened the vote.",
        "The war (1914–1918) changed everything.",
    ]
    /// Superscript citation lists after a word: `<sup>14,15</sup>`, `<sup>3–5</sup>`.
    static let superscripts =
        "<p>Tides were measured daily<sup>14,15</sup> and logged.</p><p>Storms came in threes<sup>3–5</sup> that winter.</p>"

    static func spokenText(version: Int) async throws -> String {
        let scratch = try Scratch("citations-epub\(version)")
        let book = TestBook(
            title: "Notes on Lighthouses",
            chapters: [
                TestBook.Chapter(
                    title: "Evidence", paragraphs: cited.map(\.paragraph) + kept, markup: superscripts)
            ], version: version)
        let url = scratch.file("book.epub")
        try book.write(to: url)
        let out = scratch.file("text").path
        let result = try await BinaryRunner.run([url.path, "--chapters", "1", "--text", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasSuffix(".txt") })
        return String(decoding: try #require(bytes(out + "/" + file)), as: UTF8.self)
    }

    @Test("every citation form is dropped and the prose around it stays", arguments: [2, 3])
    func citationsDropped(version: Int) async throws {
        let text = try await Self.spokenText(version: version)
        for (paragraph, citation) in Self.cited {
            #expect(!text.contains(citation), "EPUB \(version): \(citation) is still spoken")
            // The paragraph's first word stays (a name outside the brackets too).
            let opening = String(paragraph.prefix { $0 != " " })
            #expect(text.contains(opening), "EPUB \(version): \(opening) was lost")
        }
        #expect(text.contains("Okafor disagrees"))
        #expect(text.contains("It was new (a point disputed since)."))
        #expect(text.contains("Tides were measured daily and logged."), "\(text)")
        #expect(text.contains("Storms came in threes that winter."))
        for residue in ["(; )", "()", "(cf.)", "( )", " ,", " ."] {
            #expect(!text.contains(residue), "EPUB \(version): residue \(residue)")
        }
    }

    @Test("look-alikes of citations are heard", arguments: [2, 3])
    func lookAlikesKept(version: Int) async throws {
        let text = try await Self.spokenText(version: version)
        // Read as normalised for the ear: the numbers in words, the years as years.
        for phrase in [
            "interval [two, nine] seconds", "y[five]", "Titanic (nineteen ninety-seven)",
            "Reform Act (eighteen thirty-two)",
        ] {
            #expect(text.contains(phrase), "EPUB \(version): \(phrase) was lost")
        }
    }
}
