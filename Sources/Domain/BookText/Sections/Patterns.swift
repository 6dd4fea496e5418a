import Foundation

/// Title, file-name and id patterns in English, French, German, Spanish, Italian, Portuguese and
/// Russian, and titles of the commonest front and back matter in Dutch, Polish, Danish, Norwegian,
/// Swedish and Finnish.
///
/// All matching is done on folded text (lower case, no accents, punctuation as single spaces, an
/// apostrophe joining the words around it).
enum Patterns {
    /// Phrases that name a kind when they are the whole title (or its start, after numbering),
    /// folded as titles are (`TextFold.fold`): "l'auteur" is "lauteur".
    static let titlePhrases: [(SectionKind, [String])] = (titlePhrasesAsWritten + titlePhrasesInMoreLanguages).map {
        kind, phrases in (kind, phrases.map(TextFold.fold))
    }

    /// Front and back matter titles in Dutch, Polish, Danish, Norwegian, Swedish and Finnish. Words
    /// that are also everyday words or likely chapter titles are left out ("Opdracht" is a task as
    /// well as a dedication, "Tak" is "yes" in Polish, "Omistus" is ownership).
    private static let titlePhrasesInMoreLanguages: [(SectionKind, [String])] = [
        (
            .toc,
            [
                "inhoud", "inhoudsopgave", "spis treści", "indhold", "indholdsfortegnelse", "innhold",
                "innholdsfortegnelse", "innehåll", "innehållsförteckning", "sisällys", "sisällysluettelo", "sisältö",
            ]
        ),
        (.preface, ["voorwoord", "przedmowa", "od tłumacza", "od autora", "forord", "förord", "esipuhe", "alkusanat"]),
        (.introduction, ["inleiding", "wstęp", "indledning", "innledning", "inledning", "johdanto"]),
        (
            .afterword,
            ["nawoord", "posłowie", "efterord", "etterord", "efterskrift", "etterskrift", "jälkisanat", "loppusanat"]
        ),
        (.acknowledgments, ["dankwoord", "dankbetuiging", "podziękowania", "taksigelser", "kiitokset"]),
        (.dedication, ["dedykacja", "tillägnan"]),
        (.notes, ["noten", "aantekeningen", "przypisy", "noter", "viitteet", "huomautukset"]),
        (.bibliography, ["bibliografie", "literatuur", "literatura", "litteratur", "kirjallisuus", "lähteet"]),
        (.index, ["indeks", "hakemisto"]),
        (.appendix, ["bijlage", "bijlagen", "aneks", "załącznik", "bilag", "vedlegg", "bilaga", "liite", "liitteet"]),
        (
            .aboutAuthor,
            ["over de auteur", "over de schrijver", "o autorze", "om forfatteren", "om författaren", "tekijästä"]
        ),
        (.prologue, ["proloog"]),
        (.epilogue, ["epiloog"]),
    ]

