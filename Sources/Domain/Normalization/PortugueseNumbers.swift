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

    static func small(_ n: Int, brazilian: Bool, feminine: Bool = false) -> String {
        if feminine, n == 1 { return "uma" }
        if feminine, n == 2 { return "duas" }
        if brazilian, let word = brazilianTeens[n] { return word }
        return european[n]
    }

    static func below100(_ n: Int, brazilian: Bool, feminine: Bool) -> String {
        if n < 20 { return small(n, brazilian: brazilian, feminine: feminine) }
        let unit = n % 10
        let ten = tens[n / 10]
        return unit == 0 ? ten : ten + " e " + small(unit, brazilian: brazilian, feminine: feminine)
    }

    static func below1000(_ n: Int, brazilian: Bool, feminine: Bool) -> String {
        if n == 100 { return "cem" }
        let h = n / 100, rest = n % 100
        guard h > 0 else { return below100(rest, brazilian: brazilian, feminine: feminine) }
        var head = hundreds[h]
        if feminine, h > 1 { head = head.dropLast(2) + "as" }  // "duzentas", "quinhentas"
        return rest == 0 ? head : head + " e " + below100(rest, brazilian: brazilian, feminine: feminine)
    }

    /// "mil oitocentos e quarenta e um", "mil e oitocentos", "dois milhões e quinhentos mil": the groups are
    /// joined by "e" before the last one when it is below a hundred or a whole number of hundreds.
    static func cardinal(_ n: Int, brazilian: Bool, feminine: Bool = false) -> String {
        if n < 0 { return "menos " + cardinal(-n, brazilian: brazilian, feminine: feminine) }
        if n < 1000 { return below1000(n, brazilian: brazilian, feminine: feminine) }
        // (count, the group's words): the nouns "milhão", "bilião" are masculine whatever the number counts.
        var groups: [(Int, String)] = []
        var rest = n
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
        for (k, (count, words)) in groups.enumerated() {
            if k > 0 {
                let last = k == groups.count - 1
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
    static func ordinal(_ n: Int, feminine: Bool = false, brazilian: Bool = false) -> String {
        guard n >= 1, n < 2000 else { return cardinal(n, brazilian: brazilian, feminine: feminine) }
        var words: [String] = []
        if n >= 1000 { words.append("milésimo") }
        if (n % 1000) / 100 > 0 { words.append(ordinalHundreds[(n % 1000) / 100]) }
        if (n % 100) / 10 > 0 { words.append(ordinalTens[(n % 100) / 10]) }
        if n % 10 > 0 { words.append(ordinalUnits[n % 10]) }
        return words.map { feminine ? $0.dropLast() + "a" : $0 }.joined(separator: " ")
    }

    /// How Portuguese reads a Roman numeral after a noun (a king, a century, a chapter): the ordinal up to ten,
    /// the cardinal from eleven ("D. Pedro segundo", "século quinto", "século dezanove", "capítulo onze").
    static func ordinalAfterNoun(_ n: Int, feminine: Bool, brazilian: Bool) -> String {
        n <= 10 ? ordinal(n, feminine: feminine) : cardinal(n, brazilian: brazilian)
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
