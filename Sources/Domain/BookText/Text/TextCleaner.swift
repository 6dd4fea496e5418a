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
            var offset = 0
            var previous: UInt32 = 0
            while offset < bytes.count {
                let (value, length) = decodeScalar(bytes, at: offset)
                if value == 0x20 {
                    let (next, _) = decodeScalar(bytes, at: offset + 1)  // a space is never last (above)
                    guard next != 0x20, !mayBePrepended(previous), !mayExtend(Unicode.Scalar(next) ?? " ") else {
                        return false
                    }
                    // ". . ." becomes "...".
                    if previous == 0x2E, next == 0x2E, offset + 3 < bytes.count, bytes[offset + 2] == 0x20,
                        bytes[offset + 3] == 0x2E
                    {
                        return false
                    }
                } else if !isPlain(value) {
                    return false
                }
                previous = value
                offset += length
            }
            return true
        }
    }

    /// The scalar whose UTF-8 starts at `offset` of valid UTF-8, and its length in bytes
    /// (`isNormalized`, `characterCount`).
    @inline(__always)
    static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (UInt32, Int) {
        let lead = bytes[offset]
        if lead < 0x80 { return (UInt32(lead), 1) }
        if lead < 0xE0 { return (UInt32(lead & 0x1F) << 6 | UInt32(bytes[offset + 1] & 0x3F), 2) }
        if lead < 0xF0 {
            return (
                UInt32(lead & 0x0F) << 12 | UInt32(bytes[offset + 1] & 0x3F) << 6 | UInt32(bytes[offset + 2] & 0x3F), 3
            )
        }
        let value =
            UInt32(lead & 0x07) << 18 | UInt32(bytes[offset + 1] & 0x3F) << 12 | UInt32(bytes[offset + 2] & 0x3F) << 6
            | UInt32(bytes[offset + 3] & 0x3F)
        return (value, 4)
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
            var offset = 0
            while offset < bytes.count {
                let (value, length) = decodeScalar(bytes, at: offset)
                if isPlain(value) || isSpaceBetweenWords(bytes, at: offset, runStart: runStart, previous: previous) {
                    previous = value
                    offset += length
                    continue
                }
                let next = offset + length < bytes.count ? decodeScalar(bytes, at: offset + length).0 : nil
                if isControlClass(value) {
                    if value == 0x0D, next == 0x0A { return nil }  // one character of two scalars
                } else if joinsAPictograph(value) {
                    return nil
                } else {
                    if let previous, mayBePrepended(previous) { return nil }
                    if let next, mayExtend(Unicode.Scalar(next) ?? " ") { return nil }
                }
                if runStart < offset {
                    out.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
                    lastWasSpace = false
                }
                normalizeScalar(Unicode.Scalar(value) ?? " ", into: &out, lastWasSpace: &lastWasSpace)
                previous = value
                offset += length
                runStart = offset
            }
            if runStart < bytes.count {
                out.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            }
            return finish(String(decoding: out.bytes, as: UTF8.self))
        }
    }

    /// Whether the byte at `offset` is a space that `normalizeByScalars` would copy as it is, so may stay
    /// in the run of plain scalars being copied: one space after a plain scalar of this run (so not
    /// after a space, and not after a prepended mark) and before printable ASCII (which extends
    /// nothing). Most spaces of a block are such spaces.
    @inline(__always)
    private static func isSpaceBetweenWords(
        _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, runStart: Int, previous: UInt32?
    ) -> Bool {
        guard bytes[offset] == 0x20, runStart < offset, offset + 1 < bytes.count, let previous, previous != 0x20 else {
            return false
        }
        let next = bytes[offset + 1]
        return next > 0x20 && next < 0x7F && !mayBePrepended(previous)
    }

    /// True for scalars `normalizeScalar` copies unchanged (and then no longer at a space).
    @inline(__always)
    private static func isPlain(_ value: UInt32) -> Bool {
        if value < 0x80 { return value > 0x20 && value != 0x7F }
        if value < 0xA0 { return false }  // C1 controls
        switch value {
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
    private static func joinsAPictograph(_ value: UInt32) -> Bool {
        switch value {
        case 0xFE0F, 0x1F3FB...0x1F3FF: return true
        default: return false
        }
    }

    /// Grapheme cluster break class Control (or CR, LF) among the scalars that are not plain:
    /// a cluster of its own whatever surrounds it.
    @inline(__always)
    private static func isControlClass(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xAD || value == 0x200B || value == 0x200E
            || value == 0x200F
            || value == 0x2028 || value == 0x2029 || value == 0x2060 || value == 0xFEFF
    }

    /// A superset of the prepended concatenation marks and other Prepend scalars of UAX #29.
    @inline(__always)
    static func mayBePrepended(_ value: UInt32) -> Bool {
        (0x600...0x605).contains(value) || value == 0x6DD || value == 0x70F || (0x890...0x891).contains(value)
            || value == 0x8E2
            || value == 0xD4E || value >= 0x11000
    }

    /// A superset of the scalars that extend the character before them (Extend, ZWJ, SpacingMark).
    @inline(__always)
    private static func mayExtend(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x300 { return false }
        if value >= 0x900, value < 0x980 {  // the standard library's own answer, without a property lookup
            let kind = TextMeasure.devanagariBreaks[Int(value - 0x900)]
            return kind != .other && kind != .consonant
        }
        if value == 0x200C || value == 0x200D || value == 0x0E33 || value == 0x0EB3 || (0xFF9E...0xFF9F).contains(value)
            || value >= 0x1F000
        {
            return true
        }
        switch scalar.properties.generalCategory {
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
        var finished = out
        if finished.hasSuffix(" ") { finished.removeLast() }
        if finished.utf8.containsBytes(". . .") { finished = finished.replacingOccurrences(of: ". . .", with: "...") }
        return finished
    }

    private static func normalizeCharacter(
        _ ch: Character, into out: inout String.UnicodeScalarView, lastWasSpace: inout Bool
    ) {
        let scalars = ch.unicodeScalars
        guard let scalar = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else {
            if isPictographic(ch) { return }
            for scalar in scalars where !isInvisible(scalar) { out.append(scalar) }
            lastWasSpace = false
            return
        }
        normalizeScalar(scalar, into: &out, lastWasSpace: &lastWasSpace)
    }

    /// Normalises a scalar that is a character of its own.
    @inline(__always)
    private static func normalizeScalar<Sink: ScalarSink>(
        _ scalar: Unicode.Scalar, into out: inout Sink, lastWasSpace: inout Bool
    ) {
        func space() {
            if !lastWasSpace { out.append(" ") }
            lastWasSpace = true
        }
        func append(_ string: String) {
            for scalar in string.unicodeScalars { out.append(scalar) }
            lastWasSpace = false
        }
        let value = scalar.value
        if value >= 0x21, value < 0x7F {  // printable ASCII: the bulk of any text
            out.append(scalar)
            lastWasSpace = false
            return
        }
        // A ligature is a single scalar with no canonical equivalent, so the scalar decides.
        if value == 0x0132 || value == 0x0133 || value == 0x0152 || value == 0x0153
            || (0xFB00...0xFB06).contains(value),
            let lig = ligatures[Character(scalar)]
        {
            append(lig)
            return
        }
        switch value {
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
            if isInvisible(scalar) { return }
            if value >= 0x231A, scalar.properties.isEmojiPresentation { return }  // a pictograph (`isPictographic`)
            out.append(scalar)
            lastWasSpace = false
        }
    }

    /// Scalars of grapheme cluster break class Other or Control (UAX #29): a run of them is a run
    /// of characters of one scalar each (except CR LF). Conservative: whole ranges known to hold no
    /// combining mark, joiner, spacing mark, prepended mark, Hangul jamo or regional indicator.
    @inline(__always)
    static func isSimpleScalar(_ value: UInt32) -> Bool {
        value < 0x300  // Basic Latin to Spacing Modifier Letters
            || (0x370..<0x483).contains(value)  // Greek and Coptic, Cyrillic letters
            || (0x1E00..<0x2000).contains(value)  // Latin Extended Additional, Greek Extended
            || ((0x2000..<0x2070).contains(value) && value != 0x200C && value != 0x200D)  // General Punctuation
            || (0x20A0..<0x20C0).contains(value)  // currency signs
            || (0x2100..<0x2190).contains(value)  // letterlike symbols, number forms
            || value == 0x2E3A || value == 0x2E3B || value == 0x3000 || value == 0xFEFF
            || (0xFB00...0xFB06).contains(value)
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        // Control characters; U+200C/U+200D (joiners) are kept: Indic and Persian scripts need them.
        (scalar.value < 0x20) || (0x7F...0x9F).contains(scalar.value)
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
        while let candidate = current {
            let next = iterator.next()
            if candidate == byte, previous < 0x80, next.map({ $0 < 0x80 }) ?? true { return true }
            previous = candidate
            current = next
        }
        return text.contains(String(character))
    }
}

/// Where `normalizeScalar` writes.
protocol ScalarSink {
    mutating func append(_ scalar: Unicode.Scalar)
}

extension String.UnicodeScalarView: ScalarSink {}

/// A `ScalarSink` that collects UTF-8 bytes (cheaper than appending to a string scalar by scalar).
struct UTF8Sink: ScalarSink {
    var bytes: [UInt8] = []

    @inline(__always)
    mutating func append(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x80 {
            bytes.append(UInt8(value))
        } else if value < 0x800 {
            bytes.append(UInt8(0xC0 | (value >> 6)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        } else if value < 0x10000 {
            bytes.append(UInt8(0xE0 | (value >> 12)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        } else {
            bytes.append(UInt8(0xF0 | (value >> 18)))
            bytes.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
        }
    }
}
