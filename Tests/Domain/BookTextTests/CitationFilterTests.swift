import Foundation
import Testing

@testable import BookText

@Suite struct CitationFilterTests {
    @Test(arguments: [
        ("Clocks drift (Smith, 2020).", "Clocks drift."),
        ("Known since (Okafor & Lindqvist 2019; Brandt et al., 2021a, p. 4) at least.", "Known since at least."),
        ("As shown (see Miller 1999, pp. 41-43), it works.", "As shown, it works."),
        ("Drums were common [12].", "Drums were common."),
        ("Several authors agree [3-5] on this.", "Several authors agree on this."),
        ("Two sources [1, 4] disagree.", "Two sources disagree."),
        ("It was reported (Brandt et al., 2021b).", "It was reported."),
        ("Text [Pg 12] continues.", "Text continues."),
        ("Cited twice (Smith 2020, 2021).", "Cited twice."),
    ])
    func removesCitations(input: String, expected: String) {
        #expect(CitationFilter.removeCitations(from: input) == expected)
    }

    /// Issue 12: every further citation form, and what remains of a parenthesis reads cleanly.
    @Test(arguments: [
        // An author outside the brackets keeps the name, loses the year and pages.
        ("as Lindqvist (1998, pp. 12–14) argued, it holds.", "as Lindqvist argued, it holds."),
        ("Okafor (2017) disagrees.", "Okafor disagrees."),
        ("Later, Okafor (2015a) found more.", "Later, Okafor found more."),
        ("Okafor (2015a, 2017) and Brandt (2003: 17) agree.", "Okafor and Brandt agree."),
        ("Brandt et al. (2021) replied.", "Brandt et al. replied."),
        ("Okafor and Lindqvist (2019) wrote it.", "Okafor and Lindqvist wrote it."),
        ("Lindqvist’s (1998) survey", "Lindqvist’s survey"),
        // ibid., op. cit., quoted in, institutions with volumes.
        ("The same holds (ibid.).", "The same holds."),
        ("The same holds (ibid., p. 4).", "The same holds."),
        ("The same holds (Ibid., pp. 4–6) too.", "The same holds too."),
        ("It was cold (Haddon, op. cit., p. 9).", "It was cold."),
        ("It was cold (Haddon, loc. cit.).", "It was cold."),
        ("As Haddon (op. cit., p. 9) says, it was cold.", "As Haddon says, it was cold."),
        ("A rumour (Varga, quoted in Keller 2010, 88) spread.", "A rumour spread."),
        ("Founded early (Royal Society 1902, vol. iii, pp. ix–xi).", "Founded early."),
        ("Founded early (see Royal Society 1902).", "Founded early."),
        // A citation after prose inside a parenthesis: the prose stays, with nothing left over.
        ("It was new (a point disputed since; cf. Brandt 2003, 17).", "It was new (a point disputed since)."),
        ("It was new (cf. Brandt 2003; a point disputed since).", "It was new (a point disputed since)."),
        ("It was new (a point disputed since, see Brandt 2003).", "It was new (a point disputed since)."),
        ("It was new (first noted by Okafor; Okafor 2017; ibid., p. 3).", "It was new (first noted by Okafor)."),
        // Numeric citations with a page.
        ("Drums were common [7, p. 22].", "Drums were common."),
        ("Drums were common [7, pp. 22–24].", "Drums were common."),
        ("Drums were common [3, 7, p. 22] here.", "Drums were common here."),
        // No residue when a numeric citation was all a parenthesis held.
        ("Drums were common ([12]).", "Drums were common."),
        ("Drums were common (see [12]).", "Drums were common."),
        ("Drums were common (cf. [3-5]) here.", "Drums were common here."),
    ])
    func removesEveryCitationForm(input: String, expected: String) {
        #expect(CitationFilter.removeCitations(from: input) == expected)
    }

    @Test(arguments: [
        "I built one in 1984, in the kitchen.",
        "She waited (as she always did, though she hated it) on the step.",
        "The war (1914–1918) changed everything.",
        "He lived there (in 1984) and left.",
        "She was born (Born 1952) in Leeds.",
        "See Chapter (i) of the appendix.",
        "It happened (May 1968) in Paris.",
        "Take the interval [0, 1] and halve it.",
        "The Smiths (who came in 1850) stayed.",
        "A value [sic] was printed.",
        "Described in (Chapter 3, p. 4) above.",
        // Issue 12: intervals and indexes are not citations.
        "Wait for the interval [2, 9] seconds.",
        "Pick a time in [2, 9] seconds.",
        "The range [10, 20] is closed.",
        "The array y[5] holds the sixth value.",
        "Read a[2] and b[10, 3] first.",
        "Let x ∈ [2, 9] be given.",
        // Names before a parenthesis that is not a bare year.
        "Dickens (1812–1870) wrote novels.",
        "The war (1914–1918) changed everything.",
        "Paris (in 1968) was loud.",
        "The Reform Act (1832) widened the vote.",
        "It happened in June (1998) as planned.",
        "The film (1998) was long.",
        // A year after the title of a work, not after an author.
        "We saw the film Titanic (1997) twice.",
        "Cameron's Titanic (1997) was long.",
        "In the novel Emma (1815) she meddles.",
        "They sailed on the Titanic (1912) once.",
        "Ibid is not a word here (nor is ibidem).",
        "He wrote (as Varga did in 2010) a letter.",
    ])
    func keepsLookAlikes(input: String) {
        #expect(CitationFilter.removeCitations(from: input) == input)
    }

    /// Strings over the characters the byte pre-checks look at, and characters that join them.
    static func pieces(count: Int, seed: UInt64) -> [String] {
        let alphabet = [
            "(", ")", "[", "]", " ", "\t", "n", "N", ".", "d", "D", "1", "0", "Pg", "p.", "S.", "ſ", "a",
            "Smith", ",", "\u{301}", "\u{A0}", "१", "क", "\u{94D}", "\u{600}", "et al",
            "स", "वै", "\u{93E}", "\u{2003}", "\u{966}", "ibid", "iBiD", "cit.", "CIT", "i", "b",
        ]
        var state = seed
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<count).map { _ in (0..<(next() % 16)).map { _ in alphabet[next() % alphabet.count] }.joined() }
    }

    @Test func bytePreChecksNeverMissAMatch() {
        var skipped = 0
        for text in Self.pieces(count: 20000, seed: 3) {
            let ns = text as NSString
            let range = NSRange(location: 0, length: ns.length)
            for (regex, isPageMarker) in [(CitationFilter.pageMarker, true), (CitationFilter.numeric, false)]
            where !CitationFilter.mayMatchAfterBracket(text, pageMarker: isPageMarker) {
                skipped += 1
                #expect(regex.firstMatch(in: text, range: range) == nil, "\(text.debugDescription)")
            }
            if !CitationFilter.mayHaveAuthorYear(text) {
                skipped += 1
                // What `isAuthorYear` needs in each parenthesis `removeAuthorYear` looks at.
                var index = text.startIndex
                while let open = text[index...].firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") {
                    let inner = text[text.index(after: open)..<close]
                    #expect(!CitationFilter.mayBeCitation(inner), "\(text.debugDescription)")
                    index = text.index(after: open)
                }
            }
        }
        #expect(skipped > 5000)  // the checks do skip work
    }
}
