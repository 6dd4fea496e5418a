// The data each language contributes: abbreviations, units, currencies and the words that tell a number or a
// Roman numeral what it is. One file per language fills this in; the rules in NormalizationPass*.swift read it.

/// What the word before a number or numeral says about it.
enum Cue: UInt8, Sendable {
    case none
    /// "Chapter", "ch.", "Vol.": a following Roman numeral is a cardinal.
    case cardinal
    /// "in", "since", "c.": a following four-digit number is a year.
    case year
    /// Italian "Capitolo", Portuguese "Capítulo": a following Roman numeral is the ordinal the language reads
    /// after a noun ("Capitolo quarto", "Capítulo quarto").
    case ordinal
    /// The same after a feminine noun ("Parte seconda", "Parte segunda").
    case ordinalFeminine

    /// Whether a Roman numeral after it is a number (read as a cardinal or an ordinal), not a letter or a word.
    var countsNumerals: Bool { self == .cardinal || self == .ordinal || self == .ordinalFeminine }
}

/// A built-in abbreviation or initialism and when it applies.
struct Abbreviation: Sendable {
    enum Condition: Sendable {
        /// Always expanded ("e.g.", "Mr.").
        case always
        /// Only before a number or Roman numeral ("p. 3", "No. 3", "ch. IV"); "No." alone is left alone.
        case beforeNumber
        /// Only before digits ("No. 3"; not "No. I won't").
        case beforeDigits
        /// Only before a capitalised word ("M. Dupont").
        case beforeName
        /// "St.": Saint before a name, Street after one.
        case saintOrStreet
    }

    var written: String
    var spoken: String
    var condition: Condition = .always
    var cue: Cue = .none
    /// Its final period may also end the sentence ("etc.", "a.m."): the period is kept before a capitalised
    /// word, a line break or the end of the text.
    var mayEndSentence = false

    /// A title or word that is always expanded and never ends a sentence ("Dr." → "Doctor").
    static func word(_ written: String, _ spoken: String) -> Abbreviation {
        Abbreviation(written: written, spoken: spoken)
    }

    /// Always expanded; may end a sentence ("etc.").
    static func final(_ written: String, _ spoken: String) -> Abbreviation {
        Abbreviation(written: written, spoken: spoken, mayEndSentence: true)
    }

    /// Expanded before a number or numeral only, which it then counts ("ch. 4", "Vol. II").
    static func numbered(_ written: String, _ spoken: String, cue: Cue = .cardinal) -> Abbreviation {
        Abbreviation(written: written, spoken: spoken, condition: .beforeNumber, cue: cue)
    }

    /// Expanded before digits only, which it then counts ("No. 3").
    static func counted(_ written: String, _ spoken: String) -> Abbreviation {
        Abbreviation(written: written, spoken: spoken, condition: .beforeDigits, cue: .cardinal)
    }

    /// Expanded before a capitalised word only ("M. Dupont").
    static func title(_ written: String, _ spoken: String) -> Abbreviation {
        Abbreviation(written: written, spoken: spoken, condition: .beforeName)
    }
}

/// How to say a unit after one and after several.
struct UnitName: Sendable {
    var singular: String
    var plural: String
    /// A feminine noun: Portuguese "uma tonelada", "duas toneladas"; Italian "una tonnellata".
    var feminine = false
}

/// How to say a currency: the main unit and the hundredth.
struct CurrencyName: Sendable {
    var singular: String
    var plural: String
    var minorSingular: String
    var minorPlural: String
    /// A feminine noun: Portuguese "uma libra", Italian "una sterlina".
    var feminine = false
}

