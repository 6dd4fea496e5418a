// Symbols that start a written form: currency before the amount, a minus sign, an apostrophe before a decade.

extension NormalizationPass {
    mutating func handleSymbol(_ index: Int) -> Int {
        if let end = handlePhrase(index, key: text(index)) { return end }
        guard let rules, let mark = symbol(index) else {
            emitRaw(index)
            return index + 1
        }
        let speller = rules.speller
        // "$3.50", "£5", "€20", "€ 20", "$5 million".
        if let currency = rules.data.currencies[String(mark)],
            let end = handleMoneyBeforeAmount(currency, sign: index, rules: rules)
        {
            return end
        }
        // "-5" at the start of a word: minus.
        if mark == "-" || mark == "\u{2212}", kind(index + 1) == .number,
            index == 0 || kind(index - 1) == .space || isSymbol(index - 1, "(")
        {
            emit(speller.minusWord + " ")
            return index + 1
        }
        // "the '60s" → "the sixties".
        if rules.isEnglish, Scalars.isApostrophe(mark), kind(index - 1) != .word, kind(index - 1) != .number,
            kind(index + 1) == .number, tokens[index + 1].length == 2, kind(index + 2) == .word, text(index + 2) == "s",
            let value = intValue(index + 1), let decade = EnglishNumbers.decade(value, american: false)
        {
            emit(decade)
            return index + 3
        }
        emitRaw(index)
        return index + 1
    }

    /// The amount after a currency sign at `sign` (glued, or after one space: "€ 20", "R$ 10,50"), read with
    /// the currency's name after it ("twenty euros", "dez reais e cinquenta", "five million dollars").
    mutating func handleMoneyBeforeAmount(_ currency: CurrencyName, sign: Int, rules: LanguageRules) -> Int? {
        var amountToken = sign + 1
        if isInlineSpace(amountToken), tokens[amountToken].length == 1, kind(amountToken + 1) == .number {
            amountToken += 1
        }
        guard kind(amountToken) == .number else { return nil }
        let literal = parseLiteral(amountToken, rules: rules)
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
