// Words: lexicon and abbreviations, Roman numerals, and the cue words that tell the next number what it is.

extension NormalizationPass {
    static let sentenceStarters: Set<String> = [
        "The", "A", "An", "He", "She", "It", "They", "We", "I", "In", "On", "At", "But", "And", "His", "Her",
        "There", "This", "That", "Then", "When",
    ]

    mutating func handleWord(_ i: Int) -> Int {
        let word = text(i)
        if let end = handlePhrase(i, key: word) { return end }
        guard let rules else {
            emitRaw(i)
            return i + 1
        }
        if let end = handleMonthAbbreviation(i, word, rules: rules) { return end }
        if let end = handleLetteredCurrency(i, word, rules: rules) { return end }
        if let end = handleRoman(i, rules: rules) { return end }
        if rules.data.wordsSpelledInCapitals.contains(word), isWordInCapitals(i, word, rules: rules) {
            // "IT" → "It": capitalised, the engine reads the word, not its letters.
            emit(word.prefix(1) + word.dropFirst().lowercased())
            return i + 1
        }
        emitRaw(i)
        switch rules.cueWords[word] {
        case .cardinal: setCue(.cardinal, at: i, capitalized: rules.isEnglish && startsUpper(i))
        case .ordinal: setCue(.ordinal, at: i)
        case .ordinalFeminine: setCue(.ordinalFeminine, at: i)
        case .month: setCue(.year, at: i, month: true)
        case .year: setCue(.year, at: i)
        case nil: break
        }
        return i + 1
    }

    /// Whether `word` (in `wordsSpelledInCapitals`) at `i` is the word, not letters: it stands in a run
    /// of capitals ("THE STORY OF US", "IT WAS"), or, for the words that may, alone before a stop or
    /// the end of the text ("I did not do IT.").
    func isWordInCapitals(_ i: Int, _ word: String, rules: LanguageRules) -> Bool {
        if [neighbourWord(of: i, step: -1), neighbourWord(of: i, step: 1)].contains(where: {
            $0.map(isInCapitals) ?? false
        }) {
            return true
        }
        guard rules.data.wordsSpelledInCapitalsBeforeAStop.contains(word) else { return false }
        guard let after = next(after: i) else { return i + 1 == tokens.count || kind(i + 1) == .space }
        return symbol(after).map { ".!?;:,".unicodeScalars.contains($0) } ?? false
    }

    /// The nearest word before (`step` -1) or after (1) token `i` on the same line, past spaces and
    /// punctuation ("OF US", "IT, TOO"); nil at a number or a line break.
    func neighbourWord(of i: Int, step: Int) -> Int? {
        var j = i + step
        while j >= 0, j < tokens.count, abs(j - i) <= 4 {
            switch tokens[j].kind {
            case .word: return j
            case .number: return nil
            case .space: if !isInlineSpace(j) { return nil }
            case .symbol: break
            }
            j += step
        }
        return nil
    }

    /// A word of two letters or more, all capitals.
    func isInCapitals(_ i: Int) -> Bool {
        tokens[i].length >= 2 && scalars(i).allSatisfy { Scalars.isLetter($0) && Scalars.isUpper($0) }
    }

