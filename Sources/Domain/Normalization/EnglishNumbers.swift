// English number words. British and American English differ only in "and" after hundreds and in years 2000-2019.

enum EnglishNumbers {
    static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let scales: [(Int, String)] = [
        (1_000_000_000_000, "trillion"), (1_000_000_000, "billion"), (1_000_000, "million"), (1000, "thousand"),
    ]

    static func below100(_ number: Int) -> String {
        if number < 20 { return ones[number] }
        let unit = number % 10
        return unit == 0 ? tens[number / 10] : tens[number / 10] + "-" + ones[unit]
    }

    static func below1000(_ number: Int, and: Bool) -> String {
        let hundreds = number / 100, rest = number % 100
        guard hundreds > 0 else { return below100(rest) }
        var text = ones[hundreds] + " hundred"
        if rest > 0 { text += (and ? " and " : " ") + below100(rest) }
        return text
    }

    /// "one thousand eight hundred and fifty" (British, `and: true`) or "... hundred fifty" (American).
    static func cardinal(_ number: Int, and: Bool) -> String {
        if number < 0 { return "minus " + cardinal(-number, and: and) }
        if number < 1000 { return below1000(number, and: and) }
        var parts: [String] = []
        var rest = number
        for (value, name) in scales where rest >= value {
            parts.append(below1000(rest / value, and: and) + " " + name)
            rest %= value
        }
        if rest > 0 {
            parts.append((and && rest < 100 ? "and " : "") + below1000(rest, and: and))
        }
        return parts.joined(separator: " ")
    }

    /// "first", "twenty-first", "one hundredth".
    static func ordinal(_ number: Int, and: Bool) -> String {
        ordinalize(cardinal(number, and: and))
    }

    /// Turns the last word of a cardinal into its ordinal ("twenty-one" → "twenty-first").
    static func ordinalize(_ cardinal: String) -> String {
        let cut = cardinal.lastIndex(where: { $0 == " " || $0 == "-" }).map { cardinal.index(after: $0) }
        let head = cut.map { String(cardinal[..<$0]) } ?? ""
        let last = cut.map { String(cardinal[$0...]) } ?? cardinal
        let irregular = [
            "one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth",
            "twelve": "twelfth",
        ]
        if let word = irregular[last] { return head + word }
        if last.hasSuffix("y") { return head + last.dropLast() + "ieth" }
        return head + last + "th"
    }

    /// Years as a narrator reads them. British: 2000-2019 "two thousand and ten", from 2020 "twenty twenty".
    /// American: 2000-2009 "two thousand five", from 2010 "twenty ten". 1000-9999 otherwise in pairs:
    /// "eighteen fifty", "nineteen oh five", "nineteen hundred"; other values are cardinals.
    static func year(_ number: Int, american: Bool) -> String {
        guard number >= 1000, number <= 9999 else { return cardinal(number, and: !american) }
        let high = number / 100, low = number % 100
        if number >= 2000, number < (american ? 2010 : 2020) {
            if low == 0 { return "two thousand" }
            return "two thousand " + (american ? "" : "and ") + below100(low)
        }
        if high % 10 == 0, low < 10 { return cardinal(number, and: !american) }  // 1000-1009, 3005: not paired
        if low == 0 { return below100(high) + " hundred" }
        if low < 10 { return below100(high) + " oh " + ones[low] }
        return below100(high) + " " + below100(low)
    }

    /// Plural of a decade or century: 1920 → "nineteen-twenties", 1900 → "nineteen-hundreds", 60 → "sixties".
    static func decade(_ number: Int, american: Bool) -> String? {
        guard number % 10 == 0 else { return nil }
        if number < 100 {
            guard number >= 10 else { return nil }
            return plural(below100(number))
        }
        guard number >= 1000, number <= 9999 else { return nil }
        let high = number / 100, low = number % 100
        if number % 1000 == 0 { return below100(number / 1000) + "-thousands" }
        if low == 0 { return below100(high) + "-hundreds" }
        return below100(high) + "-" + plural(below100(low))
    }

    static func plural(_ word: String) -> String {
        word.hasSuffix("y") ? word.dropLast() + "ies" : word + "s"
    }

    static func fraction(numerator: Int, denominator: Int, and: Bool) -> String {
        let name: String
        switch denominator {
        case 2: name = numerator == 1 ? "half" : "halves"
        case 4: name = numerator == 1 ? "quarter" : "quarters"
        default:
            let ordinal = ordinal(denominator, and: and)
            name = numerator == 1 ? ordinal : ordinal + "s"
        }
        return cardinal(numerator, and: and) + " " + name
    }

    /// The fraction after a whole number: "three and a half", "one and three quarters".
    static func mixedFraction(numerator: Int, denominator: Int, and: Bool) -> String {
        if numerator == 1 {
            switch denominator {
            case 2: return "a half"
            case 4: return "a quarter"
            case 8: return "an eighth"
            default: return "a " + ordinal(denominator, and: and)
            }
        }
        return fraction(numerator: numerator, denominator: denominator, and: and)
    }
}
