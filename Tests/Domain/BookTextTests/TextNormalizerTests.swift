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
}
