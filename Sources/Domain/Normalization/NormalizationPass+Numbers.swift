// Numbers: amounts, years, decades, ordinals, ranges, fractions, times, units, currency, phone-like groups.

extension NormalizationPass {
    static let allowedDenominators: Set<Int> = [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 32, 64, 100]
    static let germanDativeBeforeDate: Set<String> = [
        "am", "vom", "zum", "den", "dem", "im", "beim", "seit", "ab", "bis",
    ]

    mutating func handleNumber(_ i: Int) -> Int {
        // Glued to letters before it ("MP3", "A4", "COVID19"): part of a name, left as written.
        guard let rules, kind(i - 1) != .word else {
            emitRaw(i)
            return i + 1
        }
        let literal = parseLiteral(i, rules: rules)
        if let end = rawRunEnd(literal, rules: rules) {
            emitRaw(i...end)
            return end + 1
        }
        if literal.isPlainInteger {
            if let end = handleHyphenated(i, rules: rules) { return end }
            if let end = handleTime(i, literal: literal, rules: rules) { return end }
            if let end = handleFraction(i, literal: literal, rules: rules) { return end }
        }
        if let end = handleDottedTime(literal, rules: rules) { return end }
        if let end = handleGluedSuffix(i, literal: literal, rules: rules) { return end }
        if let end = handleUnitOrCurrency(after: literal, rules: rules) { return end }
        if kind(literal.last + 1) == .word {  // "3D", "4x4": left as written
            emitRaw(i...literal.last)
            return literal.last + 1
        }
        if let end = handleDateDay(i, literal: literal, rules: rules) { return end }
        emit(reading(of: literal, at: i, rules: rules))
        return literal.last + 1
    }

    /// Reads digits with the language's thousands separator and decimal mark.
    func parseLiteral(_ i: Int, rules: LanguageRules) -> NumberLiteral {
        var digits = Array(scalars(i))
        var last = i
        var grouped = false
        if digits.count <= 3, digits.first != "0" {
            while last + 2 < tokens.count, kind(last + 2) == .number, tokens[last + 2].length == 3 {
                let separator = last + 1
                let isGroupSeparator: Bool
                let c = s[tokens[separator].start]
                let thinSpace = tokens[separator].length == 1 && (c == "\u{00A0}" || c == "\u{202F}" || c == "\u{2009}")
                if rules.isEnglish {
                    isGroupSeparator = isSymbol(separator, ",")
                } else if rules.isFrench || rules.isPortuguese {
                    // French and European Portuguese group thousands with a space ("1 000"), Brazilian with a point.
                    isGroupSeparator = tokens[separator].length == 1 && (c == " " || c == "." || thinSpace)
                } else {
                    isGroupSeparator = isSymbol(separator, ".") || (rules.isItalian && thinSpace)
                }
                guard isGroupSeparator else { break }
                digits += scalars(last + 2)
                last += 2
                grouped = true
            }
        }
        var fraction: ArraySlice<Unicode.Scalar>?
        let decimalMark: Unicode.Scalar = rules.isEnglish ? "." : ","
        if isSymbol(last + 1, decimalMark), kind(last + 2) == .number,
            !(isSymbol(last + 3, decimalMark) && kind(last + 4) == .number)
        {
            fraction = scalars(last + 2)
            last += 2
        }
        var value: Int?
        if digits.count <= Self.maximumNumberDigits, digits.count == 1 || digits.first != "0" {
            value = digits.reduce(0) { $0 * 10 + Int($1.value - 0x30) }
        }
        return NumberLiteral(digits: digits, grouped: grouped, fraction: fraction, last: last, value: value)
    }

    /// Dotted or slashed runs of numbers ("3.14.1", "192.168.0.1", "3/4/2021", German "31.12.1999") are versions,
    /// addresses and dates in forms this module does not read: they pass through as written.
    func rawRunEnd(_ literal: NumberLiteral, rules: LanguageRules) -> Int? {
        var j = literal.last
        var count = 0
        var separator: Unicode.Scalar?
        while let c = symbol(j + 1), c == "." || c == "/" || c == ":", separator == nil || separator == c,
            kind(j + 2) == .number
        {
            separator = c
            j += 2
            count += 1
        }
        if count >= 2 { return j }
        if count == 1, separator == ".", !rules.isEnglish { return j }
        return nil
    }

