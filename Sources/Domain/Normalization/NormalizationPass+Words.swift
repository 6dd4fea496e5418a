// Words: lexicon and abbreviations, Roman numerals, and the cue words that tell the next number what it is.

extension NormalizationPass {
    static let sentenceStarters: Set<String> = [
        "The", "A", "An", "He", "She", "It", "They", "We", "I", "In", "On", "At", "But", "And", "His", "Her",
        "There", "This", "That", "Then", "When",
    ]

    mutating func handleWord(_ index: Int) -> Int {
        let word = text(index)
        if let end = handlePhrase(index, key: word) { return end }
        guard let rules else {
            emitRaw(index)
            return index + 1
        }
        if let end = handleMonthAbbreviation(index, word, rules: rules) { return end }
        if let end = handleLetteredCurrency(index, word, rules: rules) { return end }
        if let end = handleRoman(index, rules: rules) { return end }
        if rules.data.wordsSpelledInCapitals.contains(word), isWordInCapitals(index, word, rules: rules) {
            // "IT" → "It": capitalised, the engine reads the word, not its letters.
            emit(word.prefix(1) + word.dropFirst().lowercased())
            return index + 1
        }
        emitRaw(index)
        switch rules.cueWords[word] {
        case .cardinal: setCue(.cardinal, at: index, capitalized: rules.isEnglish && startsUpper(index))
        case .ordinal: setCue(.ordinal, at: index)
        case .ordinalFeminine: setCue(.ordinalFeminine, at: index)
        case .month: setCue(.year, at: index, month: true)
        case .year: setCue(.year, at: index)
        case nil: break
        }
        return index + 1
    }

    /// Whether `word` (in `wordsSpelledInCapitals`) at `index` is the word, not letters: it stands in a run
    /// of capitals ("THE STORY OF US", "IT WAS"), or, for the words that may, alone before a stop or
    /// the end of the text ("I did not do IT.").
    func isWordInCapitals(_ index: Int, _ word: String, rules: LanguageRules) -> Bool {
        if [neighbourWord(of: index, step: -1), neighbourWord(of: index, step: 1)].contains(where: {
            $0.map(isInCapitals) ?? false
        }) {
            return true
        }
        guard rules.data.wordsSpelledInCapitalsBeforeAStop.contains(word) else { return false }
        guard let after = next(after: index) else { return index + 1 == tokens.count || kind(index + 1) == .space }
        return symbol(after).map { ".!?;:,".unicodeScalars.contains($0) } ?? false
    }

    /// The nearest word before (`step` -1) or after (1) token `index` on the same line, past spaces and
    /// punctuation ("OF US", "IT, TOO"); nil at a number or a line break.
    func neighbourWord(of index: Int, step: Int) -> Int? {
        var candidate = index + step
        while candidate >= 0, candidate < tokens.count, abs(candidate - index) <= 4 {
            switch tokens[candidate].kind {
            case .word: return candidate
            case .number: return nil
            case .space: if !isInlineSpace(candidate) { return nil }
            case .symbol: break
            }
            candidate += step
        }
        return nil
    }

    /// A word of two letters or more, all capitals.
    func isInCapitals(_ index: Int) -> Bool {
        tokens[index].length >= 2 && scalars(index).allSatisfy { Scalars.isLetter($0) && Scalars.isUpper($0) }
    }

