// One front for the languages' number words, so the rules in NormalizationPass*.swift stay language-neutral.

/// The languages with number words and tables.
enum SupportedLanguage: Sendable {
    case english(american: Bool)
    case french
    case german
    case spanish
    /// European Portuguese, or Brazilian (pt-BR) where the number words differ.
    case portuguese(brazilian: Bool)
    case italian
}

struct NumberSpeller: Sendable {
    let language: SupportedLanguage

    private var britishAnd: Bool {
        if case .english(let american) = language { return !american }
        return false
    }

    private var brazilian: Bool {
        if case .portuguese(let brazilian) = language { return brazilian }
        return false
    }

    func cardinal(_ number: Int) -> String {
        switch language {
        case .english: return EnglishNumbers.cardinal(number, and: britishAnd)
        case .french: return FrenchNumbers.cardinal(number)
        case .german: return GermanNumbers.cardinal(number)
        case .spanish: return SpanishNumbers.cardinal(number)
        case .portuguese: return PortugueseNumbers.cardinal(number, brazilian: brazilian)
        case .italian: return ItalianNumbers.cardinal(number)
        }
    }

    /// The cardinal before a noun: German "ein Euro", Spanish "un euro", "veintiún kilómetros", Portuguese "duas
    /// toneladas", Italian "un euro", "una tonnellata".
    func cardinalBeforeNoun(_ number: Int, feminine: Bool = false) -> String {
        switch language {
        case .german: return GermanNumbers.cardinal(number, compound: true)
        case .spanish: return SpanishNumbers.apocopate(SpanishNumbers.cardinal(number))
        case .portuguese: return PortugueseNumbers.cardinal(number, brazilian: brazilian, feminine: feminine)
        case .italian: return number == 1 ? (feminine ? "una" : "un") : ItalianNumbers.cardinal(number)
        default: return cardinal(number)
        }
    }

    /// The plain ordinal: "twenty-first", "premier", "dritte" (German stem without case ending), "segundo".
    func ordinal(_ number: Int) -> String {
        switch language {
        case .english: return EnglishNumbers.ordinal(number, and: britishAnd)
        case .french: return FrenchNumbers.ordinal(number)
        case .german: return GermanNumbers.ordinal(number)
        case .spanish: return SpanishNumbers.ordinal(number)
        case .portuguese: return PortugueseNumbers.ordinal(number)
        case .italian: return ItalianNumbers.ordinal(number)
        }
    }

    /// An ordinal that agrees with a feminine noun where the language has the form ("1ª" → "primera", "primeira",
    /// "prima"); the plain ordinal elsewhere.
    func ordinal(_ number: Int, feminine: Bool) -> String {
        switch language {
        case .spanish: return SpanishNumbers.ordinal(number, feminine: feminine)
        case .portuguese: return PortugueseNumbers.ordinal(number, feminine: feminine, brazilian: brazilian)
        case .italian: return ItalianNumbers.ordinal(number, feminine: feminine)
        default: return ordinal(number)
        }
    }

    /// A Roman numeral after a noun that ranks ("Capitolo IV", "Parte II"): Italian reads the ordinal, Portuguese
    /// the ordinal up to ten and the cardinal after ("capítulo onze"); the other languages the cardinal.
    func numeralAfterNoun(_ number: Int, feminine: Bool) -> String {
        switch language {
        case .portuguese: return PortugueseNumbers.ordinalAfterNoun(number, feminine: feminine, brazilian: brazilian)
        case .italian: return ItalianNumbers.ordinal(number, feminine: feminine)
        default: return cardinal(number)
        }
    }

    /// A year: English in pairs ("eighteen fifty"), German in hundreds, the others as cardinals.
    func year(_ number: Int) -> String {
        switch language {
        case .english(let american): return EnglishNumbers.year(number, american: american)
        case .french: return FrenchNumbers.cardinal(number)
        case .german: return GermanNumbers.year(number)
        case .spanish, .portuguese, .italian: return cardinal(number)
        }
    }

    /// Whether four-digit numbers need telling apart as years or counts (they read the same in the Romance
    /// languages).
    var distinguishesYears: Bool {
        switch language {
        case .english, .german: return true
        case .french, .spanish, .portuguese, .italian: return false
        }
    }

    /// A monarch's or pope's number: "the Eighth", "quatorze" (but "premier"), "der Vierzehnte", "segundo",
    /// "segunda" (a queen, in Portuguese and Italian), "vinte e três", "ventitreesimo".
    func regnal(_ number: Int, feminine: Bool = false) -> String {
        switch language {
        case .english: return "the " + capitalized(ordinal(number))
        case .french: return number == 1 ? "premier" : FrenchNumbers.cardinal(number)
        case .german: return "der " + capitalized(GermanNumbers.ordinal(number))
        case .spanish: return SpanishNumbers.ordinal(number)
        case .portuguese, .italian: return numeralAfterNoun(number, feminine: feminine)
        }
    }

    func digitName(_ digit: Int) -> String {
        switch language {
        case .english: return EnglishNumbers.ones[digit]
        case .french: return FrenchNumbers.units[digit]
        case .german: return GermanNumbers.units[digit]
        case .spanish: return SpanishNumbers.small[digit]
        case .portuguese: return PortugueseNumbers.european[digit]
        case .italian: return ItalianNumbers.small[digit]
        }
    }

    /// Digit by digit, as phone and reference numbers are read.
    func digits<S: Sequence>(_ digits: S) -> String where S.Element == Unicode.Scalar {
        digits.map { digitName(Int($0.value) - 0x30) }.joined(separator: " ")
    }

