// Numbers: amounts, years, decades, ordinals, ranges, fractions, times, units, currency, phone-like groups.

extension NormalizationPass {
    static let allowedDenominators: Set<Int> = [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 20, 32, 64, 100]
    static let germanDativeBeforeDate: Set<String> = [
        "am", "vom", "zum", "den", "dem", "im", "beim", "seit", "ab", "bis",
    ]

    mutating func handleNumber(_ index: Int) -> Int {
        // Glued to letters before it ("MP3", "A4", "COVID19"): part of a name, left as written.
        guard let rules, kind(index - 1) != .word else {
            emitRaw(index)
            return index + 1
        }
        let literal = parseLiteral(index, rules: rules)
        if let end = rawRunEnd(literal, rules: rules) {
            emitRaw(index...end)
            return end + 1
        }
        if literal.isPlainInteger {
            if let end = handleHyphenated(index, rules: rules) { return end }
            if let end = handleTime(index, literal: literal, rules: rules) { return end }
            if let end = handleFraction(index, literal: literal, rules: rules) { return end }
        }
        if let end = handleDottedTime(literal, rules: rules) { return end }
        if let end = handleGluedSuffix(index, literal: literal, rules: rules) { return end }
        if let end = handleUnitOrCurrency(after: literal, rules: rules) { return end }
        if kind(literal.last + 1) == .word {  // "3D", "4x4": left as written
            emitRaw(index...literal.last)
            return literal.last + 1
        }
        if let end = handleDateDay(index, literal: literal, rules: rules) { return end }
        emit(reading(of: literal, at: index, rules: rules))
        return literal.last + 1
    }