    /// The spoken form of a number standing on its own: a year, an ordinal day, a decimal, a cardinal, or
    /// digit by digit when it has a leading zero or more than 15 digits.
    mutating func reading(of literal: NumberLiteral, at i: Int, rules: LanguageRules) -> String {
        let speller = rules.speller
        guard let value = literal.value else {
            var text = speller.digits(literal.digits)
            if let fraction = literal.fraction { text += " " + speller.pointWord + " " + speller.digits(fraction) }
            return text
        }
        if let fraction = literal.fraction { return speller.decimal(integer: value, fraction: fraction) }
        if literal.grouped { return speller.cardinal(value) }
        if rules.isEnglish, cue(at: i) == .year, cueIsMonth, literal.digits.count <= 2, (1...31).contains(value) {
            // "March 3, 1921" → "March third, nineteen twenty-one"
            if isSymbol(literal.last + 1, ",") { setCue(.year, at: literal.last + 1) }
            return speller.ordinal(value)
        }
        if isYear(literal, at: i, rules: rules) {
            lastYearToken = literal.last
            return speller.year(value)
        }
        return speller.cardinal(value)
    }

    /// Whether a four-digit number is a year ("in 1850", "1850.", "1850 was", "the 1912 census") rather than a
    /// count ("1850 soldiers"). Only English and German read the two differently.
    func isYear(_ literal: NumberLiteral, at i: Int, rules: LanguageRules) -> Bool {
        guard rules.speller.distinguishesYears, literal.isPlainInteger, literal.digits.count == 4,
            let value = literal.value, (1000...2099).contains(value)
        else { return false }
        if cue(at: i) == .year { return true }
        if let link = previous(before: i), kind(link) != .number,
            rules.data.yearLinks.contains(text(link).lowercased()), previous(before: link) == lastYearToken
        {
            return true
        }
        guard let n = next(after: literal.last) else { return true }
        switch kind(n) {
        case .symbol: return true
        case .word:
            for era in rules.data.eraWords where hasPrefix(era, at: n) { return true }
            if rules.isGerman { return !startsUpper(n) }
            if startsUpper(n) { return true }
            let word = text(n)
            if rules.data.yearFollowers.contains(word) { return true }
            // "the 1912 census", "a 1923 recording": a number in the years people write about, before a
            // singular noun, names a year; a plural noun ("1907 soldiers", "1907 new recruits") counts.
            guard Self.plainYears.contains(value), !rules.data.looksPlural(word) else { return false }
            if rules.data.quantityModifiers.contains(word), let noun = next(after: n), kind(noun) == .word,
                rules.data.looksPlural(text(noun))
            {
                return false
            }
            return true
        default: return false
        }
    }

    /// Four-digit numbers read as years from their context alone, with no cue word before them.
    static let plainYears = 1100...2099

    func hasPrefix(_ string: String, at i: Int) -> Bool {
        var k = tokens[i].start
        for c in string.unicodeScalars {
            guard k < s.count, s[k] == c else { return false }
            k += 1
        }
        return k >= s.count || !Scalars.isAlphanumeric(s[k]) || !Scalars.isAlphanumeric(s[k - 1])
    }

