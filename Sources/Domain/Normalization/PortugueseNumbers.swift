// Portuguese number words: "mil oitocentos e quarenta e um", "cem", "cento e um", "vinte e um". European
// Portuguese by default; Brazilian (pt-BR) where the two differ: 16, 17 and 19 ("dezasseis" / "dezesseis") and
// the thousand millions ("mil milhões" / "um bilhão"). Feminine forms where Portuguese has them ("uma", "duas",
// "duzentas"); ordinals agree too ("primeira").

enum PortugueseNumbers {
    static let european = [
        "zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez",
        "onze", "doze", "treze", "catorze", "quinze", "dezasseis", "dezassete", "dezoito", "dezanove",
    ]
    static let brazilianTeens = [16: "dezesseis", 17: "dezessete", 19: "dezenove"]
    static let tens = ["", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"]
    static let hundreds = [
        "", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos", "setecentos", "oitocentos",
        "novecentos",
    ]

    static func small(_ number: Int, brazilian: Bool, feminine: Bool = false) -> String {
        if feminine, number == 1 { return "uma" }
        if feminine, number == 2 { return "duas" }
        if brazilian, let word = brazilianTeens[number] { return word }
        return european[number]
    }

    static func below100(_ number: Int, brazilian: Bool, feminine: Bool) -> String {
        if number < 20 { return small(number, brazilian: brazilian, feminine: feminine) }
        let unit = number % 10
        let ten = tens[number / 10]
        return unit == 0 ? ten : ten + " e " + small(unit, brazilian: brazilian, feminine: feminine)
    }

    static func below1000(_ number: Int, brazilian: Bool, feminine: Bool) -> String {
        if number == 100 { return "cem" }
        let hundredsDigit = number / 100, rest = number % 100
        guard hundredsDigit > 0 else { return below100(rest, brazilian: brazilian, feminine: feminine) }
        var head = hundreds[hundredsDigit]
        if feminine, hundredsDigit > 1 { head = head.dropLast(2) + "as" }  // "duzentas", "quinhentas"
        return rest == 0 ? head : head + " e " + below100(rest, brazilian: brazilian, feminine: feminine)
    }

    /// "mil oitocentos e quarenta e um", "mil e oitocentos", "dois milhões e quinhentos mil": the groups are
    /// joined by "e" before the last one when it is below a hundred or a whole number of hundreds.
    static func cardinal(_ number: Int, brazilian: Bool, feminine: Bool = false) -> String {
        if number < 0 { return "menos " + cardinal(-number, brazilian: brazilian, feminine: feminine) }
        if number < 1000 { return below1000(number, brazilian: brazilian, feminine: feminine) }
        // (count, the group's words): the nouns "milhão", "bilião" are masculine whatever the number counts.
        var groups: [(Int, String)] = []
        var rest = number
        let scales: [(Int, String, String)] =
            brazilian
            ? [
                (1_000_000_000_000, "trilhão", "trilhões"), (1_000_000_000, "bilhão", "bilhões"),
                (1_000_000, "milhão", "milhões"),
            ]
            : [(1_000_000_000_000, "bilião", "biliões"), (1_000_000, "milhão", "milhões")]
        for (value, singular, plural) in scales where rest >= value {
            let count = rest / value
            // European "mil milhões" (10⁹): the count of millions runs to 999,999.
            let words =
                count == 1 ? "um " + singular : cardinal(count, brazilian: brazilian) + " " + plural
            groups.append((count, words))
            rest %= value
        }
        if rest >= 1000 {
            let count = rest / 1000
            let words = count == 1 ? "mil" : below1000(count, brazilian: brazilian, feminine: feminine) + " mil"
            groups.append((count, words))
            rest %= 1000
        }
        if rest > 0 { groups.append((rest, below1000(rest, brazilian: brazilian, feminine: feminine))) }
        var text = ""
        for (position, (count, words)) in groups.enumerated() {
            if position > 0 {
                let last = position == groups.count - 1
                text += last && (count < 100 || count % 100 == 0) ? " e " : " "
            }
            text += words
        }
        return text
    }

    static let ordinalUnits = [
        "", "primeiro", "segundo", "terceiro", "quarto", "quinto", "sexto", "sétimo", "oitavo", "nono",
    ]
    static let ordinalTens = [
        "", "décimo", "vigésimo", "trigésimo", "quadragésimo", "quinquagésimo", "sexagésimo", "septuagésimo",
        "octogésimo", "nonagésimo",
    ]
    static let ordinalHundreds = [
        "", "centésimo", "ducentésimo", "tricentésimo", "quadringentésimo", "quingentésimo", "sexcentésimo",
        "septingentésimo", "octingentésimo", "nongentésimo",
    ]

    /// "primeiro", "vigésimo primeiro", "milésimo octingentésimo quadragésimo primeiro"; feminine "primeira".
    /// From 2000 on, the cardinal (such ordinals are not said).
    static func ordinal(_ number: Int, feminine: Bool = false, brazilian: Bool = false) -> String {
        guard number >= 1, number < 2000 else { return cardinal(number, brazilian: brazilian, feminine: feminine) }
        var words: [String] = []
        if number >= 1000 { words.append("milésimo") }
        if (number % 1000) / 100 > 0 { words.append(ordinalHundreds[(number % 1000) / 100]) }
        if (number % 100) / 10 > 0 { words.append(ordinalTens[(number % 100) / 10]) }
        if number % 10 > 0 { words.append(ordinalUnits[number % 10]) }
        return words.map { feminine ? $0.dropLast() + "a" : $0 }.joined(separator: " ")
    }

    /// How Portuguese reads a Roman numeral after a noun (a king, a century, a chapter): the ordinal up to ten,
    /// the cardinal from eleven ("D. Pedro segundo", "século quinto", "século dezanove", "capítulo onze").
    static func ordinalAfterNoun(_ number: Int, feminine: Bool, brazilian: Bool) -> String {
        number <= 10 ? ordinal(number, feminine: feminine) : cardinal(number, brazilian: brazilian)
    }

    static func fraction(numerator: Int, denominator: Int, brazilian: Bool) -> String {
        let count = cardinal(numerator, brazilian: brazilian)
        let plural = numerator > 1 ? "s" : ""
        switch denominator {
        case 2: return count + (numerator > 1 ? " meios" : " meio")
        case 3: return count + " terço" + plural
        case 4...10: return count + " " + ordinal(denominator) + plural
        case 100: return count + " centésimo" + plural
        default: return count + " " + cardinal(denominator, brazilian: brazilian) + " avos"
        }
    }

    static func mixedFraction(numerator: Int, denominator: Int, brazilian: Bool) -> String {
        if numerator == 1, denominator == 2 { return "e meio" }
        return "e " + fraction(numerator: numerator, denominator: denominator, brazilian: brazilian)
    }
}
