import Testing

@testable import Normalization

/// European Portuguese ("pt", "pt-PT"): running text.
let portugueseCases: [(String, String)] = [
    // Numbers, years, decimals and thousands.
    ("1841", "mil oitocentos e quarenta e um"),
    ("em 1850", "em mil oitocentos e cinquenta"),
    ("1850 soldados", "mil oitocentos e cinquenta soldados"),
    ("21", "vinte e um"),
    ("100", "cem"),
    ("101", "cento e um"),
    ("16", "dezasseis"),
    ("1.000", "mil"),
    ("1.841", "mil oitocentos e quarenta e um"),
    ("1 000", "mil"),
    ("2.000.000", "dois milhões"),
    ("1.000.000.000", "mil milhões"),
    ("3,5", "três vírgula cinco"),
    ("3,14", "três vírgula catorze"),
    ("1964-2014", "mil novecentos e sessenta e quatro a dois mil e catorze"),
    ("3-5", "três a cinco"),
    ("-5", "menos cinco"),
    // Currency, percentages, units.
    ("20 €", "vinte euros"),
    ("1 €", "um euro"),
    ("3,50 €", "três euros e cinquenta"),
    ("0,50 €", "cinquenta cêntimos"),
    ("R$ 10,50", "dez reais e cinquenta"),
    ("R$ 1", "um real"),
    ("R$ 1.000,00", "mil reais"),
    ("US$ 5", "cinco dólares"),
    ("$5", "cinco dólares"),
    ("£2", "duas libras"),
    ("€5 milhões", "cinco milhões de euros"),
    ("50 %", "cinquenta por cento"),
    ("50%", "cinquenta por cento"),
    ("5 km", "cinco quilómetros"),
    ("1 km", "um quilómetro"),
    ("2 t", "duas toneladas"),
    ("20 °C", "vinte graus Celsius"),
    // Ordinals, with their gender.
    ("1º", "primeiro"),
    ("1ª", "primeira"),
    ("2.º", "segundo"),
    ("3.ª edição", "terceira edição"),
    ("21º", "vigésimo primeiro"),
    // Abbreviations.
    ("Sr. Silva", "senhor Silva"),
    ("Sra. Costa", "senhora Costa"),
    ("Dr. Sousa", "doutor Sousa"),
    ("pág. 12", "página doze"),
    ("p. 12", "página doze"),
    ("n.º 5", "número cinco"),
    ("etc.", "etcétera."),
    ("p. ex. isto", "por exemplo isto"),
    ("50 a.C.", "cinquenta antes de Cristo."),
    // Roman numerals after cue words and names: ordinals up to ten, then cardinals.
    ("cap. IV", "capítulo quarto"),
    ("séc. XIX", "século dezanove"),
    ("século XV", "século quinze"),
    ("século V", "século quinto"),
    ("Capítulo IV", "Capítulo quarto"),
    ("Capítulo XI", "Capítulo onze"),
    ("Parte II", "Parte segunda"),
    ("D. Pedro II", "D. Pedro segundo"),
    ("D. Maria I", "D. Maria primeira"),
    ("João XXIII", "João vinte e três"),
    ("Luís XIV", "Luís catorze"),
    // Times and fractions.
    ("10:30", "dez e trinta"),
    ("1:00", "uma hora"),
    ("2:15", "duas e quinze"),
    ("1/2", "um meio"),
    ("3/4", "três quartos"),
    ("2 1/2", "dois e meio"),
    // Left alone.
    ("Eu fui.", "Eu fui."),
    ("MIX", "MIX"),
    ("A casa", "A casa"),
]

/// Brazilian Portuguese ("pt-BR"): the words that differ.
let brazilianCases: [(String, String)] = [
    ("16", "dezesseis"),
    ("17", "dezessete"),
    ("19", "dezenove"),
    ("1.000.000.000", "um bilhão"),
    ("5 km", "cinco quilômetros"),
    ("0,50 €", "cinquenta centavos"),
    ("1841", "mil oitocentos e quarenta e um"),
    ("R$ 10,50", "dez reais e cinquenta"),
]