/// Everything a language contributes besides its number words.
struct LanguageData: Sendable {
    var abbreviations: [Abbreviation] = []
    /// Unit symbols as written after a number ("km", "°C", "%", "km/h").
    var units: [String: UnitName] = [:]
    /// Currency signs ("$", "€"), and signs written as letters and a sign ("R$", "US$").
    var currencies: [String: CurrencyName] = [:]
    /// Words after which a Roman numeral is a cardinal, as capitalised in running text ("Chapter").
    var cardinalCues: Set<String> = []
    /// Words after which a Roman numeral is the ordinal the language reads after a noun, as written
    /// ("Capitolo", "capitolo"): Italian and Portuguese. `feminineOrdinalCues` for feminine nouns ("Parte").
    var ordinalCues: Set<String> = []
    var feminineOrdinalCues: Set<String> = []
    /// Words before which a Roman numeral is an ordinal (Italian "il XIX secolo" → "il diciannovesimo secolo").
    var ordinalBeforeWords: Set<String> = []
    /// Words after which a four-digit number is a year, lower-cased ("in", "since").
    var yearCues: Set<String> = []
    /// Words that carry a year on to the next number ("1914 to 1918", "between 1850 and 1860").
    var yearLinks: Set<String> = []
    /// Lower-case words after a four-digit number that leave it a year ("1850 was"); any other lower-case
    /// word makes it a count ("1850 soldiers").
    var yearFollowers: Set<String> = []
    /// Plural nouns that do not end in a plain "-s" ("men", "people"), lower-cased: after a four-digit number
    /// they make it a count.
    var irregularPlurals: Set<String> = []
    /// Lower-case words in "-s" that are not plurals ("census", "series"): after a four-digit number they leave
    /// it a year.
    var singularsInS: Set<String> = []
    /// Adjectives that sit between a count and its noun ("1907 new recruits"), lower-cased.
    var quantityModifiers: Set<String> = []
    /// Words after a number that make it a year ("BC", "AD").
    var eraWords: Set<String> = []
    /// Month names as written, to their number.
    var months: [String: Int] = [:]
    /// Months abbreviated with a period, as written before the period ("Mar", "janv", "Jan"), to the month's
    /// full name. Read as the month only next to a day or a year ("Mar. 3, 1841", "3 janv. 1841"), never
    /// alone ("In Mar." stays).
    var monthAbbreviations: [String: String] = [:]
    /// The word dates put between day, month and year, if any (Spanish and Portuguese "3 de ene. de 1841").
    var dateLink: String?
    /// Names of monarchs and popes after which even "I", "V" or "X" is a regnal number.
    var regnalNames: Set<String> = []
    /// Titles before such a name ("King", "Pope").
    var regnalTitles: Set<String> = []
    /// Of those names, the women's: their ordinal is feminine where the language has one ("Maria segunda").
    var feminineNames: Set<String> = []
    /// Words the speech engine spells letter by letter when they are written in capitals (espeak-ng
    /// reads "IT" as "I T" and "US" as "U S"), as written in capitals: in a run of capitals (a heading
    /// in capitals, "IT WAS THE BEST OF TIMES") they are the words, and go to the engine capitalised
    /// ("It", "Us"), which it reads as words.
    /// Found by comparing espeak-ng's phonemes for the 4,000 commonest words of the corpus's English
    /// text in both cases: "it" and "us" are the common ones ("UN", "LA", "MIT" are names spelled out).
    var wordsSpelledInCapitals: Set<String> = []
    /// Of those, the ones that are also the word when they stand alone in capitals before a stop or
    /// the end ("I did not do IT."): "the US" stays the country.
    var wordsSpelledInCapitalsBeforeAStop: Set<String> = []
    /// "million", "billion": "$5 million" → "five million dollars".
    var scaleWords: Set<String> = []
    /// Of those, the nouns that take a word before the currency ("cinq millions de dollars", "cinque milioni di
    /// euro"), and that word.
    var scaleNouns: Set<String> = []
    var scaleNounLink: String?
}

extension LanguageData {
    /// Whether a lower-case word reads as a plural noun: listed as irregular, or ending in "-s" but not in
    /// "-ss", "-us", "-is" and not a listed singular. Used only with `irregularPlurals` filled in (English).
    func looksPlural(_ word: String) -> Bool {
        if irregularPlurals.contains(word) { return true }
        guard word.utf8.count >= 3, word.utf8.last == UInt8(ascii: "s") else { return false }
        let lastTwo = Array(word.utf8.suffix(2))
        if lastTwo[0] == UInt8(ascii: "s") || lastTwo[0] == UInt8(ascii: "u") || lastTwo[0] == UInt8(ascii: "i") {
            return false
        }
        return !singularsInS.contains(word)
    }
}
