import Testing

@testable import Normalization

@Suite("Number words")
struct NumberWordsTests {
    @Test(arguments: [
        (0, "zero"), (1, "one"), (10, "ten"), (15, "fifteen"), (20, "twenty"), (21, "twenty-one"), (40, "forty"),
        (99, "ninety-nine"), (100, "one hundred"), (110, "one hundred and ten"), (250, "two hundred and fifty"),
        (1000, "one thousand"), (1001, "one thousand and one"), (1100, "one thousand one hundred"),
        (1850, "one thousand eight hundred and fifty"), (20_000, "twenty thousand"),
        (100_000, "one hundred thousand"), (1_000_001, "one million and one"),
        (3_000_000_000, "three billion"), (-4, "minus four"),
    ])
    func englishCardinals(value: Int, words: String) {
        #expect(EnglishNumbers.cardinal(value, and: true) == words)
    }

    @Test(arguments: [
        (1, "first"), (2, "second"), (3, "third"), (4, "fourth"), (5, "fifth"), (8, "eighth"), (9, "ninth"),
        (12, "twelfth"), (20, "twentieth"), (21, "twenty-first"), (30, "thirtieth"), (42, "forty-second"),
        (99, "ninety-ninth"), (100, "one hundredth"), (101, "one hundred and first"), (1000, "one thousandth"),
    ])
    func englishOrdinals(value: Int, words: String) {
        #expect(EnglishNumbers.ordinal(value, and: true) == words)
    }

    @Test(arguments: [
        (1066, "ten sixty-six", "ten sixty-six"), (1500, "fifteen hundred", "fifteen hundred"),
        (1850, "eighteen fifty", "eighteen fifty"), (1905, "nineteen oh five", "nineteen oh five"),
        (1999, "nineteen ninety-nine", "nineteen ninety-nine"), (2000, "two thousand", "two thousand"),
        (2001, "two thousand and one", "two thousand one"), (2010, "two thousand and ten", "twenty ten"),
        (2020, "twenty twenty", "twenty twenty"), (2099, "twenty ninety-nine", "twenty ninety-nine"),
        (1000, "one thousand", "one thousand"), (1005, "one thousand and five", "one thousand five"),
    ])
    func englishYears(value: Int, british: String, american: String) {
        #expect(EnglishNumbers.year(value, american: false) == british)
        #expect(EnglishNumbers.year(value, american: true) == american)
    }

    @Test(arguments: [
        (0, "zéro"), (1, "un"), (16, "seize"), (17, "dix-sept"), (21, "vingt et un"), (22, "vingt-deux"),
        (61, "soixante et un"), (70, "soixante-dix"), (71, "soixante et onze"), (77, "soixante-dix-sept"),
        (80, "quatre-vingts"), (81, "quatre-vingt-un"), (90, "quatre-vingt-dix"), (91, "quatre-vingt-onze"),
        (100, "cent"), (101, "cent un"), (200, "deux cents"), (280, "deux cent quatre-vingts"),
        (1000, "mille"), (1850, "mille huit cent cinquante"), (2000, "deux mille"),
        (80_000, "quatre-vingt mille"), (200_000, "deux cent mille"), (1_000_000, "un million"),
        (2_000_000, "deux millions"), (1_000_000_000, "un milliard"),
    ])
    func frenchCardinals(value: Int, words: String) {
        #expect(FrenchNumbers.cardinal(value) == words)
    }

    @Test(arguments: [
        (1, "premier"), (2, "deuxième"), (4, "quatrième"), (5, "cinquième"), (9, "neuvième"), (11, "onzième"),
        (14, "quatorzième"), (19, "dix-neuvième"), (21, "vingt et unième"), (80, "quatre-vingtième"),
        (100, "centième"), (1000, "millième"),
    ])
    func frenchOrdinals(value: Int, words: String) {
        #expect(FrenchNumbers.ordinal(value) == words)
    }