    /// `titlePhrases` as a reader writes them.
    private static let titlePhrasesAsWritten: [(SectionKind, [String])] = [
        (
            .cover,
            ["cover", "front cover", "couverture", "umschlag", "portada", "copertina", "capa", "cubierta", "обложка"]
        ),
        (
            .titlepage,
            [
                "title page", "titlepage", "title", "page de titre", "titelseite", "titelblatt", "portadilla",
                "frontespizio", "folha de rosto", "frontispiece", "frontispice", "титульный лист",
            ]
        ),
        (
            .halftitle,
            ["half title", "halftitle", "half title page", "faux titre", "schmutztitel", "anteportada", "occhiello"]
        ),
        (
            .copyright,
            [
                "copyright", "copyright page", "uncopyright", "copyrights", "mentions legales", "droits d'auteur",
                "derechos de autor", "diritti", "direitos autorais", "legal notice", "rights", "impressum",
                "copyright notice",
                "creditos", "credits page", "выходные данные", "авторские права", "информация об издании",
            ]
        ),
        (.imprint, ["imprint", "publisher", "publishers note", "edition", "about this edition", "editorial note"]),
        (
            .toc,
            [
                "contents", "table of contents", "toc", "sommaire", "table des matieres", "table", "inhalt",
                "inhaltsverzeichnis", "indice", "indice general", "contenido", "contenidos", "sumario",
                "indice generale",
                "sommario", "conteudo", "brief contents", "detailed contents", "list of contents", "содержание",
                "оглавление",
            ]
        ),
        (.dedication, ["dedication", "dedicace", "widmung", "dedicatoria", "dedica", "to", "for", "посвящение"]),
        (.epigraph, ["epigraph", "epigraphe", "epigraf", "epigrafe", "motto", "exergue", "эпиграф"]),
        (
            .foreword,
            [
                "foreword", "forward", "avant propos", "geleitwort", "premessa", "presentacion", "apresentacao",
                "presentation", "prefatory note",
            ]
        ),
        (
            .preface,
            [
                "preface", "vorwort", "prefacio", "prefazione", "prefacio", "authors preface", "translators preface",
                "note to the reader", "avertissement", "au lecteur", "avis au lecteur", "a note on the text",
                "note on the text", "a note on the translation", "prefatory", "praface", "vorbemerkung", "предисловие",
                "от переводчика",
            ]
        ),
        (
            .introduction,
            [
                "introduction", "einleitung", "einfuhrung", "zur einfuhrung", "introduccion", "introduzione",
                "introducao",
                "editors introduction", "translators introduction", "introductory note", "введение",
            ]
        ),
        (
            .transcriberNotes,
            [
                "transcribers note", "transcribers notes", "original transcribers notes", "note du transcripteur",
                "anmerkungen zur transkription", "nota del transcriptor",
            ]
        ),
        (
            .dramatisPersonae,
            [
                "dramatis personae", "characters", "the persons of the play", "persons represented", "personnages",
                "personen", "personajes", "personaggi", "personagens", "cast of characters",
            ]
        ),
        (.prologue, ["prologue", "prolog", "prologo", "prolegomena", "пролог"]),
        // A postscript closes the text itself (a letter's, a narrator's), as an epilogue does: the
        // costly error is to skip it, so it is read like one.
        (.epilogue, ["epilogue", "epilog", "epilogo", "эпилог", "postscript"]),
        (.interlude, ["interlude", "intermezzo", "entracte", "zwischenspiel", "interludio"]),
        (
            .afterword,
            [
                "afterword", "postface", "nachwort", "posfacio", "postfazione", "epilogo del autor", "послесловие",
            ]
        ),
        (
            .acknowledgments,
            [
                "acknowledgments", "acknowledgements", "acknowledgment", "acknowledgement", "remerciements",
                "danksagung", "dank", "agradecimientos", "ringraziamenti", "agradecimentos", "благодарности",
            ]
        ),
        (
            .appendix,
            [
                "appendix", "appendices", "annexe", "annexes", "anhang", "apendice", "appendice", "anexo", "addendum",
                "приложение", "приложения",
            ]
        ),
        (
            .notes,
            [
                "notes", "endnotes", "footnotes", "anmerkungen", "fussnoten", "notas", "note", "notes on",
                "annotations",
                "remarques", "notes to the text", "chapter notes", "erlauterungen", "примечания", "комментарии",
                "сноски",
            ]
        ),
        (
            .bibliography,
            [
                "bibliography", "bibliographie", "references", "works cited", "literatur", "literaturverzeichnis",
                "bibliografia", "further reading", "sources", "select bibliography", "quellen", "referencias",
                "библиография", "список литературы",
            ]
        ),
        (
            .glossary,
            [
                "glossary", "glossaire", "glossar", "glosario", "glossario", "lexique", "terminology", "definitions",
                "notation", "symbols", "list of symbols", "abbreviations", "list of abbreviations", "abkurzungen",
                "abreviaturas", "abreviations", "abbreviazioni", "глоссарий", "список сокращений",
            ]
        ),
        (
            .index,
            [
                "index", "register", "indice analitico", "indice alfabetico", "indice dei nomi", "sachregister",
                "personenregister", "index des noms", "general index", "указатель", "предметный указатель",
                "именной указатель", "алфавитный указатель",
            ]
        ),
        (
            .colophon,
            [
                "colophon", "kolophon", "colofon", "about this ebook", "about the ebook", "about this book",
                "production notes", "about this document", "achevé d'imprimer", "credits",
            ]
        ),
        (
            .aboutAuthor,
            [
                "about the author", "about the authors", "à propos de l'auteur", "l'auteur", "uber den autor",
                "uber die autorin", "sobre el autor", "sobre la autora", "sull'autore", "sobre o autor",
                "author biography",
                "biography", "biographical note", "about the translator", "meet the author", "об авторе",
            ]
        ),
        (
            .alsoBy,
            [
                "also by", "by the same author", "other books by", "du meme auteur", "vom selben autor",
                "del mismo autor", "dello stesso autore", "do mesmo autor", "books by", "other titles",
                "also available", "другие книги автора",
            ]
        ),
        (.contributors, ["contributors", "about the contributors", "list of contributors"]),
        (
            .license,
            [
                "license", "licence", "full license", "project gutenberg license", "lizenz", "licencia", "licenza",
                "licenca",
                "terms of use", "gnu free documentation license",
            ]
        ),
        (
            .loi,
            [
                "list of illustrations", "illustrations", "list of figures", "list of plates", "list of maps",
                "table des illustrations", "abbildungsverzeichnis", "lista de ilustraciones", "figures", "plates",
                "maps",
                "diagrams", "list of diagrams",
            ]
        ),
        (.lot, ["list of tables", "tables", "liste des tableaux", "tabellenverzeichnis"]),
        (
            .advertisement,
            [
                "advertisement", "advertisements", "publicite", "werbung", "about the publisher", "safari books online",
                "об издательстве", "reading group guide", "a reading group guide", "reading group questions",
                "book club guide", "newsletter",
            ]
        ),
    ]