    /// Lexicon entries and abbreviations, at a word or symbol token. Returns the index after the match.
    mutating func handlePhrase(_ index: Int, key: String) -> Int? {
        var candidates = phrases.candidates(for: key)
        if kind(index) == .word, let apostrophe = scalars(index).firstIndex(where: Scalars.isApostrophe) {
            // "Hermione's": the entry is keyed by "Hermione".
            let head = String(String.UnicodeScalarView(source[tokens[index].start..<apostrophe]))
            candidates += phrases.candidates(for: head)
        }
        guard !candidates.isEmpty else { return nil }
        let start = tokens[index].start
        for phrase in candidates {
            guard let end = phrase.match(in: source, at: start) else { continue }
            var last = index
            while last < tokens.count, tokens[last].end < end { last += 1 }
            guard last < tokens.count else { continue }
            // A match may end inside a word only before an apostrophe: "Hermione's".
            let rest = tokens[last].end > end ? source[end..<tokens[last].end] : []
            guard rest.isEmpty || Scalars.isApostrophe(rest.first!) else { continue }
            let entry = phrase.value.abbreviation
            var spoken = entry.spoken
            switch entry.condition {
            case .always:
                break
            case .beforeNumber:
                guard let following = next(after: last), isNumberOrNumeral(following) else { continue }
            case .beforeDigits:
                guard let following = next(after: last), kind(following) == .number else { continue }
            case .beforeName:
                guard last + 2 < tokens.count, isInlineSpace(last + 1), startsUpper(last + 2) else { continue }
            case .saintOrStreet:
                spoken = saintOrStreet(first: index, last: last) ? "Saint" : "Street"
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
        let following = last + 1
        if following >= tokens.count { return true }
        if kind(following) == .space, !isInlineSpace(following) { return true }
        if loosely, isInlineSpace(following), following + 1 < tokens.count, startsUpper(following + 1) { return true }
        return false
    }

    func isNumberOrNumeral(_ index: Int) -> Bool {
        switch kind(index) {
        case .number: return true
        case .word:
            let letters = scalars(index)
            return RomanNumerals.value(of: letters) != nil
                || (letters.allSatisfy(Scalars.isLower) && RomanNumerals.value(of: letters, lowercase: true) != nil)
        default: return false
        }
    }

    // MARK: Months and currencies written with letters

    /// "Mar. 3, 1841", "3 Mar. 1841", "3 janv. 1841", "3. Jan. 1841", "3 de ene. de 1841": a month abbreviated
    /// with a period, next to a day or a year, is the month, and tells the numbers after it what they are. Alone
    /// ("In Mar. the river rose") it stays as written: it may be a word ("mar", "set", "sept").
    mutating func handleMonthAbbreviation(_ index: Int, _ word: String, rules: LanguageRules) -> Int? {
        guard isSymbol(index + 1, "."), let month = rules.monthAbbreviation(word),
            dayBefore(index, rules: rules) || dayOrYearAfter(index + 1, rules: rules)
        else { return nil }
        emit(month)
        if periodEndsSentence(after: index + 1, loosely: true) { emit(".") }
        setCue(.year, at: index + 1, month: true)
        return index + 2
    }

    /// Whether a month at `index` follows its day: "3 Mar.", "3rd Mar.", "1er janv.", "1.º de jan.", German "3. Jan.".
    func dayBefore(_ index: Int, rules: LanguageRules) -> Bool {
        guard var token = previous(before: index) else { return false }
        if let link = rules.data.dateLink, kind(token) == .word, text(token) == link, let day = previous(before: token)
        {
            token = day
        }
        // Back over an ordinal ending or a period glued to the day.
        var steps = 0
        while steps < 2, token > 0, kind(token) == .word || isSymbol(token, "."),
            kind(token - 1) == .number || isSymbol(token - 1, ".")
        {
            token -= 1
            steps += 1
        }
        guard kind(token) == .number, tokens[token].length <= 2, let day = intValue(token) else { return false }
        return (1...31).contains(day)
    }

    /// Whether a year follows the month's period at `period` ("janv. 1841", "ene. de 1841"), or, in English,
    /// which writes the month first, a day ("Mar. 3").
    func dayOrYearAfter(_ period: Int, rules: LanguageRules) -> Bool {
        guard var following = next(after: period) else { return false }
        if let link = rules.data.dateLink, kind(following) == .word, text(following) == link,
            let year = next(after: following)
        {
            following = year
        }
        guard kind(following) == .number, let value = intValue(following) else { return false }
        if tokens[following].length == 4 { return true }
        return rules.isEnglish && tokens[following].length <= 2 && (1...31).contains(value)
    }

    /// Whether token `index` names a month: in full ("March"), or abbreviated with its period ("Mar.").
    func isMonth(_ index: Int, rules: LanguageRules) -> Bool {
        guard kind(index) == .word else { return false }
        let word = text(index)
        return rules.data.months[word] != nil || (isSymbol(index + 1, ".") && rules.monthAbbreviation(word) != nil)
    }

    /// "R$ 10,50", "US$ 5": a currency written with letters and a sign, before the amount.
    mutating func handleLetteredCurrency(_ index: Int, _ word: String, rules: LanguageRules) -> Int? {
        guard rules.currencyLetters.contains(word), let sign = symbol(index + 1),
            let currency = rules.data.currencies[word + String(sign)]
        else { return nil }
        return handleMoneyBeforeAmount(currency, sign: index + 1, rules: rules)
    }

    // MARK: Roman numerals

    mutating func handleRoman(_ index: Int, rules: LanguageRules) -> Int? {
        var letters = scalars(index)
        guard let first = letters.first,
            first == "I" || first == "V" || first == "X" || first == "L"
                || first == "C" || first == "D" || first == "M"
                || (Scalars.isLower(first)
                    && (cue(at: index).countsNumerals || (letters.count > 1 && isAloneOnLine(index))))
        else { return nil }
        var suffix = ""
        if letters.count > 2, Scalars.isApostrophe(letters[letters.endIndex - 2]), letters.last == "s" {
            suffix = String(String.UnicodeScalarView(letters.suffix(2)))
            letters = letters.dropLast(2)
        }
        if rules.isFrench, let end = handleFrenchOrdinalNumeral(index, letters: letters, rules: rules) { return end }
        if suffix.isEmpty, let end = handleRomanRange(index, letters: letters, rules: rules) { return end }
        let speller = rules.speller
        let lower = letters.allSatisfy(Scalars.isLower)

        let cue = cue(at: index)
        if cue.countsNumerals {
            // "Chapter C", "Part M": a lone L, C, D or M after a cue word is a letter (appendices, codes),
            // not 50, 100, 500 or 1,000; a book does not number its first parts that way.
            if letters.count == 1, let only = letters.first, !"IVXivx".unicodeScalars.contains(only) { return nil }
            guard let value = RomanNumerals.value(of: letters, lowercase: lower) else { return nil }
            let words =
                cue == .cardinal
                ? speller.cardinal(value) : speller.numeralAfterNoun(value, feminine: cue == .ordinalFeminine)
            emit((cueCapitalized ? capitalized(words) : words) + suffix)
            return index + 1
        }
        guard let value = RomanNumerals.value(of: letters, lowercase: lower) else { return nil }
        let plainLetters = Self.isPlainNumeral(letters)

        // Italian "il XIX secolo": before the word for century, the ordinal.
        if !lower, RomanNumerals.isSmall(letters), let following = next(after: index), kind(following) == .word,
            rules.data.ordinalBeforeWords.contains(text(following))
        {
            emit(speller.ordinal(value) + suffix)
            return index + 1
        }

        // A numeral that opens a heading ("IV. The Storm", "II", "XII: Home") or stands alone on its line, as
        // poems and sections are numbered ("II."): a cardinal. "I" in a heading only before punctuation; only
        // I, V, X and L, since a chapter is not numbered "MIX" or "DC".
        if plainLetters, suffix.isEmpty, isAloneOnLine(index) {
            emit(capitalized(speller.cardinal(value)))
            return index + 1
        }
        if plainLetters, !lower, context == .heading, !seenContent {
            let nextIsBreak =
                index + 1 >= tokens.count || isSymbol(index + 1, ".") || isSymbol(index + 1, ":")
                || isSymbol(index + 1, ")") || (kind(index + 1) == .space && !isInlineSpace(index + 1))
            if letters.count > 1 || nextIsBreak {
                emit(capitalized(speller.cardinal(value)) + suffix)
                return index + 1
            }
        }
        guard !lower else { return nil }

        // After a monarch's or pope's name: "Henry VIII", "Pope John XXIII", "Louis XIV".
        guard index >= 2, isInlineSpace(index - 1), tokens[index - 1].length == 1, isCapitalizedName(index - 2),
            RomanNumerals.isSmall(letters)
        else { return headingNumeral(index, letters: letters, value: value, suffix: suffix, rules: rules) }
        let name = text(index - 2)
        if rules.data.cardinalCues.contains(name) || rules.data.months[name] != nil { return nil }
        let titled = index >= 4 && isInlineSpace(index - 3) && rules.data.regnalTitles.contains(text(index - 4))
        let known = rules.data.regnalNames.contains(name) || titled
        if letters.count == 1 {
            guard known else { return nil }
        } else if context == .heading, !known {
            // In a heading, "Poem XII" and "Letter of Olaf II" are numbered, not reigns: no guess at a king.
            return headingNumeral(index, letters: letters, value: value, suffix: suffix, rules: rules)
        }
        emit(speller.regnal(value, feminine: rules.data.feminineNames.contains(name)) + suffix)
        // German writes the ordinal's period: "Ludwig XIV. war ..." — the period is not the end of a sentence.
        if rules.isGerman, suffix.isEmpty, isSymbol(index + 1, ".") {
            let after = index + 2
            if after < tokens.count, isSymbol(after, ",") || (isInlineSpace(after) && startsLower(after + 1)) {
                return index + 2
            }
        }
        return index + 1
    }

    /// Numerals of I, V, X and L only: those a book numbers its poems, parts and sections with. Words in
    /// capitals that happen to be numerals ("MIX", "DC", "CD", "MD") use C, D or M.
    static func isPlainNumeral(_ letters: ArraySlice<Unicode.Scalar>) -> Bool {
        letters.allSatisfy { "IVXLivxl".unicodeScalars.contains($0) }
    }

    /// Anywhere in a heading, a numeral of two letters or more is a number, never a letter name: espeak-ng
    /// would otherwise say "Roman twelve" ("Poem XII", "The Last of the XII").
    mutating func headingNumeral(
        _ index: Int, letters: ArraySlice<Unicode.Scalar>, value: Int, suffix: String, rules: LanguageRules
    ) -> Int? {
        guard context == .heading, letters.count > 1, Self.isPlainNumeral(letters) else { return nil }
        let words = rules.speller.cardinal(value)
        let afterCapital = rules.isEnglish && index >= 2 && isInlineSpace(index - 1) && startsUpper(index - 2)
        emit((afterCapital ? capitalized(words) : words) + suffix)
        return index + 1
    }

    /// Whether token `index` stands alone on its line: nothing before it on the line, and after it at most one
    /// closing mark (".", ":", ")") before the end of the line or of the text.
    func isAloneOnLine(_ index: Int) -> Bool {
        let before = index - 1
        guard before < 0 || (kind(before) == .space && (before == 0 || !isInlineSpace(before))) else { return false }
        var following = index + 1
        if let mark = symbol(following), mark == "." || mark == ":" || mark == ")" { following += 1 }
        if following < tokens.count, isInlineSpace(following) { following += 1 }
        return following >= tokens.count || kind(following) == .space
    }

    /// "Articles IV–IX", "IV-IX", "IV to IX", "pp. xiv–xvi": two numerals joined by a hyphen, an en dash or the
    /// language's range word, the second larger, are a range of cardinals ("four to nine"), whatever the word
    /// before them; after a monarch's name, of reigns ("Henry the Fourth to the Sixth").
    mutating func handleRomanRange(_ index: Int, letters: ArraySlice<Unicode.Scalar>, rules: LanguageRules) -> Int? {
        let speller = rules.speller
        let second: Int
        var link: ClosedRange<Int>?
        if isSymbol(index + 1, "-") || isSymbol(index + 1, "\u{2013}") {
            second = index + 2
        } else if isInlineSpace(index + 1), isInlineSpace(index + 3),
            isSymbol(index + 2, "\u{2013}") || (kind(index + 2) == .word && text(index + 2) == speller.rangeWord)
        {
            second = index + 4
            if kind(index + 2) == .word { link = (index + 1)...(index + 3) }
        } else {
            return nil
        }
        guard kind(second) == .word else { return nil }
        let lower = letters.allSatisfy(Scalars.isLower)
        let other = scalars(second)
        let counted = cue(at: index).countsNumerals
        guard lower ? counted : (counted || (Self.isPlainNumeral(letters) && Self.isPlainNumeral(other))),
            other.allSatisfy(lower ? Scalars.isLower : Scalars.isUpper),
            let from = RomanNumerals.value(of: letters, lowercase: lower),
            let to = RomanNumerals.value(of: other, lowercase: lower), to > from
        else { return nil }
        let reign =
            !lower && index >= 2 && isInlineSpace(index - 1) && tokens[index - 1].length == 1
            && isCapitalizedName(index - 2)
            && rules.data.regnalNames.contains(text(index - 2))
        var start = reign ? speller.regnal(from) : speller.cardinal(from)
        if (counted && cueCapitalized) || (context == .heading && !seenContent) { start = capitalized(start) }
        emit(start)
        if let link { emitRaw(link) } else { emit(" " + speller.rangeWord + " ") }
        emit(reign ? speller.regnal(to) : speller.cardinal(to))
        return second + 1
    }

    /// French centuries and regnal firsts: "XIVe siècle" → "quatorzième siècle", "François Ier" → "premier".
    mutating func handleFrenchOrdinalNumeral(_ index: Int, letters: ArraySlice<Unicode.Scalar>, rules: LanguageRules)
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
        return index + 1
    }
}
