/// Whether a code listing reads as language (pseudo-code, shell commands) or is symbols a listener cannot follow.
enum CodeListing {
    /// The share of a code listing's visible characters that may be symbols for it to be read
    /// aloud: pseudo-code ("set source to font file", "while outer < 52") and shell commands stay
    /// under it; markup (`<p id="x">`, 20-30%) and most programming languages (10-20%: brackets,
    /// operators, punctuation) are over it and are announced.
    static let maxSymbolShareOfReadableCode = 0.08

    /// Whether a listing is words a listener can follow: at least a few words, and few symbols
    /// among its visible characters.
    static func readsAsLanguage(code: String) -> Bool {
        var visible = 0
        var symbols = 0
        for scalar in code.unicodeScalars where !scalar.properties.isWhitespace {
            visible += 1
            if !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) { symbols += 1 }
        }
        guard visible > 0, TextMeasure.wordCount(code) >= 4 else { return false }
        return Double(symbols) <= Double(visible) * maxSymbolShareOfReadableCode
    }
}