    var pointWord: String {
        switch language {
        case .english: return "point"
        case .french: return "virgule"
        case .german: return "Komma"
        case .spanish: return "coma"
        case .portuguese: return "vírgula"
        case .italian: return "virgola"
        }
    }

    /// The written hyphen and point of a section or code number ("7-45.110"), said as such.
    var codeDashWord: String {
        switch language {
        case .english: return "dash"
        case .french: return "tiret"
        case .german: return "Strich"
        case .spanish: return "guion"
        case .portuguese: return "hífen"
        case .italian: return "trattino"
        }
    }

    var codePointWord: String {
        switch language {
        case .english, .french: return "point"
        case .german: return "Punkt"
        case .spanish, .italian: return "punto"
        case .portuguese: return "ponto"
        }
    }

    var rangeWord: String {
        switch language {
        case .english: return "to"
        case .french: return "à"
        case .german: return "bis"
        case .spanish, .portuguese, .italian: return "a"
        }
    }

    var minusWord: String {
        switch language {
        case .english: return "minus"
        case .french: return "moins"
        case .german: return "minus"
        case .spanish, .portuguese: return "menos"
        case .italian: return "meno"
        }
    }

    /// What joins the main unit of an amount and its hundredths: "three dollars fifty", "três euros e cinquenta".
    var moneyJoin: String {
        switch language {
        case .portuguese, .italian: return " e "
        default: return " "
        }
    }

    /// "3.14": English and German read the decimals digit by digit ("three point one four"); the Romance
    /// languages read them as a number after any leading zeros ("trois virgule quatorze", "tres coma cero cinco").
    func decimal(integer: Int, fraction: ArraySlice<Unicode.Scalar>) -> String {
        let head = cardinal(integer) + " " + pointWord + " "
        switch language {
        case .english, .german:
            return head + digits(fraction)
        case .french, .spanish, .portuguese, .italian:
            let zeros = fraction.prefix(while: { $0 == "0" })
            let rest = fraction.dropFirst(zeros.count)
            var words = zeros.map { _ in digitName(0) }
            if rest.count > 3 {
                words.append(digits(rest))
            } else if !rest.isEmpty {
                words.append(cardinal(Int(String(String.UnicodeScalarView(rest))) ?? 0))
            }
            return head + words.joined(separator: " ")
        }
    }

    /// A clock time: "ten thirty", "ten oh five", "ten o'clock"; "dix heures trente"; "zehn Uhr dreißig";
    /// "diez y treinta"; "dez e trinta", "duas horas"; "dieci e trenta".
    func time(hour: Int, minute: Int) -> String {
        switch language {
        case .english:
            if minute == 0 { return cardinal(hour) + " o'clock" }
            if minute < 10 { return cardinal(hour) + " oh " + cardinal(minute) }
            return cardinal(hour) + " " + cardinal(minute)
        case .french:
            let hours = hour == 1 ? "une heure" : cardinal(hour) + " heures"
            return minute == 0 ? hours : hours + " " + cardinal(minute)
        case .german:
            let hours = (hour == 1 ? "ein" : cardinal(hour)) + " Uhr"
            return minute == 0 ? hours : hours + " " + cardinal(minute)
        case .spanish:
            let hours = hour == 1 ? "una" : cardinal(hour)
            return minute == 0 ? hours + " en punto" : hours + " y " + cardinal(minute)
        case .portuguese:
            // The hour is feminine ("uma", "duas"), the minutes are not.
            let hours = PortugueseNumbers.cardinal(hour, brazilian: brazilian, feminine: true)
            if minute == 0 { return hours + (hour == 1 ? " hora" : " horas") }
            return hours + " e " + cardinal(minute)
        case .italian:
            let hours = hour == 1 ? "una" : cardinal(hour)
            return minute == 0 ? hours : hours + " e " + cardinal(minute)
        }
    }

    func fraction(numerator: Int, denominator: Int) -> String {
        switch language {
        case .english: return EnglishNumbers.fraction(numerator: numerator, denominator: denominator, and: britishAnd)
        case .french: return FrenchNumbers.fraction(numerator: numerator, denominator: denominator)
        case .german: return GermanNumbers.fraction(numerator: numerator, denominator: denominator)
        case .spanish: return SpanishNumbers.fraction(numerator: numerator, denominator: denominator)
        case .portuguese:
            return PortugueseNumbers.fraction(numerator: numerator, denominator: denominator, brazilian: brazilian)
        case .italian: return ItalianNumbers.fraction(numerator: numerator, denominator: denominator)
        }
    }

    func mixedFraction(whole: Int, numerator: Int, denominator: Int) -> String {
        switch language {
        case .english:
            return cardinal(whole) + " and "
                + EnglishNumbers.mixedFraction(numerator: numerator, denominator: denominator, and: britishAnd)
        case .french:
            return cardinal(whole) + " " + FrenchNumbers.mixedFraction(numerator: numerator, denominator: denominator)
        case .german:
            return GermanNumbers.mixedFraction(whole: whole, numerator: numerator, denominator: denominator)
        case .spanish:
            return cardinal(whole) + " " + SpanishNumbers.mixedFraction(numerator: numerator, denominator: denominator)
        case .portuguese:
            return cardinal(whole) + " "
                + PortugueseNumbers.mixedFraction(numerator: numerator, denominator: denominator, brazilian: brazilian)
        case .italian:
            return cardinal(whole) + " " + ItalianNumbers.mixedFraction(numerator: numerator, denominator: denominator)
        }
    }
}

func capitalized(_ word: String) -> String {
    guard let first = word.first else { return word }
    return first.uppercased() + word.dropFirst()
}
