/// Where a piece of text sits in the book, which changes how a few forms are read.
public enum NormalizationContext: Sendable, Equatable {
    /// Paragraphs and other running text.
    case running
    /// A heading or a table-of-contents title: a Roman numeral that opens it is a cardinal
    /// ("IV. The Storm" → "Four. The Storm").
    case heading
}

/// Rewrites written forms into what a narrator says, before the text reaches the speech engine.
///
/// Numbers, years, decades, Roman numerals, currency, units, percentages, fractions, ranges, clock times, dates,
/// abbreviations and a few initialisms are spelled out in words by this module's own number code, so nothing
/// depends on the engine's number rules. Everything else passes through untouched: the normaliser never drops a
/// word it does not understand. See docs/normalization.md for the rules per language.
///
/// One pass over the text, one dictionary lookup per word: cheap enough to run over every word of a book.
public struct TextNormalizer: Sendable {
    /// The BCP 47 tag this normaliser was made for.
    public let language: String

    let rules: LanguageRules?
    let phrases: PhraseTable<PhraseValue>

    /// Creates a normaliser for a language.
    ///
    /// - Parameters:
    ///   - language: A BCP 47 tag: "en" (British rules), "en-GB", "en-US", "fr", "de", "es", "pt" (European
    ///     rules), "pt-BR", "it" and their regional variants. Other languages get only the user lexicon; their text
    ///     otherwise passes through unchanged.
    ///   - lexicon: User entries, applied before and over the built-in abbreviations.
    public init(language: String, lexicon: Lexicon = .empty) {
        self.language = language
        let rules = LanguageRules(tag: language)
        self.rules = rules
        var phrases: [Phrase<PhraseValue>] = []
        for abbreviation in rules?.data.abbreviations ?? [] {
            phrases.append(
                Phrase(
                    written: Array(abbreviation.written.unicodeScalars), caseInsensitive: false,
                    value: PhraseValue(abbreviation: abbreviation, isUser: false), priority: 0))
        }
        // Later user entries win: give each a higher priority than the ones before it.
        for (index, entry) in lexicon.entries.enumerated() {
            let abbreviation = Abbreviation(written: entry.written, spoken: entry.spoken)
            phrases.append(
                Phrase(
                    written: Array(entry.written.unicodeScalars), caseInsensitive: entry.caseInsensitive,
                    value: PhraseValue(abbreviation: abbreviation, isUser: true), priority: 1 + index))
        }
        self.phrases = PhraseTable(phrases)
    }

    /// Returns `text` with written forms replaced by spoken ones. Words it does not recognise are kept as they
    /// are, with the white space and punctuation around them.
    public func normalize(_ text: String, context: NormalizationContext = .running) -> String {
        if text.isEmpty || (rules == nil && phrases.isEmpty) { return text }
        var pass = NormalizationPass(text: text, rules: rules, phrases: phrases, context: context)
        return pass.run()
    }
}

/// What a phrase-table hit expands to.
struct PhraseValue: Sendable {
    var abbreviation: Abbreviation
    var isUser: Bool
}

/// A language's data, number words and unit table, resolved from a BCP 47 tag. A class so that the many
/// `guard let rules` in the pass share one reference instead of copying a dozen tables (immutable, so Sendable).
final class LanguageRules: Sendable {
    let speller: NumberSpeller
    let data: LanguageData
    let units: PhraseTable<UnitName>
    let isEnglish: Bool
    let isFrench: Bool
    let isGerman: Bool
    let isSpanish: Bool
    let isPortuguese: Bool
    let isItalian: Bool
    /// Cue words by written form: one lookup per word instead of one per table.
    let cueWords: [String: WordCue]
    /// The letters of the currencies written with letters and a sign ("R" of "R$", "US" of "US$").
    let currencyLetters: Set<String>

    init?(tag: String) {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let primary = parts.first else { return nil }
        let language: SupportedLanguage
        switch primary {
        case "en": language = .english(american: parts.dropFirst().contains("us"))
        case "fr": language = .french
        case "de": language = .german
        case "es": language = .spanish
        case "pt": language = .portuguese(brazilian: parts.dropFirst().contains("br"))
        case "it": language = .italian
        default: return nil
        }
        speller = NumberSpeller(language: language)
        switch language {
        case .english(let american): data = .english(american: american)
        case .french: data = .french()
        case .german: data = .german()
        case .spanish: data = .spanish()
        case .portuguese(let brazilian): data = .portuguese(brazilian: brazilian)
        case .italian: data = .italian()
        }
        units = PhraseTable(
            data.units.map {
                Phrase(written: Array($0.key.unicodeScalars), caseInsensitive: false, value: $0.value, priority: 0)
            })
        if case .english = language { isEnglish = true } else { isEnglish = false }
        if case .french = language { isFrench = true } else { isFrench = false }
        if case .german = language { isGerman = true } else { isGerman = false }
        if case .spanish = language { isSpanish = true } else { isSpanish = false }
        if case .portuguese = language { isPortuguese = true } else { isPortuguese = false }
        if case .italian = language { isItalian = true } else { isItalian = false }
        var cueWords: [String: WordCue] = [:]
        for word in data.yearCues {
            cueWords[word] = .year
            cueWords[capitalized(word)] = .year
            cueWords[word.uppercased()] = .year
        }
        for month in data.months.keys {
            cueWords[month] = .month
            cueWords[month.uppercased()] = .month
        }
        for word in data.cardinalCues {
            cueWords[word] = .cardinal
            cueWords[word.uppercased()] = .cardinal
        }
        for word in data.ordinalCues {
            cueWords[word] = .ordinal
            cueWords[word.uppercased()] = .ordinal
        }
        for word in data.feminineOrdinalCues {
            cueWords[word] = .ordinalFeminine
            cueWords[word.uppercased()] = .ordinalFeminine
        }
        self.cueWords = cueWords
        currencyLetters = Set(
            data.currencies.keys.filter { $0.unicodeScalars.count > 1 }.map { String($0.unicodeScalars.dropLast()) })
    }

    /// Whether ordinals are written with "º" and "ª" ("1º", "2.ª"), which also say their gender.
    var writesOrdinalIndicators: Bool { isSpanish || isPortuguese || isItalian }

    /// The month a word names, when it is an abbreviation with its period ("Mar" before ".").
    func monthAbbreviation(_ word: String) -> String? {
        data.monthAbbreviations[word] ?? data.monthAbbreviations[word.lowercased()]
    }
}

/// What a word says about the number or numeral after it.
enum WordCue: Sendable {
    case cardinal
    case ordinal
    case ordinalFeminine
    case year
    case month
}
