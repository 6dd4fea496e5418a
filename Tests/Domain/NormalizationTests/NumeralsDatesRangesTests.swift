import Testing

@testable import Normalization

// Issue 31, point 6: numerals in titles and on their own line, ranges of numerals, months abbreviated with a
// period, shortened page ranges and section numbers. One table per rule, every language in it.

/// Headings and TOC titles: a numeral is a number wherever it stands, never a letter name ("Roman two").
let numeralsInHeadings: [(String, String, String)] = [
    ("en", "Part II.", "Part Two."),
    ("en", "PART II.", "PART Two."),
    ("en", "II.", "Two."),
    ("en", "Poem XII", "Poem Twelve"),
    ("en", "Letters of Olaf II", "Letters of Olaf Two"),
    ("en", "The Reign of Henry VIII", "The Reign of Henry the Eighth"),
    ("en", "Who Am I", "Who Am I"),
    ("en", "I Went Home", "I Went Home"),
    ("en", "MIX", "MIX"),
    ("en", "DC Comics", "DC Comics"),
    ("fr", "Partie II.", "Partie deux."),
    ("fr", "Poème XII", "Poème douze"),
    ("de", "Teil II.", "Teil zwei."),
    ("de", "Gedicht XII", "Gedicht zwölf"),
    ("es", "Parte II.", "Parte dos."),
    ("es", "Poema XII", "Poema doce"),
    ("pt", "Parte II.", "Parte segunda."),
    ("pt", "Capítulo XII", "Capítulo doze"),
    ("pt", "Cantiga XII", "Cantiga doze"),
    ("it", "Parte II.", "Parte seconda."),
    ("it", "Capitolo XII", "Capitolo dodicesimo"),
    ("it", "Poesia XII", "Poesia dodici"),
    ("it", "I Promessi Sposi", "I Promessi Sposi"),
    ("it", "XIX secolo", "diciannovesimo secolo"),
]

/// A numeral alone on its line, as poems and sections are numbered: a cardinal, in running text too.
let numeralsAloneOnALine: [(String, String, String)] = [
    ("en", "II.", "Two."),
    ("en", "II", "Two"),
    ("en", "XII:", "Twelve:"),
    ("en", "I.", "One."),
    ("en", "ii.", "Two."),
    ("en", "The end.\nIII.\nThe next poem", "The end.\nThree.\nThe next poem"),
    ("en", "  IV  ", "  Four  "),
    ("en", "II is here", "II is here"),
    ("en", "I went home.", "I went home."),
    ("en", "MIX", "MIX"),
    ("en", "DC", "DC"),
    ("en", "CD.", "CD."),
    ("en", "iV", "iV"),
    ("fr", "II.", "Deux."),
    ("de", "II.", "Zwei."),
    ("es", "II.", "Dos."),
    ("pt", "II.", "Dois."),
    ("it", "II.", "Due."),
]

/// Two numerals joined by a hyphen, an en dash or the range word: a range of cardinals.
let numeralRanges: [(String, String, String)] = [
    ("en", "Articles IV–IX", "Articles four to nine"),
    ("en", "Articles IV-IX of the treaty", "Articles four to nine of the treaty"),
    ("en", "Articles IV to IX", "Articles four to nine"),
    ("en", "Books II – IV", "Books two to four"),
    ("en", "Chapter IV–VI", "Chapter Four to six"),
    ("en", "pp. xiv–xvi", "pages fourteen to sixteen"),
    ("en", "Henry IV–VI", "Henry the Fourth to the Sixth"),
    ("en", "IX–IV", "IX–IV"),
    ("en", "MIX-CD", "MIX-CD"),
    ("en", "X-ray", "X-ray"),
    ("en", "xiv–xvi", "xiv–xvi"),
    ("fr", "articles IV–IX", "articles quatre à neuf"),
    ("fr", "chapitres II à IV", "chapitres deux à quatre"),
    ("de", "Artikel IV–IX", "Artikel vier bis neun"),
    ("de", "Artikel IV bis IX", "Artikel vier bis neun"),
    ("es", "artículos IV–IX", "artículos cuatro a nueve"),
    ("pt", "artigos IV a IX", "artigos quatro a nove"),
    ("it", "articoli IV–IX", "articoli quattro a nove"),
]

