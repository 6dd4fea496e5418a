import Normalization

/// The number a title gives its chapter: "Chapter 5", "Chapter V", "Chapter Twenty-One",
/// "Chapitre 5", "Kapitel 8", "Capítulo 1", "Глава 3", "第五章", "1 Introduction" (bookdown, Quarto
/// and Sphinx number every chapter), or a title that is a Roman numeral alone ("IV").
///
/// What places a section in the run of the chapters around it: a section numbered 6 between
/// chapters 5 and 7 is one of them, whatever else it is marked or named.
enum ChapterNumbers {
    /// A title's place in a numbered run: what it numbers, and its number.
    struct Numbering: Equatable, Sendable {
        /// `chapterLabel` for every way of numbering a chapter above; otherwise the words a title
        /// puts before its numbers, folded ("poem" of "Poem 6", "canto" of "Canto III", "act scene"
        /// of "Act II, Scene 3"): a run of poems is a run only with poems around it.
        var label: String
        /// The outer number of a title that numbers two levels ("Act II, Scene 3": 2), else nil.
        var outer: Int? = nil
        var number: Int

        /// Whether `next` comes right after this in a run: the next number, or the first under
        /// the next outer number (Act I, Scene 2 → Act II, Scene 1).
        func isFollowed(by next: Numbering) -> Bool {
            guard next.label == label else { return false }
            if next.outer == outer { return next.number == number + 1 }
            guard let outer, next.outer == outer + 1 else { return false }
            return next.number == 1
        }

        /// "6", or "2.3" for two levels.
        var description: String { outer.map { "\($0).\(number)" } ?? String(number) }
    }

    /// The label of the chapters' own numbering.
    static let chapterLabel = "chapter"

    /// How `title` numbers its section: as a chapter (`number(inTitle:)`), as "Word N", or as
    /// "Word N, Word N", with Arabic or Roman numbers; nil when it does not.
    static func numbering(inTitle title: String) -> Numbering? {
        if let number = number(inTitle: title) { return Numbering(label: chapterLabel, number: number) }
        let words = TextFold.fold(title).split(separator: " ").map(String.init)
        func isLabel(_ word: String) -> Bool { word.count > 1 && word.allSatisfy(\.isLetter) }
        switch words.count {
        case 2:
            guard isLabel(words[0]), let number = numeral(words[1]) else { return nil }
            return Numbering(label: words[0], number: number)
        case 4:
            guard isLabel(words[0]), isLabel(words[2]), let outer = numeral(words[1]), let number = numeral(words[3])
            else { return nil }
            return Numbering(label: words[0] + " " + words[2], outer: outer, number: number)
        default:
            return nil
        }
    }

    /// An Arabic number from 1 to 9,999, or a Roman numeral (folded).
    private static func numeral(_ word: String) -> Int? {
        Int(word).flatMap { $0 > 0 && $0 < 10_000 ? $0 : nil } ?? romanValue(word)
    }

    /// The chapter number `title` gives, or nil.
    static func number(inTitle title: String) -> Int? {
        let folded = TextFold.fold(title)
        if let number = Patterns.leadingNumber(title) { return number }
        if let number = chineseChapterNumber(folded) { return number }
        let words = folded.split(separator: " ").map(String.init)
        guard let first = words.first else { return nil }
        if words.count == 1 { return romanValue(first) }
        guard chapterWords.contains(first) else { return nil }
        let rest = Array(words.dropFirst())
        return Int(rest[0]).flatMap { $0 > 0 && $0 < 10_000 ? $0 : nil } ?? romanValue(rest[0]) ?? englishNumber(rest)
    }

    /// Words that name a chapter before its number, folded: English, French, German, Spanish,
    /// Italian, Portuguese, Dutch, Danish, Norwegian, Swedish, Polish, Russian.
    static let chapterWords: Set<String> = [
        "chapter", "chap", "ch", "chapitre", "kapitel", "capitulo", "capitolo", "cap", "hoofdstuk", "kapittel",
        "rozdzial", "глава",
    ]

    /// The value of a lower-case Roman numeral up to 3,999 written the usual way ("xiv", not
    /// "xiiii"); nil for anything else.
    static func romanValue(_ word: String) -> Int? { RomanNumerals.value(of: word, lowercase: true) }

    /// "one" to "ninety-nine" in English words (folded, so "twenty one"), from the first words of
    /// `words`; nil when they do not start with one.
    static func englishNumber(_ words: [String]) -> Int? {
        let units = [
            "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
        ]
        let tens = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        guard let first = words.first else { return nil }
        if let unit = units.firstIndex(of: first) { return unit + 1 }
        guard let ten = tens.firstIndex(of: first) else { return nil }
        let value = (ten + 2) * 10
        if words.count > 1, let unit = units.prefix(9).firstIndex(of: words[1]) { return value + unit + 1 }
        return value
    }

    /// The number of a Chinese chapter title, "第五章" or "第二十一回" (chapters of a classic novel),
    /// in Chinese or Arabic numerals.
    static func chineseChapterNumber(_ folded: String) -> Int? {
        guard folded.hasPrefix("第") else { return nil }
        let body = folded.dropFirst().prefix { $0 != "章" && $0 != "回" && $0 != " " }
        let after = folded.dropFirst(1 + body.count).first
        guard after == "章" || after == "回", !body.isEmpty else { return nil }
        if let arabic = Int(body) { return arabic }
        return chineseNumeral(body)
    }

    /// 一 to 九千九百九十九: "十一" 11, "二十" 20, "一百零五" 105; digits without units are
    /// positional, as some editions number chapters: "一一" 11, "一〇" 10.
    private static func chineseNumeral(_ text: Substring) -> Int? {
        let digits: [Character: Int] = [
            "零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
        ]
        let units: [Character: Int] = ["十": 10, "百": 100, "千": 1000]
        if text.count > 1, text.count <= 4, text.allSatisfy({ digits[$0] != nil }) {
            let value = text.reduce(0) { $0 * 10 + digits[$1]! }
            return value > 0 ? value : nil
        }
        var total = 0
        var pending: Int?
        for character in text {
            if let digit = digits[character] {
                pending = digit
            } else if let unit = units[character] {
                total += (pending ?? 1) * unit
                pending = nil
            } else {
                return nil
            }
        }
        total += pending ?? 0
        return total > 0 ? total : nil
    }
}
