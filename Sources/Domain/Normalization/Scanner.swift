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
    static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }

    static func isLetter(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) }
        if c.properties.isAlphabetic { return true }
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) }
        return c.properties.isWhitespace
    }

    static func isApostrophe(_ c: Unicode.Scalar) -> Bool { c == "'" || c == "\u{2019}" }

    static func isUpper(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v >= 0x41 && v <= 0x5A }
        return c.properties.isUppercase
    }

    static func isLower(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v >= 0x61 && v <= 0x7A }
        return c.properties.isLowercase
    }

    static func isAlphanumeric(_ c: Unicode.Scalar) -> Bool { isDigit(c) || isLetter(c) }
}

/// Splits `s` into tokens in one pass.
func tokenize(_ s: [Unicode.Scalar]) -> [Token] {
    var tokens: [Token] = []
    tokens.reserveCapacity(s.count / 3 + 1)
    var i = 0
    let n = s.count
    while i < n {
        let c = s[i]
        let start = i
        if Scalars.isDigit(c) {
            i += 1
            while i < n, Scalars.isDigit(s[i]) { i += 1 }
            tokens.append(Token(kind: .number, start: start, end: i))
        } else if Scalars.isLetter(c) {
            i += 1
            while i < n {
                if Scalars.isLetter(s[i]) {
                    i += 1
                } else if Scalars.isApostrophe(s[i]), i + 1 < n, Scalars.isLetter(s[i + 1]) {
                    i += 2
                } else {
                    break
                }
            }
            tokens.append(Token(kind: .word, start: start, end: i))
        } else if Scalars.isSpace(c) {
            i += 1
            while i < n, Scalars.isSpace(s[i]) { i += 1 }
            tokens.append(Token(kind: .space, start: start, end: i))
        } else {
            i += 1
            tokens.append(Token(kind: .symbol, start: start, end: i))
        }
    }
    return tokens
}
