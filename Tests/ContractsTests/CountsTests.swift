import Contracts
import Testing

/// Counts in messages (`Counts`): one way to say "1 voice", "2 voices", "2,013 sections".
@Suite struct CountsTests {
    @Test(
        "a count and its noun, singular for one only, thousands grouped",
        arguments: [
            (0, "voice", nil, "0 voices"), (1, "voice", nil, "1 voice"), (2, "chapter", nil, "2 chapters"),
            (1, "entry", "entries", "1 entry"), (3, "entry", "entries", "3 entries"),
            (2_013, "section", nil, "2,013 sections"), (1_418_226, "word", nil, "1,418,226 words"),
        ] as [(Int, String, String?, String)])
    func counted(count: Int, noun: String, plural: String?, expected: String) {
        #expect(Counts.of(count, noun, plural: plural) == expected)
    }

    @Test func groupedWhateverTheLocale() {
        #expect(Counts.grouped(999) == "999")
        #expect(Counts.grouped(1_000) == "1,000")
        #expect(Counts.grouped(-12_345) == "-12,345")
        #expect(Counts.grouped(Int.min).hasPrefix("-9,223,372"))
    }
}