    @Test(arguments: [
        (0, "null"), (1, "eins"), (7, "sieben"), (16, "sechzehn"), (17, "siebzehn"), (21, "einundzwanzig"),
        (30, "dreißig"), (99, "neunundneunzig"), (100, "hundert"), (101, "hunderteins"),
        (201, "zweihunderteins"), (1000, "tausend"), (1850, "tausendachthundertfünfzig"),
        (2010, "zweitausendzehn"), (21_000, "einundzwanzigtausend"), (1_000_000, "eine Million"),
        (3_000_000, "drei Millionen"), (2_500_000, "zwei Millionen fünfhunderttausend"),
    ])
    func germanCardinals(value: Int, words: String) {
        #expect(GermanNumbers.cardinal(value) == words)
    }

    @Test(arguments: [
        (1, "erste"), (2, "zweite"), (3, "dritte"), (7, "siebte"), (8, "achte"), (14, "vierzehnte"),
        (19, "neunzehnte"), (20, "zwanzigste"), (21, "einundzwanzigste"), (100, "hundertste"),
        (101, "hunderterste"),
    ])
    func germanOrdinals(value: Int, words: String) {
        #expect(GermanNumbers.ordinal(value) == words)
    }

    @Test(arguments: [
        (1850, "achtzehnhundertfünfzig"), (1900, "neunzehnhundert"), (1905, "neunzehnhundertfünf"),
        (1999, "neunzehnhundertneunundneunzig"), (2010, "zweitausendzehn"), (1066, "tausendsechsundsechzig"),
    ])
    func germanYears(value: Int, words: String) {
        #expect(GermanNumbers.year(value) == words)
    }

    @Test(arguments: [
        (0, "cero"), (1, "uno"), (16, "dieciséis"), (21, "veintiuno"), (22, "veintidós"), (30, "treinta"),
        (31, "treinta y uno"), (100, "cien"), (101, "ciento uno"), (115, "ciento quince"), (500, "quinientos"),
        (700, "setecientos"), (900, "novecientos"), (1000, "mil"), (1850, "mil ochocientos cincuenta"),
        (2000, "dos mil"), (21_000, "veintiún mil"), (100_000, "cien mil"), (1_000_000, "un millón"),
        (2_000_000, "dos millones"),
    ])
    func spanishCardinals(value: Int, words: String) {
        #expect(SpanishNumbers.cardinal(value) == words)
    }

    @Test(arguments: [(1, "primero"), (2, "segundo"), (3, "tercero"), (10, "décimo"), (11, "once"), (13, "trece")])
    func spanishOrdinals(value: Int, words: String) {
        #expect(SpanishNumbers.ordinal(value) == words)
    }

    @Test(arguments: [
        (0, "zero"), (1, "um"), (2, "dois"), (10, "dez"), (14, "catorze"), (16, "dezasseis"), (19, "dezanove"),
        (20, "vinte"), (21, "vinte e um"), (99, "noventa e nove"), (100, "cem"), (101, "cento e um"),
        (110, "cento e dez"), (200, "duzentos"), (234, "duzentos e trinta e quatro"), (500, "quinhentos"),
        (1000, "mil"), (1001, "mil e um"), (1100, "mil e cem"), (1800, "mil e oitocentos"),
        (1841, "mil oitocentos e quarenta e um"), (2014, "dois mil e catorze"), (21_000, "vinte e um mil"),
        (100_000, "cem mil"), (1_000_000, "um milhão"), (1_000_001, "um milhão e um"),
        (2_500_000, "dois milhões e quinhentos mil"),
        (1_234_567, "um milhão duzentos e trinta e quatro mil quinhentos e sessenta e sete"),
        (2_000_000_000, "dois mil milhões"),
    ])
    func portugueseCardinals(value: Int, words: String) {
        #expect(PortugueseNumbers.cardinal(value, brazilian: false) == words)
    }

    @Test(arguments: [
        (16, "dezesseis"), (17, "dezessete"), (19, "dezenove"), (1_000_000_000, "um bilhão"),
        (2_000_000_000, "dois bilhões"), (1841, "mil oitocentos e quarenta e um"),
    ])
    func brazilianCardinals(value: Int, words: String) {
        #expect(PortugueseNumbers.cardinal(value, brazilian: true) == words)
    }

