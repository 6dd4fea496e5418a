import Contracts
import EPUBReader
import Foundation

/// One piece of evidence about what a section is.
struct Evidence: Hashable, Sendable {
    /// The kind it points to; nil for role-only evidence (`frontmatter`, position).
    var kind: SectionKind?
    /// The role it points to; when nil, the kind's usual role.
    var role: SectionRole?
    /// 2 or more is strong (wins alone); around 1 is weak (needs another to agree).
    var weight: Double
    var reason: String
    /// From the book's own `epub:type`/`role` on the content (not a landmark, which may only say
    /// where a kind starts).
    var isSemantic = false
    /// From nothing but what the section is called: its TOC label or heading, its file name, the
    /// id it starts at. A poem titled "Index" is named like an index and holds none.
    var isNaming = false
    /// From a copyright or permission line in the opening text: a copyright page is made of them,
    /// and a story in an anthology may open or close with one ("First published in…").
    var isNotice = false
    /// From what the section's text holds (a licence, a page of links, numbered entries, a notice,
    /// its length): what the book's marks and the section's names cannot say.
    var isContent = false

    var isBody: Bool { (role ?? kind?.usualRole) == .body }
}

/// What the classifier looks at in a section's text.
struct SectionFeatures: Sendable {
    var title: String
    var tocLabel: String?
    var headings: [String] = []
    /// For text no TOC entry reaches and no heading element opens: its first line, when that line
    /// is a heading written as a paragraph ("About the Author" in a back matter file the
    /// navigation leaves out, styled by a class of its own).
    var openingLine: String?
    var words = 0
    var linkWords = 0
    var textBlocks = 0
    var shortBlocks = 0
    var images = 0
    var firstTypes: [String] = []
    var landmarkTypes: [String] = []
    var fileNames: [String] = []
    var fragment: String?
    var allNonLinear = false
    /// Folded text of the first blocks (for copyright and licence phrases).
    var openingText = ""
    /// What the opening states of a copyright page (`SectionClassifier.copyrightSignals`), kept
    /// when the opening text is dropped: a section's form is judged again after its evidence.
    var copyrightSignals: [String] = []
    var hasGutenbergMarker = false
    var isTOCContainer = false
    var fromTOC = false
    /// Starts at one of the book's headings (the TOC was missing or degenerate).
    var fromHeadings = false
    /// Starts a file whose own `<title>` names it (the TOC was missing, the file has no heading).
    var fromFileTitle = false
    /// Text blocks that start like numbered entries ("12.", "[3]"), or are items of a list (an
    /// `<ol>` numbers its notes where the text does not).
    var numberedBlocks = 0
    /// Text blocks that read like entries of a glossary or a list of references.
    var entryBlocks = 0
    /// Text blocks that are items of a list (counted among `numberedBlocks` too).
    var listItems = 0
    /// Text blocks that end with a page number, as entries of an index or a printed contents do.
    var pageEntryBlocks = 0
    /// Text blocks of entry size whose first word sorts at or after the previous block's: the
    /// entries of a glossary or an index, in alphabetical order.
    var alphabeticalBlocks = 0
    /// Text blocks of entry size that open with a word (`IndexedBlock.sortKey`).
    var keyedBlocks = 0
    /// Text blocks that are note bodies.
    var noteBlocks = 0
    /// Blocks that note references in earlier files point at: notes the text refers to, in files
    /// of their own (calibre puts each note of a converted document in a file).
    var referencedNotes = 0
    /// Text blocks that are lines of verse.
    var verseLines = 0
    /// Text blocks that are headings (a poem's title over its one stanza).
    var headingBlocks = 0
    /// Share of the opening text's words that are numbers: the page references of an index run
    /// into paragraphs ("Abbey, 12, 45; abbot, 3") are many, running prose has few.
    var openingNumeralShare = 0.0
    /// File-name tokens shared by so many of the book's files that they say nothing of one.
    var commonFileTokens: Set<String> = []
    /// Tokens of the ids the TOC points at that so many entries share that they say nothing of one.
    var commonIdTokens: Set<String> = []
    /// Words of the whole book (outside notes).
    var bookWords = 0
    /// The words of the section that holds the book's typical word (0 when unknown): a section
    /// is very short only when it is short for this book as well (`isShortForTheBook`).
    var typicalSectionWords = 0
    /// Words of the file the section starts in.
    var startFileWords = 0
    var bookTitle: String?

