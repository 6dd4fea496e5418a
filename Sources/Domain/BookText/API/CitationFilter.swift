import Foundation

/// Removes in-text citations and page markers that a listener does not want to hear.
///
/// A parenthesis is judged as a whole (`CitationGrammar`): it goes when every part of it is part of a
/// citation. Removed: author-year citations — "(Smith, 2020)", "(Smith & Jones 2019; Lee et al., 2021a,
/// p. 4)", "(vgl. Braun 2011: 30 f.)", "(Krause/Lenz 2007: 88 ff.)", "(Varga, quoted in Keller 2010,
/// 88)" — the work cited before ("(ibid., p. 4)", "(ebd., S. 112)", "(a. a. O., S. 9)", "(op. cit., iv.
/// 12)", "(voir Girard, art. cit., p. 31)"), author or title with locators ("(Roux, 1898, t. III, p.
/// lx-lxii)", "(Hale, Chronicles of the Marsh, iii. 212)", "(Règlement intérieur, 1890, art. 6)"),
/// archives ("(Stadtarchiv Bremen, Akte 7, Nr. 19)", "(TNA, CO 137/45, fol. 12)"), pages alone ("(S.
/// 45)"); the year after an author named outside the brackets ("Okafor (2017) found" → "Okafor found",
/// "Lenz (2016: 12 ff.)" → "Lenz"); citations after prose inside a parenthesis ("(a point disputed
/// since; cf. Brandt 2003)" → "(a point disputed since)"); numeric citations "[12]", "[3-5]", "[1, 4]",
/// "[7, p. 22]", and page markers "[Pg 12]". Kept: prose in parentheses, with numbers or not ("(in
/// 1984)", "(c. 1790)", "(3 Mark pro Tag)", "(im Jahr 1890 gegründet)"), life dates "(1914–1918)", legal
/// references ("(Art. 48 Abs. 2 WRV)"), intervals "[0, 1]", "the interval [2, 9] seconds", indexes "y[5]".
/// What is left of a parenthesis never reads "(; )", "()" or "(cf.)".
public enum CitationFilter {
    static let numeric = BuiltInPattern.expression(
        #"\s?\[\s*\d{1,3}[a-z]?(?:\s*[-–,]\s*\d{1,3}[a-z]?)*"#
            + #"(?:\s*,\s*pp?\.\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?)?\s*\]"#)
    static let pageMarker = BuiltInPattern.expression(
        #"\s?\[\s*(?:Pg|Page|p\.|S\.)\s*[0-9ivxlc]+\s*\]"#, options: [.caseInsensitive])
    /// What a removed citation can leave in a parenthesis: "()", "(see)", "(cf.)", "(; x)", "(x; )".
    private static let residue = BuiltInPattern.expression(
        #"\s*(?<!\w)\(\s*(?:(?:see\s+also|see|cf\.|e\.\s?g\.,?|compare|vgl\.|siehe|voir|cfr\.|vid\.)\s*)?"#
            + #"[;,]?\s*\)|(?<=\()\s*[;,]\s*|\s*[;,]\s*(?=\))"#,
        options: [.caseInsensitive])

    /// Words that start parentheses like "(Born 1952)", "(Summer 1969)" or "(März 1902)": never an author.
    static let notAuthors: Set<String> = [
        "in", "born", "died", "d", "b", "since", "from", "until", "till", "circa", "ca", "c", "about", "around",
        "after",
        "before", "during", "the", "a", "an", "and", "or", "but", "summer", "winter", "spring", "autumn", "fall",
        "christmas", "easter", "anno", "ad", "bc", "bce", "ce", "published", "written", "founded", "est", "reprinted",
        "edition", "ed", "revised", "translated", "printed", "copyright", "vol", "volume", "no", "chapter", "page",
        "act", "scene", "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
        "nov", "dec", "by", "of", "on", "at", "to", "year", "years", "age", "aged", "now", "then", "as", "is", "was",
        "first", "last", "late", "early", "mid", "ending", "ended", "began", "begun", "till", "through", "op",
        "number", "figure", "fig", "table", "plate", "section", "part", "book", "letter", "im", "seit", "en", "dans",
        "depuis", "vers", "desde", "hasta", "nel", "dal", "em", "ate",
        // German, French, Spanish, Italian and Portuguese months, seasons and the like, capitalised at
        // the start of a parenthesis (and every German noun is).
        "januar", "jänner", "februar", "märz", "juni", "juli", "oktober", "dezember", "sommer", "frühjahr",
        "frühling", "herbst", "ostern", "pfingsten", "weihnachten", "anfang", "ende", "mitte", "beginn", "stand",
        "jahr", "jahre", "jahrgang", "gründung", "ausgabe", "auflage", "fassung", "nachdruck", "erstausgabe",
        "erstdruck", "kapitel", "abschnitt", "teil", "tabelle", "abbildung", "seite", "band", "heft", "um", "ab",
        "bis", "vor", "nach", "geboren", "gestorben", "gegründet", "janvier", "février", "mars", "avril", "mai",
        "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre", "printemps", "été", "automne",
        "hiver", "fin", "début", "milieu", "édition", "éd", "réédition", "chapitre", "tome", "enero", "febrero",
        "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre",
        "gennaio", "febbraio", "aprile", "maggio", "giugno", "luglio", "settembre", "ottobre", "dicembre",
        "janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro", "outubro", "novembro", "dezembro",
        "verano", "invierno", "primavera", "otoño", "estate", "inverno", "autunno", "edición", "edizione",
        "capítulo", "capitolo", "hacia", "verso", "cerca",
    ]

    /// Words before a year in brackets that name a thing, not an author: "the Reform Act (1832)".
    private static let notNamesBeforeYear: Set<String> = [
        "war", "treaty", "revolution", "census", "report", "law", "statute", "exhibition", "convention",
        "agreement", "accord", "declaration", "charter", "constitution", "olympics", "games", "election", "bill",
        "krieg", "vertrag", "frieden", "gesetz", "verfassung", "reform", "wahl", "wahlen", "ausstellung", "konzil",
        "kongress", "loi", "traité", "guerre", "révolution", "paix", "recensement", "exposition", "concile", "ley",
        "guerra", "tratado", "legge", "trattato", "lei",
    ]
    /// Words before "[2, 9]" that make it an interval.
    private static let intervalWords: Set<String> = [
        "interval", "intervals", "range", "ranges", "domain", "segment", "window", "bounds", "closed", "open",
    ]
    /// Units after "[2, 9]" that make it an interval: "the interval [2, 9] seconds".
    private static let intervalUnits: Set<String> = [
        "s", "ms", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "h", "hour", "hours", "day",
        "days", "week", "weeks", "month", "months", "year", "years", "m", "cm", "mm", "km", "metres", "meters", "kg",
        "g", "grams", "degrees", "°", "%", "hz", "khz", "v", "volts", "units",
    ]
    /// Symbols before "[2, 9]" that make it an interval: "x ∈ [2, 9]".
    private static let intervalSymbols: Set<Character> = ["∈", "∉", "=", "<", ">", "≤", "≥", "⊂", "⊆", "×", "∪", "∩"]

    /// Returns `text` without citations and page markers, spaces tidied.
    public static func removeCitations(from text: String) -> String {
        // A byte search: neither bracket is part of another character where a citation could follow.
        guard text.utf8.containsByte(0x28) || text.utf8.containsByte(0x5B) else { return text }
        var result = text
        var changed = false
        // Both patterns start with a literal "[": without one that can start a match, neither can match.
        for regex in [pageMarker, numeric] where mayMatchAfterBracket(result, pageMarker: regex === pageMarker) {
            let ns = result as NSString
            let matches = regex.matches(in: result, range: NSRange(location: 0, length: ns.length))
            guard !matches.isEmpty else { continue }
            var pieces: [String] = []
            var cursor = 0
            for match in matches {
                if regex === numeric && !isNumericCitation(match.range, in: ns) { continue }
                pieces.append(ns.substring(with: NSRange(location: cursor, length: match.range.location - cursor)))
                cursor = match.range.location + match.range.length
                changed = true
            }
            pieces.append(ns.substring(from: cursor))
            result = pieces.joined()
        }
        if mayHaveAuthorYear(result), TextCleaner.containsCharacter(result, ascii: "(") {
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
        guard text.utf8.containsByte(0x5B) else { return false }
        var text = text
        // Byte by byte: "[", spaces and the bytes tested are ASCII, and a Devanagari scalar is
        // three bytes E0 A4 xx or E0 A5 xx (its digits E0 A5 A6...AF).
        return text.withUTF8 { bytes in
            var afterBracket = false
            var offset = 0
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                if byte == 0x5B {
                    afterBracket = true
                } else if afterBracket {
                    if byte == 0x20 || (0x09...0x0D).contains(byte) { continue }
                    afterBracket = false
                    if byte >= 0x80 {
                        if byte == 0xE0, offset + 1 < bytes.count, bytes[offset] == 0xA4 || bytes[offset] == 0xA5,
                            !(bytes[offset] == 0xA5 && (0xA6...0xAF).contains(bytes[offset + 1]))
                        {
                            continue
                        }
                        return true
                    }
                    if pageMarker ? (byte | 0x20 == 0x70 || byte | 0x20 == 0x73) : (byte &- 0x30 < 10) { return true }
                }
            }
            return false
        }
    }

    /// Whether some "(" may open a citation: `CitationGrammar` needs a number or a word of `isCue`
    /// inside. Byte by byte from each "(" up to the first ")" and the byte after it: when those are
    /// ASCII, they are the characters `removeAuthorYear` looks at, so an ASCII digit or one of those
    /// words must be among them; any other byte may be (or join) a character that counts, so: maybe.
    static func mayHaveAuthorYear(_ text: String) -> Bool {
        guard text.utf8.containsByte(0x28) else { return false }
        var text = text
        return text.withUTF8(mayHaveAuthorYear)
    }

    private static func mayHaveAuthorYear(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var inside = false
        var closed = false
        var window: UInt32 = 0  // the last four bytes inside, ASCII letters lower-cased
        // Inside, a Devanagari scalar (E0 A4 xx, E0 A5 xx) other than a digit (E0 A5 A6...AF) is
        // neither a number nor part of those words: Devanagari text in brackets needs no closer
        // look. The lead byte read (E0), then the second (A4 or A5), else nil.
        var devanagari: UInt8? = nil
        for byte in bytes {
            if closed {
                if byte >= 0x80 { return true }  // may extend the ")"
                closed = false
                inside = false
            }
            if let before = devanagari {
                if before == 0xE0 {
                    guard byte == 0xA4 || byte == 0xA5 else { return true }
                    devanagari = byte
                } else {
                    if before == 0xA5, byte &- 0xA6 < 10 { return true }
                    devanagari = nil
                    window = 0
                }
                continue
            }
            if byte == 0x28 {
                inside = true
                window = 0
                continue
            }
            guard inside else { continue }
            if byte == 0xE0 {
                devanagari = byte
                continue
            }
            if byte >= 0x80 || byte &- 0x30 < 10 { return true }
            if byte == 0x29 {
                closed = true
                continue
            }
            window = window << 8 | UInt32(byte | 0x20)
            if isCue(window) { return true }
        }
        return false
    }

    /// Whether the last four bytes of a parenthesis (ASCII letters lower-cased, zeros before its
    /// first byte) end a word that only a citation without a digit holds: "n.d", "n. d.", "s.d.",
    /// "ibid", "cit." (op., loc., art. cit.), "ebd.", "(eben)da", "idem", "id.", "a. a. O.", "o. J.",
    /// "ivi", "o. S.", "s. p.", "n. p." (no page). What `CitationGrammar` accepts without a digit has one.
    @inline(__always)
    static func isCue(_ window: UInt32) -> Bool {
        if window & 0xFF_FFFF == 0x6E_2E64 { return true }  // "n.d"
        switch window {
        case 0x2E20_642E, 0x732E_642E,  // ". d.", "s.d."
            0x6962_6964, 0x6369_742E, 0x6562_642E, 0x656E_6461, 0x6964_656D,  // "ibid", "cit.", "ebd.", "enda", "idem"
            0x2069_642E, 0x0069_642E,  // " id.", "(id."
            0x2E20_6F2E, 0x612E_6F2E,  // ". o.", "a.o."
            0x2E20_6A2E, 0x6F2E_6A2E,  // ". j.", "o.j."
            0x2069_7669, 0x0069_7669,  // " ivi", "(ivi"
            0x2E20_732E, 0x6F2E_732E, 0x2E20_702E, 0x732E_702E, 0x6E2E_702E:  // ". s.", "o.s.", ". p.", "s.p.", "n.p."
            return true
        default: return false
        }
    }

    /// Whether a parenthesis may hold a citation: what `mayHaveAuthorYear` looks for, by character.
    static func mayBeCitation(_ inner: some StringProtocol) -> Bool {
        var window: UInt32 = 0
        var ascii = true
        for byte in inner.utf8 {
            if byte &- 0x30 < 10 { return true }
            if byte >= 0x80 { ascii = false }
            window = window << 8 | UInt32(byte | 0x20)
            if isCue(window) { return true }
        }
        if ascii { return false }  // the bytes said it all
        if inner.contains(where: \.isNumber) { return true }
        let lower = inner.lowercased()
        return lower.contains("ibíd") || lower.contains("íd.")  // "(ibíd.)", "(íd.)": Spanish
    }

    /// Whether a bracket of numbers is a citation rather than an interval ("[0, 1]", "the interval [2, 9]
    /// seconds", "x ∈ [2, 9]") or an index ("y[5]", "a[i][2]"). `range` is a match of `numeric`.
    static func isNumericCitation(_ range: NSRange, in ns: NSString) -> Bool {
        let glued = ns.character(at: range.location) == 0x5B && range.location > 0
        let start = glued || ns.character(at: range.location) == 0x5B ? range.location : range.location + 1
        let bracket = ns.substring(with: NSRange(location: start, length: NSMaxRange(range) - start))
        let numbers = bracket.split(whereSeparator: { !$0.isNumber })
        if numbers.contains(where: { $0.first == "0" }) { return false }
        let interval = numbers.count == 2 && !bracket.contains("p") && !bracket.contains("-") && !bracket.contains("–")
        guard glued || interval else { return true }
        let lookBehind = max(0, start - 40)
        let before = ns.substring(with: NSRange(location: lookBehind, length: start - lookBehind))
        if glued {
            // An index follows a name without a space; a citation follows a word, a number or punctuation.
            if before.last == "]" { return false }
            let word = before.reversed().prefix(while: { $0.isLetter || $0.isNumber || $0 == "_" })
            if !word.isEmpty, !word.allSatisfy(\.isNumber),
                word.count <= 3 || word.contains("_") || word.contains(where: \.isNumber)
            {
                return false
            }
        }
        // Two ascending numbers after an interval word or symbol, or before a unit: an interval.
        guard interval, let low = Int(numbers[0]), let high = Int(numbers[1]), low < high else { return true }
        let trimmed = before.reversed().drop(while: \.isWhitespace)
        if let symbol = trimmed.first, intervalSymbols.contains(symbol) { return false }
        let previous = String(trimmed.prefix(while: \.isLetter).reversed()).lowercased()
        if intervalWords.contains(previous) { return false }
        let end = NSMaxRange(range)
        let after = ns.substring(with: NSRange(location: end, length: min(20, ns.length - end)))
        let next = after.drop(while: \.isWhitespace).prefix(while: { !$0.isWhitespace && !",.;:)".contains($0) })
        return !intervalUnits.contains(next.lowercased())
    }

    /// Removes parenthesised citations, the year after an author named outside the brackets and the
    /// citations that follow or precede prose inside a parenthesis.
    private static func removeAuthorYear(_ text: String) -> String {
        var out = ""
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: "(") {
            guard let close = text[open...].firstIndex(of: ")") else { break }
            let inner = String(text[text.index(after: open)..<close])
            var before = text[index..<open]
            let kept = inner.contains("(") || !mayBeCitation(inner) ? nil : prose(of: inner, after: text[..<open])
            if let kept {
                if kept.isEmpty {
                    while before.last == " " { before.removeLast() }
                    out += before
                } else {
                    out += before + "(" + kept + ")"
                }
                index = text.index(after: close)
            } else {
                out += text[index...open]
                index = text.index(after: open)
            }
        }
        out += text[index...]
        return out
    }

    /// What a parenthesis should keep once its citations are gone: "" for one that is all citation,
    /// its prose for one that mixes both, nil when it holds no citation. `preceding` is the text
    /// before it, for an author named outside the brackets ("Okafor (2017)").
    private static func prose(of inner: String, after preceding: Substring) -> String? {
        guard inner.count <= maximumCitationLength else { return nil }
        let segments = inner.split(separator: ";", omittingEmptySubsequences: false)
        // Each segment's kinds, once: nil for prose (and a segment without a digit or a cue is prose).
        let kinds = segments.map { mayBeCitation($0) ? CitationGrammar.kinds(of: $0) : nil }
        let cites = kinds.map { $0.map(CitationGrammar.isCitation(kinds:)) ?? false }
        if !cites.contains(false) { return "" }
        if endsWithAuthor(preceding),
            zip(kinds, cites).allSatisfy({ $1 || $0.map(CitationGrammar.isCitationAfterAuthor(kinds:)) ?? false })
        {
            return ""
        }
        var kept: [Substring] = []
        var dropped = false
        for (segment, isCitation) in zip(segments, cites) {
            if segments.count > 1, isCitation {
                dropped = true
            } else if let cut = citationTail(of: segment) {
                kept.append(segment[..<cut])
                dropped = true
            } else {
                kept.append(segment)
            }
        }
        guard dropped else { return nil }
        return kept.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// Where a citation introduced by ", see", ", cf.", ", vgl.", ", voir"... ends a stretch of prose.
    private static func citationTail(of segment: Substring) -> Substring.Index? {
        guard mayBeCitation(segment) else { return nil }
        // Only where a comma and a space are followed by one of the words that open a citation.
        var index = segment.utf8.startIndex
        while let comma = segment.utf8[index...].firstIndex(of: 0x2C) {
            index = segment.utf8.index(after: comma)
            let rest = segment[index...]
            guard rest.utf8.first == 0x20 else { continue }
            let head = rest.dropFirst().prefix(8).lowercased()
            guard tailOpenings.contains(where: head.hasPrefix) else { continue }
            if holdsOnlyCitations(String(rest)) { return comma }
        }
        return nil
    }

    /// The words after a comma in a parenthesis that may open a citation ending it: "(prose, see Smith
    /// 2003)", "(prose, vgl. ebd., S. 88)". Not a page alone: "(Chapter 3, p. 4)" is a cross-reference.
    private static let tailOpenings = [
        "see ", "cf. ", "e.g.", "compare ", "vgl. ", "siehe ", "voir ", "cfr. ", "vid. ", "véase ", "vedi ", "zit. ",
        "cité ", "quoted ", "cited ",
    ]

    /// The longest parenthesis searched for citations, in characters: a longer one is prose.
    private static let maximumCitationLength = 300

    /// Whether `text` ends with an author's name, as before "(2017)" in "Okafor (2017)": a capitalised
    /// word, possibly possessive or followed by "et al.", that is not a month, "Act", a German abstract
    /// noun ("Reichsgründung") or the like.
    static func endsWithAuthor(_ text: Substring) -> Bool {
        var rest = text
        while rest.last == " " { rest.removeLast() }
        if rest.hasSuffix("et al.") {
            rest = rest.dropLast(6)
            while rest.last == " " { rest.removeLast() }
        }
        var word = String(rest.reversed().prefix(while: { $0.isLetter || "'’-".contains($0) }).reversed())
        if word.hasSuffix("'s") || word.hasSuffix("’s") { word.removeLast(2) }
        guard word.count >= 2, let first = word.unicodeScalars.first, first.properties.isUppercase else { return false }
        let lower = word.lowercased()
        return !notAuthors.contains(lower) && !notNamesBeforeYear.contains(lower) && !isAbstractNoun(lower)
            && !namesAWork(before: rest)
    }

    /// Whether a capitalised word is a German noun of a kind that names no one ("Reichsgründung",
    /// "Universität", "Gesellschaft") or an English or French one ("Revolution", "Exposition").
    private static func isAbstractNoun(_ lower: String) -> Bool {
        let length = lower.count
        return (length >= 6 && ["heit", "keit", "schaft", "tion", "tät", "ismus"].contains(where: lower.hasSuffix))
            || (length >= 8 && lower.hasSuffix("ung")) || (length >= 7 && lower.hasSuffix("nis"))
    }

    /// Words that introduce the title of a work: "the film Titanic (1997)", "the novel Emma (1815)".
    private static let workNouns: Set<String> = [
        "film", "movie", "picture", "documentary", "novel", "book", "novella", "story", "poem", "play", "opera",
        "musical", "ballet", "symphony", "album", "song", "single", "record", "series", "show", "sitcom", "game",
        "painting", "magazine", "newspaper", "journal", "ship", "the", "le", "la", "les", "der", "die", "das",
    ]

    /// Articles that may open a sentence before a noun: "Die Reichsgründung (1871)", "The Times (1990)".
    /// Not "La", "Le", "De": they begin names ("La Fontaine", "Le Goff").
    private static let capitalisedArticles: Set<String> = [
        "the", "der", "die", "das", "des", "dem", "ein", "eine", "einer", "eines", "einem",
    ]

    /// Prepositions before a place, never before an author: "trois éditions à Bordeaux (2000, 2001)".
    private static let placePrepositions: Set<String> = ["à", "au", "aux", "en", "em", "im", "nel", "nella", "zu"]

    /// Whether the capitalised words ending `text` are the title of a work, a thing or a place rather
    /// than an author: the word before them is "the", "die", a noun such as "film", a number ("82.000
    /// Einwohner"), "à" or "en" ("à Bordeaux") or a possessive ("Cameron's Titanic").
    private static func namesAWork(before text: Substring) -> Bool {
        var words = text.split(separator: " ").suffix(5)
        // Skip the capitalised words of the name itself.
        while let last = words.last, let first = last.unicodeScalars.first, first.properties.isUppercase {
            if capitalisedArticles.contains(last.lowercased()) { return true }
            words.removeLast()
            if words.isEmpty { return false }
            // "Cameron's Titanic": a possessive name before the title.
            if let previous = words.last, let head = previous.unicodeScalars.first, head.properties.isUppercase,
                previous.hasSuffix("'s") || previous.hasSuffix("’s")
            {
                return true
            }
        }
        guard let before = words.last else { return false }
        if before.first?.isNumber == true, before.allSatisfy({ $0.isNumber || ".,".contains($0) }) { return true }
        let lower = before.lowercased()
        return workNouns.contains(lower) || placePrepositions.contains(lower)
    }

    /// Whether the text inside parentheses is one or more citations, separated by semicolons.
    static func holdsOnlyCitations(_ inner: String) -> Bool {
        guard inner.count <= maximumCitationLength, mayBeCitation(inner) else { return false }
        return inner.split(separator: ";", omittingEmptySubsequences: false).allSatisfy(CitationGrammar.isCitation)
    }

    private static func tidy(_ text: String) -> String {
        var tidied = text
        if tidied.utf8.containsByte(0x28) {
            tidied = residue.stringByReplacingMatches(
                in: tidied, range: NSRange(tidied.startIndex..., in: tidied), withTemplate: "")
        }
        for (bad, good) in [(" ,", ","), (" .", "."), (" ;", ";"), (" :", ":"), (" ?", "?"), (" !", "!"), ("  ", " ")] {
            while tidied.contains(bad) { tidied = tidied.replacingOccurrences(of: bad, with: good) }
        }
        return tidied.trimmingCharacters(in: .whitespaces)
    }
}
