// Italian number words, one word below a million: "milleottocentoquarantuno", "ventuno", "ventotto" (the tens
// lose their vowel before "uno" and "otto"), "centouno", "centottanta", "duemila", "ventitré" (a final "tre"
// after other parts takes its accent). Ordinals agree: "primo", "prima", "ventitreesimo".

enum ItalianNumbers {
    static let small = [
        "zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci",
        "undici", "dodici", "tredici", "quattordici", "quindici", "sedici", "diciassette", "diciotto", "diciannove",
    ]
    static let tens = [
        "", "", "venti", "trenta", "quaranta", "cinquanta", "sessanta", "settanta", "ottanta", "novanta",
    ]

    static func below100(_ number: Int) -> String {
        if number < 20 { return small[number] }
        let unit = number % 10
        let ten = tens[number / 10]
        if unit == 0 { return ten }
        return (unit == 1 || unit == 8 ? String(ten.dropLast()) : ten) + small[unit]
    }

    static func below1000(_ number: Int) -> String {
        let hundredsDigit = number / 100, rest = number % 100
        guard hundredsDigit > 0 else { return below100(rest) }
        let head = hundredsDigit == 1 ? "cento" : small[hundredsDigit] + "cento"
        if rest == 0 { return head }
        // "centottanta": "cento" loses its vowel before "ottanta" (but "centouno", "centootto").
        return (rest / 10 == 8 ? String(head.dropLast()) : head) + below100(rest)
    }

    /// "milleottocentoquarantuno", "duemila", "un milione duecentomila", "ventitré".
    static func cardinal(_ number: Int) -> String {
        if number < 0 { return "meno " + cardinal(-number) }
        var parts: [String] = []
        var rest = number
        for (value, singular, plural) in [
            (1_000_000_000, "miliardo", "miliardi"), (1_000_000, "milione", "milioni"),
        ] where rest >= value {
            let count = rest / value
            parts.append(count == 1 ? "un " + singular : cardinal(count) + " " + plural)
            rest %= value
        }
        var word = ""
        if rest >= 1000 {
            let count = rest / 1000
            word = count == 1 ? "mille" : below1000(count) + "mila"
            rest %= 1000
        }
        if rest > 0 || (word.isEmpty && parts.isEmpty) { word += below1000(rest) }
        if !word.isEmpty { parts.append(word) }
        return accented(parts.joined(separator: " "))
    }

    /// A final "tre" joined to other parts is written "tré": "ventitré", "centotré", "milletré".
    static func accented(_ text: String) -> String {
        let last = text.split(separator: " ").last ?? ""
        guard last.count > 3, last.hasSuffix("tre") else { return text }
        return text.dropLast() + "é"
    }

    static let ordinals = [
        "", "primo", "secondo", "terzo", "quarto", "quinto", "sesto", "settimo", "ottavo", "nono", "decimo",
    ]

    /// "primo", "undicesimo", "ventitreesimo", "ventiseiesimo", "centesimo", "millesimo", "duemillesimo";
    /// feminine "prima", "ventesima".
    static func ordinal(_ number: Int, feminine: Bool = false) -> String {
        guard number >= 1 else { return cardinal(number) }
        var word: String
        if number <= 10 {
            word = ordinals[number]
        } else {
            var text = cardinal(number)
            if text.hasSuffix("tré") { text = text.dropLast() + "e" }
            if text.hasSuffix("tre") || text.hasSuffix("sei") {
                word = text + "esimo"  // "ventitreesimo", "ventiseiesimo"
            } else if text.hasSuffix("mila") {
                word = text.dropLast(4) + "millesimo"  // "duemillesimo"
            } else {
                word = text.dropLast() + "esimo"  // "undicesimo", "ventesimo", "millesimo"
            }
        }
        if feminine { word = word.dropLast() + "a" }
        return word
    }

    static func fraction(numerator: Int, denominator: Int) -> String {
        let count = numerator == 1 ? "un" : cardinal(numerator)
        let plural = numerator > 1
        switch denominator {
        case 2: return count + (plural ? " mezzi" : " mezzo")
        default:
            let name = ordinal(denominator)
            return count + " " + (plural ? name.dropLast() + "i" : name)
        }
    }

    static func mixedFraction(numerator: Int, denominator: Int) -> String {
        if numerator == 1, denominator == 2 { return "e mezzo" }
        return "e " + fraction(numerator: numerator, denominator: denominator)
    }
}