    /// Phrase → kind, for exact title matches.
    static let exactTitles: [String: SectionKind] = {
        var kinds: [String: SectionKind] = [:]
        for (kind, phrases) in titlePhrases {
            for phrase in phrases where kinds[phrase] == nil { kinds[phrase] = kind }
        }
        return kinds
    }()

    /// Phrases that also count when they start a longer title ("Preface to the Second Edition").
    /// Short or ambiguous words ("to", "for", "table", "title") are left out.
    static let prefixTitles: [(String, SectionKind)] = {
        let ambiguous: Set<String> = [
            "to", "for", "table", "title", "note", "edition", "publisher", "rights", "sources", "figures", "plates",
            "maps",
            "tables", "register", "credits", "dank", "characters", "illustrations", "definitions", "biography",
            "inhalt",
            "indice", "cover",
        ]
        var out: [(String, SectionKind)] = []
        for (kind, phrases) in titlePhrases {
            for phrase in phrases where !ambiguous.contains(phrase) { out.append((phrase, kind)) }
        }
        return out.sorted { $0.0.count > $1.0.count }
    }()

    /// `prefixTitles` grouped by their first word, in the same order, each phrase followed by a space.
    static let prefixTitlesByFirstWord: [String: [(String, SectionKind)]] = {
        var out: [String: [(String, SectionKind)]] = [:]
        for (phrase, kind) in prefixTitles {
            out[String(phrase.prefix { $0 != " " }), default: []].append((phrase + " ", kind))
        }
        return out
    }()

