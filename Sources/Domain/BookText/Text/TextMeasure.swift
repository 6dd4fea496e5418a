/// How long text is as a listener counts it: words (runs of letters or digits) and characters as the standard
/// library breaks them, each with a fast path for the scripts most books are in (a table of word scalars, and
/// Devanagari's conjuncts counted without asking the standard library) that gives exactly the general result.
enum TextMeasure {
    /// For scalars below `wordTableLimit`: 1 when the scalar is part of a word (alphabetic or
    /// numeric), 0 otherwise. Built once from the Unicode properties `wordCount` asks for, so that
    /// the common scripts do not look the properties up again for every scalar.
    private static let wordTable: [UInt8] = (0..<wordTableLimit).map { value in
        guard let scalar = Unicode.Scalar(value) else { return 0 }
        return isWordScalarByProperties(scalar) ? 1 : 0
    }
    private static let wordTableLimit: UInt32 = 0x3000

    private static func isWordScalarByProperties(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Counts words the way a listener would: runs of letters or digits.
    static func wordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        var cjk = 0
        wordTable.withUnsafeBufferPointer { table in
            for scalar in text.unicodeScalars {
                let value = scalar.value
                let isWordChar: Bool
                if value < 0x80 {
                    isWordChar = (value &- 0x61 < 26) || (value &- 0x41 < 26) || (value &- 0x30 < 10)
                } else if value < wordTableLimit {
                    isWordChar = table[Int(value)] != 0
                } else {
                    isWordChar = isWordScalarByProperties(scalar)
                    if (0x3040...0x9FFF).contains(value) { cjk += 1 }
                }
                if isWordChar && !inWord { count += 1 }
                inWord = isWordChar
            }
        }
        // Scripts written without spaces (CJK) count each run as one word: approximate by characters.
        if count > 0, cjk > 0 { return max(count, cjk / 2) }
        return count
    }

    /// The general path of `wordCount`, from the Unicode properties alone (kept for the tests).
    static func wordCountByProperties(_ text: String) -> Int {
        var count = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            let isWordChar = isWordScalarByProperties(scalar)
            if isWordChar && !inWord { count += 1 }
            inWord = isWordChar
        }
        if count > 0, text.unicodeScalars.contains(where: { (0x3040...0x9FFF).contains($0.value) }) {
            return max(count, text.unicodeScalars.filter { (0x3040...0x9FFF).contains($0.value) }.count / 2)
        }
        return count
    }

    /// `text.count`, without breaking text into characters when it is made of printable ASCII,
    /// Latin letters, general punctuation and Devanagari only (else `text.count`).
    ///
    /// None of those scalars is a control, a prepended mark, a joiner, an emoji modifier or a
    /// regional indicator, so the rules of UAX #29 that apply are GB9 and GB9a (a mark, Extend or
    /// SpacingMark, stays with the character before) and GB9c (a Devanagari consonant after a
    /// consonant, a virama and marks stays with them). Which scalar is which is read once from the
    /// standard library's own character breaking (`devanagariBreaks`); the tests compare counts.
    /// With `atMost`, counting stops there: the result is `min(text.count, atMost)`.
    static func characterCount(_ text: String, atMost limit: Int = .max) -> Int {
        var text = text
        // Decoded from the UTF-8 bytes directly: this runs on most blocks of every book.
        let counted = text.withUTF8 { bytes -> Int? in
            devanagariBreaks.withUnsafeBufferPointer { table -> Int? in
                var counter = SimpleCharacterCounter(table: table)
                var offset = 0
                while offset < bytes.count {
                    let (scalar, length) = TextCleaner.decodeScalar(bytes, at: offset)
                    offset += length
                    // Beyond the Basic Multilingual Plane there is none of the simple scalars.
                    guard counter.add(scalar) else { return nil }
                    if counter.count >= limit { return limit }
                }
                return min(counter.count, limit)
            }
        }
        if let counted { return counted }
        var count = 0
        for _ in text {
            count += 1
            if count >= limit { break }
        }
        return count
    }

    /// Counts the characters of text made of the scalars `characterCount` breaks without the
    /// standard library, one scalar at a time.
    private struct SimpleCharacterCounter {
        let table: UnsafeBufferPointer<DevanagariBreak>
        private(set) var count = 0
        /// The Devanagari scalars since the last consonant, when a consonant may still join it:
        /// 0 none, 1 a consonant, 2 a consonant and a virama (with marks around it).
        private var conjunct = 0
        /// A mark that starts the text is a character of its own.
        private var first = true

        init(table: UnsafeBufferPointer<DevanagariBreak>) { self.table = table }

        /// Counts `value`; false when it is not one of the simple scalars (the caller counts otherwise).
        mutating func add(_ value: UInt32) -> Bool {
            if value >= 0x900, value < 0x980 {
                addDevanagari(table[Int(value - 0x900)])
                return true
            }
            guard
                (value >= 0x20 && value < 0x7F) || (value >= 0xA0 && value < 0x300 && value != 0xAD)
                    || (value >= 0x2010 && value < 0x2028)
                    || (value >= 0x2030 && value < 0x205F)
            else { return false }
            count += 1
            conjunct = 0
            first = false
            return true
        }

        private mutating func addDevanagari(_ kind: DevanagariBreak) {
            if first, kind != .consonant, kind != .other { count += 1 }
            first = false
            switch kind {
            case .consonant:
                if conjunct != 2 { count += 1 }
                conjunct = 1
            case .linker:
                if conjunct == 1 || conjunct == 2 { conjunct = 2 }
            case .joiningMark:
                break  // keeps `conjunct`
            case .mark:
                conjunct = 0
            case .other:
                count += 1
                conjunct = 0
            }
        }
    }

    /// How a Devanagari scalar breaks characters (`characterCount`).
    enum DevanagariBreak: UInt8 {
        /// Starts a character; a consonant after it starts one too.
        case other
        /// Starts a character unless a virama joins it to the consonant before (GB9c).
        case consonant
        /// Stays with the character before; joins a consonant to the next (the virama).
        case linker
        /// Stays with the character before, and may stand between a consonant and a virama or
        /// between a virama and the next consonant (a nukta).
        case joiningMark
        /// Stays with the character before, and ends a conjunct.
        case mark
    }

    /// `DevanagariBreak` of U+0900 to U+097F, as the standard library breaks characters.
    static let devanagariBreaks: [DevanagariBreak] = (UInt32(0x900)..<0x980).map { value in
        let character = String(Unicode.Scalar(value)!)
        let ka = "\u{915}"
        let virama = "\u{94D}"
        let staysWithBefore = ("\u{905}" + character).count == 1  // after a vowel letter: GB9 or GB9a alone
        if !staysWithBefore {
            return (ka + virama + character).count == 1 ? .consonant : .other
        }
        if (ka + character + ka).count == 1 { return .linker }
        if (ka + virama + character + ka).count == 1 && (ka + character + virama + ka).count == 1 {
            return .joiningMark
        }
        return .mark
    }
}
