/// Splits plain text into sentences, and over-long sentences into clauses.
///
/// Rules (tuned for narrated prose, conservative: when unsure it does not split, because a missed
/// boundary only makes a chunk longer while a false one makes the voice stop mid-sentence):
/// - a sentence ends after a run of `.` `!` `?` `…` (plus any closing quotes or brackets) that is
///   followed by white space and a word that does not start in lower case;
/// - full-width `。！？` end a sentence even without a following space;
/// - not after common abbreviations (Mr. Dr. St. e.g. i.e. cf. vs. M. Mme. z.B. Sr. Sra. …), after
///   numbering abbreviations when a number follows (No. 5, p. 12, Vol. 3), after single-letter
///   initials (J. R. R. Tolkien, U.S.), or after a list marker that opens the text ("1. ", "IV. ");
/// - decimals (3.14) never end a sentence because no space follows the period.
///
/// Ranges are in Unicode scalars of the text internally; the public API speaks UTF-16 offsets.
public enum SentenceSegmenter {
    /// The sentences of `text` as UTF-16 offset ranges, white space trimmed, in order.
    public static func sentenceRanges(in text: String) -> [Range<Int>] {
        let scalars = ScalarText(text)
        return sentences(in: scalars).map { scalars.utf16Range($0) }
    }

    /// Sentence ranges in scalar indices, white space trimmed, empty ones dropped.
    static func sentences(in text: ScalarText) -> [Range<Int>] {
        let s = text.scalars
        var result: [Range<Int>] = []
        var start = 0
        for end in boundaries(s) + [s.count] {
            if let trimmed = trim(start..<end, in: s) { result.append(trimmed) }
            start = end
        }
        return result
    }

    /// Splits `range` into pieces of at most `maxLength` scalars, preferring clause punctuation
    /// (`;` `:` then dashes then `,`), then a space; only a single word longer than `maxLength`
    /// is cut inside (between grapheme clusters; inside one only when it alone is longer).
    static func split(_ range: Range<Int>, in s: [Unicode.Scalar], maxLength: Int) -> [Range<Int>] {
        let maxLength = max(maxLength, 1)
        var pieces: [Range<Int>] = []
        var start = range.lowerBound
        while range.upperBound - start > maxLength {
            let limit = start + maxLength
            let cut = bestCut(from: start, limit: limit, in: s)
            if let piece = trim(start..<cut, in: s) { pieces.append(piece) }
            start = cut
            while start < range.upperBound, s[start].properties.isWhitespace { start += 1 }
        }
        if let piece = trim(start..<range.upperBound, in: s) { pieces.append(piece) }
        return pieces
    }

    // MARK: - Boundaries

    private static func boundaries(_ s: [Unicode.Scalar]) -> [Int] {
        var result: [Int] = []
        var i = 0
        while i < s.count {
            guard isTerminator(s[i]) else {
                i += 1
                continue
            }
            var runEnd = i
            while runEnd < s.count, isTerminator(s[runEnd]) { runEnd += 1 }
            var end = runEnd
            while end < s.count {
                if isClosing(s[end]) {
                    end += 1
                    continue
                }
                // French typography puts a (no-break) space before the closing guillemet: « Oui. »
                var k = end
                while k < s.count, s[k].properties.isWhitespace, k - end < 2 { k += 1 }
                guard k > end, k < s.count, s[k] == "\u{00BB}" || s[k] == "\u{203A}" else { break }
                end = k + 1
            }
            if s[i..<runEnd].allSatisfy(isFullWidthTerminator) {
                result.append(end)
            } else if end < s.count, s[end].properties.isWhitespace,
                endsSentence(s, runStart: i, runEnd: runEnd, after: end)
            {
                result.append(end)
            }
            i = end
        }
        return result
    }

    private static func endsSentence(_ s: [Unicode.Scalar], runStart: Int, runEnd: Int, after: Int) -> Bool {
        var k = after
        while k < s.count, s[k].properties.isWhitespace || isOpening(s[k]) { k += 1 }
        guard k < s.count else { return true }
        let next = s[k]
        if next.properties.isLowercase { return false }
        // Only a single period can belong to an abbreviation; "?", "!", "…" and "..." cannot.
        guard runEnd - runStart == 1, s[runStart] == "." else { return true }
        var tokenStart = runStart
        while tokenStart > 0, !s[tokenStart - 1].properties.isWhitespace { tokenStart -= 1 }
        while tokenStart < runStart, isOpening(s[tokenStart]) { tokenStart += 1 }
        let token = String(String.UnicodeScalarView(s[tokenStart..<runStart]))
        if token.isEmpty { return true }
        let lower = token.lowercased()
        if abbreviations.contains(lower) { return false }
        if numberingAbbreviations.contains(lower), next.properties.numericType != nil { return false }
        if isInitials(token) { return false }
        let atTextStart = s[0..<tokenStart].allSatisfy { $0.properties.isWhitespace }
        if atTextStart, isListMarker(token) { return false }
        return true
    }

    /// "J", "U.S", "J.R.R": single letters joined by periods (initials, acronyms with dots).
    private static func isInitials(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        return parts.allSatisfy { $0.count == 1 && $0.first!.isLetter }
            && (parts.count > 1 || token.first!.isUppercase)
    }

    private static func isListMarker(_ token: String) -> Bool {
        if token.allSatisfy(\.isNumber) { return true }
        if token.count == 1, token.first!.isLetter { return true }
        return token.count <= 6 && token.allSatisfy { "IVXLCivxlc".contains($0) }
    }