/// Months abbreviated with a period, next to a day or a year; alone they stay as written.
let abbreviatedMonths: [(String, String, String)] = [
    ("en", "Mar. 3, 1841", "March third, eighteen forty-one"),
    ("en", "dated Mar. 3, 1841, and", "dated March third, eighteen forty-one, and"),
    ("en", "3 Mar. 1841", "the third of March eighteen forty-one"),
    ("en", "on 3rd Mar. 1841", "on the third of March eighteen forty-one"),
    ("en", "Sept. 1914", "September nineteen fourteen"),
    ("en", "Dec. 25", "December twenty-fifth"),
    ("en", "dated 3 Mar.", "dated the third of March."),
    ("en", "In Mar. the river rose.", "In Mar. the river rose."),
    ("en", "He came in May.", "He came in May."),
    ("en", "May 3, 1841", "May third, eighteen forty-one"),
    ("fr", "3 janv. 1841", "trois janvier mille huit cent quarante et un"),
    ("fr", "1er févr. 1841", "premier février mille huit cent quarante et un"),
    ("fr", "le 3 sept. 1841", "le trois septembre mille huit cent quarante et un"),
    ("fr", "en janv. il neigeait", "en janv. il neigeait"),
    ("de", "3. Jan. 1841", "dritter Januar achtzehnhunderteinundvierzig"),
    ("de", "am 3. Jan. 1841", "am dritten Januar achtzehnhunderteinundvierzig"),
    ("de", "Jan. 1841", "Januar achtzehnhunderteinundvierzig"),
    ("de", "im Jan. war es kalt", "im Jan. war es kalt"),
    ("es", "3 de ene. de 1841", "tres de enero de mil ochocientos cuarenta y uno"),
    ("es", "el mar. estaba en calma", "el mar. estaba en calma"),
    ("pt", "3 de jan. de 1841", "três de janeiro de mil oitocentos e quarenta e um"),
    ("pt", "1 de jan. de 1841", "primeiro de janeiro de mil oitocentos e quarenta e um"),
    ("pt", "1.º de dez. de 1640", "primeiro de dezembro de mil seiscentos e quarenta"),
    ("pt", "o mar. estava calmo", "o mar. estava calmo"),
    ("it", "3 gen. 1841", "tre gennaio milleottocentoquarantuno"),
    ("it", "1 gen. 1841", "primo gennaio milleottocentoquarantuno"),
    ("it", "1° maggio 1886", "primo maggio milleottocentottantasei"),
    ("it", "il mar. era calmo", "il mar. era calmo"),
]

/// Page ranges whose end is shortened take the first number's leading digits; scores and phone numbers do not.
let shortenedRanges: [(String, String, String)] = [
    ("en", "pages 310-12", "pages three hundred and ten to three hundred and twelve"),
    ("en", "pp. 310–312", "pages three hundred and ten to three hundred and twelve"),
    ("en", "pp. 310–12", "pages three hundred and ten to three hundred and twelve"),
    ("en", "301-09", "three hundred and one to three hundred and nine"),
    (
        "en", "pp. 1234-56",
        "pages one thousand two hundred and thirty-four to one thousand two hundred and fifty-six"
    ),
    ("en", "1914-18", "nineteen fourteen to eighteen"),
    ("en", "1880-5", "eighteen eighty to eighty-five"),
    ("en", "10-3", "ten-three"),
    ("en", "won 2-1", "won two-one"),
    ("en", "555-0123", "five five five, zero one two three"),
    ("en", "555-01", "five five five, zero one"),
    ("en-US", "pages 310-12", "pages three hundred ten to three hundred twelve"),
    ("fr", "pp. 310-12", "pages trois cent dix à trois cent douze"),
    ("fr", "1914-18", "mille neuf cent quatorze à dix-huit"),
    ("de", "S. 310-12", "Seite dreihundertzehn bis dreihundertzwölf"),
    ("de", "1914-18", "neunzehnhundertvierzehn bis achtzehn"),
    ("es", "págs. 310-12", "páginas trescientos diez a trescientos doce"),
    ("pt", "págs. 310-12", "páginas trezentos e dez a trezentos e doze"),
    ("it", "pp. 310-12", "pagine trecentodieci a trecentododici"),
]

/// A section of a code ("7-45.110") is read as written, group by group; a decimal end is a range.
let sectionNumbers: [(String, String, String)] = [
    ("en", "section 7-45.110", "section seven dash forty-five point one one zero"),
    ("en", "7-45.110.2", "seven dash forty-five point one one zero point two"),
    ("en", "3-5.5 kg", "three to five point five kilograms"),
    ("en", "It cost 3-5.", "It cost three to five."),
    ("fr", "article 7-45.110", "article sept tiret quarante-cinq point un un zéro"),
    ("fr", "3-5,5 kg", "trois à cinq virgule cinq kilogrammes"),
    ("de", "§ 7-45.110", "§ sieben Strich fünfundvierzig Punkt eins eins null"),
    ("es", "7-45.110", "siete guion cuarenta y cinco punto uno uno cero"),
    ("pt", "7-45.110", "sete hífen quarenta e cinco ponto um um zero"),
    ("it", "7-45.110", "sette trattino quarantacinque punto uno uno zero"),
]

@Suite("Numerals, dates and ranges")
struct NumeralsDatesRangesTests {
    @Test(arguments: numeralsInHeadings)
    func numeralsInHeadingsAreNumbers(language: String, input: String, expected: String) {
        #expect(TextNormalizer(language: language).normalize(input, context: .heading) == expected)
    }

    @Test(arguments: numeralsAloneOnALine)
    func numeralAloneOnALineIsACardinal(language: String, input: String, expected: String) {
        #expect(TextNormalizer(language: language).normalize(input) == expected)
    }

    @Test(arguments: numeralRanges)
    func rangeOfNumeralsIsARangeOfCardinals(language: String, input: String, expected: String) {
        #expect(TextNormalizer(language: language).normalize(input) == expected)
    }

    @Test(arguments: abbreviatedMonths)
    func abbreviatedMonthNextToADayOrYearIsTheMonth(language: String, input: String, expected: String) {
        #expect(TextNormalizer(language: language).normalize(input) == expected)
    }

    @Test(arguments: shortenedRanges)
    func shortenedRangeEndTakesTheLeadingDigits(language: String, input: String, expected: String) {
        #expect(TextNormalizer(language: language).normalize(input) == expected)
    }

    @Test(arguments: sectionNumbers)
    func sectionNumberIsReadAsWritten(language: String, input: String, expected: String) {
        #expect(TextNormalizer(language: language).normalize(input) == expected)
    }
}
