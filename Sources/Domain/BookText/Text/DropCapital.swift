/// A drop capital set in an element of its own, and whether the paragraph after it continues its word.
enum DropCapital {
    /// One capital letter, maybe after an opening quote: a drop capital set in an element of its own
    /// ("<div class='dropcap'>T</div><p>HE day…"), or a line of a title page ("A", "I").
    static func isDropCapital(_ text: String) -> Bool {
        // A capital and a quote or two: a few bytes (every paragraph passes here; counting its
        // characters cost a tenth of indexing a long book).
        guard text.utf8.count <= 12 else { return false }
        let letters = text.drop { "\"'«‹¿¡(".contains($0) }
        return letters.count == 1 && letters.allSatisfy { $0.isLetter && $0.isUppercase }
    }

    /// The fewest words of the paragraph a drop capital opens: a chapter's first paragraph is prose,
    /// where the lines after a title page's "A" or "BY" are a few words.
    static let fewestWordsAfterDropCapital = 8

    /// Whether `text` (a paragraph) goes on with the word that `capital` (`isDropCapital`) begins:
    /// it starts with a small letter ("T" + "he day"), or with a word in capitals ("T" + "HE day",
    /// the first word set in small capitals), and is prose. A Roman numeral letter ("I", "V", "X")
    /// followed by a word in capitals is a section number over a paragraph that opens in capitals,
    /// unless the letter floats as a drop capital does.
    static func continuesWord(_ text: String, after capital: String, floated: Bool) -> Bool {
        guard let first = text.first, first.isLetter, first.isLowercase || first.isUppercase,
            TextMeasure.wordCount(text) >= fewestWordsAfterDropCapital
        else { return false }
        if first.isLowercase { return true }
        let word = text.prefix(while: \.isLetter)
        guard word.allSatisfy(\.isUppercase) else { return false }
        return floated || !capital.allSatisfy { !$0.isLetter || "IVXLCDM".contains($0) }
    }
}
