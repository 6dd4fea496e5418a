import Foundation

/// The forms of an in-text citation, read one comma-separated part at a time.
///
/// A citation is a run of parts — "Roux", "1898", "t. III", "p. lx-lxii" — and each part is of one
/// kind: an author, a title, a year, a locator, "ibid." and the like (`Part`). Whether the run is a
/// citation is decided by the order of its kinds (`sequences`), the orders scholars write them in:
/// author and year ("Braun 2011: 30 f."), author, year and locators ("Roux, 1898, t. III, p. 4"), the
/// work cited just before ("ebd., S. 112", "a. a. O.", "op. cit., iv. 12"), an author and their work
/// cited before ("Girard, art. cit., p. 31"), a source and a locator ("Hale, Chronicles of the Marsh,
/// iii. 212", "Stadtarchiv Bremen, Akte 7, Nr. 19"), an archive and a shelfmark ("TNA, CO 137/45"),
/// or a page alone ("S. 112", "iii. 212"). A part of no kind — a word of prose — makes the whole run
/// prose: "(3 Mark pro Tag)", "(c. 1790)", "(im Jahr 1890 gegründet)" stay.
///
/// The forms are those of English, German, French, Spanish, Italian and Portuguese scholarship; the
/// language of the text is not needed, since the abbreviations of one language are not prose in another.
enum CitationGrammar {
    /// What one part of a citation holds; its letter stands for it in the strings `sequences` matches.
    enum Part: Character {
        /// "Girard", "Krause/Lenz", "Lee et al.", "J.-P. Sartre", "Stadtarchiv Bremen".
        case authors = "A"
        /// An author or title that names an archive or library ("Landesarchiv", "TNA", "Archives
        /// nationales"): a shelfmark may follow it without a keyword.
        case archive = "R"
        /// "Chronicles of the Marsh", "Règlement intérieur", "« La grève »", "Polizeibericht vom 3. Mai 1890".
        case title = "T"
        /// An author or title that names a newspaper or periodical ("The Times", "Vossische Zeitung",
        /// "Le Moniteur"): a date may follow it alone.
        case periodical = "J"
        /// "Braun 2011: 30 f.", "Hale 1879", "quoted in Keller 2010".
        case authorsYear = "B"
        /// "1898", "2016: 12 ff.", "n. d.", "o. J.".
        case year = "Y"
        /// "12 March 1666", "3. Mai 1848", "1er mai 1848": a letter's, diary's or newspaper's date.
        case date = "D"
        /// The work cited just before: "ibid.", "ebd.: 45", "a. a. O.", "op. cit.", "idem", "ivi".
        case ibid = "I"
        /// "cit.": the work of the author just named, as "Rossi, cit., p. 12".
        case cited = "C"
        /// A locator that may be prose on its own: "Akte 7", "Nr. 19", "art. 6", "Kap. 3", "table 7.8".
        case locator = "L"
        /// A page, folio or volume, a citation even alone: "p. 31", "S. 112", "fol. 12r", "t. III", "iii. 212".
        case page = "P"
        /// "88", "30 f.", "III", "passim": a page after another part.
        case number = "N"
        /// A shelfmark: "CO 137/45", "F7 12345", "ms. fr. 1234".
        case signature = "S"
    }

    /// Whether `segment` (the text of a parenthesis, or a part of it between semicolons) is one citation.
    static func isCitation(_ segment: Substring) -> Bool {
        kinds(of: segment).map(isCitation(kinds:)) ?? false
    }

    /// Whether parts of these kinds (`kinds(of:)`) make a citation.
    static func isCitation(kinds: String) -> Bool {
        matches(sequences, kinds)
    }

    /// Whether `segment` is what a parenthesis holds after an author named outside it: "Lenz (2016:
    /// 12 ff.)", "Okafor (2015a, 2017)", "Schmitt (a. a. O., S. 14)", "Hale (iii. 212)".
    static func isCitationAfterAuthor(_ segment: Substring) -> Bool {
        kinds(of: segment).map(isCitationAfterAuthor(kinds:)) ?? false
    }

    /// Whether parts of these kinds (`kinds(of:)`) may follow an author named outside the brackets.
    static func isCitationAfterAuthor(kinds: String) -> Bool {
        matches(afterAuthor, kinds)
    }