    /// Tokens of file names and ids that hint at a kind (`preface_001.xhtml`, `id="copyright"`).
    static let fileTokens: [String: SectionKind] = [
        "cover": .cover, "coverpage": .cover, "title": .titlepage, "titlepage": .titlepage, "halftitle": .halftitle,
        "halftitlepage": .halftitle, "copyright": .copyright, "uncopyright": .copyright, "imprint": .imprint,
        "toc": .toc, "contents": .toc, "nav": .toc, "dedication": .dedication, "epigraph": .epigraph,
        "foreword": .foreword, "preface": .preface, "introduction": .introduction, "intro": .introduction,
        "prologue": .prologue, "part": .part, "chapter": .chapter, "epilogue": .epilogue, "afterword": .afterword,
        "acknowledgments": .acknowledgments, "acknowledgements": .acknowledgments, "ack": .acknowledgments,
        "appendix": .appendix, "notes": .notes, "endnotes": .notes, "footnotes": .notes, "rearnotes": .notes,
        "bibliography": .bibliography, "glossary": .glossary, "index": .index, "colophon": .colophon,
        "about": .aboutAuthor, "bio": .aboutAuthor, "alsoby": .alsoBy, "license": .license, "licence": .license,
        "loi": .loi, "lot": .lot, "frontispiece": .titlepage, "ded": .dedication, "ata": .aboutAuthor, "chap": .chapter,
        "ch": .chapter, "pref": .preface, "ad": .advertisement, "ads": .advertisement,
        "dramatis": .dramatisPersonae, "personae": .dramatisPersonae, "credits": .contributors,
    ]

    /// Semantic types (`epub:type`, `doc-*` roles, guide and landmark types) that name a kind.
    static let semanticTypes: [String: SectionKind] = [
        "cover": .cover, "titlepage": .titlepage, "title-page": .titlepage, "halftitlepage": .halftitle,
        "halftitle": .halftitle, "copyright-page": .copyright, "copyright": .copyright, "imprint": .imprint,
        "imprimatur": .imprint, "toc": .toc, "toc-brief": .toc, "contents": .toc, "landmarks": .toc,
        "dedication": .dedication, "epigraph": .epigraph, "foreword": .foreword, "preface": .preface,
        "introduction": .introduction, "prologue": .prologue, "part": .part, "volume": .part, "division": .part,
        "chapter": .chapter, "epilogue": .epilogue, "afterword": .afterword, "acknowledgments": .acknowledgments,
        "acknowledgements": .acknowledgments, "appendix": .appendix, "addendum": .appendix, "notes": .notes,
        "endnotes": .notes, "footnotes": .notes, "rearnotes": .notes, "bibliography": .bibliography,
        "glossary": .glossary, "index": .index, "colophon": .colophon, "contributors": .contributors,
        "other-credits": .contributors, "loi": .loi, "lot": .lot, "errata": .other,
        "z3998:dramatis-personae": .dramatisPersonae, "z3998:publisher-note": .imprint, "z3998:biography": .aboutAuthor,
        "conclusion": .other, "seriespage": .alsoBy, "credits": .contributors, "advertisement": .advertisement,
        "text": .chapter, "bodymatter": .chapter, "z3998:fiction": .chapter, "z3998:poem": .chapter,
        "z3998:short-story": .chapter, "z3998:letter": .chapter,
    ]

