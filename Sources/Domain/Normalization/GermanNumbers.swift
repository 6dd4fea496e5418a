// German number words, written as one word below a million ("tausendachthundertfünfzig"), years 1100-1999 in
// hundreds ("achtzehnhundertfünfzig"), ordinals as stems that take case endings ("dritte" + "r"/"n").

enum GermanNumbers {
    static let units = [
        "null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn",
        "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn",
    ]
    static let tens = [
        "", "zehn", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig",
    ]

    /// `compound` is true when the number is followed by more of the word or a noun ("ein", not "eins").
    static func below100(_ number: Int, compound: Bool) -> String {
        if number == 1 { return compound ? "ein" : "eins" }
        if number < 20 { return units[number] }
        let unit = number % 10
        if unit == 0 { return tens[number / 10] }
        return (unit == 1 ? "ein" : units[unit]) + "und" + tens[number / 10]
    }

    static func below1000(_ number: Int, compound: Bool) -> String {
        let hundreds = number / 100, rest = number % 100
        guard hundreds > 0 else { return below100(rest, compound: compound) }
        let head = hundreds == 1 ? "hundert" : below100(hundreds, compound: true) + "hundert"
        return rest == 0 ? head : head + below100(rest, compound: compound)
    }

    static func cardinal(_ number: Int, compound: Bool = false) -> String {
        if number < 0 { return "minus " + cardinal(-number, compound: compound) }
        if number == 0 { return "null" }
        var parts: [String] = []
        var rest = number
        for (value, singular, plural) in [
            (1_000_000_000_000, "Billion", "Billionen"), (1_000_000_000, "Milliarde", "Milliarden"),
            (1_000_000, "Million", "Millionen"),
        ] where rest >= value {
            let count = rest / value
            parts.append(count == 1 ? "eine " + singular : below1000(count, compound: true) + " " + plural)
            rest %= value
        }
        var word = ""
        if rest >= 1000 {
            let count = rest / 1000
            word = (count == 1 ? "" : below1000(count, compound: true)) + "tausend"
            rest %= 1000
        }
        if rest > 0 { word += below1000(rest, compound: compound) }
        if !word.isEmpty { parts.append(word) }
        return parts.joined(separator: " ")
    }

    /// The ordinal stem: "erste", "dritte", "vierzehnte", "zwanzigste", "hunderterste".
    static func ordinal(_ number: Int) -> String {
        let small = number % 100
        if number >= 100, small > 0, small < 20 {
            return cardinal(number - small, compound: true) + smallOrdinal(small)
        }
        if number < 20 { return smallOrdinal(number) }
        return cardinal(number, compound: true) + "ste"
    }

    private static func smallOrdinal(_ number: Int) -> String {
        switch number {
        case 1: return "erste"
        case 3: return "dritte"
        case 7: return "siebte"
        case 8: return "achte"
        default: return units[number] + "te"
        }
    }

    /// 1100-1999 "achtzehnhundertfünfzig"; other years are cardinals ("zweitausendzehn").
    static func year(_ number: Int) -> String {
        guard number >= 1100, number <= 1999 else { return cardinal(number) }
        let rest = number % 100
        let head = below100(number / 100, compound: true) + "hundert"
        return rest == 0 ? head : head + below100(rest, compound: false)
    }

    static func fraction(numerator: Int, denominator: Int) -> String {
        let count = numerator == 1 ? "ein" : cardinal(numerator)
        if denominator == 2 { return numerator == 1 ? "ein halb" : count + " Halbe" }
        var stem = ordinal(denominator)  // "dritte" → "Drittel", "zwanzigste" → "Zwanzigstel"
        stem.removeLast()
        return count + " " + stem.prefix(1).uppercased() + stem.dropFirst() + "el"
    }

    static func mixedFraction(whole: Int, numerator: Int, denominator: Int) -> String {
        if numerator == 1, denominator == 2 {
            return whole == 1 ? "eineinhalb" : cardinal(whole, compound: true) + "einhalb"
        }
        return cardinal(whole) + " und " + fraction(numerator: numerator, denominator: denominator)
    }
}
