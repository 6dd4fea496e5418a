// Symbols that start a written form: currency before the amount, a minus sign, an apostrophe before a decade.

extension NormalizationPass {
    mutating func handleSymbol(_ i: Int) -> Int {
        if let end = handlePhrase(i, key: text(i)) { return end }
        guard let rules, let c = symbol(i) else {
            emitRaw(i)
            return i + 1
        }
        let speller = rules.speller
        // "$3.50", "£5", "€20", "€ 20", "$5 million".
        if let currency = rules.data.currencies[String(c)],
            let end = handleMoneyBeforeAmount(currency, sign: i, rules: rules)
        {
            return end
        }
        // "-5" at the start of a word: minus.
        if c == "-" || c == "\u{2212}", kind(i + 1) == .number, i == 0 || kind(i - 1) == .space || isSymbol(i - 1, "(")
        {
            emit(speller.minusWord + " ")
            return i + 1
        }
        // "the '60s" → "the sixties".
        if rules.isEnglish, Scalars.isApostrophe(c), kind(i - 1) != .word, kind(i - 1) != .number,
            kind(i + 1) == .number, tokens[i + 1].length == 2, kind(i + 2) == .word, text(i + 2) == "s",
            let value = intValue(i + 1), let decade = EnglishNumbers.decade(value, american: false)
        {
            emit(decade)
            return i + 3
        }
        emitRaw(i)
        return i + 1
    }

    /// The amount after a currency sign at `sign` (glued, or after one space: "€ 20", "R$ 10,50"), read with
    /// the currency's name after it ("twenty euros", "dez reais e cinquenta", "five million dollars").
    mutating func handleMoneyBeforeAmount(_ currency: CurrencyName, sign: Int, rules: LanguageRules) -> Int? {
        var n = sign + 1
        if isInlineSpace(n), tokens[n].length == 1, kind(n + 1) == .number { n += 1 }
        guard kind(n) == .number else { return nil }
        let literal = parseLiteral(n, rules: rules)
        guard rawRunEnd(literal, rules: rules) == nil, kind(literal.last + 1) != .word, let value = literal.value else {
            return nil
        }
        let speller = rules.speller
        if isInlineSpace(literal.last + 1), kind(literal.last + 2) == .word,
            rules.data.scaleWords.contains(text(literal.last + 2))
        {
            let scale = text(literal.last + 2)
            let amount =
                literal.fraction.map { speller.decimal(integer: value, fraction: $0) }
                ?? speller.cardinalBeforeNoun(value)
            // "cinq millions de dollars", "cinque milioni di euro": the noun takes a link word.
            let link = rules.data.scaleNouns.contains(scale) ? rules.data.scaleNounLink.map { $0 + " " } ?? "" : ""
            emit(amount + " " + scale + " " + link + currency.plural)
            return literal.last + 3
        }
        guard let words = money(literal, currency, rules: rules) else { return nil }
        emit(words)
        return literal.last + 1
    }
}
