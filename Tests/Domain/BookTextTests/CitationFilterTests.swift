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
    ])
    func keepsLookAlikes(input: String) {
        #expect(CitationFilter.removeCitations(from: input) == input)
    }

    /// Strings over the characters the byte pre-checks look at, and characters that join them.
    static func pieces(count: Int, seed: UInt64) -> [String] {
        let alphabet = ["(", ")", "[", "]", " ", "\t", "n", "N", ".", "d", "D", "1", "0", "Pg", "p.", "S.", "ſ", "a",
                        "Smith", ",", "\u{301}", "\u{A0}", "१", "क", "\u{94D}", "\u{600}", "et al",
                        "स", "वै", "\u{93E}", "\u{2003}", "\u{966}"]
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
                    #expect(!inner.contains(where: \.isNumber) && !inner.lowercased().contains("n.d"),
                            "\(text.debugDescription)")
                    index = text.index(after: open)
                }
            }
        }
        #expect(skipped > 5000)  // the checks do skip work
    }
}