    /// Lexicon entries and abbreviations, at a word or symbol token. Returns the index after the match.
    mutating func handlePhrase(_ i: Int, key: String) -> Int? {
        var candidates = phrases.candidates(for: key)
        if kind(i) == .word, let apostrophe = scalars(i).firstIndex(where: Scalars.isApostrophe) {
            // "Hermione's": the entry is keyed by "Hermione".
            let head = String(String.UnicodeScalarView(s[tokens[i].start..<apostrophe]))
            candidates += phrases.candidates(for: head)
        }
        guard !candidates.isEmpty else { return nil }
        let start = tokens[i].start
        for phrase in candidates {
            guard let end = phrase.match(in: s, at: start) else { continue }
            var last = i
            while last < tokens.count, tokens[last].end < end { last += 1 }
            guard last < tokens.count else { continue }
            // A match may end inside a word only before an apostrophe: "Hermione's".
            let rest = tokens[last].end > end ? s[end..<tokens[last].end] : []
            guard rest.isEmpty || Scalars.isApostrophe(rest.first!) else { continue }
            let entry = phrase.value.abbreviation
            var spoken = entry.spoken
            switch entry.condition {
            case .always:
                break
            case .beforeNumber:
                guard let n = next(after: last), isNumberOrNumeral(n) else { continue }
            case .beforeDigits:
                guard let n = next(after: last), kind(n) == .number else { continue }
            case .beforeName:
                guard last + 2 < tokens.count, isInlineSpace(last + 1), startsUpper(last + 2) else { continue }
            case .saintOrStreet:
                spoken = saintOrStreet(first: i, last: last) ? "Saint" : "Street"
            }
            emit(spoken)
            if !rest.isEmpty {
                emitScalars(rest)
                return last + 1
            }
            if entry.cue != .none { setCue(entry.cue, at: last, capitalized: spoken.first?.isUppercase ?? false) }
            let endsWithPeriod = entry.written.hasSuffix(".") && !spoken.hasSuffix(".")
            if endsWithPeriod, periodEndsSentence(after: last, loosely: entry.mayEndSentence || spoken == "Street") {
                emit(".")
            }
            return last + 1
        }
        return nil
    }

    /// "St." before a name is Saint; after one (and before a lower-case word or the end) it is Street.
    func saintOrStreet(first: Int, last: Int) -> Bool {
        let nextWord = last + 2 < tokens.count && isInlineSpace(last + 1) && kind(last + 2) == .word ? last + 2 : nil
        let previousWord = first >= 2 && isInlineSpace(first - 1) && kind(first - 2) == .word ? first - 2 : nil
        let afterName = previousWord.map(isCapitalizedName) ?? false
        if let nextWord, startsUpper(nextWord) {
            return !(afterName && Self.sentenceStarters.contains(text(nextWord)))
        }
        return !afterName
    }

    /// Whether the period of an abbreviation ending at `last` also ends its sentence: at the end of the text or
    /// of a line, and, when `loosely`, before a capitalised word.
    func periodEndsSentence(after last: Int, loosely: Bool) -> Bool {
        let j = last + 1
        if j >= tokens.count { return true }
        if kind(j) == .space, !isInlineSpace(j) { return true }
        if loosely, isInlineSpace(j), j + 1 < tokens.count, startsUpper(j + 1) { return true }
        return false
    }

    func isNumberOrNumeral(_ i: Int) -> Bool {
        switch kind(i) {
        case .number: return true
        case .word:
            let letters = scalars(i)
            return RomanNumerals.value(of: letters) != nil
                || (letters.allSatisfy(Scalars.isLower) && RomanNumerals.value(of: letters, lowercase: true) != nil)
        default: return false
        }
    }

    // MARK: Months and currencies written with letters

    /// "Mar. 3, 1841", "3 Mar. 1841", "3 janv. 1841", "3. Jan. 1841", "3 de ene. de 1841": a month abbreviated
    /// with a period, next to a day or a year, is the month, and tells the numbers after it what they are. Alone
    /// ("In Mar. the river rose") it stays as written: it may be a word ("mar", "set", "sept").
    mutating func handleMonthAbbreviation(_ i: Int, _ word: String, rules: LanguageRules) -> Int? {
        guard isSymbol(i + 1, "."), let month = rules.monthAbbreviation(word),
            dayBefore(i, rules: rules) || dayOrYearAfter(i + 1, rules: rules)
        else { return nil }
        emit(month)
        if periodEndsSentence(after: i + 1, loosely: true) { emit(".") }
        setCue(.year, at: i + 1, month: true)
        return i + 2
    }