    @Test(arguments: [(1, "uma"), (2, "duas"), (21, "vinte e uma"), (200, "duzentas"), (2000, "duas mil")])
    func portugueseFeminineCardinals(value: Int, words: String) {
        #expect(PortugueseNumbers.cardinal(value, brazilian: false, feminine: true) == words)
    }

    @Test(arguments: [
        (1, "primeiro", "primeira"), (2, "segundo", "segunda"), (3, "terceiro", "terceira"),
        (7, "sétimo", "sétima"), (10, "décimo", "décima"), (11, "décimo primeiro", "décima primeira"),
        (21, "vigésimo primeiro", "vigésima primeira"), (100, "centésimo", "centésima"),
        (1000, "milésimo", "milésima"),
    ])
    func portugueseOrdinals(value: Int, masculine: String, feminine: String) {
        #expect(PortugueseNumbers.ordinal(value) == masculine)
        #expect(PortugueseNumbers.ordinal(value, feminine: true) == feminine)
    }

    @Test(arguments: [
        (0, "zero"), (1, "uno"), (3, "tre"), (11, "undici"), (17, "diciassette"), (21, "ventuno"), (23, "ventitré"),
        (28, "ventotto"), (31, "trentuno"), (38, "trentotto"), (100, "cento"), (101, "centouno"),
        (103, "centotré"), (180, "centottanta"), (200, "duecento"), (1000, "mille"), (1003, "milletré"),
        (1841, "milleottocentoquarantuno"), (1964, "millenovecentosessantaquattro"), (2000, "duemila"),
        (2014, "duemilaquattordici"), (21_000, "ventunomila"), (33_000, "trentatremila"),
        (100_000, "centomila"), (1_000_000, "un milione"), (2_000_000, "due milioni"),
        (1_200_000, "un milione duecentomila"), (1_000_000_000, "un miliardo"),
    ])
    func italianCardinals(value: Int, words: String) {
        #expect(ItalianNumbers.cardinal(value) == words)
    }

    @Test(arguments: [
        (1, "primo", "prima"), (2, "secondo", "seconda"), (3, "terzo", "terza"), (10, "decimo", "decima"),
        (11, "undicesimo", "undicesima"), (14, "quattordicesimo", "quattordicesima"),
        (19, "diciannovesimo", "diciannovesima"), (20, "ventesimo", "ventesima"),
        (21, "ventunesimo", "ventunesima"), (23, "ventitreesimo", "ventitreesima"),
        (26, "ventiseiesimo", "ventiseiesima"), (100, "centesimo", "centesima"),
        (1000, "millesimo", "millesima"), (2000, "duemillesimo", "duemillesima"),
    ])
    func italianOrdinals(value: Int, masculine: String, feminine: String) {
        #expect(ItalianNumbers.ordinal(value) == masculine)
        #expect(ItalianNumbers.ordinal(value, feminine: true) == feminine)
    }

    @Test(arguments: [
        ("I", 1), ("IV", 4), ("IX", 9), ("XIV", 14), ("XL", 40), ("XC", 90), ("CD", 400), ("MCMLXXXIV", 1984),
        ("MMMCMXCIX", 3999),
    ])
    func romanNumerals(numeral: String, value: Int) {
        #expect(RomanNumerals.value(of: ArraySlice(numeral.unicodeScalars)) == value)
    }

    @Test(arguments: ["IIII", "IC", "VX", "CIVIL", "MIXX", "iv", "", "ABC", "XM", "VV", "LL", "DD"])
    func notRomanNumerals(word: String) {
        #expect(RomanNumerals.value(of: ArraySlice(word.unicodeScalars)) == nil)
    }

    @Test func lowerCaseRomanNumeralsWhenAsked() {
        #expect(RomanNumerals.value(of: ArraySlice("xiv".unicodeScalars), lowercase: true) == 14)
    }

    @Test func everyValueRoundTrips() {
        for value in 1...3999 {
            let spelling = RomanNumerals.spelling(of: value).map { Unicode.Scalar($0) }
            #expect(RomanNumerals.value(of: ArraySlice(spelling)) == value)
        }
    }
}
