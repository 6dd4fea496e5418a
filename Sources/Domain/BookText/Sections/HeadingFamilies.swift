import Contracts

/// Finds chapter headings that a book wrote as ordinary paragraphs.
///
/// Converters from plain text (calibre, Project Gutenberg's text-to-EPUB path) often leave chapter
/// titles as `<p>` lines: "Toinen runo", "CHAPTER IV", "第一二回 …". Such lines form a *family*:
/// short standalone lines, mostly different from one another, that share a key word at their start
/// or end once numbers are masked ("chapter #", "第#回", "… runo"), and that lie far apart because a
/// chapter runs between them. A refrain or a speaker's name in a play shares a word too, but it
/// repeats the same line or comes back within a few lines: the distinctness and spacing rules reject
/// it. Nothing here knows a language: the key is whatever word the family shares.
///
/// A converter that keeps a heading's style writes every heading as a paragraph of one class that
/// no other paragraph has (`<p class="block_1">Cold Orchard</p>`): such a class is a key too, and a
/// family of it may hold front matter headings close together ("Copyright", "Dedication") as long
/// as most of its members lie a chapter apart.
enum HeadingFamilies {
    /// A heading line is at most this many characters (a CJK title couplet fits; a sentence does not).
    static let maximumLineCharacters = 60
    /// ... and at most this many words.
    static let maximumLineWords = 8
    /// A family needs at least this many lines (two lines are a coincidence).
    static let minimumMembers = 3
    /// Consecutive members are at least this many words apart: a chapter, not a stanza, lies between.
    static let minimumGapWords = 100
    /// At least this share of a family's lines differ from each other (ordinals, names).
    static let minimumDistinctShare = 0.9
    /// At least this share of the gaps between a class family's members are `minimumGapWords` or more.
    static let minimumClassFamilyFarShare = 0.75

    /// One candidate line: where it is and what it says.
    struct Line: Sendable {
        var position: SourcePosition
        var text: String
        /// Words of the book before this line (its place in the text, for spacing).
        var wordOffset: Int
        /// The line's class when no other paragraph of the book has it, else nil.
        var headingClass: String? = nil
    }

    /// The family that best looks like the book's chapter headings, in reading order, or nil.
    ///
    /// `lines` are the candidate lines of the book in reading order (see `isCandidate`).
    static func chapterHeadings(in lines: [Line]) -> [Line]? {
        var families: [String: [Int]] = [:]
        for (index, line) in lines.enumerated() {
            for key in keys(of: line.text) { families[key, default: []].append(index) }
            if let headingClass = line.headingClass { families["class:" + headingClass, default: []].append(index) }
        }
        var best: [Int]?
        for key in families.keys.sorted() {
            let members = families[key]!
            guard isChapterFamily(members.map { lines[$0] }, sharingAClass: key.hasPrefix("class:")) else { continue }
            if best == nil || members.count > best!.count { best = members }
        }
        return best.map { $0.map { lines[$0] } }
    }

    /// Whether a block's text could be a heading line: short, not a sentence, not dialogue.
    /// `words`, when the caller has counted them already, saves counting again (this runs on every block).
    static func isCandidate(_ text: String, words: Int? = nil) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 4 * maximumLineCharacters,
            TextMeasure.characterCount(text, atMost: maximumLineCharacters + 1) <= maximumLineCharacters
        else { return false }
        guard (words ?? TextMeasure.wordCount(text)) <= maximumLineWords || containsIdeographs(text) else {
            return false
        }
        // Scalars, not characters: this runs on every short block of the book.
        let scalars = text.unicodeScalars
        if let first = scalars.first, openingQuotes.contains(first) { return false }
        guard let last = scalars.reversed().first(where: { !closingQuotes.contains($0) }) else { return false }
        guard sentenceEnds.contains(last) else { return true }
        // "Chapter IV.", "II.", "THE RETURN.": a chapter word with its number, or a line in
        // capitals, keeps its period; a short sentence ("He left.", "Il jubilait." — whose "Il" reads
        // as a roman numeral) does not make a heading.
        return last == "." && (Patterns.isExplicitChapterTitle(text) || !scalars.contains { $0.properties.isLowercase })
    }

    // MARK: family rules

    static func isChapterFamily(_ members: [Line], sharingAClass: Bool = false) -> Bool {
        guard members.count >= minimumMembers else { return false }
        let distinct = Set(members.map { TextFold.fold($0.text) }).count
        guard Double(distinct) >= minimumDistinctShare * Double(members.count) else { return false }
        let gaps = zip(members, members.dropFirst()).map { $1.wordOffset - $0.wordOffset }
        let far = gaps.filter { $0 >= minimumGapWords }.count
        if sharingAClass { return Double(far) >= minimumClassFamilyFarShare * Double(gaps.count) }
        return far == gaps.count
    }

    /// Keys a line can share with others: its first word and its last word, numbers masked.
    static func keys(of text: String) -> [String] {
        let words = text.split(whereSeparator: { $0.isWhitespace })
        guard let first = words.first else { return [] }
        var out = ["first:" + mask(first)]
        // A last word that is only a number ("Book 4") says less than the first: keep it anyway, the
        // distinctness and spacing rules decide.
        if words.count > 1, let last = words.last { out.append("last:" + mask(last)) }
        return out
    }

    /// Folds a word and masks numbers: "IV." → "#", "第一二回" → "第#回", "Chapter" → "chapter".
    static func mask(_ word: Substring) -> String {
        let folded = TextFold.fold(String(word))
        if folded.isEmpty { return "" }
        if Patterns.isNumeral(folded) { return "#" }
        var out = ""
        var lastWasNumber = false
        for ch in folded {
            let isNumber = ch.isNumber || ideographicNumerals.contains(ch)
            if isNumber {
                if !lastWasNumber { out.append("#") }
            } else if ch != " " {
                out.append(ch)
            }
            lastWasNumber = isNumber
        }
        return out
    }

    private static let ideographicNumerals: Set<Character> = Set("一二三四五六七八九十百千零〇○两兩廿卅")
    private static let sentenceEnds: Set<Unicode.Scalar> = Set(".,;:!?…。，；：！？、".unicodeScalars)
    private static let openingQuotes: Set<Unicode.Scalar> = Set("\"“„«‘'‹「『—-".unicodeScalars)
    private static let closingQuotes: Set<Unicode.Scalar> = Set("\"”»’'›」』".unicodeScalars)

    private static func containsIdeographs(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x3400...0x9FFF).contains($0.value) || (0xF900...0xFAFF).contains($0.value) }
    }
}