    /// Whether a month at `i` follows its day: "3 Mar.", "3rd Mar.", "1er janv.", "1.º de jan.", German "3. Jan.".
    func dayBefore(_ i: Int, rules: LanguageRules) -> Bool {
        guard var k = previous(before: i) else { return false }
        if let link = rules.data.dateLink, kind(k) == .word, text(k) == link, let day = previous(before: k) {
            k = day
        }
        // Back over an ordinal ending or a period glued to the day.
        var steps = 0
        while steps < 2, k > 0, kind(k) == .word || isSymbol(k, "."), kind(k - 1) == .number || isSymbol(k - 1, ".") {
            k -= 1
            steps += 1
        }
        guard kind(k) == .number, tokens[k].length <= 2, let day = intValue(k) else { return false }
        return (1...31).contains(day)
    }

    /// Whether a year follows the month's period at `period` ("janv. 1841", "ene. de 1841"), or, in English,
    /// which writes the month first, a day ("Mar. 3").
    func dayOrYearAfter(_ period: Int, rules: LanguageRules) -> Bool {
        guard var n = next(after: period) else { return false }
        if let link = rules.data.dateLink, kind(n) == .word, text(n) == link, let year = next(after: n) { n = year }
        guard kind(n) == .number, let value = intValue(n) else { return false }
        if tokens[n].length == 4 { return true }
        return rules.isEnglish && tokens[n].length <= 2 && (1...31).contains(value)
    }

    /// Whether token `i` names a month: in full ("March"), or abbreviated with its period ("Mar.").
    func isMonth(_ i: Int, rules: LanguageRules) -> Bool {
        guard kind(i) == .word else { return false }
        let word = text(i)
        return rules.data.months[word] != nil || (isSymbol(i + 1, ".") && rules.monthAbbreviation(word) != nil)
    }

    /// "R$ 10,50", "US$ 5": a currency written with letters and a sign, before the amount.
    mutating func handleLetteredCurrency(_ i: Int, _ word: String, rules: LanguageRules) -> Int? {
        guard rules.currencyLetters.contains(word), let sign = symbol(i + 1),
            let currency = rules.data.currencies[word + String(sign)]
        else { return nil }
        return handleMoneyBeforeAmount(currency, sign: i + 1, rules: rules)
    }

    // MARK: Roman numerals

