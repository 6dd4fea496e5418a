import Markup

/// What marks a reference to a note, or a link from a note back to it: the markers (`12`, `[3]`, `*`), the labels
/// ("note 3"), citation superscripts and back-link arrows. The flattener drops what these recognise; the
/// predicates look at one element or string and nothing else, so they are tested alone.
enum NoteMarkers {
    /// Whether `a` is a reference to a note: `epub:type="noteref"`, `role="doc-noteref"`, a note
    /// class, or a link into a fragment whose text is a bare marker (`1`, `[2]`, `[A]`, `*`).
    static func isNoteReference(_ a: MarkupElement) -> Bool {
        let types = a.semanticTypes
        if types.contains("noteref") || types.contains("biblioref") { return true }
        let classes = a.classes
        if classes.contains(where: {
            ["noteref", "fnanchor", "footnote-ref", "fnref", "footnoteref", "endnote-ref"].contains($0)
        }) {
            return true
        }
        guard let href = a.value(of: "href"), href.contains("#") else { return false }
        let text = TextCleaner.normalize(a.rawText)
        return isNoteMarker(text) || isNoteLabel(text)
    }

    /// A note's marker after the word for a note, as some books write their references ("note 1",
    /// "n. 1", "Anm. 3", "fn 12"): the link reads the marker's name, not words of the sentence.
    static func isNoteLabel(_ text: String) -> Bool {
        let word = text.prefix(while: \.isLetter)
        guard !word.isEmpty, noteWords.contains(word.lowercased()) else { return false }
        let rest = text.dropFirst(word.count).drop { $0 == "." || $0.isWhitespace }
        return isNoteMarker(String(rest))
    }

    /// The word (or its abbreviation) for a note in the languages read: "note", "n.", "fn.", "Anm."
    /// (German), "nota" (Italian, Spanish, Portuguese), "noot" (Dutch).
    static let noteWords: Set<String> = ["note", "n", "fn", "endnote", "footnote", "anm", "nota", "noot"]

    /// Whether a note reference has words to read besides its marker ("this link", not "12", "[3]" or
    /// "Note 3").
    static func hasWordsOfItsOwn(_ a: MarkupElement) -> Bool {
        let text = TextCleaner.normalize(a.rawText)
        guard !isNoteMarker(text) else { return false }
        let letters = text.filter(\.isLetter)
        guard letters.count >= 2 else { return false }
        let lower = letters.lowercased()
        return !["note", "fn", "n", "endnote", "footnote", "ref", "cf", "see", "anm", "nota"].contains(lower)
    }

    /// Whether a superscript is a citation: a list or range of numbers ("14,15", "3–5", "[2, 7]"), or a
    /// single number after punctuation ("ended.<sup>7</sup>"), not a power ("x<sup>2</sup>").
    static func isCitationSuperscript(_ text: String, after preceding: String) -> Bool {
        var t = Substring(text)
        if t.first == "[", t.last == "]" { t = t.dropFirst().dropLast() }
        guard !t.isEmpty, t.count <= 40, t.first!.isASCIIDigit, t.last!.isASCIIDigit else { return false }
        var run = 0
        var separators = 0
        for c in t {
            if c.isASCIIDigit {
                run += 1
                if run > 3 { return false }
            } else if c == "," || c == "-" || c == "–" {
                run = 0
                separators += 1
            } else if c != " " {
                return false
            }
        }
        if separators > 0 { return true }
        guard let last = preceding.last(where: { !$0.isWhitespace }) else { return false }
        return ".,;:!?\"”’".contains(last)
    }

    static func isNoteMarker(_ text: String) -> Bool {
        var t = Substring(text)
        guard !t.isEmpty, t.count <= 8 else { return false }
        if let f = t.first, let l = t.last, (f == "[" && l == "]") || (f == "(" && l == ")") || (f == "{" && l == "}") {
            t = t.dropFirst().dropLast()
            if t.count == 1, t.first!.isLetter { return true }  // [A]
            if t.allSatisfy({ "ivxlcIVXLC".contains($0) }) && !t.isEmpty { return true }  // [iv]
        }
        if !t.isEmpty, t.allSatisfy({ "*†‡§¶#".contains($0) }) { return true }
        let digits = t.prefix(while: \.isNumber)
        guard !digits.isEmpty, digits.count <= 4 else { return false }
        let rest = t.dropFirst(digits.count)
        return rest.isEmpty || (rest.count == 1 && rest.first!.isLetter && rest.first!.isLowercase)
    }

    /// A link from a note back to its reference drawn as an arrow and the note's marker (`[←3]`,
    /// `↑ 12`, `3 ↩`), or an arrow alone: never read, in a note or not.
    static func isArrowBackLink(_ a: MarkupElement) -> Bool {
        guard let href = a.value(of: "href"), href.contains("#") else { return false }
        let text = TextCleaner.normalize(a.rawText)
        guard text.count <= 12, text.contains(where: { backArrows.contains($0) }) else { return false }
        let rest = String(text.filter { !backArrows.contains($0) && !$0.isWhitespace && !"[](){}".contains($0) })
        return rest.isEmpty || isNoteMarker(rest)
    }

    static let backArrows: Set<Character> = ["←", "↑", "↩", "⤴", "⇧", "⬆", "↖", "⇐", "^", "↩︎", "↑︎", "⬆︎"]

    static func isBackLink(_ a: MarkupElement) -> Bool {
        let types = a.semanticTypes
        if types.contains("backlink") || types.contains("se:referrer") { return true }
        let t = TextCleaner.normalize(a.rawText).lowercased()
        return ["↩", "↩︎", "↑", "^", "back", "return", "retour", "zurück"].contains(t)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
