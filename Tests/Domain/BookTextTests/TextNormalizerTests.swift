import Testing

@testable import BookText

@Suite struct TextNormalizerTests {
    @Test(arguments: [
        ("ﬁne ﬂower", "fine flower"),
        ("co\u{00AD}operate", "cooperate"),
        ("  a \n\t b  ", "a b"),
        ("\u{201C}Hi,\u{201D} she said\u{2026}", "\"Hi,\" she said..."),
        ("wait\u{2014}what", "wait — what"),
        ("1914\u{2013}1918", "1914–1918"),
        ("non\u{00A0}breaking", "non breaking"),
    ])
    func normalizes(input: String, expected: String) {
        #expect(TextNormalizer.normalize(input) == expected)
    }

    @Test func countsWords() {
        #expect(TextNormalizer.wordCount("It was the best of times, it was 1775.") == 9)
        #expect(TextNormalizer.wordCount("") == 0)
    }

    @Test func countsWordsInOtherScripts() {
        #expect(TextNormalizer.wordCount("Ça coûte 12 €, ½ prix") == 5)  // "½" is a number
        #expect(TextNormalizer.wordCount("धर्मक्षेत्रे कुरुक्षेत्रे") == 7)  // a virama is not a letter: it splits words
        #expect(TextNormalizer.wordCount("吾輩は猫である。名前はまだ無い。") == 7)
    }

    @Test(arguments: [
        ("Ĳssel Œuvre", "ĳssel œuvre"), ("L'été — à Paris", "lete a paris"), ("  A-B  ", "a b"), ("", ""),
    ])
    func folds(input: String, expected: String) {
        #expect(TextNormalizer.fold(input) == expected)
    }

    /// Scalars the fast paths treat specially, next to scalars that join clusters (combining marks,
    /// viramas, joiners, prepended marks, emoji, regional indicators, Hangul jamo, CR LF).
    static let alphabet: [Unicode.Scalar] = (Array("aZ09 .,'\"()[]\t\n\r-").flatMap(\.unicodeScalars)
        + [0xA0, 0xAD, 0xA9, 0xBD, 0xC9, 0xDF, 0xE9, 0x132, 0x153, 0x2BC, 0x300, 0x301, 0x308, 0x3A3, 0x3C2, 0x416,
           0x483, 0x600, 0x644, 0x6DD, 0x915, 0x93E, 0x94D, 0x930, 0x902, 0xE33, 0x1100, 0x1161, 0x1680, 0x1E63,
           0x2003, 0x200B, 0x200C, 0x200D, 0x2014, 0x2019, 0x201C, 0x2026, 0x2028, 0x2060, 0x2212, 0x2E3A, 0x3000,
           0x3042, 0x732B, 0xFB01, 0xFE0F, 0xFEFF, 0xFF21, 0x1F1EB, 0x1F1F7, 0x1F44D, 0x1F3FD, 0x110BD]
            .map { Unicode.Scalar($0)! })

    /// Deterministic pseudo-random strings over `alphabet`.
    static func samples(count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<count).map { _ in
            var scalars = String.UnicodeScalarView()
            for _ in 0..<(next() % 24) { scalars.append(alphabet[next() % alphabet.count]) }
            return String(scalars)
        }
    }

    @Test func fastPathsMatchTheGeneralOnes() {
        for text in Self.samples(count: 4000, seed: 7) {
            #expect(TextNormalizer.normalize(text) == TextNormalizer.normalizeByCharacters(text), "\(text.debugDescription)")
            #expect(TextNormalizer.wordCount(text) == TextNormalizer.wordCountByProperties(text), "\(text.debugDescription)")
            // Byte-exact: folded text is searched byte by byte.
            #expect(Array(TextNormalizer.fold(text).utf8) == Array(TextNormalizer.foldByFoundation(text).utf8),
                    "\(text.debugDescription)")
        }
    }

    @Test func fastPathsMatchTheGeneralOnesOnEveryLatinAndPunctuationScalar() {
        let scalars = (0x20..<0x3000).compactMap(Unicode.Scalar.init(_:))
        for u in scalars {
            for text in ["x\(u)y", "\(u)", "A \(u)\u{301} b", "\(u)\u{94D}\u{915}"] {
                #expect(TextNormalizer.normalize(text) == TextNormalizer.normalizeByCharacters(text), "U+\(String(u.value, radix: 16))")
                #expect(TextNormalizer.wordCount(text) == TextNormalizer.wordCountByProperties(text))
                #expect(Array(TextNormalizer.fold(text).utf8) == Array(TextNormalizer.foldByFoundation(text).utf8),
                        "U+\(String(u.value, radix: 16))")
            }
        }
    }

    @Test func byteSearchAgreesWithFoundationOnFoldedText() {
        let phrases = ["project gutenberg", "copyright", "all rights reserved", "isbn", "ebook"]
        let texts = ["The Project Gutenberg eBook of Emma", "Copyright © 2001, all rights reserved. ISBN 0 14 043",
                     "Nothing to see here", "projectgutenberg", "é copyright"]
        for text in texts {
            let folded = TextNormalizer.fold(text)
            for phrase in phrases {
                #expect(folded.utf8.containsBytes(phrase) == folded.contains(phrase), "\(phrase) in \(folded)")
                #expect(text.utf8.containsBytesIgnoringASCIICase(phrase) == text.lowercased().contains(phrase))
            }
        }
    }

    @Test(arguments: [
        ("( see )", true), ("no bracket", false), ("(\u{301}", false), ("a (b\u{301}) (c)", true), ("\u{600}(", true),
    ])
    func findsAnASCIICharacterAsFoundationDoes(text: String, expected: Bool) {
        #expect(TextNormalizer.containsCharacter(text, ascii: "(") == text.contains("("))
        #expect(text.contains("(") == expected)
    }
}