    mutating func handleRoman(_ i: Int, rules: LanguageRules) -> Int? {
        var letters = scalars(i)
        guard let first = letters.first,
            first == "I" || first == "V" || first == "X" || first == "L"
                || first == "C" || first == "D" || first == "M"
                || (Scalars.isLower(first) && (cue(at: i).countsNumerals || (letters.count > 1 && isAloneOnLine(i))))
        else { return nil }
        var suffix = ""
        if letters.count > 2, Scalars.isApostrophe(letters[letters.endIndex - 2]), letters.last == "s" {
            suffix = String(String.UnicodeScalarView(letters.suffix(2)))
            letters = letters.dropLast(2)
        }
        if rules.isFrench, let end = handleFrenchOrdinalNumeral(i, letters: letters, rules: rules) { return end }
        if suffix.isEmpty, let end = handleRomanRange(i, letters: letters, rules: rules) { return end }
        let speller = rules.speller
        let lower = letters.allSatisfy(Scalars.isLower)

        let cue = cue(at: i)
        if cue.countsNumerals {
            // "Chapter C", "Part M": a lone L, C, D or M after a cue word is a letter (appendices, codes),
            // not 50, 100, 500 or 1,000; a book does not number its first parts that way.
            if letters.count == 1, let only = letters.first, !"IVXivx".unicodeScalars.contains(only) { return nil }
            guard let value = RomanNumerals.value(of: letters, lowercase: lower) else { return nil }
            let words =
                cue == .cardinal
                ? speller.cardinal(value) : speller.numeralAfterNoun(value, feminine: cue == .ordinalFeminine)
            emit((cueCapitalized ? capitalized(words) : words) + suffix)
            return i + 1
        }
        guard let value = RomanNumerals.value(of: letters, lowercase: lower) else { return nil }
        let plainLetters = Self.isPlainNumeral(letters)

        // Italian "il XIX secolo": before the word for century, the ordinal.
        if !lower, RomanNumerals.isSmall(letters), let n = next(after: i), kind(n) == .word,
            rules.data.ordinalBeforeWords.contains(text(n))
        {
            emit(speller.ordinal(value) + suffix)
            return i + 1
        }

        // A numeral that opens a heading ("IV. The Storm", "II", "XII: Home") or stands alone on its line, as
        // poems and sections are numbered ("II."): a cardinal. "I" in a heading only before punctuation; only
        // I, V, X and L, since a chapter is not numbered "MIX" or "DC".
        if plainLetters, suffix.isEmpty, isAloneOnLine(i) {
            emit(capitalized(speller.cardinal(value)))
            return i + 1
        }
        if plainLetters, !lower, context == .heading, !seenContent {
            let nextIsBreak =
                i + 1 >= tokens.count || isSymbol(i + 1, ".") || isSymbol(i + 1, ":")
                || isSymbol(i + 1, ")") || (kind(i + 1) == .space && !isInlineSpace(i + 1))
            if letters.count > 1 || nextIsBreak {
                emit(capitalized(speller.cardinal(value)) + suffix)
                return i + 1
            }
        }
        guard !lower else { return nil }

        // After a monarch's or pope's name: "Henry VIII", "Pope John XXIII", "Louis XIV".
        guard i >= 2, isInlineSpace(i - 1), tokens[i - 1].length == 1, isCapitalizedName(i - 2),
            RomanNumerals.isSmall(letters)
        else { return headingNumeral(i, letters: letters, value: value, suffix: suffix, rules: rules) }
        let name = text(i - 2)
        if rules.data.cardinalCues.contains(name) || rules.data.months[name] != nil { return nil }
        let titled = i >= 4 && isInlineSpace(i - 3) && rules.data.regnalTitles.contains(text(i - 4))
        let known = rules.data.regnalNames.contains(name) || titled
        if letters.count == 1 {
            guard known else { return nil }
        } else if context == .heading, !known {
            // In a heading, "Poem XII" and "Letter of Olaf II" are numbered, not reigns: no guess at a king.
            return headingNumeral(i, letters: letters, value: value, suffix: suffix, rules: rules)
        }
        emit(speller.regnal(value, feminine: rules.data.feminineNames.contains(name)) + suffix)
        // German writes the ordinal's period: "Ludwig XIV. war ..." — the period is not the end of a sentence.
        if rules.isGerman, suffix.isEmpty, isSymbol(i + 1, ".") {
            let after = i + 2
            if after < tokens.count, isSymbol(after, ",") || (isInlineSpace(after) && startsLower(after + 1)) {
                return i + 2
            }
        }
        return i + 1
    }

    /// Numerals of I, V, X and L only: those a book numbers its poems, parts and sections with. Words in
    /// capitals that happen to be numerals ("MIX", "DC", "CD", "MD") use C, D or M.
    static func isPlainNumeral(_ letters: ArraySlice<Unicode.Scalar>) -> Bool {
        letters.allSatisfy { "IVXLivxl".unicodeScalars.contains($0) }
    }

    /// Anywhere in a heading, a numeral of two letters or more is a number, never a letter name: espeak-ng
    /// would otherwise say "Roman twelve" ("Poem XII", "The Last of the XII").
    mutating func headingNumeral(
        _ i: Int, letters: ArraySlice<Unicode.Scalar>, value: Int, suffix: String, rules: LanguageRules
    ) -> Int? {
        guard context == .heading, letters.count > 1, Self.isPlainNumeral(letters) else { return nil }
        let words = rules.speller.cardinal(value)
        let afterCapital = rules.isEnglish && i >= 2 && isInlineSpace(i - 1) && startsUpper(i - 2)
        emit((afterCapital ? capitalized(words) : words) + suffix)
        return i + 1
    }

