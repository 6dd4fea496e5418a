import Foundation
import Synchronization

/// Text folded for matching: lower-cased, accents removed, punctuation turned into single spaces. Titles, patterns
/// and phrases are compared folded; folding runs on every block of a book, so it has fast paths (ASCII, a table
/// of folded scalars, a bounded cache of folded clusters) that give exactly what Foundation's folding gives.
enum TextFold {
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
            var wordStart = 0
            while wordStart <= bytes.count {
                var wordEnd = wordStart
                while wordEnd < bytes.count, bytes[wordEnd] != 0x20 { wordEnd += 1 }
                if wordEnd > wordStart {
                    if isDevanagariWord(bytes, wordStart, wordEnd) {
                        if !replaced { out += standIn }
                        replaced = true
                        changed = true
                    } else {
                        out += bytes[wordStart..<wordEnd]
                        replaced = false
                    }
                }
                if wordEnd < bytes.count { out.append(0x20) }
                wordStart = wordEnd + 1
            }
            return changed ? String(decoding: out, as: UTF8.self) : text
        }
    }

    /// Whether `bytes[from..<to]` are Devanagari scalars only, the first a letter or digit.
    private static func isDevanagariWord(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        guard (to - from) % 3 == 0 else { return false }
        var offset = from
        while offset < to {
            guard bytes[offset] == 0xE0, bytes[offset + 1] == 0xA4 || bytes[offset + 1] == 0xA5,
                bytes[offset + 2] & 0xC0 == 0x80
            else {
                return false
            }
            offset += 3
        }
        let value = 0x900 + (bytes[from + 1] == 0xA5 ? 0x40 : 0) + Int(bytes[from + 2] & 0x3F)
        return isDevanagariLetterOrDigit(UInt32(value))
    }

    /// Devanagari letters and digits (general categories Lo, Lm, Nd): never part of the character
    /// before them, never folded away.
    static func isDevanagariLetterOrDigit(_ value: UInt32) -> Bool {
        (0x904...0x939).contains(value) || value == 0x93D || value == 0x950 || (0x958...0x961).contains(value)
            || (0x966...0x96F).contains(value) || (0x971...0x97F).contains(value)
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
        for byte in text.utf8 {
            if byte &- 0x61 < 26 || byte &- 0x30 < 10 {
                out.append(byte)
                lastSpace = false
            } else if byte &- 0x41 < 26 {
                out.append(byte + 0x20)
                lastSpace = false
            } else if byte == 0x27 {  // '
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
    private static func foldTokens(_ scalar: Unicode.Scalar) -> [UInt32]? {
        let folded = String(scalar).folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var tokens: [UInt32] = []
        for ch in folded {
            let scalars = ch.unicodeScalars
            guard let first = scalars.first, scalars.count == 1, TextCleaner.isSimpleScalar(first.value) else {
                return nil
            }
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
            for value in range { table.append(Unicode.Scalar(value).flatMap(foldTokens)) }
        }
        return table
    }()

    @inline(__always)
    private static func foldTableIndex(_ value: UInt32) -> Int? {
        if value >= 0x80, value < 0x250 { return Int(value - 0x80) }
        if value >= 0x1E00, value < 0x1F00 { return Int(value - 0x1E00) + 0x1D0 }
        if value >= 0x2000, value < 0x2070 { return Int(value - 0x2000) + 0x2D0 }
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
            for scalar in text.unicodeScalars {
                let value = scalar.value
                if value < 0x80 {
                    if value &- 0x61 < 26 || value &- 0x30 < 10 {
                        out.append(scalar)
                        lastSpace = false
                    } else if value &- 0x41 < 26 {
                        out.append(Unicode.Scalar(UInt8(value + 0x20)))
                        lastSpace = false
                    } else if value != 0x27, !lastSpace {
                        out.append(" ")
                        lastSpace = true
                    }
                    continue
                }
                guard let tableIndex = foldTableIndex(value), let tokens = table[tableIndex] else { return false }
                for token in tokens {
                    if token == 0x20 {
                        if !lastSpace { out.append(" ") }
                        lastSpace = true
                    } else {
                        out.append(Unicode.Scalar(token)!)
                        lastSpace = false
                    }
                }
            }
            return true
        }
        guard ok else { return nil }
        var folded = String(out)
        if folded.hasSuffix(" ") { folded.removeLast() }
        return folded
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
        for character in folded {
            if character.isLetter || character.isNumber {
                pieces += character.utf8
            } else if character == "'" || character == "’" {
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
            for piece in pieces {
                if piece == 0x20 {
                    if !lastSpace { out.append(0x20) }
                    lastSpace = true
                } else {
                    out.append(piece)
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
            var count = 0
            for scalar in ch.unicodeScalars {
                guard count < 6 else { return nil }
                let value = UInt64(scalar.value) + 1  // never 0, so that lengths differ
                if count < 3 { low |= value << (21 * UInt64(count)) } else { high |= value << (21 * UInt64(count - 3)) }
                count += 1
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
