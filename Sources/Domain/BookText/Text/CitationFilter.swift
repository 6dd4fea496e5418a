import Foundation

/// Removes in-text citations and page markers that a listener does not want to hear.
///
/// Removed: parenthesised author-year citations — "(Smith, 2020)", "(Smith & Jones 2019; Lee et al.,
/// 2021a, p. 4)", "(see Miller 1999)" — numeric citations "[12]", "[3-5]", "[1, 4]", and page
/// markers "[Pg 12]". Kept: prose in parentheses, years in running text "(in 1984)", ranges of
/// years "(1914–1918)", intervals "[0, 1]".
public enum CitationFilter {
    private static let name = #"(?:(?:van|von|de|der|den|du|di|da|la|le|del|della|dos|das|ten|ter|al|el|bin|ibn|d'|O')\s*)*\p{Lu}[\p{L}'’\-]+"#
    private static let authors =
        #"\#(name)(?:\s*,\s*\#(name))*(?:,?\s+(?:and|&|und|et|y|e)\s+\#(name))?(?:\s+(?:et\s+al\.?|and\s+others|u\.\s?a\.))?"#
    private static let year = #"(?:1[5-9]\d{2}|20\d{2})[a-z]?|n\.\s?d\.|in press|forthcoming"#
    private static let locator =
        #"(?:\s*,\s*(?:pp?\.|ch\.|chap\.|sec\.|§|fig\.|vol\.|para\.|S\.)?\s*[0-9ivxlc]+(?:\s*[-–]\s*[0-9ivxlc]+)?)"#
    private static let cite =
        #"(?:(?:see\s+also|see|cf\.|e\.\s?g\.,?|compare|vgl\.|voir)\s+)?(\#(authors))(?:\s*,\s*|\s+)(?:\#(year))(?:\s*,\s*(?:\#(year)))*\#(locator)*"#
    private static let authorYear = try! NSRegularExpression(
        pattern: #"^\s*\#(cite)(?:\s*;\s*\#(cite))*\s*$"#, options: [.caseInsensitive])
    private static let firstWordOfCite = try! NSRegularExpression(
        pattern: #"(?:^|;)\s*(?:(?:see\s+also|see|cf\.|e\.\s?g\.,?|compare|vgl\.|voir)\s+)?([\p{L}'’\-]+)"#,
        options: [.caseInsensitive])
    static let numeric = try! NSRegularExpression(
        pattern: #"\s?\[\s*\d{1,3}[a-z]?(?:\s*[-–,]\s*\d{1,3}[a-z]?)*\s*\]"#)
    static let pageMarker = try! NSRegularExpression(
        pattern: #"\s?\[\s*(?:Pg|Page|p\.|S\.)\s*[0-9ivxlc]+\s*\]"#, options: [.caseInsensitive])

    /// Words that start parentheses like "(Born 1952)" or "(Summer 1969)": never an author.
    private static let notAuthors: Set<String> = [
        "in", "born", "died", "d", "b", "since", "from", "until", "till", "circa", "ca", "c", "about", "around", "after",
        "before", "during", "the", "a", "an", "and", "or", "but", "summer", "winter", "spring", "autumn", "fall",
        "christmas", "easter", "anno", "ad", "bc", "bce", "ce", "published", "written", "founded", "est", "reprinted",
        "edition", "ed", "revised", "translated", "printed", "copyright", "vol", "volume", "no", "chapter", "page",
        "act", "scene", "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
        "nov", "dec", "by", "of", "on", "at", "to", "year", "years", "age", "aged", "now", "then", "as", "is", "was",
        "first", "last", "late", "early", "mid", "ending", "ended", "began", "begun", "till", "through", "op",
        "number", "figure", "fig", "table", "plate", "section", "part", "book", "letter", "im", "seit", "en", "dans",
        "depuis", "vers", "desde", "hasta", "nel", "dal", "em", "ate",
    ]

    /// Returns `text` without citations and page markers, spaces tidied.
    public static func removeCitations(from text: String) -> String {
        // A byte search: neither bracket is part of another character where a citation could follow.
        guard text.utf8.contains(0x28) || text.utf8.contains(0x5B) else { return text }
        var result = text
        var changed = false
        // Both patterns start with a literal "[": without one that can start a match, neither can match.
        for regex in [pageMarker, numeric] where mayMatchAfterBracket(result, pageMarker: regex === pageMarker) {
            let ns = result as NSString
            let matches = regex.matches(in: result, range: NSRange(location: 0, length: ns.length))
            guard !matches.isEmpty else { continue }
            var pieces: [String] = []
            var cursor = 0
            for m in matches {
                let inner = ns.substring(with: m.range)
                if regex === numeric && !isCitationNumbers(inner) { continue }
                pieces.append(ns.substring(with: NSRange(location: cursor, length: m.range.location - cursor)))
                cursor = m.range.location + m.range.length
                changed = true
            }
            pieces.append(ns.substring(from: cursor))
            result = pieces.joined()
        }
        if mayHaveAuthorYear(result), TextNormalizer.containsCharacter(result, ascii: "(") {
            let stripped = removeAuthorYear(result)
            if stripped != result {
                result = stripped
                changed = true
            }
        }
        return changed ? tidy(result) : result
    }

    /// Whether `text` has a "[" where `pageMarker` or `numeric` could match: after the bracket and
    /// any ASCII spaces, a scalar that can start "Pg", "Page", "p.", "S." (ignoring case) or a digit
    /// (`\d`) respectively. Any scalar other than ASCII and the Devanagari letters and marks
    /// (neither a space, a digit nor a case variant of "p" or "s") may: then yes.
    static func mayMatchAfterBracket(_ text: String, pageMarker: Bool) -> Bool {
        guard text.utf8.contains(0x5B) else { return false }
        var afterBracket = false
        for u in text.unicodeScalars {
            let v = u.value
            if v == 0x5B {
                afterBracket = true
            } else if afterBracket {
                if v == 0x20 || (0x09...0x0D).contains(v) { continue }
                afterBracket = false
                if v >= 0x80 {
                    if (0x900...0x97F).contains(v), !(0x966...0x96F).contains(v) { continue }
                    return true
                }
                if pageMarker ? (v | 0x20 == 0x70 || v | 0x20 == 0x73) : (v &- 0x30 < 10) { return true }
            }
        }
        return false
    }

    /// Whether some "(" may open an author-year citation: `isAuthorYear` needs a number or "n.d"
    /// inside. Byte by byte from each "(" up to the first ")" and the byte after it: when those
    /// are ASCII, they are the characters `removeAuthorYear` looks at, so an ASCII digit or "n.d"
    /// must be among them; any other byte may be (or join) a character that counts, so: maybe.
    static func mayHaveAuthorYear(_ text: String) -> Bool {
        var inside = false
        var closed = false
        var n = 0  // how much of "n.d" the last bytes spell
        for b in text.utf8 {
            if closed {
                if b >= 0x80 { return true }  // may extend the ")"
                closed = false
                inside = false
            }
            if b == 0x28 {
                inside = true
                n = 0
                continue
            }
            guard inside else { continue }
            if b >= 0x80 || b &- 0x30 < 10 { return true }
            if b == 0x29 {
                closed = true
                continue
            }
            let lower = b | 0x20
            if n == 2, lower == 0x64 { return true }  // "n.d"
            n = lower == 0x6E ? 1 : (n == 1 && b == 0x2E ? 2 : 0)
        }
        return false
    }

    /// Numbers in brackets are a citation unless one is 0 (an interval such as [0, 1]).
    private static func isCitationNumbers(_ bracket: String) -> Bool {
        let numbers = bracket.split(whereSeparator: { !$0.isNumber })
        return !numbers.contains { $0.first == "0" }
    }

    private static func removeAuthorYear(_ text: String) -> String {
        var out = ""
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: "(") {
            guard let close = text[open...].firstIndex(of: ")") else { break }
            let inner = String(text[text.index(after: open)..<close])
            if !inner.contains("("), isAuthorYear(inner) {
                var before = text[index..<open]
                while before.last == " " { before.removeLast() }
                out += before
                index = text.index(after: close)
            } else {
                out += text[index...open]
                index = text.index(after: open)
            }
        }
        out += text[index...]
        return out
    }

    /// Whether the text inside parentheses is one or more author-year citations.
    static func isAuthorYear(_ inner: String) -> Bool {
        guard inner.count <= 300, inner.contains(where: \.isNumber) || inner.lowercased().contains("n.d") else {
            return false
        }
        let ns = inner as NSString
        let range = NSRange(location: 0, length: ns.length)
        guard authorYear.firstMatch(in: inner, range: range) != nil else { return false }
        // The pattern is case-insensitive for "and", "see"...; authors must still start upper case.
        for m in firstWordOfCite.matches(in: inner, range: range) {
            let word = ns.substring(with: m.range(at: 1))
            if notAuthors.contains(word.lowercased()) { return false }
            guard let first = word.unicodeScalars.first, first.properties.isUppercase || word.hasPrefix("d'")
                || ["van", "von", "de", "der", "den", "du", "di", "da", "la", "le", "del"].contains(word)
            else { return false }
        }
        return true
    }

    private static func tidy(_ text: String) -> String {
        var s = text
        for (bad, good) in [(" ,", ","), (" .", "."), (" ;", ";"), (" :", ":"), (" ?", "?"), (" !", "!"), ("  ", " ")] {
            while s.contains(bad) { s = s.replacingOccurrences(of: bad, with: good) }
        }
        return s.trimmingCharacters(in: .whitespaces)
    }
}
