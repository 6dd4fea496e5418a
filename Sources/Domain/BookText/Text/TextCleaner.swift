import Foundation
import Synchronization

/// Cleans text for a speech engine: spaces, soft hyphens, ligatures, quotes, dashes, ellipses.
///
/// Every function here runs on every block of a book, so each has a fast path for the common case
/// (scalars that are characters of their own, ASCII) that gives exactly the result of the general
/// path; the tests compare the two on generated text.
enum TextCleaner {
    private static let ligatures: [Character: String] = [
        "\u{FB00}": "ff", "\u{FB01}": "fi", "\u{FB02}": "fl", "\u{FB03}": "ffi", "\u{FB04}": "ffl",
        "\u{FB05}": "st", "\u{FB06}": "st", "\u{0132}": "IJ", "\u{0133}": "ij", "\u{0152}": "OE", "\u{0153}": "oe",
    ]

    /// Normalises one block of text; the result has no leading, trailing or repeated spaces.
    static func normalize(_ text: String) -> String {
        if isNormalized(text) { return text }
        return normalizeByScalars(text) ?? normalizeByCharacters(text)
    }

    /// Whether `normalize` would return `text` unchanged, read from its bytes without building a
    /// copy (most blocks of most books): every scalar plain (`isPlain`) but single spaces between
    /// others, each a character of its own, and no spaced ellipsis.
    static func isNormalized(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let first = bytes.first, first != 0x20, bytes.last != 0x20 else { return bytes.isEmpty }
            var i = 0
            var previous: UInt32 = 0
            while i < bytes.count {
                let (v, length) = decodeScalar(bytes, at: i)
                if v == 0x20 {
                    let (next, _) = decodeScalar(bytes, at: i + 1)  // a space is never last (above)
                    guard next != 0x20, !mayBePrepended(previous), !mayExtend(Unicode.Scalar(next) ?? " ") else {
                        return false
                    }
                    // ". . ." becomes "...".
                    if previous == 0x2E, next == 0x2E, i + 3 < bytes.count, bytes[i + 2] == 0x20, bytes[i + 3] == 0x2E {
                        return false
                    }
                } else if !isPlain(v) {
                    return false
                }
                previous = v
                i += length
            }
            return true
        }
    }

    /// The scalar whose UTF-8 starts at `i` of valid UTF-8, and its length in bytes
    /// (`isNormalized`, `characterCount`).
    @inline(__always)
    private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int) {
        let lead = bytes[i]
        if lead < 0x80 { return (UInt32(lead), 1) }
        if lead < 0xE0 { return (UInt32(lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F), 2) }
        if lead < 0xF0 {
            return (UInt32(lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F), 3)
        }
        let v =
            UInt32(lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
            | UInt32(bytes[i + 3] & 0x3F)
        return (v, 4)
    }

    /// `normalize` scalar by scalar, or nil when that could differ from character by character.
    ///
    /// Only the scalars `normalize` changes (spaces, quotes, dashes, controls, ligatures: see
    /// `isPlain`) care whether they are a character of their own; every other scalar is copied
    /// either way. So the scalar path is exact when each such scalar stands alone: a control, or
    /// neither extended by the next scalar nor attached to a prepended previous one (UAX #29).
    static func normalizeByScalars(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            var out = UTF8Sink()
            out.bytes.reserveCapacity(bytes.count)
            var lastWasSpace = true
            var previous: UInt32?
            // Plain scalars are copied as runs of their bytes, most of a block in one copy.
            var runStart = 0
            var i = 0
            while i < bytes.count {
                let (v, length) = decodeScalar(bytes, at: i)
                if isPlain(v) || isSpaceBetweenWords(bytes, at: i, runStart: runStart, previous: previous) {
                    previous = v
                    i += length
                    continue
                }
                let next = i + length < bytes.count ? decodeScalar(bytes, at: i + length).0 : nil
                if isControlClass(v) {
                    if v == 0x0D, next == 0x0A { return nil }  // one character of two scalars
                } else if joinsAPictograph(v) {
                    return nil
                } else {
                    if let previous, mayBePrepended(previous) { return nil }
                    if let next, mayExtend(Unicode.Scalar(next) ?? " ") { return nil }
                }
                if runStart < i {
                    out.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                    lastWasSpace = false
                }
                normalizeScalar(Unicode.Scalar(v) ?? " ", into: &out, lastWasSpace: &lastWasSpace)
                previous = v
                i += length
                runStart = i
            }
            if runStart < bytes.count {
                out.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            }
            return finish(String(decoding: out.bytes, as: UTF8.self))
        }
    }

    /// Whether the byte at `i` is a space that `normalizeByScalars` would copy as it is, so may stay
    /// in the run of plain scalars being copied: one space after a plain scalar of this run (so not
    /// after a space, and not after a prepended mark) and before printable ASCII (which extends
    /// nothing). Most spaces of a block are such spaces.
    @inline(__always)
    private static func isSpaceBetweenWords(
        _ bytes: UnsafeBufferPointer<UInt8>, at i: Int, runStart: Int, previous: UInt32?
    ) -> Bool {
        guard bytes[i] == 0x20, runStart < i, i + 1 < bytes.count, let previous, previous != 0x20 else { return false }
        let next = bytes[i + 1]
        return next > 0x20 && next < 0x7F && !mayBePrepended(previous)
    }

    /// True for scalars `normalizeScalar` copies unchanged (and then no longer at a space).
    @inline(__always)
    private static func isPlain(_ v: UInt32) -> Bool {
        if v < 0x80 { return v > 0x20 && v != 0x7F }
        if v < 0xA0 { return false }  // C1 controls
        switch v {
        case 0xA0, 0xAD, 0x0132, 0x0133, 0x0152, 0x0153, 0x02BC, 0x1680, 0x2000...0x2015, 0x2018...0x201F, 0x2026,
            0x2028, 0x2029, 0x202F, 0x2032, 0x2033, 0x205F, 0x2060, 0x2212, 0x2E3A, 0x2E3B, 0x3000, 0xFB00...0xFB06,
            0xFEFF:
            return false
        case 0x2190...0x2BFF, 0xFE0F, 0x1F000...0x1FAFF:
            return false  // symbols among which are emoji (`isPictographic`), and the emoji selector
        default:
            return true
        }
    }

    /// Whether a character is a pictograph shown as an emoji: one drawn as an emoji by default
    /// (🔊, 😀, ⭐, a flag), or a symbol followed by the emoji selector U+FE0F (☎️, ©️). Never spoken:
    /// a speech engine reads its name ("speaker high volume"), which is not the book's text. Digits,
    /// `#` and `*` before U+FE0F (keycaps) are kept.
    static func isPictographic(_ ch: Character) -> Bool {
        let scalars = ch.unicodeScalars
        guard let first = scalars.first, first.value >= 0x80 else { return false }
        if first.properties.isEmojiPresentation { return true }
        return first.properties.isEmoji && scalars.contains("\u{FE0F}")
    }

    /// Scalars that the scalar path cannot place on their own: they join the character before them
    /// (the emoji selector, skin tones), which may be a pictograph dropped whole.
    @inline(__always)
    private static func joinsAPictograph(_ v: UInt32) -> Bool {
        switch v {
        case 0xFE0F, 0x1F3FB...0x1F3FF: return true
        default: return false
        }
    }

    /// Grapheme cluster break class Control (or CR, LF) among the scalars that are not plain:
    /// a cluster of its own whatever surrounds it.
    @inline(__always)
    private static func isControlClass(_ v: UInt32) -> Bool {
        v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xAD || v == 0x200B || v == 0x200E || v == 0x200F
            || v == 0x2028 || v == 0x2029 || v == 0x2060 || v == 0xFEFF
    }

    /// A superset of the prepended concatenation marks and other Prepend scalars of UAX #29.
    @inline(__always)
    static func mayBePrepended(_ v: UInt32) -> Bool {
        (0x600...0x605).contains(v) || v == 0x6DD || v == 0x70F || (0x890...0x891).contains(v) || v == 0x8E2
            || v == 0xD4E || v >= 0x11000
    }

    /// A superset of the scalars that extend the character before them (Extend, ZWJ, SpacingMark).
    @inline(__always)
    private static func mayExtend(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x300 { return false }
        if v >= 0x900, v < 0x980 {  // the standard library's own answer, without a property lookup
            let kind = devanagariBreaks[Int(v - 0x900)]
            return kind != .other && kind != .consonant
        }
        if v == 0x200C || v == 0x200D || v == 0x0E33 || v == 0x0EB3 || (0xFF9E...0xFF9F).contains(v) || v >= 0x1F000 {
            return true
        }
        switch u.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// The general path of `normalize`, character by character (kept for the tests).
    static func normalizeByCharacters(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var lastWasSpace = true
        for ch in text { normalizeCharacter(ch, into: &out, lastWasSpace: &lastWasSpace) }
        return finish(String(out))
    }

    private static func finish(_ out: String) -> String {
        var s = out
        if s.hasSuffix(" ") { s.removeLast() }
        if s.utf8.containsBytes(". . .") { s = s.replacingOccurrences(of: ". . .", with: "...") }
        return s
    }

    private static func normalizeCharacter(
        _ ch: Character, into out: inout String.UnicodeScalarView, lastWasSpace: inout Bool
    ) {
        let scalars = ch.unicodeScalars
        guard let u = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else {
            if isPictographic(ch) { return }
            for u in scalars where !isInvisible(u) { out.append(u) }
            lastWasSpace = false
            return
        }
        normalizeScalar(u, into: &out, lastWasSpace: &lastWasSpace)
    }

    /// Normalises a scalar that is a character of its own.
    @inline(__always)
    private static func normalizeScalar<Sink: ScalarSink>(
        _ u: Unicode.Scalar, into out: inout Sink, lastWasSpace: inout Bool
    ) {
        func space() {
            if !lastWasSpace { out.append(" ") }
            lastWasSpace = true
        }
        func append(_ s: String) {
            for u in s.unicodeScalars { out.append(u) }
            lastWasSpace = false
        }
        let v = u.value
        if v >= 0x21, v < 0x7F {  // printable ASCII: the bulk of any text
            out.append(u)
            lastWasSpace = false
            return
        }
        // A ligature is a single scalar with no canonical equivalent, so the scalar decides.
        if v == 0x0132 || v == 0x0133 || v == 0x0152 || v == 0x0153 || (0xFB00...0xFB06).contains(v),
            let lig = ligatures[Character(u)]
        {
            append(lig)
            return
        }
        switch v {
        case 0x00AD, 0x200B, 0x2060, 0xFEFF, 0x200E, 0x200F: return  // soft hyphen, zero-width, bidi marks
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
            if isInvisible(u) { return }
            if v >= 0x231A, u.properties.isEmojiPresentation { return }  // a pictograph (`isPictographic`)
            out.append(u)
            lastWasSpace = false
        }
    }

    /// Scalars of grapheme cluster break class Other or Control (UAX #29): a run of them is a run
    /// of characters of one scalar each (except CR LF). Conservative: whole ranges known to hold no
    /// combining mark, joiner, spacing mark, prepended mark, Hangul jamo or regional indicator.
    @inline(__always)
    static func isSimpleScalar(_ v: UInt32) -> Bool {
        v < 0x300  // Basic Latin to Spacing Modifier Letters
            || (0x370..<0x483).contains(v)  // Greek and Coptic, Cyrillic letters
            || (0x1E00..<0x2000).contains(v)  // Latin Extended Additional, Greek Extended
            || ((0x2000..<0x2070).contains(v) && v != 0x200C && v != 0x200D)  // General Punctuation
            || (0x20A0..<0x20C0).contains(v)  // currency signs
            || (0x2100..<0x2190).contains(v)  // letterlike symbols, number forms
            || v == 0x2E3A || v == 0x2E3B || v == 0x3000 || v == 0xFEFF || (0xFB00...0xFB06).contains(v)
    }

    private static func isInvisible(_ u: Unicode.Scalar) -> Bool {
        // Control characters; U+200C/U+200D (joiners) are kept: Indic and Persian scripts need them.
        (u.value < 0x20) || (0x7F...0x9F).contains(u.value)
    }

    /// `text.contains(String(character))` for an ASCII character without a canonical equivalent,
    /// as Foundation answers it (a whole character), usually without asking Foundation: an
    /// occurrence between two ASCII bytes is a character of its own.
    static func containsCharacter(_ text: String, ascii character: Unicode.Scalar) -> Bool {
        let byte = UInt8(character.value)
        let bytes = text.utf8
        guard bytes.contains(byte) else { return false }
        var previous: UInt8 = 0x20
        var iterator = bytes.makeIterator()
        var current = iterator.next()
        while let c = current {
            let next = iterator.next()
            if c == byte, previous < 0x80, next.map({ $0 < 0x80 }) ?? true { return true }
            previous = c
            current = next
        }
        return text.contains(String(character))
    }

    /// For scalars below `wordTableLimit`: 1 when the scalar is part of a word (alphabetic or
    /// numeric), 0 otherwise. Built once from the Unicode properties `wordCount` asks for, so that
    /// the common scripts do not look the properties up again for every scalar.
    private static let wordTable: [UInt8] = (0..<wordTableLimit).map { v in
        guard let u = Unicode.Scalar(v) else { return 0 }
        return isWordScalarByProperties(u) ? 1 : 0
    }
    private static let wordTableLimit: UInt32 = 0x3000

    private static func isWordScalarByProperties(_ u: Unicode.Scalar) -> Bool {
        u.properties.isAlphabetic || u.properties.numericType != nil
    }

    /// Counts words the way a listener would: runs of letters or digits.
    static func wordCount(_ text: String) -> Int {
        var count = 0
        var inWord = false
        var cjk = 0
        wordTable.withUnsafeBufferPointer { table in
            for u in text.unicodeScalars {
                let v = u.value
                let isWordChar: Bool
                if v < 0x80 {
                    isWordChar = (v &- 0x61 < 26) || (v &- 0x41 < 26) || (v &- 0x30 < 10)
                } else if v < wordTableLimit {
                    isWordChar = table[Int(v)] != 0
                } else {
                    isWordChar = isWordScalarByProperties(u)
                    if (0x3040...0x9FFF).contains(v) { cjk += 1 }
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
        for u in text.unicodeScalars {
            let isWordChar = isWordScalarByProperties(u)
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
                var i = 0
                while i < bytes.count {
                    let (scalar, length) = decodeScalar(bytes, at: i)
                    i += length
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

        /// Counts `v`; false when it is not one of the simple scalars (the caller counts otherwise).
        mutating func add(_ v: UInt32) -> Bool {
            if v >= 0x900, v < 0x980 {
                addDevanagari(table[Int(v - 0x900)])
                return true
            }
            guard
                (v >= 0x20 && v < 0x7F) || (v >= 0xA0 && v < 0x300 && v != 0xAD) || (v >= 0x2010 && v < 0x2028)
                    || (v >= 0x2030 && v < 0x205F)
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
    static let devanagariBreaks: [DevanagariBreak] = (UInt32(0x900)..<0x980).map { v in
        let s = String(Unicode.Scalar(v)!)
        let ka = "\u{915}"
        let virama = "\u{94D}"
        let staysWithBefore = ("\u{905}" + s).count == 1  // after a vowel letter: GB9 or GB9a alone
        if !staysWithBefore {
            return (ka + virama + s).count == 1 ? .consonant : .other
        }
        if (ka + s + ka).count == 1 { return .linker }
        if (ka + virama + s + ka).count == 1 && (ka + s + virama + ka).count == 1 { return .joiningMark }
        return .mark
    }

    /// `fold(text)` as far as a search for ASCII text can tell: a phrase or pattern that matches
    /// ASCII characters only, at least one a letter or digit, matches the same text in both; but
    /// words of Devanagari are not broken into characters and folded.
    ///
    /// A word here is a run of scalars between ASCII spaces. A word made only of Devanagari scalars
    /// (U+0900–U+097F) that starts with a letter or digit is whole characters (nothing before a
    /// space or after a letter joins across the space), and its fold is Devanagari letters, digits
    /// and spaces with at least one letter or digit: no ASCII letter or digit, so for an ASCII
    /// search it is a barrier that no match crosses. Such words are replaced by one Devanagari
    /// letter ("क", a run of them by one) before folding, which leaves the same barrier and skips
    /// breaking the rest into characters. `foldForSearchKeepsMatches` in the tests checks this.
    static func foldForASCIISearch(_ text: String) -> String {
        fold(replacingDevanagariWords(text))
    }

    /// `text` with each word of Devanagari (see `foldForASCIISearch`) replaced by "क", runs of
    /// such words separated by spaces by a single one.
    static func replacingDevanagariWords(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.containsByte(0xE0) else { return text }  // every Devanagari scalar starts with 0xE0
        let standIn: [UInt8] = [0xE0, 0xA4, 0x95]  // U+0915 क
        return utf8.withBytesForFold { bytes -> String in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var replaced = false
            var changed = false
            var i = 0
            while i <= bytes.count {
                var j = i
                while j < bytes.count, bytes[j] != 0x20 { j += 1 }
                if j > i {
                    if isDevanagariWord(bytes, i, j) {
                        if !replaced { out += standIn }
                        replaced = true
                        changed = true
                    } else {
                        out += bytes[i..<j]
                        replaced = false
                    }
                }
                if j < bytes.count { out.append(0x20) }
                i = j + 1
            }
            return changed ? String(decoding: out, as: UTF8.self) : text
        }
    }

    /// Whether `bytes[from..<to]` are Devanagari scalars only, the first a letter or digit.
    private static func isDevanagariWord(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        guard (to - from) % 3 == 0 else { return false }
        var k = from
        while k < to {
            guard bytes[k] == 0xE0, bytes[k + 1] == 0xA4 || bytes[k + 1] == 0xA5, bytes[k + 2] & 0xC0 == 0x80 else {
                return false
            }
            k += 3
        }
        let v = 0x900 + (bytes[from + 1] == 0xA5 ? 0x40 : 0) + Int(bytes[from + 2] & 0x3F)
        return isDevanagariLetterOrDigit(UInt32(v))
    }

    /// Devanagari letters and digits (general categories Lo, Lm, Nd): never part of the character
    /// before them, never folded away.
    static func isDevanagariLetterOrDigit(_ v: UInt32) -> Bool {
        (0x904...0x939).contains(v) || v == 0x93D || v == 0x950 || (0x958...0x961).contains(v)
            || (0x966...0x96F).contains(v) || (0x971...0x97F).contains(v)
    }

    /// Lower-cased, accents removed, punctuation turned into single spaces: for matching titles.
    static func fold(_ text: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            return foldByTable(text) ?? foldByClusters(text) ?? foldByFoundation(text)
        }
        // ASCII: folding is lower-casing, letters and digits are the ASCII ones.
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var lastSpace = true
        for b in text.utf8 {
            if b &- 0x61 < 26 || b &- 0x30 < 10 {
                out.append(b)
                lastSpace = false
            } else if b &- 0x41 < 26 {
                out.append(b + 0x20)
                lastSpace = false
            } else if b == 0x27 {  // '
                continue
            } else if !lastSpace {
                out.append(0x20)
                lastSpace = true
            }
        }
        if out.last == 0x20 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    /// What `foldByFoundation` makes of one scalar: the scalars it keeps, 0x20 for a space; nil
    /// when the result is not made of scalars that are characters of their own.
    private static func foldTokens(_ u: Unicode.Scalar) -> [UInt32]? {
        let folded = String(u).folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var tokens: [UInt32] = []
        for ch in folded {
            let scalars = ch.unicodeScalars
            guard let first = scalars.first, scalars.count == 1, isSimpleScalar(first.value) else { return nil }
            if ch.isLetter || ch.isNumber {
                tokens.append(first.value)
            } else if ch == "'" || ch == "’" {
                continue
            } else {
                tokens.append(0x20)
            }
        }
        return tokens
    }

    /// Folded forms of the Latin letters and punctuation of European text, by `foldTableIndex`.
    private static let foldTable: [[UInt32]?] = {
        var table: [[UInt32]?] = []
        for range in [0x80..<0x250, 0x1E00..<0x1F00, 0x2000..<0x2070] as [Range<UInt32>] {
            for v in range { table.append(Unicode.Scalar(v).flatMap(foldTokens)) }
        }
        return table
    }()

    @inline(__always)
    private static func foldTableIndex(_ v: UInt32) -> Int? {
        if v >= 0x80, v < 0x250 { return Int(v - 0x80) }
        if v >= 0x1E00, v < 0x1F00 { return Int(v - 0x1E00) + 0x1D0 }
        if v >= 0x2000, v < 0x2070 { return Int(v - 0x2000) + 0x2D0 }
        return nil
    }

    /// `fold` scalar by scalar from `foldTable`, or nil when a scalar is not in the table.
    ///
    /// Exact because Foundation folds each character on its own and every scalar in the table is
    /// a character of its own (`isSimpleScalar`), before and after folding.
    private static func foldByTable(_ text: String) -> String? {
        var out = String.UnicodeScalarView()
        var lastSpace = true
        let ok = foldTable.withUnsafeBufferPointer { table -> Bool in
            for u in text.unicodeScalars {
                let v = u.value
                if v < 0x80 {
                    if v &- 0x61 < 26 || v &- 0x30 < 10 {
                        out.append(u)
                        lastSpace = false
                    } else if v &- 0x41 < 26 {
                        out.append(Unicode.Scalar(UInt8(v + 0x20)))
                        lastSpace = false
                    } else if v != 0x27, !lastSpace {
                        out.append(" ")
                        lastSpace = true
                    }
                    continue
                }
                guard let i = foldTableIndex(v), let tokens = table[i] else { return false }
                for t in tokens {
                    if t == 0x20 {
                        if !lastSpace { out.append(" ") }
                        lastSpace = true
                    } else {
                        out.append(Unicode.Scalar(t)!)
                        lastSpace = false
                    }
                }
            }
            return true
        }
        guard ok else { return nil }
        var s = String(out)
        if s.hasSuffix(" ") { s.removeLast() }
        return s
    }

    /// What `foldByFoundation` keeps of one character, as UTF-8: the characters it keeps, 0x20 for
    /// a space (kept characters are letters and digits, never a space); nil when the folded
    /// character could join a neighbour's cluster (then the whole text is folded at once).
    private static func foldPieces(_ ch: Character) -> [UInt8]? {
        let folded = String(ch).folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        // Folding must leave a string that neither extends what comes before nor is extended by
        // what comes after, as the original character did.
        guard ("a" + folded + "a").count == folded.count + 2 else { return nil }
        var pieces: [UInt8] = []
        for c in folded {
            if c.isLetter || c.isNumber {
                pieces += c.utf8
            } else if c == "'" || c == "’" {
                continue
            } else {
                pieces.append(0x20)
            }
        }
        return pieces
    }

    /// `fold` character by character, folding each distinct character once; nil when a character
    /// does not fold on its own (`foldPieces`).
    ///
    /// The shared cache is taken as it is (a copy on write) and the text folded without the lock,
    /// so the indexer's threads never wait on each other; characters met for the first time are
    /// added afterwards.
    private static func foldByClusters(_ text: String) -> String? {
        let known = clusterFolds.withLock { $0 }
        var added: [ClusterKey: [UInt8]] = [:]
        let folded = foldByClusters(text, known: known, added: &added)
        if !added.isEmpty {
            clusterFolds.withLock { shared in
                for (key, pieces) in added where shared.count < clusterFoldsLimit { shared[key] = pieces }
            }
        }
        return folded
    }

    /// Folded characters seen so far, shared by every call (a book repeats the same few hundred).
    private static let clusterFolds = Mutex<[ClusterKey: [UInt8]]>([:])
    /// Bound on `clusterFolds`: beyond it new characters are folded without being remembered.
    private static let clusterFoldsLimit = 50_000

    private static func foldByClusters(
        _ text: String, known: [ClusterKey: [UInt8]], added: inout [ClusterKey: [UInt8]]
    ) -> String? {
        // Keyed by the exact scalars: `Character` equality is canonical equivalence, and two
        // equivalent spellings need not fold to the same bytes.
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var lastSpace = true
        for ch in text {
            // A single ASCII scalar (`asciiValue` would also take CR LF, and compares strings to know).
            if ch.utf8.count == 1, let ascii = ch.utf8.first {
                if ascii &- 0x61 < 26 || ascii &- 0x30 < 10 {
                    out.append(ascii)
                    lastSpace = false
                } else if ascii &- 0x41 < 26 {
                    out.append(ascii | 0x20)
                    lastSpace = false
                } else if ascii != 0x27, !lastSpace {
                    out.append(0x20)
                    lastSpace = true
                }
                continue
            }
            let key = ClusterKey(ch)
            let pieces: [UInt8]
            if let key, let folded = known[key] ?? added[key] {
                pieces = folded
            } else {
                // A character that starts with a combining mark does not stand alone either.
                guard ("a" + String(ch)).count == 2, let computed = foldPieces(ch) else { return nil }
                if let key, known.count + added.count < clusterFoldsLimit { added[key] = computed }
                pieces = computed
            }
            for p in pieces {
                if p == 0x20 {
                    if !lastSpace { out.append(0x20) }
                    lastSpace = true
                } else {
                    out.append(p)
                    lastSpace = false
                }
            }
        }
        if out.last == 0x20 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    /// The scalars of a character of up to six scalars, packed: a dictionary key that compares
    /// scalars exactly.
    private struct ClusterKey: Hashable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        init?(_ ch: Character) {
            var n = 0
            for u in ch.unicodeScalars {
                guard n < 6 else { return nil }
                let v = UInt64(u.value) + 1  // never 0, so that lengths differ
                if n < 3 { low |= v << (21 * UInt64(n)) } else { high |= v << (21 * UInt64(n - 3)) }
                n += 1
            }
        }
    }

    /// The general path of `fold`, with Foundation's folding (kept for the tests).
    static func foldByFoundation(_ text: String) -> String {
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

/// Where `normalizeScalar` writes.
protocol ScalarSink {
    mutating func append(_ u: Unicode.Scalar)
}

extension String.UnicodeScalarView: ScalarSink {}

/// A `ScalarSink` that collects UTF-8 bytes (cheaper than appending to a string scalar by scalar).
struct UTF8Sink: ScalarSink {
    var bytes: [UInt8] = []

    @inline(__always)
    mutating func append(_ u: Unicode.Scalar) {
        let v = u.value
        if v < 0x80 {
            bytes.append(UInt8(v))
        } else if v < 0x800 {
            bytes.append(UInt8(0xC0 | (v >> 6)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        } else if v < 0x10000 {
            bytes.append(UInt8(0xE0 | (v >> 12)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        } else {
            bytes.append(UInt8(0xF0 | (v >> 18)))
            bytes.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (v & 0x3F)))
        }
    }
}

extension String.UTF8View {
    /// Whether these bytes contain `needle`'s bytes: a plain byte search (`memmem`).
    ///
    /// Foundation's `String.contains(_:)` compares grapheme clusters with canonical equivalence and
    /// is slow on long text. For the ASCII phrases searched in folded or lower-cased text the two
    /// agree (an ASCII letter of folded text is never followed by a combining mark: folding removed
    /// them), so this is used there.
    func containsBytes(_ needle: String) -> Bool {
        withBytes { h in
            var needle = needle
            return needle.withUTF8 { n in
                guard n.count > 0 else { return true }
                guard h.count >= n.count, let base = h.baseAddress else { return false }
                let first = Int32(n[0])
                var i = 0
                let last = h.count - n.count
                while i <= last {
                    // memchr finds candidates for the first byte at memory speed.
                    guard let p = memchr(base + i, first, last - i + 1) else { return false }
                    i = UnsafeRawPointer(p) - UnsafeRawPointer(base)
                    var k = 1
                    while k < n.count, h[i + k] == n[k] { k += 1 }
                    if k == n.count { return true }
                    i += 1
                }
                return false
            }
        }
    }

    /// Whether these bytes contain `needle` (ASCII), ASCII letters matching in either case.
    func containsBytesIgnoringASCIICase(_ needle: String) -> Bool {
        let n = Array(needle.lowercased().utf8)
        guard let first = n.first else { return true }
        let firstUpper = first &- 0x61 < 26 ? first - 0x20 : first
        return withBytes { h in
            guard h.count >= n.count else { return false }
            var i = 0
            let last = h.count - n.count
            while i <= last {
                let b = h[i]
                if b == first || b == firstUpper {
                    var k = 1
                    while k < n.count {
                        let c = h[i + k]
                        if (c &- 0x41 < 26 ? c | 0x20 : c) != n[k] { break }
                        k += 1
                    }
                    if k == n.count { return true }
                }
                i += 1
            }
            return false
        }
    }

    /// Whether these bytes contain `byte`: `memchr`, where the generic `contains` goes byte by
    /// byte through the view's indices (every block of every book is searched for brackets).
    func containsByte(_ byte: UInt8) -> Bool {
        withBytes { h in
            guard let base = h.baseAddress else { return false }
            return memchr(base, Int32(byte), h.count) != nil
        }
    }

    /// The bytes, contiguous (`TextCleaner.replacingDevanagariWords`).
    func withBytesForFold<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { withBytes(body) }

    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = withContiguousStorageIfAvailable(body) { return result }
        return Array(self).withUnsafeBufferPointer(body)
    }
}