    /// Whether the section's first file holds most of the book: its name is the book's
    /// (`index.html` of a one-file export), not the name of one kind of matter.
    var startsInTheBooksMainFile: Bool { bookWords > 0 && startFileWords * 2 > bookWords }

    /// Under a quarter of the book's typical section: a title page in a novel, a dedication in a
    /// book of poems; not a poem among poems of the same length.
    var isShortForTheBook: Bool { typicalSectionWords == 0 || 4 * words < typicalSectionWords }
}

/// Result of classifying one section.
struct Classification: Sendable {
    var role: SectionRole
    var kind: SectionKind
    var confidence: Double
    var reasons: [String]
    var bodyWeight: Double
    var otherWeight: Double
}

/// The four-layer classifier: book semantics, patterns, content heuristics, then a score.
enum SectionClassifier {
    /// Evidence of layers 1-3 (everything but position in the book), strongest layer first.
    static func evidence(_ features: SectionFeatures) -> [Evidence] {
        let titles = titleEvidence(features)
        let titleKinds = Set(titles.compactMap(\.kind))
        let content = contentEvidence(features, titleKinds: titleKinds).map {
            var evidence = $0
            evidence.isContent = true
            return evidence
        }
        return semanticEvidence(features) + titles + nameEvidence(features) + content
    }

    /// Layer 1: the book's own semantics (`epub:type`, roles, landmarks, `linear="no"`).
    static func semanticEvidence(_ features: SectionFeatures) -> [Evidence] {
        var out: [Evidence] = []
        var seenSemantic: Set<SectionKind> = []
        for type in features.firstTypes.reversed() {  // innermost first
            if type == "frontmatter" {
                out.append(Evidence(kind: nil, role: .front, weight: 2, reason: "marked frontmatter"))
            } else if type == "backmatter" {
                out.append(Evidence(kind: nil, role: .back, weight: 2, reason: "marked backmatter"))
            } else if type == "bodymatter" {
                out.append(Evidence(kind: nil, role: .body, weight: 1.5, reason: "marked bodymatter"))
            } else if let kind = Patterns.semanticTypes[type], !seenSemantic.contains(kind) {
                seenSemantic.insert(kind)
                // Only the innermost structural type counts in full; genre hints (z3998:fiction) are weak.
                let structural =
                    !type.hasPrefix("z3998:") || type == "z3998:dramatis-personae" || type == "z3998:publisher-note"
                let weight = !structural ? 1.0 : (seenSemantic.count == 1 ? 3.0 : 1.0)
                out.append(
                    Evidence(
                        kind: kind, role: nil, weight: weight, reason: "epub:type/role \"\(type)\"",
                        isSemantic: structural))
            }
        }
        for type in features.landmarkTypes {
            if type == "bodymatter" || type == "text" {
                out.append(
                    Evidence(kind: nil, role: .body, weight: 1.5, reason: "landmark \"\(type)\" (start of the text)"))
            } else if let kind = Patterns.semanticTypes[type] {
                // A landmark says where a kind starts: it vouches for the whole section only when the
                // section is not most of the book (a landmark at the file where the text also begins).
                let vouches = features.bookWords == 0 || 2 * features.words < features.bookWords
                out.append(
                    Evidence(
                        kind: kind, role: nil, weight: 2.5, reason: "landmark/guide \"\(type)\"", isSemantic: vouches))
            }
        }
        if features.allNonLinear {
            out.append(Evidence(kind: nil, role: .front, weight: 1.5, reason: "spine item linear=\"no\""))
        }
        return out
    }

    /// Most words of a page that a copyright notice alone shows to be a copyright page.
    static let longestNoticePage = 250