    func intValue(_ i: Int) -> Int? {
        let digits = scalars(i)
        guard digits.count <= Self.maximumNumberDigits, digits.count == 1 || digits.first != "0" else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1.value - 0x30) }
    }

    // MARK: Hyphens and dashes

    /// "555-0123" and "978-3-16-148410-0" digit by digit; "3-5", "1914–18", "310-12" as ranges; "7-45.110" as a
    /// section number.
    mutating func handleHyphenated(_ i: Int, rules: LanguageRules) -> Int? {
        var groups = [i]
        var j = i
        while isSymbol(j + 1, "-"), kind(j + 2) == .number {
            j += 2
            groups.append(j)
        }
        if groups.count == 2, let end = handleSectionNumber(i, j, rules: rules) { return end }
        let speller = rules.speller
        let leadingZero = groups.contains { tokens[$0].length > 1 && s[tokens[$0].start] == "0" }
        // "1905-09", "301-09": a shortened end may start with a zero.
        let shortenedRange = groups.count == 2 && intValue(i) != nil && expandedEnd(i, j) != nil
        if groups.count >= 3
            || (groups.count == 2
                && ((leadingZero && !shortenedRange) || (tokens[i].length == 3 && tokens[j].length == 4)))
        {
            emit(groups.map { speller.digits(scalars($0)) }.joined(separator: ", "))
            return j + 1
        }
        var second: Int?
        if groups.count == 2 {
            second = j
        } else if isSymbol(i + 1, "\u{2013}"), kind(i + 2) == .number {
            second = i + 2
        } else if isInlineSpace(i + 1), isSymbol(i + 2, "\u{2013}"), isInlineSpace(i + 3), kind(i + 4) == .number {
            second = i + 4
        }
        guard let second, kind(second + 1) != .word || isUnitStart(second + 1, rules: rules) else { return nil }
        if let end = handleDecimalRangeEnd(i, second, rules: rules) { return end }
        guard let words = rangeReading(i, second, rules: rules) else { return nil }
        emit(words)
        if let (unit, last) = unit(after: second, rules: rules) {
            emit(" " + unit.plural)
            return last + 1
        }
        return second + 1
    }

    mutating func rangeReading(_ a: Int, _ b: Int, rules: LanguageRules) -> String? {
        guard let first = intValue(a), tokens[b].length <= 4,
            let written = Int(String(String.UnicodeScalarView(scalars(b))))
        else { return nil }
        let speller = rules.speller
        let expanded = expandedEnd(a, b)
        let last = expanded ?? written
        guard last > first else { return nil }
        let yearLike = tokens[a].length == 4 && (1000...2099).contains(first)
        let years =
            speller.distinguishesYears && yearLike && (expanded != nil || tokens[b].length == 4)
            && !cue(at: a).countsNumerals
        if years {
            lastYearToken = b
            let end: String
            if expanded != nil, tokens[b].length <= 2 {
                // "1914-18" → "nineteen fourteen to eighteen", "1880-5" → "eighteen eighty to eighty-five".
                let tail = last % 100
                end = rules.isEnglish && tail < 10 ? "oh " + speller.cardinal(tail) : speller.cardinal(tail)
            } else {
                end = speller.year(last)
            }
            return speller.year(first) + " " + speller.rangeWord + " " + end
        }
        // Years read as cardinals keep the end as written ("mille neuf cent quatorze à dix-huit"); pages do not.
        let keepsWritten =
            yearLike && tokens[b].length == 2 && !speller.distinguishesYears && !cue(at: a).countsNumerals
        let end = keepsWritten ? written : last
        return speller.cardinal(first) + " " + speller.rangeWord + " " + speller.cardinal(end)
    }

    /// The end of a range written shortened, which takes the first number's leading digits: "310-12" → 312,
    /// "1914-18" → 1918, "1880-5" → 1885. Nil unless the second number is shorter and the result is larger than
    /// the first. Ranges that start below 100 are never shortened: "10-3", "2-1" are scores.
    func expandedEnd(_ a: Int, _ b: Int) -> Int? {
        let long = tokens[a].length, short = tokens[b].length
        guard short < long, long <= 4, let first = intValue(a), first >= 100,
            let written = Int(String(String.UnicodeScalarView(scalars(b))))
        else { return nil }
        var scale = 1
        for _ in 0..<short { scale *= 10 }
        let last = first - first % scale + written
        return last > first ? last : nil
    }

    /// "3-5.5 kg", "3-5,5 kg": a range whose end has decimals.
    mutating func handleDecimalRangeEnd(_ a: Int, _ b: Int, rules: LanguageRules) -> Int? {
        let end = parseLiteral(b, rules: rules)
        guard let fraction = end.fraction, !end.grouped, let first = intValue(a), let last = end.value, last >= first,
            rawRunEnd(end, rules: rules) == nil, kind(end.last + 1) != .word || isUnitStart(end.last + 1, rules: rules)
        else { return nil }
        let speller = rules.speller
        emit(
            speller.cardinal(first) + " " + speller.rangeWord + " " + speller.decimal(integer: last, fraction: fraction)
        )
        if let (unit, unitEnd) = unit(after: end.last, rules: rules) {
            emit(" " + unit.plural)
            return unitEnd + 1
        }
        return end.last + 1
    }

    /// "7-45.110", a section of a code of law: digits, a hyphen, digits, then a point and digits. Read as it is
    /// written, group by group with the hyphen and the point said ("seven dash forty-five point one one zero"),
    /// the way identifiers are read, never as a range or a decimal. In English a point followed by one or two
    /// digits is a decimal ("3-5.5 kg"), unless another point follows.
    mutating func handleSectionNumber(_ first: Int, _ second: Int, rules: LanguageRules) -> Int? {
        guard isSymbol(second + 1, "."), kind(second + 2) == .number else { return nil }
        if rules.isEnglish, tokens[second + 2].length < 3, !(isSymbol(second + 3, ".") && kind(second + 4) == .number) {
            return nil
        }
        let speller = rules.speller
        func group(_ k: Int) -> String {
            tokens[k].length <= 4
                ? intValue(k).map(speller.cardinal) ?? speller.digits(scalars(k)) : speller.digits(scalars(k))
        }
        var words = [group(first), speller.codeDashWord, group(second)]
        var k = second
        while isSymbol(k + 1, "."), kind(k + 2) == .number {
            words += [speller.codePointWord, speller.digits(scalars(k + 2))]
            k += 2
        }
        emit(words.joined(separator: " "))
        return k + 1
    }

    // MARK: Times and fractions

    mutating func handleTime(_ i: Int, literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard tokens[i].length <= 2, let hour = literal.value, hour <= 24 else { return nil }
        if isSymbol(i + 1, ":"), kind(i + 2) == .number, tokens[i + 2].length == 2,
            let minute = intValue(i + 2)
                ?? (s[tokens[i + 2].start] == "0" ? Int(String(String.UnicodeScalarView(scalars(i + 2)))) : nil),
            minute <= 59
        {
            if minute == 0, rules.isEnglish, let n = next(after: i + 2), isMeridiem(n) {
                emit(rules.speller.cardinal(hour))
            } else {
                emit(rules.speller.time(hour: hour, minute: minute))
            }
            return i + 3
        }
        // French "10h30", "10 h 30", "10 h".
        guard rules.isFrench else { return nil }
        var h = i + 1
        if isInlineSpace(h), tokens[h].length == 1 { h += 1 }
        guard kind(h) == .word, text(h) == "h" else { return nil }
        var m = h + 1
        if isInlineSpace(m), tokens[m].length == 1, kind(m + 1) == .number { m += 1 }
        if kind(m) == .number, tokens[m].length == 2, let minute = Int(text(m)), minute <= 59 {
            emit(rules.speller.time(hour: hour, minute: minute))
            return m + 1
        }
        emit(rules.speller.time(hour: hour, minute: 0))
        return h + 1
    }

    /// English "4.15 p.m.": an hour and two digits of minutes after a point, before a.m. or p.m.,
    /// is a time ("four fifteen p m"), not a decimal ("four point one five").
    mutating func handleDottedTime(_ literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard rules.isEnglish, let fraction = literal.fraction, fraction.count == 2, !literal.grouped,
            let hour = Int(String(String.UnicodeScalarView(literal.digits))), (1...12).contains(hour),
            let minute = Int(String(String.UnicodeScalarView(fraction))), minute <= 59,
            let n = next(after: literal.last), isMeridiem(n)
        else { return nil }
        emit(minute == 0 ? rules.speller.cardinal(hour) : rules.speller.time(hour: hour, minute: minute))
        return literal.last + 1
    }

    func isMeridiem(_ i: Int) -> Bool {
        ["a.m.", "p.m.", "A.M.", "P.M.", "am", "pm", "AM", "PM"].contains { hasPrefix($0, at: i) }
    }

    /// "1/2" → "one half", "3 1/2" → "three and a half". Only proper fractions with everyday denominators.
    mutating func handleFraction(_ i: Int, literal: NumberLiteral, rules: LanguageRules) -> Int? {
        let speller = rules.speller
        if let whole = literal.value, isInlineSpace(i + 1), tokens[i + 1].length == 1, kind(i + 2) == .number,
            isSymbol(i + 3, "/"), kind(i + 4) == .number, !isSymbol(i + 5, "/"), kind(i + 5) != .word,
            let (numerator, denominator) = properFraction(i + 2, i + 4)
        {
            emit(speller.mixedFraction(whole: whole, numerator: numerator, denominator: denominator))
            return i + 5
        }
        if isSymbol(i + 1, "/"), kind(i + 2) == .number, !isSymbol(i + 3, "/"), kind(i + 3) != .word,
            let (numerator, denominator) = properFraction(i, i + 2)
        {
            emit(speller.fraction(numerator: numerator, denominator: denominator))
            return i + 3
        }
        return nil
    }

    func properFraction(_ a: Int, _ b: Int) -> (Int, Int)? {
        guard let numerator = intValue(a), let denominator = intValue(b), numerator >= 1, numerator < denominator,
            Self.allowedDenominators.contains(denominator)
        else { return nil }
        return (numerator, denominator)
    }

    // MARK: Suffixes, units, currency, dates

    /// Letters glued after the number: ordinals ("21st", "2e", "1er", "3º"), decades ("1920s", "20er").
    mutating func handleGluedSuffix(_ i: Int, literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard literal.isPlainInteger, let value = literal.value else { return nil }
        let speller = rules.speller
        let after = literal.last + 1
        if rules.isEnglish, let c = symbol(after), Scalars.isApostrophe(c), kind(after + 1) == .word,
            text(after + 1) == "s", let decade = EnglishNumbers.decade(value, american: false), tokens[i].length == 4
        {
            emit(decade)
            return after + 2
        }
        if rules.writesOrdinalIndicators, isSymbol(after, "."), kind(after + 1) == .word,
            ["º", "ª"].contains(text(after + 1))
        {
            emit(speller.ordinal(value, feminine: text(after + 1) == "ª"))
            return after + 2
        }
        // Italian "1° gennaio": the degree sign written for "º" before a month.
        if rules.isItalian, isSymbol(after, "°"), let month = next(after: after), isMonth(month, rules: rules) {
            emit(speller.ordinal(value))
            return after + 1
        }
        guard kind(after) == .word else { return nil }
        let suffix = text(after)
        if rules.isEnglish {
            if ["st", "nd", "rd", "th", "ST", "ND", "RD", "TH"].contains(suffix) {
                let ordinal = speller.ordinal(value)
                if (1...31).contains(value), let month = next(after: after), isMonth(month, rules: rules) {
                    let article = previous(before: i).map { text($0).lowercased() == "the" } ?? false
                    emit((article ? "" : "the ") + ordinal + " of")
                } else {
                    emit(ordinal)
                }
                return after + 1
            }
            if suffix == "s", let decade = EnglishNumbers.decade(value, american: false),
                tokens[i].length == 4 || tokens[i].length == 2
            {
                emit(decade)
                return after + 1
            }
        } else if rules.isFrench {
            if value == 1, ["er", "ᵉʳ"].contains(suffix) {
                emit("premier")
                return after + 1
            }
            if value == 1, ["re", "ère", "ʳᵉ"].contains(suffix) {
                emit("première")
                return after + 1
            }
            if ["e", "è", "ème", "eme", "ᵉ"].contains(suffix) {
                emit(FrenchNumbers.ordinal(value))
                return after + 1
            }
        } else if rules.writesOrdinalIndicators {
            if ["º", "ª"].contains(suffix) {
                emit(speller.ordinal(value, feminine: suffix == "ª"))
                return after + 1
            }
        } else if rules.isGerman {
            if suffix == "er", value % 10 == 0, value >= 10 {
                emit((tokens[i].length == 4 ? GermanNumbers.year(value) : speller.cardinal(value)) + "er")
                return after + 1
            }
        }
        return nil
    }

    func isUnitStart(_ i: Int, rules: LanguageRules) -> Bool {
        rules.units.candidates(for: text(i)).contains { $0.match(in: s, at: tokens[i].start, afterDigits: true) != nil }
    }

    /// A unit symbol right after token `i` (glued or after one space): its names and its last token.
    func unit(after i: Int, rules: LanguageRules) -> (UnitName, Int)? {
        var k = i + 1
        if isInlineSpace(k), tokens[k].length == 1 { k += 1 }
        guard k < tokens.count, kind(k) == .word || kind(k) == .symbol else { return nil }
        for phrase in rules.units.candidates(for: text(k)) {
            guard let end = phrase.match(in: s, at: tokens[k].start, afterDigits: true) else { continue }
            var last = k
            while tokens[last].end < end { last += 1 }
            return (phrase.value, last)
        }
        return nil
    }

    /// "5 km", "20°C", "50%", "20 €", "3,50 €".
    mutating func handleUnitOrCurrency(after literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard literal.value != nil else { return nil }
        var k = literal.last + 1
        if isInlineSpace(k), tokens[k].length == 1 { k += 1 }
        if let c = symbol(k), let currency = rules.data.currencies[String(c)],
            let words = money(literal, currency, rules: rules)
        {
            emit(words)
            return k + 1
        }
        guard let (unit, last) = unit(after: literal.last, rules: rules) else { return nil }
        let one = literal.value == 1 && literal.fraction == nil
        let amount =
            literal.fraction == nil
            ? rules.speller.cardinalBeforeNoun(literal.value!, feminine: unit.feminine)
            : rules.speller.decimal(integer: literal.value!, fraction: literal.fraction!)
        emit(amount + " " + (one ? unit.singular : unit.plural))
        return last + 1
    }

    /// "three dollars fifty", "fifty cents", "five pounds", "trois euros cinquante".
    func money(_ literal: NumberLiteral, _ currency: CurrencyName, rules: LanguageRules) -> String? {
        guard let major = literal.value else { return nil }
        let speller = rules.speller
        guard let fraction = literal.fraction else {
            return speller.cardinalBeforeNoun(major, feminine: currency.feminine) + " "
                + (major == 1 ? currency.singular : currency.plural)
        }
        guard fraction.count == 2, let minor = Int(String(String.UnicodeScalarView(fraction))) else {
            return speller.decimal(integer: major, fraction: fraction) + " " + currency.plural
        }
        if major == 0 {
            return speller.cardinalBeforeNoun(minor) + " "
                + (minor == 1 ? currency.minorSingular : currency.minorPlural)
        }
        let head =
            speller.cardinalBeforeNoun(major, feminine: currency.feminine) + " "
            + (major == 1 ? currency.singular : currency.plural)
        return minor == 0 ? head : head + speller.moneyJoin + speller.cardinal(minor)
    }

    /// Days before a month: English "3 March" → "the third of March", German "am 3. März" → "am dritten März".
    mutating func handleDateDay(_ i: Int, literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard literal.isPlainInteger, tokens[i].length <= 2, let day = literal.value, (1...31).contains(day) else {
            return nil
        }
        if rules.isEnglish, let month = next(after: i), isMonth(month, rules: rules) {
            let article = previous(before: i).map { text($0).lowercased() == "the" } ?? false
            emit((article ? "" : "the ") + rules.speller.ordinal(day) + " of")
            return i + 1
        }
        if rules.isGerman, isSymbol(i + 1, "."), isInlineSpace(i + 2), isMonth(i + 3, rules: rules) {
            let before = previous(before: i).map { text($0).lowercased() } ?? ""
            let ending = Self.germanDativeBeforeDate.contains(before) ? "n" : "r"
            emit(GermanNumbers.ordinal(day) + ending)
            return i + 2
        }
        // Portuguese "1 de janeiro", Italian "1 gennaio": the first of the month is an ordinal.
        if day == 1, rules.isPortuguese || rules.isItalian, var month = next(after: i) {
            if let link = rules.data.dateLink, kind(month) == .word, text(month) == link, let name = next(after: month)
            {
                month = name
            }
            if isMonth(month, rules: rules) {
                emit(rules.speller.ordinal(1))
                return i + 1
            }
        }
        return nil
    }
}
