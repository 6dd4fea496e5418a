// Spanish number words: "mil ochocientos cincuenta", "veintiuno" ("veintiún" and "un" before a noun), ordinals
// to "décimo" and cardinals beyond, as Spanish does for kings and centuries ("Alfonso trece", "siglo diecinueve").

enum SpanishNumbers {
    static let small = [
        "cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
        "once", "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve",
        "veinte", "veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis",
        "veintisiete", "veintiocho", "veintinueve",
    ]
    static let tens = ["", "", "", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]
    static let hundreds = [
        "", "ciento", "doscientos", "trescientos", "cuatrocientos", "quinientos", "seiscientos", "setecientos",
        "ochocientos", "novecientos",
    ]

    static func below100(_ number: Int) -> String {
        if number < 30 { return small[number] }
        let unit = number % 10
        return unit == 0 ? tens[number / 10] : tens[number / 10] + " y " + small[unit]
    }

    static func below1000(_ number: Int) -> String {
        if number == 100 { return "cien" }
        let hundredsDigit = number / 100, rest = number % 100
        guard hundredsDigit > 0 else { return below100(rest) }
        return rest == 0 ? hundreds[hundredsDigit] : hundreds[hundredsDigit] + " " + below100(rest)
    }

    /// "uno" → "un", "veintiuno" → "veintiún" before a (masculine) noun or "mil"/"millones".
    static func apocopate(_ text: String) -> String {
        if text.hasSuffix("veintiuno") { return text.dropLast(9) + "veintiún" }
        if text == "uno" || text.hasSuffix(" uno") { return text.dropLast(3) + "un" }
        return text
    }

    static func cardinal(_ number: Int) -> String {
        if number < 0 { return "menos " + cardinal(-number) }
        if number < 1000 { return below1000(number) }
        var parts: [String] = []
        var rest = number
        for (value, singular, plural) in [
            (1_000_000_000_000, "billón", "billones"), (1_000_000, "millón", "millones"),
        ] where rest >= value {
            let count = rest / value
            parts.append(count == 1 ? "un " + singular : apocopate(cardinal(count)) + " " + plural)
            rest %= value
        }
        if rest >= 1000 {
            let count = rest / 1000
            parts.append(count == 1 ? "mil" : apocopate(below1000(count)) + " mil")
            rest %= 1000
        }
        if rest > 0 { parts.append(below1000(rest)) }
        return parts.joined(separator: " ")
    }

    static let ordinals = [
        "", "primero", "segundo", "tercero", "cuarto", "quinto", "sexto", "séptimo", "octavo", "noveno", "décimo",
    ]

    /// 1-10 as ordinals ("primera" when feminine), larger numbers as cardinals.
    static func ordinal(_ number: Int, feminine: Bool = false) -> String {
        guard number >= 1, number <= 10 else { return cardinal(number) }
        let word = ordinals[number]
        return feminine ? word.dropLast() + "a" : word
    }

    static func fraction(numerator: Int, denominator: Int) -> String {
        let count = numerator == 1 ? "un" : cardinal(numerator)
        let plural = numerator > 1 ? "s" : ""
        switch denominator {
        case 2: return count + " medio" + plural
        case 3: return count + " tercio" + plural
        default:
            let name = denominator <= 10 ? ordinals[denominator] : cardinal(denominator) + "avo"
            return count + " " + name + plural
        }
    }

    static func mixedFraction(numerator: Int, denominator: Int) -> String {
        if numerator == 1, denominator == 2 { return "y medio" }
        if numerator == 1, denominator == 4 { return "y cuarto" }
        return "y " + fraction(numerator: numerator, denominator: denominator)
    }
}