    /// Abbreviations that never end a sentence (compared in lower case, without the final period).
    static let abbreviations: Set<String> = [
        // English titles and Latin
        "mr", "mrs", "ms", "mx", "dr", "st", "prof", "messrs", "rev", "hon", "gen", "col", "capt", "lt", "sgt",
        "mt", "vs", "cf", "e.g", "i.e", "viz", "al", "approx", "ca", "incl", "esp",
        // French
        "mme", "mlle", "mgr", "p.ex", "c.-à-d",
        // German
        "z.b", "d.h", "u.a", "bzw", "ggf", "vgl", "hr", "fr", "s.o", "s.u",
        // Spanish
        "sr", "sra", "srta", "dra", "ud", "uds", "dña",
    ]

    /// Abbreviations that do not end a sentence when a number follows ("No. 5", but "No. I won't.").
    static let numberingAbbreviations: Set<String> = [
        "no", "nos", "nr", "vol", "vols", "ch", "chap", "p", "pp", "fig", "figs", "art", "sec", "pt", "op", "bd",
        "s", "n", "núm",
    ]

    // MARK: - Cuts inside long sentences

    private static func bestCut(from start: Int, limit: Int, in s: [Unicode.Scalar]) -> Int {
        // Cuts before `minimum` would leave a tiny piece; fall back to a weaker kind of cut instead.
        let minimum = start + max((limit - start) / 3, 1)
        func lastCut(_ isCut: (Int) -> Bool) -> Int? {
            var q = min(limit, s.count) - 1
            while q >= minimum {
                if isCut(q) { return q }
                q -= 1
            }
            return nil
        }
        let followedBySpace = { (q: Int) in q + 1 < s.count && s[q + 1].properties.isWhitespace }
        // A cut after clause punctuation: the piece ends with the punctuation.
        let strong: Set<Unicode.Scalar> = [";", ":"]
        if let q = lastCut({ strong.contains(s[$0]) && followedBySpace($0) }), q + 1 <= limit { return q + 1 }
        let dashes: Set<Unicode.Scalar> = ["\u{2014}", "\u{2013}"]
        if let q = lastCut({ dashes.contains(s[$0]) }), q + 1 <= limit { return q + 1 }
        if let q = lastCut({ s[$0] == "," && followedBySpace($0) }), q + 1 <= limit { return q + 1 }
        // A cut at a space: the piece ends before it.
        if let q = lastCut({ s[$0].properties.isWhitespace }) { return q }
        if let q = (start + 1..<limit).reversed().first(where: { s[$0].properties.isWhitespace }) { return q }
        // One word longer than the limit: cut between grapheme clusters, never before a combining mark,
        // unless one cluster is longer than the limit (a letter under thousands of marks): then at the
        // limit, so that each piece is a full one (one scalar at a time took time quadratic in it).
        var cut = limit
        while cut > start + 1, isExtending(s[cut]) { cut -= 1 }
        return cut == start + 1 && isExtending(s[cut]) ? limit : cut
    }

    private static func isExtending(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return c == "\u{200D}" || c.properties.isVariationSelector
        }
    }

    // MARK: - Character classes

    private static func isTerminator(_ c: Unicode.Scalar) -> Bool {
        c == "." || c == "!" || c == "?" || c == "\u{2026}" || c == "\u{203D}" || isFullWidthTerminator(c)
    }

    private static func isFullWidthTerminator(_ c: Unicode.Scalar) -> Bool {
        c == "\u{3002}" || c == "\u{FF01}" || c == "\u{FF1F}"
    }

    private static let closing: Set<Unicode.Scalar> = [
        "\"", "'", "\u{2019}", "\u{201D}", "\u{00BB}", "\u{203A}", ")", "]", "}", "\u{300D}", "\u{300F}", "\u{FF09}",
    ]
    private static func isClosing(_ c: Unicode.Scalar) -> Bool { closing.contains(c) }

    private static let opening: Set<Unicode.Scalar> = [
        "\"", "'", "\u{2018}", "\u{201C}", "\u{201E}", "\u{00AB}", "\u{2039}", "(", "[", "{", "\u{00BF}", "\u{00A1}",
        "\u{2014}", "\u{2013}", "-", "\u{300C}", "\u{300E}",
    ]
    private static func isOpening(_ c: Unicode.Scalar) -> Bool { opening.contains(c) }

    static func trim(_ range: Range<Int>, in s: [Unicode.Scalar]) -> Range<Int>? {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, s[lower].properties.isWhitespace { lower += 1 }
        while upper > lower, s[upper - 1].properties.isWhitespace { upper -= 1 }
        return lower < upper ? lower..<upper : nil
    }
}

/// A text as an array of Unicode scalars, with the UTF-16 offset of each scalar.
struct ScalarText {
    let scalars: [Unicode.Scalar]
    /// `utf16Offsets[i]` is the UTF-16 offset of scalar `i`; one extra entry for the end.
    let utf16Offsets: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += scalar.utf16.count
        }
        offsets.append(offset)
        utf16Offsets = offsets
    }

    func utf16Range(_ range: Range<Int>) -> Range<Int> {
        utf16Offsets[range.lowerBound]..<utf16Offsets[range.upperBound]
    }

    func string(_ range: Range<Int>) -> String {
        String(String.UnicodeScalarView(scalars[range]))
    }
}