    /// Whether token `i` stands alone on its line: nothing before it on the line, and after it at most one
    /// closing mark (".", ":", ")") before the end of the line or of the text.
    func isAloneOnLine(_ i: Int) -> Bool {
        let before = i - 1
        guard before < 0 || (kind(before) == .space && (before == 0 || !isInlineSpace(before))) else { return false }
        var j = i + 1
        if let c = symbol(j), c == "." || c == ":" || c == ")" { j += 1 }
        if j < tokens.count, isInlineSpace(j) { j += 1 }
        return j >= tokens.count || kind(j) == .space
    }

    /// "Articles IV–IX", "IV-IX", "IV to IX", "pp. xiv–xvi": two numerals joined by a hyphen, an en dash or the
    /// language's range word, the second larger, are a range of cardinals ("four to nine"), whatever the word
    /// before them; after a monarch's name, of reigns ("Henry the Fourth to the Sixth").
    mutating func handleRomanRange(_ i: Int, letters: ArraySlice<Unicode.Scalar>, rules: LanguageRules) -> Int? {
        let speller = rules.speller
        let second: Int
        var link: ClosedRange<Int>?
        if isSymbol(i + 1, "-") || isSymbol(i + 1, "\u{2013}") {
            second = i + 2
        } else if isInlineSpace(i + 1), isInlineSpace(i + 3),
            isSymbol(i + 2, "\u{2013}") || (kind(i + 2) == .word && text(i + 2) == speller.rangeWord)
        {
            second = i + 4
            if kind(i + 2) == .word { link = (i + 1)...(i + 3) }
        } else {
            return nil
        }
        guard kind(second) == .word else { return nil }
        let lower = letters.allSatisfy(Scalars.isLower)
        let other = scalars(second)
        let counted = cue(at: i).countsNumerals
        guard lower ? counted : (counted || (Self.isPlainNumeral(letters) && Self.isPlainNumeral(other))),
            other.allSatisfy(lower ? Scalars.isLower : Scalars.isUpper),
            let from = RomanNumerals.value(of: letters, lowercase: lower),
            let to = RomanNumerals.value(of: other, lowercase: lower), to > from
        else { return nil }
        let reign =
            !lower && i >= 2 && isInlineSpace(i - 1) && tokens[i - 1].length == 1 && isCapitalizedName(i - 2)
            && rules.data.regnalNames.contains(text(i - 2))
        var start = reign ? speller.regnal(from) : speller.cardinal(from)
        if (counted && cueCapitalized) || (context == .heading && !seenContent) { start = capitalized(start) }
        emit(start)
        if let link { emitRaw(link) } else { emit(" " + speller.rangeWord + " ") }
        emit(reign ? speller.regnal(to) : speller.cardinal(to))
        return second + 1
    }

    /// French centuries and regnal firsts: "XIVe siècle" → "quatorzième siècle", "François Ier" → "premier".
    mutating func handleFrenchOrdinalNumeral(_ i: Int, letters: ArraySlice<Unicode.Scalar>, rules: LanguageRules)
        -> Int?
    {
        let numeral = letters.prefix(while: { $0 == "I" || $0 == "V" || $0 == "X" })
        guard !numeral.isEmpty, numeral.count < letters.count, let value = RomanNumerals.value(of: numeral) else {
            return nil
        }
        let ending = String(String.UnicodeScalarView(letters.dropFirst(numeral.count)))
        let feminineFirst = ["re", "ère", "ʳᵉ"]
        let masculineFirst = ["er", "ᵉʳ"]
        let other = ["e", "è", "ème", "eme", "ᵉ"]
        let words: String
        if value == 1, masculineFirst.contains(ending) {
            words = "premier"
        } else if value == 1, feminineFirst.contains(ending) {
            words = "première"
        } else if other.contains(ending) {
            words = FrenchNumbers.ordinal(value)
        } else {
            return nil
        }
        emit(words)
        return i + 1
    }
}
