import Foundation

/// Cleans text for a speech engine: spaces, soft hyphens, ligatures, quotes, dashes, ellipses.
enum TextNormalizer {
    private static let ligatures: [Character: String] = [
        "\u{FB00}": "ff", "\u{FB01}": "fi", "\u{FB02}": "fl", "\u{FB03}": "ffi", "\u{FB04}": "ffl",
        "\u{FB05}": "st", "\u{FB06}": "st", "\u{0132}": "IJ", "\u{0133}": "ij", "\u{0152}": "OE", "\u{0153}": "oe",
    ]

    /// Normalises one block of text; the result has no leading, trailing or repeated spaces.
    static func normalize(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        out.reserveCapacity(text.unicodeScalars.count)
        var lastWasSpace = true
        func space() {
            if !lastWasSpace { out.append(" ") }
            lastWasSpace = true
        }
        func append(_ s: String) {
            for u in s.unicodeScalars { out.append(u) }
            lastWasSpace = false
        }
        for ch in text {
            if let lig = ligatures[ch] {
                append(lig)
                continue
            }
            guard let u = ch.unicodeScalars.first, ch.unicodeScalars.count == 1 else {
                for u in ch.unicodeScalars where !isInvisible(u) { out.append(u) }
                lastWasSpace = false
                continue
            }
            switch u.value {
            case 0x00AD, 0x200B, 0x2060, 0xFEFF, 0x200E, 0x200F: continue  // soft hyphen, zero-width, bidi marks
            case 0x09, 0x0A, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
                space()
            case 0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0x02BC: append("'")
            case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033: append("\"")
            case 0x2010, 0x2011: append("-")
            case 0x2012, 0x2013: append("–")
            case 0x2014, 0x2015, 0x2E3A, 0x2E3B:
                // An em dash is a pause; keep one, spaced, so the engine does not glue the words.
                space()
                append("—")
                space()
            case 0x2212: append("-")
            case 0x2026: append("...")
            default:
                if isInvisible(u) { continue }
                out.append(u)
                lastWasSpace = false
            }
        }
        var s = String(out)
        if s.hasSuffix(" ") { s.removeLast() }
        if s.contains(". . .") { s = s.replacingOccurrences(of: ". . .", with: "...") }
        return s
    }

    private static func isInvisible(_ u: Unicode.Scalar) -> Bool {
        // Control characters; U+200C/U+200D (joiners) are kept: Indic and Persian scripts need them.
        (u.value < 0x20) || (0x7F...0x9F).contains(u.value)
    }

    /// Counts words the way a listener would: runs of letters or digits.
    static func wordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        for u in text.unicodeScalars {
            let isWordChar = u.properties.isAlphabetic || u.properties.numericType != nil
            if isWordChar && !inWord { count += 1 }
            inWord = isWordChar
        }
        // Scripts written without spaces (CJK) count each run as one word: approximate by characters.
        if count > 0, text.unicodeScalars.contains(where: { (0x3040...0x9FFF).contains($0.value) }) {
            return max(count, text.unicodeScalars.filter { (0x3040...0x9FFF).contains($0.value) }.count / 2)
        }
        return count
    }

    /// Lower-cased, accents removed, punctuation turned into single spaces: for matching titles.
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var out = ""
        var lastSpace = true
        for ch in folded {
            if ch.isLetter || ch.isNumber {
                out.append(ch)
                lastSpace = false
            } else if ch == "'" || ch == "’" {
                continue
            } else if !lastSpace {
                out.append(" ")
                lastSpace = true
            }
        }
        if out.hasSuffix(" ") { out.removeLast() }
        return out
    }
}
