import Contracts

/// How many words of a book are read and how many are skipped, under the final decision of what to read.
public struct ReadingTotals: Hashable, Sendable {
    /// Words in the sections that are read.
    public var readWords: Int
    /// Sections that are read.
    public var readSections: Int
    /// Words in the sections that are skipped.
    public var skippedWords: Int
    /// Sections that are skipped.
    public var skippedSections: Int
    /// The letters of the sections that are read, by script (what their length is estimated from).
    public var readLetters = ScriptCensus()

    /// Counts `sections` by their `included` flag, whatever decided it (classifier, `--include`, `--chapters`).
    public init(sections: [BookSection]) {
        let read = sections.filter(\.included)
        readSections = read.count
        readWords = read.reduce(0) { $0 + max(0, $1.words) }
        skippedSections = sections.count - read.count
        skippedWords = sections.reduce(0) { $0 + ($1.included ? 0 : max(0, $1.words)) }
        for section in read { readLetters.add(section.letters) }
    }

    /// Minutes of speech of the sections read at `wordsPerMinute` (`SpeechDuration`).
    public func readMinutes(wordsPerMinute: Int = SpeechDuration.measuredRate) -> Double {
        SpeechDuration.minutes(words: readWords, letters: readLetters, wordsPerMinute: wordsPerMinute)
    }

    /// Every word of the book, read or skipped.
    public var totalWords: Int { readWords + skippedWords }
}

/// Skipped text large enough that a listener should hear about it before the audiobook is made: a
/// misclassified section can hold most of a book.
public enum SkippedTextWarning: Hashable, Sendable {
    /// One skipped section holds more than `SkippedText.largeSectionWords` words.
    case largeSection(number: Int, kind: SectionKind, words: Int)
    /// Skipped sections, none of them large alone, hold more than `SkippedText.largeShare` of the book's words.
    case largeShare(skippedWords: Int, skippedSections: Int, totalWords: Int)
}

/// The decision of which skipped text deserves a warning, kept apart from any rendering so it can be tested.
public enum SkippedText {
    /// A skipped section with more words than this is warned about on its own: about 17 minutes of
    /// audio at the default rate, more than any cover, copyright page or table of contents of a
    /// normal book holds, so the section is probably text the reader wants.
    public static let largeSectionWords = 3_000

    /// Skipped text above this share of the book's words is warned about even when no section is
    /// large alone (many small sections misread as front or back matter).
    public static let largeShare = 0.10

    /// The share rule applies only from this many skipped words: the front matter of a short story
    /// can be more than a tenth of it and is still only a few minutes of audio.
    public static let shareRuleMinimumWords = 1_000

    /// A licence section up to this many words counts for neither rule. The Project Gutenberg
    /// licence (about 3,200 words, sometimes cut in two or three sections) is skipped on purpose in
    /// every book that carries it, and a warning on every such book would teach users to ignore the
    /// warning that matters. A larger "licence" probably holds more than a licence.
    public static let licenseAllowanceWords = 5_000

    /// The warnings for `sections` (in reading order, `included` being the final decision).
    ///
    /// One `.largeSection` per skipped section above `largeSectionWords`, in reading order. When
    /// there is none and the skipped words are above `largeShare` of the book (and at least
    /// `shareRuleMinimumWords`), one `.largeShare` with the totals. Licence sections up to
    /// `licenseAllowanceWords` count for neither rule (the totals reported still hold them).
    /// Nothing skipped, nothing to say.
    public static func warnings(for sections: [BookSection]) -> [SkippedTextWarning] {
        let skipped = sections.filter { !$0.included }
        let large = skipped.filter { unexpectedWords(in: $0) > largeSectionWords }
        if !large.isEmpty {
            return large.map { .largeSection(number: $0.number, kind: $0.kind, words: $0.words) }
        }
        let totals = ReadingTotals(sections: sections)
        let unexpected = skipped.reduce(0) { $0 + unexpectedWords(in: $1) }
        guard unexpected >= shareRuleMinimumWords, Double(unexpected) > largeShare * Double(totals.totalWords)
        else { return [] }
        return [
            .largeShare(
                skippedWords: totals.skippedWords, skippedSections: totals.skippedSections,
                totalWords: totals.totalWords)
        ]
    }

    /// Words of a skipped section that may be text the reader wants: all of them, except in a licence
    /// of the usual size. Text read by the character (Chinese, Japanese, Korean) counts as the words
    /// of Latin text that take as long to speak (`SpeechDuration.wordEquivalent`).
    static func unexpectedWords(in section: BookSection) -> Int {
        guard section.kind != .license || section.words > licenseAllowanceWords else { return 0 }
        guard section.letters.characterTimedLetters > 0 else { return max(0, section.words) }
        return SpeechDuration.wordEquivalent(words: section.words, letters: section.letters)
    }
}
