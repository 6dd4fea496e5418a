// French number words, traditional spelling (hyphens below one hundred only): "mille huit cent cinquante",
// "vingt et un", "quatre-vingts", "deux cents". Years are read as cardinals, as French narrators do.

enum FrenchNumbers {
    static let units = [
        "zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
        "onze", "douze", "treize", "quatorze", "quinze", "seize",
    ]
    static let tens = ["", "dix", "vingt", "trente", "quarante", "cinquante", "soixante"]

    /// `final` is false when a larger word follows ("quatre-vingt mille"), which drops the plural "s".
    static func below100(_ number: Int, final: Bool = true) -> String {
        if number < 17 { return units[number] }
        if number < 20 { return "dix-" + units[number - 10] }
        if number < 70 {
            let unit = number % 10
            if unit == 0 { return tens[number / 10] }
            return tens[number / 10] + (unit == 1 ? " et un" : "-" + units[unit])
        }
        if number < 80 { return number == 71 ? "soixante et onze" : "soixante-" + below100(number - 60) }
        if number == 80 { return final ? "quatre-vingts" : "quatre-vingt" }
        return "quatre-vingt-" + below100(number - 80)
    }

    static func below1000(_ number: Int, final: Bool = true) -> String {
        let hundreds = number / 100, rest = number % 100
        guard hundreds > 0 else { return below100(rest, final: final) }
        var text = hundreds == 1 ? "cent" : units[hundreds] + " cent"
        if rest == 0 {
            if hundreds > 1, final { text += "s" }
        } else {
            text += " " + below100(rest, final: final)
        }
        return text
    }

    static func cardinal(_ number: Int) -> String {
        if number < 0 { return "moins " + cardinal(-number) }
        if number < 1000 { return below1000(number) }
        var parts: [String] = []
        var rest = number
        for (value, singular, plural) in [
            (1_000_000_000_000, "billion", "billions"), (1_000_000_000, "milliard", "milliards"),
            (1_000_000, "million", "millions"),
        ] where rest >= value {
            let count = rest / value
            parts.append(count == 1 ? "un " + singular : below1000(count) + " " + plural)
            rest %= value
        }
        if rest >= 1000 {
            let count = rest / 1000
            parts.append(count == 1 ? "mille" : below1000(count, final: false) + " mille")
            rest %= 1000
        }
        if rest > 0 { parts.append(below1000(rest)) }
        return parts.joined(separator: " ")
    }

    /// "premier" / "première", "deuxième", "vingt et unième", "quatre-vingtième".
    static func ordinal(_ number: Int, feminine: Bool = false) -> String {
        if number == 1 { return feminine ? "première" : "premier" }
        let text = cardinal(number)
        let cut = text.lastIndex(where: { $0 == " " || $0 == "-" }).map { text.index(after: $0) }
        let head = cut.map { String(text[..<$0]) } ?? ""
        var last = cut.map { String(text[$0...]) } ?? text
        switch last {
        case "cinq": last = "cinqu"
        case "neuf": last = "neuv"
        case "vingts", "cents", "millions", "milliards": last.removeLast()
        default: if last.hasSuffix("e") { last.removeLast() }
        }
        return head + last + "ième"
    }

    static func fraction(numerator: Int, denominator: Int) -> String {
        let count = cardinal(numerator)
        let plural = numerator > 1
        switch denominator {
        case 2: return count + (plural ? " demis" : " demi")
        case 3: return count + (plural ? " tiers" : " tiers")
        case 4: return count + (plural ? " quarts" : " quart")
        default: return count + " " + ordinal(denominator) + (plural ? "s" : "")
        }
    }

    static func mixedFraction(numerator: Int, denominator: Int) -> String {
        if numerator == 1, denominator == 2 { return "et demi" }
        if numerator == 1, denominator == 4 { return "et quart" }
        return "et " + fraction(numerator: numerator, denominator: denominator)
    }
}
