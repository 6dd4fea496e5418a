// One-pass tokenizer: the text becomes runs of letters, runs of ASCII digits, runs of white space and single
// symbols, as index ranges into one array of Unicode scalars. Every later rule looks at tokens, never re-scans.

/// What a token is made of.
enum TokenKind: UInt8, Sendable {
    /// Letters (any script), with apostrophes that sit between two letters ("don't", "VIII's").
    case word
    /// ASCII digits 0-9.
    case number
    /// White space, including no-break spaces.
    case space
    /// Any other single scalar: punctuation, currency signs, "°", "%".
    case symbol
}

/// A run of scalars `start..<end` in the scanned text.
struct Token: Sendable {
    var kind: TokenKind
    var start: Int
    var end: Int
    var length: Int { end - start }
}

enum Scalars {
    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A) }
        if scalar.properties.isAlphabetic { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    static func isApostrophe(_ scalar: Unicode.Scalar) -> Bool { scalar == "'" || scalar == "\u{2019}" }

    static func isUpper(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return value >= 0x41 && value <= 0x5A }
        return scalar.properties.isUppercase
    }

    static func isLower(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return value >= 0x61 && value <= 0x7A }
        return scalar.properties.isLowercase
    }

    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool { isDigit(scalar) || isLetter(scalar) }
}

/// Splits `scalars` into tokens in one pass.
func tokenize(_ scalars: [Unicode.Scalar]) -> [Token] {
    var tokens: [Token] = []
    tokens.reserveCapacity(scalars.count / 3 + 1)
    var index = 0
    let count = scalars.count
    while index < count {
        let scalar = scalars[index]
        let start = index
        if Scalars.isDigit(scalar) {
            index += 1
            while index < count, Scalars.isDigit(scalars[index]) { index += 1 }
            tokens.append(Token(kind: .number, start: start, end: index))
        } else if Scalars.isLetter(scalar) {
            index += 1
            while index < count {
                if Scalars.isLetter(scalars[index]) {
                    index += 1
                } else if Scalars.isApostrophe(scalars[index]), index + 1 < count, Scalars.isLetter(scalars[index + 1])
                {
                    index += 2
                } else {
                    break
                }
            }
            tokens.append(Token(kind: .word, start: start, end: index))
        } else if Scalars.isSpace(scalar) {
            index += 1
            while index < count, Scalars.isSpace(scalars[index]) { index += 1 }
            tokens.append(Token(kind: .space, start: start, end: index))
        } else {
            index += 1
            tokens.append(Token(kind: .symbol, start: start, end: index))
        }
    }
    return tokens
}