    /// Chapter headings: a chapter word and a number, or a bare number (arabic or roman).
    nonisolated(unsafe) static let chapterTitle = BuiltInPattern.regex(
        #"^(?:(?:chapter|chap|ch|chapitre|kapitel|capitulo|capitolo|cap|letter|lettre|brief|carta|lettera|act|acte|akt|acto|atto|canto|scene|szene|story|stave|fitte?|lesson|lecon|lektion)\s+(?:[ivxlcdm]+|\d+|[a-z]+)\b|(?:[ivxlcdm]+|\d+)(?:\s|$))"#
    )
    /// Explicit chapter words only (for deciding whether a TOC entry's children are chapters).
    nonisolated(unsafe) static let explicitChapter = BuiltInPattern.regex(
        #"^(?:chapter|chapitre|kapitel|capitulo|capitolo|letter|lettre|brief|carta|lettera|stave)\s+(?:[ivxlcdm]+|\d+|[a-z]+)\b"#
    )
    /// Parts, books, volumes.
    nonisolated(unsafe) static let partTitle = BuiltInPattern.regex(
        #"^(?:part|partie|teil|parte|book|livre|buch|libro|volume|vol|tome|band|tomo|volumen|section|sektion|seccion|sezione|secao|abschnitt)\s+(?:[ivxlcdm]+|\d+|the\s+\w+|one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final|premier|premiere|deuxieme|troisieme|erster|erstes|erste|zweiter|zweites|zweite|dritter|drittes|dritte|primera|primero|segunda|segundo|tercera|tercero|primo|prima|secondo|seconda|terzo|terza|un|une|deux|trois|eins|zwei|drei|uno|dos|tres|due|tre)\b"#
    )

    /// The kind a title names, if any, and whether the whole title is the phrase.
    static func kind(forTitle title: String) -> (kind: SectionKind, exact: Bool)? {
        let folded = TextFold.fold(title)
        guard !folded.isEmpty else { return nil }
        let stripped = stripNumbering(folded)
        for candidate in [folded, stripped] {
            if let titleKind = exactTitles[candidate] { return (titleKind, true) }
        }
        for candidate in [folded, stripped] {
            // Only phrases with the candidate's first word can start it.
            let firstWord = candidate.prefix { $0 != " " }
            guard firstWord.endIndex != candidate.endIndex, let phrases = prefixTitlesByFirstWord[String(firstWord)]
            else {
                continue
            }
            for (phraseAndSpace, kind) in phrases where candidate.hasPrefix(phraseAndSpace) {
                return (kind, false)
            }
        }
        return nil
    }

    /// Whether a title that starts with a phrase naming a kind goes on as a title of its own
    /// ("Appendix to a Novel", "Appendix on Whaling Ships") rather than designating one of that kind
    /// ("Appendix", "Appendix A", "Appendix IV: Tables", "Appendix 2. Proofs", "Appendix — Tables").
    /// `phraseWords` is how many words the phrase has.
    static func goesOnAsATitle(_ title: String, afterWords phraseWords: Int) -> Bool {
        var rest = title.drop { $0.isWhitespace }
        for _ in 0..<phraseWords {
            rest = rest.drop { !$0.isWhitespace && $0 != ":" }.drop { $0.isWhitespace }
        }
        guard let first = rest.first, first.isLetter else { return false }  // ":", "—", "(", "2": designated
        let word = rest.prefix { $0.isLetter }
        // A letter or a Roman numeral designates ("A", "IV", "iv."); a word begins a title.
        return word.count > 1 && !(word.count <= 7 && word.lowercased().allSatisfy { "ivxlcdm".contains($0) })
    }

    /// The phrase of `prefixTitles` a folded title starts with, and its kind.
    static func prefixPhrase(of title: String) -> (phrase: String, kind: SectionKind)? {
        let folded = TextFold.fold(title)
        let firstWord = folded.prefix { $0 != " " }
        guard let phrases = prefixTitlesByFirstWord[String(firstWord)] else { return nil }
        return phrases.first { folded.hasPrefix($0.0) }.map { (String($0.0.dropLast()), $0.1) }
    }

    /// "chapter 9 appendix cn" → "appendix cn"; "1 introduction" → "introduction".
    static func stripNumbering(_ folded: String) -> String {
        var words = folded.split(separator: " ").map(String.init)
        let numberWords: Set<String> = ["chapter", "chap", "part", "book", "section", "chapitre", "kapitel", "teil"]
        if words.count > 1, numberWords.contains(words[0]), isNumeral(words[1]) { words.removeFirst(2) }
        if words.count > 1, isNumeral(words[0]) { words.removeFirst() }
        return words.joined(separator: " ")
    }

