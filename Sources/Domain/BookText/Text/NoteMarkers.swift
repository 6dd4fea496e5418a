import Markup

/// What marks a reference to a note, or a link from a note back to it: the markers (`12`, `[3]`, `*`), the labels
/// ("note 3"), citation superscripts and back-link arrows. The flattener drops what these recognise; the
/// predicates look at one element or string and nothing else, so they are tested alone.
enum NoteMarkers {
    /// Whether `anchor` is a reference to a note: `epub:type="noteref"`, `role="doc-noteref"`, a note
    /// class, or a link into a fragment whose text is a bare marker (`1`, `[2]`, `[A]`, `*`).
    static func isNoteReference(_ anchor: MarkupElement) -> Bool {
        let types = anchor.semanticTypes
        if types.contains("noteref") || types.contains("biblioref") { return true }
        let classes = anchor.classes
        if classes.contains(where: {
            ["noteref", "fnanchor", "footnote-ref", "fnref", "footnoteref", "endnote-ref"].contains($0)
        }) {
            return true
        }
        guard let href = anchor.value(of: "href"), href.contains("#") else { return false }
        let text = TextCleaner.normalize(anchor.rawText)
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
    static func hasWordsOfItsOwn(_ anchor: MarkupElement) -> Bool {
        let text = TextCleaner.normalize(anchor.rawText)
        guard !isNoteMarker(text) else { return false }
        let letters = text.filter(\.isLetter)
        guard letters.count >= 2 else { return false }
        let lower = letters.lowercased()
        return !["note", "fn", "n", "endnote", "footnote", "ref", "cf", "see", "anm", "nota"].contains(lower)
    }

    /// Whether a superscript is a citation: a list or range of numbers ("14,15", "3–5", "[2, 7]"), or a
    /// single number after punctuation ("ended.<sup>7</sup>"), not a power ("x<sup>2</sup>").
    static func isCitationSuperscript(_ text: String, after preceding: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "[", rest.last == "]" { rest = rest.dropFirst().dropLast() }
        guard !rest.isEmpty, rest.count <= 40, rest.first!.isASCIIDigit, rest.last!.isASCIIDigit else { return false }
        var run = 0
        var separators = 0
        for character in rest {
            if character.isASCIIDigit {
                run += 1
                if run > 3 { return false }
            } else if character == "," || character == "-" || character == "–" {
                run = 0
                separators += 1
            } else if character != " " {
                return false
            }
        }
        if separators > 0 { return true }
        guard let last = preceding.last(where: { !$0.isWhitespace }) else { return false }
        return ".,;:!?\"”’".contains(last)
    }

    static func isNoteMarker(_ text: String) -> Bool {
        var marker = Substring(text)
        guard !marker.isEmpty, marker.count <= 8 else { return false }
        if let first = marker.first, let last = marker.last,
            (first == "[" && last == "]") || (first == "(" && last == ")") || (first == "{" && last == "}")
        {
            marker = marker.dropFirst().dropLast()
            if marker.count == 1, marker.first!.isLetter { return true }  // [A]
            if marker.allSatisfy({ "ivxlcIVXLC".contains($0) }) && !marker.isEmpty { return true }  // [iv]
        }
        if !marker.isEmpty, marker.allSatisfy({ "*†‡§¶#".contains($0) }) { return true }
        let digits = marker.prefix(while: \.isNumber)
        guard !digits.isEmpty, digits.count <= 4 else { return false }
        let rest = marker.dropFirst(digits.count)
        return rest.isEmpty || (rest.count == 1 && rest.first!.isLetter && rest.first!.isLowercase)
    }

    /// A link from a note back to its reference drawn as an arrow and the note's marker (`[←3]`,
    /// `↑ 12`, `3 ↩`), or an arrow alone: never read, in a note or not.
    static func isArrowBackLink(_ anchor: MarkupElement) -> Bool {
        guard let href = anchor.value(of: "href"), href.contains("#") else { return false }
        let text = TextCleaner.normalize(anchor.rawText)
        guard text.count <= 12, text.contains(where: { backArrows.contains($0) }) else { return false }
        let rest = String(text.filter { !backArrows.contains($0) && !$0.isWhitespace && !"[](){}".contains($0) })
        return rest.isEmpty || isNoteMarker(rest)
    }

    static let backArrows: Set<Character> = ["←", "↑", "↩", "⤴", "⇧", "⬆", "↖", "⇐", "^", "↩︎", "↑︎", "⬆︎"]

    static func isBackLink(_ anchor: MarkupElement) -> Bool {
        let types = anchor.semanticTypes
        if types.contains("backlink") || types.contains("se:referrer") { return true }
        let label = TextCleaner.normalize(anchor.rawText).lowercased()
        return ["↩", "↩︎", "↑", "^", "back", "return", "retour", "zurück"].contains(label)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