    /// The kinds of the parts of `segment`, its opening words ("vgl.", "see, e.g.,", "voir
    /// notamment") aside; nil when one part is of no kind.
    static func kinds(of segment: Substring) -> String? {
        let text = String(segment)
        guard startsWithOneOf(text, "scefvdh"),
            let match = opening.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let end = Range(match.range, in: text)?.upperBound
        else { return kindsOfParts(segment) }
        var rest = text[end...]
        // "vgl. dazu ausführlich Nolte 2000", "see the essays in Brewer 1989": a few words in lower case
        // between the opening and the citation belong to the opening.
        for _ in 0...maximumOpeningWords {
            if let kinds = kindsOfParts(rest) { return kinds }
            let word = rest.prefix(while: { $0.isLetter || $0 == "-" })
            guard let first = word.first, first.isLowercase, rest.dropFirst(word.count).first == " " else { break }
            rest = rest.dropFirst(word.count + 1)
        }
        return nil
    }

    /// The most words in lower case between an opening ("see", "vgl.") and a citation.
    private static let maximumOpeningWords = 4

    /// The kinds of the comma-separated parts of `text`; nil when one part is of no kind.
    private static func kindsOfParts(_ text: Substring) -> String? {
        var kinds = ""
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let kind = kind(of: part) else { return nil }
            kinds.append(kind.rawValue)
        }
        return kinds
    }

    /// The kind of one part, nil for prose. Callers bound its length (`CitationFilter` looks at no
    /// parenthesis longer than 300 characters).
    static func kind(of part: Substring) -> Part? {
        var text = part.trimmingCharacters(in: .whitespaces)
        guard let first = text.unicodeScalars.first else { return nil }
        // The first character rules out most kinds: a part of prose is tried against few patterns.
        switch first {
        case "0"..."9":
            if matches(year, text) { return .year }
            if matches(date, text) { return .date }
            if matches(number, text) { return .number }
            return matches(signature, text) ? .signature : nil
        case "[": return matches(year, text) ? .year : nil
        case "§": return matches(locator, text) ? .locator : nil
        case "\"", "«", "“", "„", "'":
            return matches(title, text) && startsLikeATitle(text) ? .title : nil
        case "&": return matches(number, text) ? .number : nil
        default: guard first.properties.isAlphabetic else { return nil }
        }
        // "quoted in Keller 2010", "zit. nach Braun", "cité par Monod": the source that quotes.
        if startsWithOneOf(text, "aqcz"),
            let match = quotedIn.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let end = Range(match.range, in: text)?.upperBound
        {
            text = String(text[end...])
            if matches(authorsYear, text), startsLikeAName(text) { return .authorsYear }
            if matches(authors, text), startsLikeAName(text, yearFollows: false) { return .authors }
            return nil
        }
        if matches(ibid, text) { return .ibid }
        if matches(cited, text) { return .cited }
        if matches(year, text) { return .year }
        if matches(page, text) || matches(volumeAndPage, text) { return .page }
        if matches(locator, text) { return .locator }
        if matches(number, text) { return .number }
        if matches(authorsYear, text) { return startsLikeAName(text) ? .authorsYear : nil }
        if matches(authors, text), startsLikeAName(text, yearFollows: false) {
            return namesAnArchive(text) ? .archive : namesAPeriodical(text) ? .periodical : .authors
        }
        if first.properties.isUppercase, matches(title, text), startsLikeATitle(text) {
            return namesAnArchive(text) ? .archive : namesAPeriodical(text) ? .periodical : .title
        }
        return matches(signature, text) ? .signature : nil
    }

    // MARK: the orders of parts

    /// The orders of parts that make a citation (letters of `Part`).
    private static let sequences: NSRegularExpression = {
        let named = "[ARJ]"  // a source named by its author, archive or periodical
        let source = "[ATRJ]"  // a source, its title too
        let orders = [
            "I[ICLPN]*",  // ibid., p. 4 · Id., ibid., p. 3
            "P[LPNSY]*",  // p. 31 · vol. 2, p. 3
            "(?:\(named)[ATRJL]*)?B[BYLPNS]*",  // Braun 2011: 30 f. · Varga, quoted in Keller 2010, 88
            "\(named)[ATRJL]*Y[YLPNS]*",  // Roux, 1898, t. III, p. 4 · Agulhon, La République, Paris, Plon, 1970
            // A date only after a periodical, after an author and a work, or before a locator:
            // "(London, 12 March 1666)" is a place and a day.
            "J[ATRJL]*D[YDLPNS]*",  // The Times, 12 March 1866 · Le Moniteur, 3 mai 1848
            "\(named)[ATRJL]*\(source)[ATRJL]*D[YDLPNS]*",  // Pepys, Diary, 12 March 1666
            // Hale, 12 March 1866, p. 4 · Marx an Engels, 7. Juli 1866, MEW 31, S. 234 (an edition of letters)
            "\(source)[ATRJL]*D[ATRJYDLPNS]*[LP][ATRJYDLPNS]*",
            "\(source)+[IC][ICLPN]*",  // Girard, art. cit., p. 31 · Rossi, cit. · Brief vom 3. Mai 1890, ebd.
            "\(source)+[SNY]*[LP][LPNSY]*",  // Hale, Chronicles of the Marsh, iii. 212 · Règlement, 1890, art. 6
            // An archive and a shelfmark; not a number alone: "(DDR, 1949–1990)" is a state and its years.
            "R[ATRJLPNSY]*[SLP][ATRJLPNSY]*",  // TNA, CO 137/45 · AN, F7 12345 · Staatsarchiv, 111-1, Cl. VII
        ]
        return BuiltInPattern.expression("^(?:" + orders.joined(separator: "|") + ")$")
    }()

    /// What may stand in brackets after an author's name: a year, the work cited before, a page.
    private static let afterAuthor = BuiltInPattern.expression("^(?:Y[YLPNS]*|I[ICLPN]*|P[LPNSY]*)$")

    // MARK: the parts

    /// A page or other number: "12", "12r", "xii", "7.8" (never "12.000", a German thousand).
    private static let value = #"(?:\d{1,5}[a-z]{0,2}|\d{1,3}(?:\.\d{1,2})+|[ivxlcdm]{1,8}|[IVXLCDM]{1,8})"#
    /// "30 f.", "88 ff.", "12 sq.", "45 ss.", "20 et suiv.", "passim".
    private static let following =
        #"(?:\s*(?:"# + words(#"f ff sq sqq s ss sgg sig sigs seq et\s+seq et\s+suiv y\s+ss y\s+sigs"#)
        + #")\.|\s+passim)?"#
    private static let valueRange = #"\#(value)(?:\s*[-–—/]\s*\#(value))?\#(following)"#
    /// "12", "lx-lxii", "30 f.", "12 and 14".
    private static let values = #"\#(valueRange)(?:\s+(?:and|und|u\.|et|y|e|&)\s+\#(valueRange))*"#
    /// Page, folio and volume abbreviations: a citation even alone ("S." only upper case: "s." is "siehe").
    private static let pageWord =
        #"(?:(?i:"# + words("pp? pgs? págs? pags? fols? fo ff? vols? tt? tom bd bde bl cols? sp")
        + #")\.|S\.|f[°º]|[rv][°º])"#
    /// Other locators, with a dot or a space: "Akte 7", "Nr. 19", "art. 6", "§ 3", "Anm. 12", "table 7.8".
    private static let locatorWord =
        #"(?:(?i:"#
        + words(
            """
            arts? akte best bestand sign nr nrn no nos nn? anm fn notes? kap caps? ch chaps? sec sects? abs figs? abb
            tab tables? tabelle paras? jg jahrg abt fasz rep tit reg lib liv livre bk book buch teil lfg heft h ll? vv?
            z zeile ms mss hs cod add doc dok dossier carton liasse leg exp caja busta fasc b seiten? band pages? folio
            tome volume blatt
            """) + #")(?:\.|\s)|§§?)"#
    private static let anyLocator = #"(?:\#(pageWord)|\#(locatorWord))\s*\#(values)"#
    /// "p. 31", "S. 58 Anm. 12", and no page at all: "o. S.", "s. p.", "n. p.".
    private static let page = full(
        #"\#(pageWord)\s*\#(values)(?:\s+\#(anyLocator))*|o\.\s?S\.|(?i:s\.\s?p\.|n\.\s?p\.)"#)
    private static let locator = full(#"\#(locatorWord)\s*\#(values)(?:\s+\#(anyLocator))*"#)
    /// A volume in Roman numerals, then a page: "iii. 212", "IV. 12", "HE ii. 13". Single letters that
    /// are also words or abbreviations ("c. 1790", "v.", "l.", "C.") are not volumes.
    private static let volumeAndPage = full(
        #"(?:\p{Lu}\p{L}{0,4}\.?\s+)?(?:[ivx]{2,6}|[ix]|[lc][ivxl]{1,6}|[IVX]{2,6}|X|[LC][IVXL]{1,6})\."#
            + #"\s*\d{1,5}[a-z]?(?:\s*[-–]\s*\d{1,5}[a-z]?)?\#(following)"#)
    private static let number = full(#"(?:(?:(?:and|und|u\.|et|y|e|&)\s+)?\#(values)(?:\s*:\s*\#(values))?|passim)"#)

    private static let yearNumber = #"(?:1[5-9]\d{2}|20\d{2})"#
    /// No date, and not yet published: "n. d.", "o. J.", "s. d.", "in press", "im Druck".
    private static let undated =
        #"(?i:n\.\s?d\.?|o\.\s?J\.?|s\.\s?d\.?|s\.\s?f\.?|in\s+press|forthcoming|im\s+Druck|sous\s+presse|en\s+prensa)"#
    /// "2011", "2015a", "1890/91", "[1867] 1962", "n. d.", then a page after a colon: "2011: 30 f.".
    private static let yearPart =
        #"(?:(?:\[\#(yearNumber)\]\s*)?\#(yearNumber)[a-z]?(?:/\d{2,4})?|\#(undated))(?:\s*:\s*\#(values))?"#
    private static let year = full(yearPart)
    /// The months in the six languages, with the English abbreviations.
    private static let month = words(
        #"""
        jan(?:uary|\.)? feb(?:ruary|\.)? mar(?:ch|\.)? apr(?:il|\.)? may june? july? aug(?:ust|\.)? sept?(?:ember|\.)?
        oct(?:ober|\.)? nov(?:ember|\.)? dec(?:ember|\.)? januar jänner februar märz mai juni juli august oktober
        dezember janvier février mars avril juin juillet août septembre octobre novembre décembre enero febrero
        marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre gennaio febbraio aprile maggio
        giugno luglio settembre ottobre dicembre janeiro fevereiro março maio junho julho setembro outubro novembro
        dezembro
        """#)
    /// "12 March 1666", "3. Mai 1848", "1er mai 1848", "12 de marzo de 1848".
    private static let dayMonthYear = #"\d{1,2}(?:\.|er|º)?\s+(?:de\s+)?(?i:\#(month))\s+(?:de\s+)?\#(yearNumber)"#
    private static let date = full(dayMonthYear)

    /// The work cited just before, alone or with a page: "ibid.", "ebd.: 45", "a. a. O.", "ders. 1985: 102".
    private static let ibid = full(
        #"(?i:"#
            + words(
                #"""
                ibid\.? ibidem ib\. id\. idem eadem iidem ebd\.? ebda\. ebenda ders\. dies\. derselbe dieselbe ivi
                ibíd\.? íd\. a\.\s?a\.\s?O\.? supra infra
                (?:op|loc|art|ob|ouvr)\.\s?(?:cit\.?|cité|citato|citada|citado)
                """#)
            + #")(?:\s*:\s*\#(values)|\s+\#(yearPart)|\s+\#(anyLocator)|\s+\#(values))?"#)
    private static let cited = full(#"(?i:cit\.)(?:\s+\#(values))?"#)

    /// "van", "von", "de", "la"... before a name, and "d'", "l'", "O'" glued to it.
    private static let particle =
        #"(?:(?i:"# + words("van von vom zu de der den du di da la le del della dos das ten ter al el bin ibn")
        + #")\s+|(?i:d|l|O)['’]\s*)"#
    /// One name: initials, particles, then up to four capitalised words ("Royal Geographical Society").
    private static let name =
        #"(?:\p{Lu}\.[\s\-]?)*\#(particle)*\p{Lu}[\p{L}'’\-]+(?:\s+\#(particle)*\p{Lu}[\p{L}'’\-]+){0,3}"#
    /// "et al." and its equivalents.
    private static let others = words(
        #"et\s+al\.? and\s+others u\.\s?a\. et\s+coll\. e\.\s?a\. y\s+otros e\s+altri e\s+outros et\s+alii"#)
    /// Names joined by "/", "&", "and", "und", "u.", "et", "y", "e", then "et al." and its equivalents.
    private static let authorNames =
        #"\#(name)(?:(?:\s*[/&]\s*|\s+(?:and|und|u\.|et|y|e)\s+)\#(name)){0,5}(?:\s+(?:\#(others)))?"#
    private static let authors = full(authorNames)
    private static let authorsYear = full(#"\#(authorNames)\s+\#(yearPart)"#)
    /// A title: a capital, then up to eleven words (abbreviated or not) and perhaps a volume number or
    /// a date ("Polizeibericht vom 3. Mai 1890"); or anything in quotation marks.
    private static let title = full(
        #"\p{Lu}[\p{L}'’\-.:]*(?:\s+(?:[\p{L}'’\-.:]+|&)){0,11}(?:\s+(?:\d{1,4}|\#(dayMonthYear)))?"#
            + #"|["«“„'][^"«»“”„]{1,150}["»”“']\.?"#)
    /// One token of a shelfmark: "F7", "137/45", "CO", "ms.", "Add.".
    private static let shelfToken = #"(?:\p{L}{0,4}\d[\p{L}\d./\-]*|\p{Lu}{1,4}\.?|\p{L}{1,5}\.)"#
    /// A shelfmark: up to six short tokens, one at least with a digit.
    private static let signature = full(#"(?=\D*\d)\#(shelfToken)(?:\s+\#(shelfToken)){0,5}"#)

    /// What opens a citation without being part of it: "see", "cf.", "vgl. auch", "voir notamment",
    /// "see, e.g.,", "siehe oben". "s." (siehe) only in lower case: "S." is a page.
    private static let opening: NSRegularExpression = {
        let verbs = words(
            #"""
            see cf\.? cp\. compare e\.\s?g\. for\s+example vgl\. vergleiche siehe voir cfr\. vid\. vide véase vedi ver
            veja dazu hierzu so
            """#)
        let adverbs = words(
            #"""
            also auch etwa aussi notamment z\.\s?B\. e\.\s?g\. u\.\s?a\. insbes\. bes\. besonders especially esp\.
            generally further ferner for\s+example par\s+exemple en\s+particulier above below supra infra oben unten
            plus\s+haut plus\s+bas ci-dessus ci-dessous
            """#)
        return BuiltInPattern.expression(
            #"^\s*(?:(?:(?i:\#(verbs))|s\.)(?:[\s,]+(?i:\#(adverbs)))*[\s,]+)+"#)
    }()
    /// "quoted in", "zit. nach", "cité par", "citado por", "apud": the source named next quotes another.
    private static let quotedIn = BuiltInPattern.expression(
        #"^(?i:(?:as\s+)?(?:quoted|cited)\s+(?:in|by)|zit(?:\.|iert)\s+(?:nach|n\.|bei|in)|cité\s+(?:par|dans|in)"#
            + #"|cit\.\s+(?:in|da|en|por)|citad[oa]\s+(?:en|por)|citat[oa]\s+(?:in|da)|apud)\s+"#)

    /// Whether the first non-space character of `text`, lower-cased, is one of `letters` (ASCII): the
    /// words `opening` and `quotedIn` match begin with few letters, and most parts with none of them.
    private static func startsWithOneOf(_ text: some StringProtocol, _ letters: StaticString) -> Bool {
        guard let first = text.utf8.first(where: { $0 != 0x20 && !(0x09...0x0D).contains($0) }) else { return false }
        if first >= 0x80 { return true }  // a space `\s` knows, or a letter: the pattern decides
        let lower = first | 0x20
        return letters.withUTF8Buffer { $0.contains(lower) }
    }

    /// Alternatives of a pattern, from words separated by white space: "p pp" → "p|pp".
    private static func words(_ list: String) -> String {
        list.split(whereSeparator: \.isWhitespace).joined(separator: "|")
    }

    // MARK: words

    /// Whether the first word of an author part may be a name: not "Born", "May", "Stand", "Chapter"...
    /// An abbreviation in capitals ("AN", "AD") may be, unless a year follows it ("AD 1520").
    private static func startsLikeAName(_ text: String, yearFollows: Bool = true) -> Bool {
        guard let word = firstWord(of: text) else { return false }
        if !yearFollows, word.count >= 2, word.allSatisfy(\.isUppercase) { return true }
        return !CitationFilter.notAuthors.contains(word.lowercased())
    }

    /// Whether the first word of a title part may open a title: an article ("The Times"), not a word
    /// of prose ("More", "This", "Born").
    private static func startsLikeATitle(_ text: String) -> Bool {
        guard let word = firstWord(of: text) else { return true }  // a quoted title
        let lower = word.lowercased()
        if lower == "the" || lower == "a" || lower == "an" { return true }
        return !CitationFilter.notAuthors.contains(lower) && !proseOpenings.contains(lower)
    }

    /// The first word of letters, past initials ("J.-P. Sartre" → "Sartre") and opening quotes.
    private static func firstWord(of text: String) -> Substring? {
        var rest = Substring(text)
        while let first = rest.first {
            let word = rest.prefix(while: { $0.isLetter })
            if word.isEmpty {
                if "\"«“„'".contains(first) { return nil }
                rest = rest.dropFirst()
            } else if word.count == 1, let next = rest.dropFirst().first, ".'’".contains(next) {
                rest = rest.dropFirst(2)  // an initial, or "d'" of "d'Alembert"
            } else {
                return word
            }
        }
        return nil
    }

    /// Words that open a clause, never a title.
    private static let proseOpenings: Set<String> = [
        "more", "see", "note", "this", "these", "those", "that", "here", "there", "also", "which", "what", "when",
        "where", "who", "it", "he", "she", "they", "we", "i", "you", "his", "her", "their", "our", "my", "its", "one",
        "some", "all", "many", "most", "not", "only", "even", "just", "so", "dies", "diese", "dieser", "dieses",
        "hier", "dort", "er", "sie", "es", "wir", "ich", "man", "nicht", "auch", "nur", "noch", "schon", "mehr",
        "il", "elle", "ils", "elles", "nous", "on", "ce", "cette", "ces", "ici", "voir", "nach", "wie", "als",
    ]

    private static let archiveWords = BuiltInPattern.expression(
        #"(?i:archiv|bibliot|library|record\s+office|registry|museum|papers\b|nachlass|fonds\b)"#)

    /// Words of the names of newspapers and periodicals in the six languages.
    private static let periodicalWords = BuiltInPattern.expression(
        #"(?i:\b(?:"#
            + words(
                """
                zeitung tageblatt anzeiger kurier rundschau nachrichten vorwärts times journal gazette gazzetta gaceta
                gazeta post herald tribune chronicle observer guardian telegraph mercury moniteur figaro temps presse
                monde quotidien constitutionnel spiegel express news review magazine revue rivista revista diario
                corriere stampa correio jornal bulletin bote economist
                """) + #")\b)"#)

    /// Whether a source names a newspaper or a periodical: "The Times", "Vossische Zeitung".
    private static func namesAPeriodical(_ text: String) -> Bool {
        periodicalWords.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Whether a source names an archive or a library: an archive word, or an abbreviation of two to five
    /// letters, two of them capitals ("TNA", "AN", "GStA", "BnF").
    private static func namesAnArchive(_ text: String) -> Bool {
        let word = text.prefix(while: \.isLetter)
        if (2...5).contains(word.count), word.filter(\.isUppercase).count >= 2 { return true }
        return archiveWords.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private static func full(_ pattern: String) -> NSRegularExpression {
        BuiltInPattern.expression("^(?:" + pattern + ")$")
    }

    private static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, options: [.anchored], range: NSRange(text.startIndex..., in: text)) != nil
    }
}