    /// Most words a section may hold for each note the text refers to in it and still be notes:
    /// a chapter that a few links point into is a chapter.
    static let wordsPerReferencedNote = 150

    /// How much a title naming `kind` weighs: the whole title most, a longer one starting with the
    /// kind's name less. An appendix is designated ("Appendix", "Appendix B: Tables"); a title that
    /// goes on as one of its own after the word ("Appendix to a Novel") is an essay's as often, and
    /// is no evidence against its text on its own (long prose listed in the TOC outweighs it).
    static func titleWeight(_ title: String, kind: SectionKind, exact: Bool) -> Double {
        if exact { return 2 }
        if kind == .appendix, let (phrase, _) = Patterns.prefixPhrase(of: title),
            Patterns.goesOnAsATitle(title, afterWords: phrase.split(separator: " ").count)
        {
            return 1
        }
        return 1.8
    }

    /// Layer 2a: what the section's TOC label and first heading name.
    static func titleEvidence(_ features: SectionFeatures) -> [Evidence] {
        var out: [Evidence] = []
        var titles: [String] = []
        if let label = features.tocLabel { titles.append(label) }
        if let heading = features.headings.first, !titles.contains(heading) { titles.append(heading) }
        var titleKinds: Set<SectionKind> = []
        for title in titles {
            // A TOC entry holding others is a part, unless its title names front or back matter
            // ("Contents" holding every chapter).
            if (features.isTOCContainer && Patterns.kind(forTitle: title) == nil) || Patterns.isPartTitle(title) {
                if !titleKinds.contains(.part) {
                    titleKinds.insert(.part)
                    let why = features.isTOCContainer ? "TOC entry holding others" : "part title \"\(title)\""
                    out.append(Evidence(kind: .part, role: .body, weight: 2, reason: why))
                }
                continue
            }
            if let (kind, exact) = Patterns.kind(forTitle: title), !titleKinds.contains(kind) {
                titleKinds.insert(kind)
                out.append(
                    Evidence(
                        kind: kind, role: nil, weight: titleWeight(title, kind: kind, exact: exact),
                        reason: "title \"\(title)\"", isNaming: true))
                // "Chapter 25. Postscript": a numbered chapter whose name sounds like front or back
                // matter is still a chapter (but "Chapter 9. Appendix A" stays an appendix).
                let soft: Set<SectionKind> = [
                    .afterword, .introduction, .preface, .foreword, .prologue, .epilogue, .acknowledgments, .dedication,
                    .epigraph, .interlude,
                ]
                if soft.contains(kind), Patterns.isExplicitChapterTitle(title), !titleKinds.contains(.chapter) {
                    titleKinds.insert(.chapter)
                    out.append(
                        Evidence(kind: .chapter, role: .body, weight: 2.5, reason: "numbered chapter \"\(title)\""))
                }
            } else if Patterns.isChapterTitle(title), !titleKinds.contains(.chapter) {
                titleKinds.insert(.chapter)
                // "Chapter II" or "Letter IV" in words, naming nothing else, outweighs a kind the
                // book's markup gives it alone ("appendix" on every chapter after the first, an
                // exporter's slip). "Chapter 1. Introduction" names its kind too: the usual weight.
                let plain = Patterns.isExplicitChapterTitle(title) && Patterns.kind(forTitle: title) == nil
                let weight = plain ? 2.5 : 2
                out.append(Evidence(kind: .chapter, role: .body, weight: weight, reason: "chapter title \"\(title)\""))
            }
        }
        // An opening line counts only when it names front or back matter: a number or "Chapter
        // Two" opening a file no entry reaches continues what came before as often as not.
        if titles.isEmpty, let line = features.openingLine, let (kind, exact) = Patterns.kind(forTitle: line),
            kind.usualRole != .body
        {
            out.append(
                Evidence(
                    kind: kind, role: nil, weight: exact ? 2 : 1.8, reason: "opening line \"\(line)\"", isNaming: true))
        }
        if let book = features.bookTitle, !book.isEmpty, features.words < 150,
            titles.contains(where: { TextFold.fold($0) == TextFold.fold(book) })
        {
            out.append(
                Evidence(
                    kind: .titlepage, role: .front, weight: 2, reason: "titled with the book's title, short",
                    isNaming: true))
        }
        return out
    }