    /// Reads digits with the language's thousands separator and decimal mark.
    func parseLiteral(_ index: Int, rules: LanguageRules) -> NumberLiteral {
        var digits = Array(scalars(index))
        var last = index
        var grouped = false
        if digits.count <= 3, digits.first != "0" {
            while last + 2 < tokens.count, kind(last + 2) == .number, tokens[last + 2].length == 3 {
                let separator = last + 1
                let isGroupSeparator: Bool
                let separatorScalar = source[tokens[separator].start]
                let thinSpace =
                    tokens[separator].length == 1
                    && (separatorScalar == "\u{00A0}" || separatorScalar == "\u{202F}" || separatorScalar == "\u{2009}")
                if rules.isEnglish {
                    isGroupSeparator = isSymbol(separator, ",")
                } else if rules.isFrench || rules.isPortuguese {
                    // French and European Portuguese group thousands with a space ("1 000"), Brazilian with a point.
                    isGroupSeparator =
                        tokens[separator].length == 1 && (separatorScalar == " " || separatorScalar == "." || thinSpace)
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
        var end = literal.last
        var count = 0
        var separator: Unicode.Scalar?
        while let mark = symbol(end + 1), mark == "." || mark == "/" || mark == ":",
            separator == nil || separator == mark,
            kind(end + 2) == .number
        {
            separator = mark
            end += 2
            count += 1
        }
        if count >= 2 { return end }
        if count == 1, separator == ".", !rules.isEnglish { return end }
        return nil
    }

    /// The spoken form of a number standing on its own: a year, an ordinal day, a decimal, a cardinal, or
    /// digit by digit when it has a leading zero or more than 15 digits.
    mutating func reading(of literal: NumberLiteral, at index: Int, rules: LanguageRules) -> String {
        let speller = rules.speller
        guard let value = literal.value else {
            var text = speller.digits(literal.digits)
            if let fraction = literal.fraction { text += " " + speller.pointWord + " " + speller.digits(fraction) }
            return text
        }
        if let fraction = literal.fraction { return speller.decimal(integer: value, fraction: fraction) }
        if literal.grouped { return speller.cardinal(value) }
        if rules.isEnglish, cue(at: index) == .year, cueIsMonth, literal.digits.count <= 2, (1...31).contains(value) {
            // "March 3, 1921" → "March third, nineteen twenty-one"
            if isSymbol(literal.last + 1, ",") { setCue(.year, at: literal.last + 1) }
            return speller.ordinal(value)
        }
        if isYear(literal, at: index, rules: rules) {
            lastYearToken = literal.last
            return speller.year(value)
        }
        return speller.cardinal(value)
    }

    /// Whether a four-digit number is a year ("in 1850", "1850.", "1850 was", "the 1912 census") rather than a
    /// count ("1850 soldiers"). Only English and German read the two differently.
    func isYear(_ literal: NumberLiteral, at index: Int, rules: LanguageRules) -> Bool {
        guard rules.speller.distinguishesYears, literal.isPlainInteger, literal.digits.count == 4,
            let value = literal.value, (1000...2099).contains(value)
        else { return false }
        if cue(at: index) == .year { return true }
        if let link = previous(before: index), kind(link) != .number,
            rules.data.yearLinks.contains(text(link).lowercased()), previous(before: link) == lastYearToken
        {
            return true
        }
        guard let following = next(after: literal.last) else { return true }
        switch kind(following) {
        case .symbol: return true
        case .word:
            for era in rules.data.eraWords where hasPrefix(era, at: following) { return true }
            if rules.isGerman { return !startsUpper(following) }
            if startsUpper(following) { return true }
            let word = text(following)
            if rules.data.yearFollowers.contains(word) { return true }
            // "the 1912 census", "a 1923 recording": a number in the years people write about, before a
            // singular noun, names a year; a plural noun ("1907 soldiers", "1907 new recruits") counts.
            guard Self.plainYears.contains(value), !rules.data.looksPlural(word) else { return false }
            if rules.data.quantityModifiers.contains(word), let noun = next(after: following), kind(noun) == .word,
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

    func hasPrefix(_ string: String, at index: Int) -> Bool {
        var position = tokens[index].start
        for expected in string.unicodeScalars {
            guard position < source.count, source[position] == expected else { return false }
            position += 1
        }
        return position >= source.count || !Scalars.isAlphanumeric(source[position])
            || !Scalars.isAlphanumeric(source[position - 1])
    }

    func intValue(_ index: Int) -> Int? {
        let digits = scalars(index)
        guard digits.count <= Self.maximumNumberDigits, digits.count == 1 || digits.first != "0" else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1.value - 0x30) }
    }

    // MARK: Hyphens and dashes

    /// "555-0123" and "978-3-16-148410-0" digit by digit; "3-5", "1914–18", "310-12" as ranges; "7-45.110" as a
    /// section number.
    mutating func handleHyphenated(_ index: Int, rules: LanguageRules) -> Int? {
        var groups = [index]
        var lastGroup = index
        while isSymbol(lastGroup + 1, "-"), kind(lastGroup + 2) == .number {
            lastGroup += 2
            groups.append(lastGroup)
        }
        if groups.count == 2, let end = handleSectionNumber(index, lastGroup, rules: rules) { return end }
        let speller = rules.speller
        let leadingZero = groups.contains { tokens[$0].length > 1 && source[tokens[$0].start] == "0" }
        // "1905-09", "301-09": a shortened end may start with a zero.
        let shortenedRange = groups.count == 2 && intValue(index) != nil && expandedEnd(index, lastGroup) != nil
        if groups.count >= 3
            || (groups.count == 2
                && ((leadingZero && !shortenedRange) || (tokens[index].length == 3 && tokens[lastGroup].length == 4)))
        {
            emit(groups.map { speller.digits(scalars($0)) }.joined(separator: ", "))
            return lastGroup + 1
        }
        var second: Int?
        if groups.count == 2 {
            second = lastGroup
        } else if isSymbol(index + 1, "\u{2013}"), kind(index + 2) == .number {
            second = index + 2
        } else if isInlineSpace(index + 1), isSymbol(index + 2, "\u{2013}"), isInlineSpace(index + 3),
            kind(index + 4) == .number
        {
            second = index + 4
        }
        guard let second, kind(second + 1) != .word || isUnitStart(second + 1, rules: rules) else { return nil }
        if let end = handleDecimalRangeEnd(index, second, rules: rules) { return end }
        guard let words = rangeReading(index, second, rules: rules) else { return nil }
        emit(words)
        if let (unit, last) = unit(after: second, rules: rules) {
            emit(" " + unit.plural)
            return last + 1
        }
        return second + 1
    }

    mutating func rangeReading(_ startToken: Int, _ endToken: Int, rules: LanguageRules) -> String? {
        guard let first = intValue(startToken), tokens[endToken].length <= 4,
            let written = Int(String(String.UnicodeScalarView(scalars(endToken))))
        else { return nil }
        let speller = rules.speller
        let expanded = expandedEnd(startToken, endToken)
        let last = expanded ?? written
        guard last > first else { return nil }
        let yearLike = tokens[startToken].length == 4 && (1000...2099).contains(first)
        let years =
            speller.distinguishesYears && yearLike && (expanded != nil || tokens[endToken].length == 4)
            && !cue(at: startToken).countsNumerals
        if years {
            lastYearToken = endToken
            let end: String
            if expanded != nil, tokens[endToken].length <= 2 {
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
            yearLike && tokens[endToken].length == 2 && !speller.distinguishesYears
            && !cue(at: startToken).countsNumerals
        let end = keepsWritten ? written : last
        return speller.cardinal(first) + " " + speller.rangeWord + " " + speller.cardinal(end)
    }

    /// The end of a range written shortened, which takes the first number's leading digits: "310-12" → 312,
    /// "1914-18" → 1918, "1880-5" → 1885. Nil unless the second number is shorter and the result is larger than
    /// the first. Ranges that start below 100 are never shortened: "10-3", "2-1" are scores.
    func expandedEnd(_ start: Int, _ end: Int) -> Int? {
        let long = tokens[start].length, short = tokens[end].length
        guard short < long, long <= 4, let first = intValue(start), first >= 100,
            let written = Int(String(String.UnicodeScalarView(scalars(end))))
        else { return nil }
        var scale = 1
        for _ in 0..<short { scale *= 10 }
        let last = first - first % scale + written
        return last > first ? last : nil
    }

    /// "3-5.5 kg", "3-5,5 kg": a range whose end has decimals.
    mutating func handleDecimalRangeEnd(_ startToken: Int, _ endToken: Int, rules: LanguageRules) -> Int? {
        let end = parseLiteral(endToken, rules: rules)
        guard let fraction = end.fraction, !end.grouped, let first = intValue(startToken), let last = end.value,
            last >= first,
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
        func group(_ token: Int) -> String {
            tokens[token].length <= 4
                ? intValue(token).map(speller.cardinal) ?? speller.digits(scalars(token))
                : speller.digits(scalars(token))
        }
        var words = [group(first), speller.codeDashWord, group(second)]
        var lastGroup = second
        while isSymbol(lastGroup + 1, "."), kind(lastGroup + 2) == .number {
            words += [speller.codePointWord, speller.digits(scalars(lastGroup + 2))]
            lastGroup += 2
        }
        emit(words.joined(separator: " "))
        return lastGroup + 1
    }

    // MARK: Times and fractions

    mutating func handleTime(_ index: Int, literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard tokens[index].length <= 2, let hour = literal.value, hour <= 24 else { return nil }
        if isSymbol(index + 1, ":"), kind(index + 2) == .number, tokens[index + 2].length == 2,
            let minute = intValue(index + 2)
                ?? (source[tokens[index + 2].start] == "0"
                    ? Int(String(String.UnicodeScalarView(scalars(index + 2)))) : nil),
            minute <= 59
        {
            if minute == 0, rules.isEnglish, let following = next(after: index + 2), isMeridiem(following) {
                emit(rules.speller.cardinal(hour))
            } else {
                emit(rules.speller.time(hour: hour, minute: minute))
            }
            return index + 3
        }
        // French "10h30", "10 h 30", "10 h".
        guard rules.isFrench else { return nil }
        var hourSign = index + 1
        if isInlineSpace(hourSign), tokens[hourSign].length == 1 { hourSign += 1 }
        guard kind(hourSign) == .word, text(hourSign) == "h" else { return nil }
        var minuteToken = hourSign + 1
        if isInlineSpace(minuteToken), tokens[minuteToken].length == 1, kind(minuteToken + 1) == .number {
            minuteToken += 1
        }
        if kind(minuteToken) == .number, tokens[minuteToken].length == 2, let minute = Int(text(minuteToken)),
            minute <= 59
        {
            emit(rules.speller.time(hour: hour, minute: minute))
            return minuteToken + 1
        }
        emit(rules.speller.time(hour: hour, minute: 0))
        return hourSign + 1
    }

    /// English "4.15 p.m.": an hour and two digits of minutes after a point, before a.m. or p.m.,
    /// is a time ("four fifteen p m"), not a decimal ("four point one five").
    mutating func handleDottedTime(_ literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard rules.isEnglish, let fraction = literal.fraction, fraction.count == 2, !literal.grouped,
            let hour = Int(String(String.UnicodeScalarView(literal.digits))), (1...12).contains(hour),
            let minute = Int(String(String.UnicodeScalarView(fraction))), minute <= 59,
            let following = next(after: literal.last), isMeridiem(following)
        else { return nil }
        emit(minute == 0 ? rules.speller.cardinal(hour) : rules.speller.time(hour: hour, minute: minute))
        return literal.last + 1
    }

    func isMeridiem(_ index: Int) -> Bool {
        ["a.m.", "p.m.", "A.M.", "P.M.", "am", "pm", "AM", "PM"].contains { hasPrefix($0, at: index) }
    }

    /// "1/2" → "one half", "3 1/2" → "three and a half". Only proper fractions with everyday denominators.
    mutating func handleFraction(_ index: Int, literal: NumberLiteral, rules: LanguageRules) -> Int? {
        let speller = rules.speller
        if let whole = literal.value, isInlineSpace(index + 1), tokens[index + 1].length == 1,
            kind(index + 2) == .number,
            isSymbol(index + 3, "/"), kind(index + 4) == .number, !isSymbol(index + 5, "/"), kind(index + 5) != .word,
            let (numerator, denominator) = properFraction(index + 2, index + 4)
        {
            emit(speller.mixedFraction(whole: whole, numerator: numerator, denominator: denominator))
            return index + 5
        }
        if isSymbol(index + 1, "/"), kind(index + 2) == .number, !isSymbol(index + 3, "/"), kind(index + 3) != .word,
            let (numerator, denominator) = properFraction(index, index + 2)
        {
            emit(speller.fraction(numerator: numerator, denominator: denominator))
            return index + 3
        }
        return nil
    }

    func properFraction(_ numeratorToken: Int, _ denominatorToken: Int) -> (Int, Int)? {
        guard let numerator = intValue(numeratorToken), let denominator = intValue(denominatorToken), numerator >= 1,
            numerator < denominator,
            Self.allowedDenominators.contains(denominator)
        else { return nil }
        return (numerator, denominator)
    }

    // MARK: Suffixes, units, currency, dates

    /// Letters glued after the number: ordinals ("21st", "2e", "1er", "3º"), decades ("1920s", "20er").
    mutating func handleGluedSuffix(_ index: Int, literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard literal.isPlainInteger, let value = literal.value else { return nil }
        let speller = rules.speller
        let after = literal.last + 1
        if rules.isEnglish, let apostrophe = symbol(after), Scalars.isApostrophe(apostrophe), kind(after + 1) == .word,
            text(after + 1) == "s", let decade = EnglishNumbers.decade(value, american: false),
            tokens[index].length == 4
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
                    let article = previous(before: index).map { text($0).lowercased() == "the" } ?? false
                    emit((article ? "" : "the ") + ordinal + " of")
                } else {
                    emit(ordinal)
                }
                return after + 1
            }
            if suffix == "s", let decade = EnglishNumbers.decade(value, american: false),
                tokens[index].length == 4 || tokens[index].length == 2
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
                emit((tokens[index].length == 4 ? GermanNumbers.year(value) : speller.cardinal(value)) + "er")
                return after + 1
            }
        }
        return nil
    }

    func isUnitStart(_ index: Int, rules: LanguageRules) -> Bool {
        rules.units.candidates(for: text(index)).contains {
            $0.match(in: source, at: tokens[index].start, afterDigits: true) != nil
        }
    }

    /// A unit symbol right after token `index` (glued or after one space): its names and its last token.
    func unit(after index: Int, rules: LanguageRules) -> (UnitName, Int)? {
        var unitToken = index + 1
        if isInlineSpace(unitToken), tokens[unitToken].length == 1 { unitToken += 1 }
        guard unitToken < tokens.count, kind(unitToken) == .word || kind(unitToken) == .symbol else { return nil }
        for phrase in rules.units.candidates(for: text(unitToken)) {
            guard let end = phrase.match(in: source, at: tokens[unitToken].start, afterDigits: true) else { continue }
            var last = unitToken
            while tokens[last].end < end { last += 1 }
            return (phrase.value, last)
        }
        return nil
    }

    /// "5 km", "20°C", "50%", "20 €", "3,50 €".
    mutating func handleUnitOrCurrency(after literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard literal.value != nil else { return nil }
        var unitToken = literal.last + 1
        if isInlineSpace(unitToken), tokens[unitToken].length == 1 { unitToken += 1 }
        if let sign = symbol(unitToken), let currency = rules.data.currencies[String(sign)],
            let words = money(literal, currency, rules: rules)
        {
            emit(words)
            return unitToken + 1
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
    mutating func handleDateDay(_ index: Int, literal: NumberLiteral, rules: LanguageRules) -> Int? {
        guard literal.isPlainInteger, tokens[index].length <= 2, let day = literal.value, (1...31).contains(day) else {
            return nil
        }
        if rules.isEnglish, let month = next(after: index), isMonth(month, rules: rules) {
            let article = previous(before: index).map { text($0).lowercased() == "the" } ?? false
            emit((article ? "" : "the ") + rules.speller.ordinal(day) + " of")
            return index + 1
        }
        if rules.isGerman, isSymbol(index + 1, "."), isInlineSpace(index + 2), isMonth(index + 3, rules: rules) {
            let before = previous(before: index).map { text($0).lowercased() } ?? ""
            let ending = Self.germanDativeBeforeDate.contains(before) ? "n" : "r"
            emit(GermanNumbers.ordinal(day) + ending)
            return index + 2
        }
        // Portuguese "1 de janeiro", Italian "1 gennaio": the first of the month is an ordinal.
        if day == 1, rules.isPortuguese || rules.isItalian, var month = next(after: index) {
            if let link = rules.data.dateLink, kind(month) == .word, text(month) == link, let name = next(after: month)
            {
                month = name
            }
            if isMonth(month, rules: rules) {
                emit(rules.speller.ordinal(1))
                return index + 1
            }
        }
        return nil
    }
}
