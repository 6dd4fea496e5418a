import Foundation
import Testing

@testable import BookText

@Suite struct TextCleanerTests {
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
        #expect(TextCleaner.normalize(input) == expected)
    }

    /// Issue 31: a speech engine reads an emoji's name ("speaker high volume"), never the book's text.
    @Test(arguments: [
        ("🔊 Listen", "Listen"), ("Read ⭐ this", "Read this"), ("Call ☎️ now", "Call now"), ("Flags 🇫🇷🇩🇪", "Flags"),
        ("Thumbs 👍🏽 up", "Thumbs up"), ("© 2020", "© 2020"), ("Press 1️⃣", "Press 1️⃣"), ("a → b", "a → b"),
    ])
    func pictographsAreNeverSpoken(input: String, expected: String) {
        #expect(TextCleaner.normalize(input) == expected)
        #expect(TextCleaner.normalizeByCharacters(input) == expected)
    }

    @Test func countsWords() {
        #expect(TextMeasure.wordCount("It was the best of times, it was 1775.") == 9)
        #expect(TextMeasure.wordCount("") == 0)
    }

    @Test func countsWordsInOtherScripts() {
        #expect(TextMeasure.wordCount("Ça coûte 12 €, ½ prix") == 5)  // "½" is a number
        #expect(TextMeasure.wordCount("धर्मक्षेत्रे कुरुक्षेत्रे") == 7)  // a virama is not a letter: it splits words
        #expect(TextMeasure.wordCount("吾輩は猫である。名前はまだ無い。") == 7)
    }

    @Test(arguments: [
        ("Ĳssel Œuvre", "ĳssel œuvre"), ("L'été — à Paris", "lete a paris"), ("  A-B  ", "a b"), ("", ""),
    ])
    func folds(input: String, expected: String) {
        #expect(TextFold.fold(input) == expected)
    }

    /// Scalars the fast paths treat specially, next to scalars that join clusters (combining marks,
    /// viramas, joiners, prepended marks, emoji, regional indicators, Hangul jamo, CR LF).
    static let alphabet: [Unicode.Scalar] =
        (Array("aZ09 .,'\"()[]\t\n\r-").flatMap(\.unicodeScalars)
            + [
                0xA0, 0xAD, 0xA9, 0xBD, 0xC9, 0xDF, 0xE9, 0x132, 0x153, 0x2BC, 0x300, 0x301, 0x308, 0x3A3, 0x3C2, 0x416,
                0x483, 0x600, 0x644, 0x6DD, 0x915, 0x93E, 0x94D, 0x930, 0x902, 0xE33, 0x1100, 0x1161, 0x1680, 0x1E63,
                0x2003, 0x200B, 0x200C, 0x200D, 0x2014, 0x2019, 0x201C, 0x2026, 0x2028, 0x2060, 0x2212, 0x2E3A, 0x3000,
                0x3042, 0x732B, 0xFB01, 0xFE0F, 0xFEFF, 0xFF21, 0x1F1EB, 0x1F1F7, 0x1F44D, 0x1F3FD, 0x110BD,
                0x1F50A, 0x2B50, 0x2764, 0x2190, 0x231A, 0x1F468, 0x20E3, 0xE0067,
            ]
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
            #expect(TextCleaner.normalize(text) == TextCleaner.normalizeByCharacters(text), "\(text.debugDescription)")
            #expect(TextMeasure.wordCount(text) == TextMeasure.wordCountByProperties(text), "\(text.debugDescription)")
            // Byte-exact: folded text is searched byte by byte.
            #expect(
                Array(TextFold.fold(text).utf8) == Array(TextFold.foldByFoundation(text).utf8),
                "\(text.debugDescription)")
        }
    }

    @Test func textFoundNormalizedIsWhatTheGeneralPathMakes() {
        // Mostly plain text, where the check answers most: letters, single spaces, dots, Devanagari,
        // and the scalars around a space that join it to a cluster.
        let plain: [Unicode.Scalar] =
            Array("ab .,".unicodeScalars) + [0x915, 0x94D, 0x301, 0x600, 0xE9, 0x110BD].map { Unicode.Scalar($0)! }
        var state: UInt64 = 11
        var found = 0
        for _ in 0..<20_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<12 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                scalars.append(plain[Int(truncatingIfNeeded: state >> 33) % plain.count])
            }
            let text = String(scalars)
            if TextCleaner.isNormalized(text) {
                found += 1
                #expect(TextCleaner.normalizeByCharacters(text) == text, "\(text.debugDescription)")
            }
        }
        #expect(found > 1_000, "the check answers for ordinary text")
        #expect(TextCleaner.isNormalized("The king spoke. कथं शिखण्डी"))
        #expect(!TextCleaner.isNormalized("wait. . . then") && !TextCleaner.isNormalized(" lead"))
    }

    @Test func fastPathsMatchTheGeneralOnesOnEveryLatinAndPunctuationScalar() {
        let scalars = (0x20..<0x3000).compactMap(Unicode.Scalar.init(_:))
        for u in scalars {
            for text in ["x\(u)y", "\(u)", "A \(u)\u{301} b", "\(u)\u{94D}\u{915}"] {
                #expect(
                    TextCleaner.normalize(text) == TextCleaner.normalizeByCharacters(text),
                    "U+\(String(u.value, radix: 16))")
                #expect(TextMeasure.wordCount(text) == TextMeasure.wordCountByProperties(text))
                #expect(
                    Array(TextFold.fold(text).utf8) == Array(TextFold.foldByFoundation(text).utf8),
                    "U+\(String(u.value, radix: 16))")
            }
        }
    }

    @Test func byteSearchAgreesWithFoundationOnFoldedText() {
        let phrases = ["project gutenberg", "copyright", "all rights reserved", "isbn", "ebook"]
        let texts = [
            "The Project Gutenberg eBook of Emma", "Copyright © 2001, all rights reserved. ISBN 0 14 043",
            "Nothing to see here", "projectgutenberg", "é copyright",
        ]
        for text in texts {
            let folded = TextFold.fold(text)
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
        #expect(TextCleaner.containsCharacter(text, ascii: "(") == text.contains("("))
        #expect(text.contains("(") == expected)
    }

    /// Words for `foldForSearchKeepsMatches`: Devanagari words (with marks, viramas, nuktas,
    /// digits, dandas), words that mix scripts, ASCII words of the searched phrases, punctuation.
    static let searchWords: [String] = [
        "धर्मक्षेत्रे", "कुरुक्षेत्रे", "क़ि", "।", "॥", "१२३", "ॐ", "\u{93E}क", "क\u{301}", "कa", "aक", "क।", "।क",
        "all", "rights", "reserved", "copyright", "©", "isbn", "978-0-14", "0", "14", "043", "project", "gutenberg",
        "end", "of", "the", "this", "start", "ebook", "license", "terms", "É", "(", "-", "", "\u{301}", "\u{94D}",
        "e\u{301}", "\u{FEFF}", "Ａ", "ﬁrst", "published",
    ]

    @Test func foldForSearchKeepsMatches() throws {
        let phrases = [
            "copyright", "all rights reserved", "project gutenberg", "end of project gutenberg",
            "start of the project gutenberg", "isbn", "first published", "ebook", "0 14", "a", "k", "a ", " a",
        ]
        let isbn = #"isbn(?:[ -]?1[03])?[: ]*[0-9][0-9 -]{8,}"#
        var state: UInt64 = 11
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var replaced = 0
        for _ in 0..<6000 {
            let words = (0..<(next() % 10)).map { _ in Self.searchWords[next() % Self.searchWords.count] }
            let text = words.joined(separator: next() % 5 == 0 ? "  " : " ")
            let exact = TextFold.fold(text)
            let fast = TextFold.foldForASCIISearch(text)
            if exact != fast { replaced += 1 }
            for phrase in phrases {
                #expect(exact.utf8.containsBytes(phrase) == fast.utf8.containsBytes(phrase), "\(phrase) in \(text)")
            }
            #expect(exact.hasPrefix("end of") == fast.hasPrefix("end of"), "\(text)")
            let exactISBN = exact.range(of: isbn, options: .regularExpression).map { String(exact[$0]) }
            let fastISBN = fast.range(of: isbn, options: .regularExpression).map { String(fast[$0]) }
            #expect(exactISBN == fastISBN, "\(text)")
        }
        #expect(replaced > 1000)  // the replacement did happen
    }

    @Test func devanagariFoldsToNoASCIILetterOrDigit() {
        for v in UInt32(0x900)...0x97F {
            let u = Unicode.Scalar(v)!
            let folded = TextFold.fold(String(u))
            #expect(!folded.utf8.contains { $0 < 0x80 && $0 != 0x20 }, "U+\(String(v, radix: 16))")
            if TextFold.isDevanagariLetterOrDigit(v) {
                #expect(u.properties.isAlphabetic || u.properties.numericType != nil)
                #expect(!folded.isEmpty && !folded.contains(" "), "U+\(String(v, radix: 16))")
                #expect(("a " + String(u)).count == 3)  // a character of its own after a space
            }
        }
    }

    @Test func countsCharactersAsTheStandardLibraryDoes() {
        var alphabet = (UInt32(0x900)..<0x980).map { Unicode.Scalar($0)! }
        alphabet += [
            0x20, 0x41, 0x2E, 0xE9, 0xA9, 0x2014, 0x2026, 0x200D, 0x200C, 0x0A, 0x0D, 0x301, 0x1CD0, 0xA8E0,
            0x600, 0x1F44D,
        ].map { Unicode.Scalar($0)! }
        var state: UInt64 = 5
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<60000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<(next() % 12) { scalars.append(alphabet[next() % alphabet.count]) }
            let text = String(scalars)
            #expect(TextMeasure.characterCount(text, atMost: 5) == min(text.count, 5))
            #expect(
                TextMeasure.characterCount(text) == text.count,
                "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for a in alphabet { for b in alphabet { #expect(TextMeasure.characterCount("\(a)\(b)") == "\(a)\(b)".count) } }
        #expect(TextMeasure.characterCount("धर्मक्षेत्रे कुरुक्षेत्रे, said he.") == "धर्मक्षेत्रे कुरुक्षेत्रे, said he.".count)
    }
}