    /// Layer 2b: tokens of the file name and of the id the section starts at (generated names and
    /// ids aside).
    static func nameEvidence(_ features: SectionFeatures) -> [Evidence] {
        var out: [Evidence] = []
        var fileKinds: Set<SectionKind> = []
        for name in features.fileNames.prefix(1) where !features.startsInTheBooksMainFile {
            for token in Patterns.tokens(ofName: name) where !features.commonFileTokens.contains(token) {
                if let kind = Patterns.fileTokens[token], !fileKinds.contains(kind) {
                    fileKinds.insert(kind)
                    out.append(
                        Evidence(kind: kind, role: nil, weight: 1, reason: "file name \"\(name)\"", isNaming: true))
                }
            }
        }
        if let frag = features.fragment {
            for token in Patterns.tokens(ofName: frag) where !features.commonIdTokens.contains(token) {
                if let kind = Patterns.fileTokens[token], !fileKinds.contains(kind) {
                    fileKinds.insert(kind)
                    out.append(Evidence(kind: kind, role: nil, weight: 0.8, reason: "id \"\(frag)\"", isNaming: true))
                }
            }
        }
        return out
    }

    /// What in a section's opening states a copyright page: a notice, reserved rights, an ISBN,
    /// publishing details, a public-domain dedication (empty when none).
    static func copyrightSignals(_ features: SectionFeatures) -> [String] {
        let text = features.openingText.utf8
        func has(_ phrase: String) -> Bool { text.containsBytes(phrase) }
        var signals: [String] = []
        if has("copyright") || has("©") { signals.append("copyright notice") }
        if has("all rights reserved") || has("tous droits reserves") || has("alle rechte vorbehalten")
            || has("todos los derechos reservados") || has("tutti i diritti riservati")
            || has("todos os direitos reservados")
        {
            signals.append("\"all rights reserved\"")
        }
        if has("isbn"),
            features.openingText.range(of: #"isbn(?:[ -]?1[03])?[: ]*[0-9][0-9 -]{8,}"#, options: .regularExpression)
                != nil
        {
            signals.append("ISBN")
        }
        if has("printed in") || has("published by") || has("first published") || has("first edition")
            || has("library of congress")
        {
            signals.append("publishing details")
        }
        if has("public domain") && (has("creative commons") || has("cc0")) {
            signals.append("public-domain dedication")
        }
        return signals
    }

    /// Layer 3: content. The opening text is folded: a byte search finds its ASCII phrases.
    /// `titleKinds` are the kinds the titles named (a chapter title keeps a short section in the text).
    static func contentEvidence(_ features: SectionFeatures, titleKinds: Set<SectionKind>) -> [Evidence] {
        var out: [Evidence] = []
        let text = features.openingText.utf8
        func has(_ phrase: String) -> Bool { text.containsBytes(phrase) }
        if features.hasGutenbergMarker || has("project gutenberg license") || has("project gutenberg tm")
            || (has("project gutenberg") && has("ebook") && features.words < 2500 && (has("license") || has("terms")))
        {
            out.append(Evidence(kind: .license, role: nil, weight: 3, reason: "Project Gutenberg header or licence"))
        }
        let copyrightSignals = features.copyrightSignals
        if !copyrightSignals.isEmpty, features.words < 900 {
            // Strong alone only on a page: past `longestNoticePage` words a notice opens or closes
            // running text (a story's permission line) as often as it makes a copyright page, and
            // needs a title, a name or a place at the book's edge to agree.
            let page = features.words < longestNoticePage
            let weight = copyrightSignals.count >= 2 ? (page ? 2.0 : 1.0) : (page ? 1.0 : 0.6)
            out.append(
                Evidence(
                    kind: .copyright, role: nil, weight: weight, reason: copyrightSignals.joined(separator: ", "),
                    isNotice: true))
        }
        if features.referencedNotes > 0, features.words <= wordsPerReferencedNote * features.referencedNotes {
            let notes = features.referencedNotes == 1 ? "a note" : "\(features.referencedNotes) notes"
            // The book's own links say so: stronger than a number for a title, the length and a
            // TOC entry together (calibre titles each note file by its number).
            out.append(Evidence(kind: .notes, role: nil, weight: 3.5, reason: "\(notes) the text refers to"))
        }
        if features.words >= 12, Double(features.linkWords) / Double(features.words) >= 0.6 {
            out.append(Evidence(kind: .toc, role: nil, weight: 1.5, reason: "mostly links (a printed contents list)"))
        }
        if features.words == 0 && features.images > 0 {
            out.append(Evidence(kind: nil, role: nil, weight: 0, reason: "image only, nothing to read"))
        } else if features.words > 0, features.words < 60, features.isShortForTheBook, !titleKinds.contains(.chapter),
            !titleKinds.contains(.part)
        {
            out.append(
                Evidence(
                    kind: nil, role: .front, weight: 0.8, reason: "very short (\(Counts.of(features.words, "word")))"))
        } else if features.textBlocks >= 6, Double(features.shortBlocks) / Double(features.textBlocks) > 0.85,
            features.words < 400
        {
            out.append(Evidence(kind: nil, role: .front, weight: 0.6, reason: "list of short lines"))
        }
        if features.fromTOC {
            out.append(Evidence(kind: nil, role: .body, weight: 0.6, reason: "listed in the table of contents"))
        } else if features.fromFileTitle {
            out.append(Evidence(kind: nil, role: .body, weight: 0.6, reason: "a file with a title of its own"))
        } else if features.fromHeadings {
            out.append(Evidence(kind: nil, role: .body, weight: 0.6, reason: "starts at one of the book's headings"))
        }
        if features.words >= 1500 {
            out.append(
                Evidence(
                    kind: nil, role: .body, weight: 0.7, reason: "long text (\(Counts.of(features.words, "word")))"))
        }
        return out
    }

    /// Layer 4: combines the evidence into a role, a kind and a confidence.
    static func decide(_ evidence: [Evidence], defaultKind: SectionKind) -> Classification {
        var body = 0.0
        var other = 0.0
        var kindWeights: [SectionKind: Double] = [:]
        var roleWeights: [SectionRole: Double] = [:]
        for item in evidence where item.weight > 0 {
            if item.isBody { body += item.weight } else { other += item.weight }
            if let itemKind = item.kind { kindWeights[itemKind, default: 0] += item.weight }
            if let itemRole = item.role ?? item.kind?.usualRole { roleWeights[itemRole, default: 0] += item.weight }
        }
        // Weak signals must agree before text is dropped; one strong signal is enough.
        let dropped = other > body && other >= 1.5
        let kind: SectionKind
        let role: SectionRole
        if dropped {
            let candidates = kindWeights.filter { !$0.key.isBody }
            kind = candidates.max { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }?.key ?? .other
            let front = roleWeights[.front, default: 0]
            let back = roleWeights[.back, default: 0]
            role = kind == .other ? (back > front ? .back : .front) : kind.usualRole
        } else {
            let candidates = kindWeights.filter { $0.key.isBody }
            kind = candidates.max { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }?.key ?? defaultKind
            role = .body
        }
        let win = dropped ? other : body
        let lose = dropped ? body : other
        let confidence = min(0.99, max(0.3, (win + 0.5) / (win + lose + 1)))
        let sorted = evidence.filter { $0.weight > 0 || evidence.count == 1 }.sorted { $0.weight > $1.weight }
        var reasons = sorted.map { item -> String in
            let direction = item.isBody ? "text" : (item.kind.map { $0.rawValue } ?? (item.role?.rawValue ?? "skip"))
            return "\(item.reason) → \(direction)"
        }
        if reasons.isEmpty { reasons = ["no evidence of front or back matter"] }
        return Classification(
            role: role, kind: kind, confidence: confidence, reasons: reasons, bodyWeight: body, otherWeight: other)
    }
}