    /// The number a title opens with ("1 Introduction", "12. Methods"), in digits.
    static func leadingNumber(_ title: String) -> Int? {
        let folded = TextFold.fold(title)
        let first = folded.prefix { $0 != " " }
        guard (1...4).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(first)
    }

    static func isNumeral(_ word: String) -> Bool {
        if word.allSatisfy(\.isNumber) { return true }
        return word.count <= 7 && word.allSatisfy { "ivxlcdm".contains($0) }
    }

    static func isChapterTitle(_ title: String) -> Bool {
        let folded = TextFold.fold(title)
        guard mayStartNumberedTitle(folded) else {
            // "Глава 3", "第五章": the numbered chapters of scripts the expression does not cover.
            return ChapterNumbers.number(inTitle: title) != nil
        }
        return (try? chapterTitle.prefixMatch(in: folded)) != nil
    }

    /// "Chapter 3", also after a label's own number ("1. Chapter I", as DocBook numbers its TOC).
    static func isExplicitChapterTitle(_ title: String) -> Bool {
        matchesAfterAnyNumber(title, explicitChapter)
    }

    /// "Part Two", "Book III", also after a label's own number ("I. Part One").
    static func isPartTitle(_ title: String) -> Bool {
        matchesAfterAnyNumber(title, partTitle)
    }

    private static func matchesAfterAnyNumber(_ title: String, _ pattern: Regex<AnyRegexOutput>) -> Bool {
        let folded = TextFold.fold(title)
        guard mayStartNumberedTitle(folded) else { return false }
        if (try? pattern.prefixMatch(in: folded)) != nil { return true }
        guard let space = folded.firstIndex(of: " "), isNumeral(String(folded[..<space])) else { return false }
        return (try? pattern.prefixMatch(in: folded[folded.index(after: space)...])) != nil
    }

    /// Whether folded text can start a match of `chapterTitle`, `explicitChapter` or `partTitle`:
    /// each begins with an ASCII letter or a digit (`\d`, of any script; any scalar with a numeric
    /// value is let through). A title in another script is told without running the regular
    /// expression (every section's title is tried against all three).
    private static func mayStartNumberedTitle(_ folded: String) -> Bool {
        guard let first = folded.unicodeScalars.first else { return false }
        return first.properties.numericType != nil || (first.isASCII && first.properties.isAlphabetic)
    }

    /// Tokens of a file name or id: `preface_001.xhtml` → ["preface", "001"]; `ch01s02` → ["ch", "01", "s", "02"].
    static func tokens(ofName name: String) -> [String] {
        var base = name
        if let slash = base.lastIndex(of: "/") { base = String(base[base.index(after: slash)...]) }
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = String(base[..<dot]) }
        let lower = base.lowercased()
        var out: [String] = []
        var current = ""
        var currentIsDigit = false
        for ch in lower {
            let isAlnum = ch.isLetter || ch.isNumber
            if !isAlnum {
                if !current.isEmpty { out.append(current) }
                current = ""
                continue
            }
            if !current.isEmpty, ch.isNumber != currentIsDigit {
                out.append(current)
                current = ""
            }
            current.append(ch)
            currentIsDigit = ch.isNumber
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// TOC labels that say where to start rather than what is there ("Start reading").
    static func isGenericLabel(_ label: String) -> Bool {
        [
            "start", "start reading", "begin reading", "beginning", "text", "content", "contents start",
            "commencer la lecture", "debut", "lecture", "lesen", "text beginnen", "comenzar a leer", "inicio",
            "iniziare a leggere", "inizio", "comecar a ler", "inicio da leitura", "main text", "go to text",
        ].contains(TextFold.fold(label))
    }

    /// Whether a string looks like a file name rather than a title.
    static func looksLikeFileName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return [".xhtml", ".html", ".htm", ".xml", ".txt"].contains { lower.hasSuffix($0) } || lower.contains("@")
            || (!lower.contains(" ") && lower.contains("_") && lower.count > 8)
    }
}
