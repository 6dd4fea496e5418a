// Roman numerals, read strictly: only the canonical spelling of 1...3999 counts ("IIII", "IC", "CIVIL" do not).

/// The package's one reading of Roman numerals: the normaliser's, the section index's chapter
/// numbers (`ChapterNumbers`) and the output file names' (`OutputNaming`).
package enum RomanNumerals {
    private static let table: [(Int, String)] = [
        (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
        (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
    ]

    /// The value of an upper-case (or, with `lowercase`, lower-case) canonical numeral, else nil.
    package static func value(of text: some StringProtocol, lowercase: Bool = false) -> Int? {
        value(of: Array(text.unicodeScalars)[...], lowercase: lowercase)
    }

    /// The value of an upper-case (or, with `lowercase`, lower-case) canonical numeral, else nil.
    package static func value(of scalars: ArraySlice<Unicode.Scalar>, lowercase: Bool = false) -> Int? {
        guard !scalars.isEmpty, scalars.count <= 15 else { return nil }
        var total = 0
        var previous = Int.max
        var ascii: [UInt8] = []
        ascii.reserveCapacity(scalars.count)
        for scalar in scalars {
            var scalarValue = scalar.value
            if lowercase, scalarValue >= 0x61, scalarValue <= 0x7A { scalarValue -= 0x20 }
            let digit: Int
            switch scalarValue {
            case 0x49: digit = 1  // I
            case 0x56: digit = 5  // V
            case 0x58: digit = 10  // X
            case 0x4C: digit = 50  // L
            case 0x43: digit = 100  // C
            case 0x44: digit = 500  // D
            case 0x4D: digit = 1000  // M
            default: return nil
            }
            ascii.append(UInt8(scalarValue))
            total += digit > previous ? digit - 2 * previous : digit
            previous = digit
        }
        guard total >= 1, total <= 3999, spelling(of: total) == ascii else { return nil }
        return total
    }

    /// The canonical upper-case spelling of `value` as ASCII bytes.
    package static func spelling(of value: Int) -> [UInt8] {
        var rest = value
        var out: [UInt8] = []
        for (amount, letters) in table {
            while rest >= amount {
                out.append(contentsOf: letters.utf8)
                rest -= amount
            }
        }
        return out
    }

    /// True when every letter is I, V or X: regnal numbers and centuries never need L, C, D or M in practice,
    /// and excluding them keeps "DC", "MIX", "CD", "LCD" out of the ordinal rule.
    static func isSmall(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        scalars.allSatisfy { $0 == "I" || $0 == "V" || $0 == "X" }
    }
}