/// Italian ("it"): running text.
let italianCases: [(String, String)] = [
    // Numbers, years, decimals and thousands.
    ("1841", "milleottocentoquarantuno"),
    ("nel 1850", "nel milleottocentocinquanta"),
    ("21", "ventuno"),
    ("28", "ventotto"),
    ("23", "ventitré"),
    ("101", "centouno"),
    ("1000", "mille"),
    ("2000", "duemila"),
    ("1.000", "mille"),
    ("33.000", "trentatremila"),
    ("1.000.000", "un milione"),
    ("3,5", "tre virgola cinque"),
    ("3,14", "tre virgola quattordici"),
    ("1964-2014", "millenovecentosessantaquattro a duemilaquattordici"),
    ("3-5", "tre a cinque"),
    ("-5", "meno cinque"),
    // Currency, percentages, units.
    ("20 €", "venti euro"),
    ("1 €", "un euro"),
    ("€ 10,50", "dieci euro e cinquanta"),
    ("3,50 €", "tre euro e cinquanta"),
    ("$5", "cinque dollari"),
    ("£1", "una sterlina"),
    ("€5 milioni", "cinque milioni di euro"),
    ("50 %", "cinquanta per cento"),
    ("5 km", "cinque chilometri"),
    ("1 km", "un chilometro"),
    ("1 t", "una tonnellata"),
    ("20 °C", "venti gradi Celsius"),
    // Ordinals, with their gender.
    ("1º", "primo"),
    ("1ª", "prima"),
    ("2ª edizione", "seconda edizione"),
    // Abbreviations.
    ("Sig. Rossi", "signor Rossi"),
    ("Sig.ra Bianchi", "signora Bianchi"),
    ("Dott. Verdi", "dottor Verdi"),
    ("Dott.ssa Neri", "dottoressa Neri"),
    ("pag. 12", "pagina dodici"),
    ("p. 12", "pagina dodici"),
    ("n. 5", "numero cinque"),
    ("ecc.", "eccetera."),
    ("50 a.C.", "cinquanta avanti Cristo."),
    // Roman numerals after cue words and names: ordinals, agreeing with the noun.
    ("cap. IV", "capitolo quarto"),
    ("sec. XIX", "secolo diciannovesimo"),
    ("il XIX secolo", "il diciannovesimo secolo"),
    ("Capitolo IV", "Capitolo quarto"),
    ("Canto XXIII", "Canto ventitreesimo"),
    ("Parte II", "Parte seconda"),
    ("Luigi XIV", "Luigi quattordicesimo"),
    ("Papa Giovanni XXIII", "Papa Giovanni ventitreesimo"),
    ("Elisabetta II", "Elisabetta seconda"),
    ("Vittorio Emanuele II", "Vittorio Emanuele secondo"),
    // Times and fractions.
    ("10:30", "dieci e trenta"),
    ("1/2", "un mezzo"),
    ("3/4", "tre quarti"),
    ("2 1/2", "due e mezzo"),
    // Left alone.
    ("I Promessi Sposi", "I Promessi Sposi"),
    ("Io sono qui.", "Io sono qui."),
    ("MIX", "MIX"),
]

@Suite("Portuguese, Italian")
struct PortugueseItalianTests {
    @Test(arguments: portugueseCases)
    func portuguese(input: String, expected: String) {
        #expect(TextNormalizer(language: "pt").normalize(input) == expected)
    }

    @Test(arguments: portugueseCases)
    func ptPTMatchesPt(input: String, expected: String) {
        #expect(TextNormalizer(language: "pt-PT").normalize(input) == TextNormalizer(language: "pt").normalize(input))
    }

    @Test(arguments: brazilianCases)
    func brazilianPortuguese(input: String, expected: String) {
        #expect(TextNormalizer(language: "pt-BR").normalize(input) == expected)
    }

    @Test(arguments: italianCases)
    func italian(input: String, expected: String) {
        #expect(TextNormalizer(language: "it").normalize(input) == expected)
    }

    @Test(arguments: ["pt-BR", "pt_BR", "PT-br"])
    func brazilianTagsUseBrazilianWords(tag: String) {
        #expect(TextNormalizer(language: tag).normalize("16") == "dezesseis")
    }

    @Test func headingNumeralsAreCardinals() {
        #expect(
            TextNormalizer(language: "pt").normalize("IV. A tempestade", context: .heading) == "Quatro. A tempestade")
        #expect(
            TextNormalizer(language: "it").normalize("IV. La tempesta", context: .heading) == "Quattro. La tempesta")
    }
}
