import Contracts
import Markup

/// Content that is replaced by a short notice unless the options say otherwise.
enum OmittedContent: Hashable, Sendable {
    /// A table: its rows, cells joined, for reading in full.
    case table(rows: [String])
    /// A code listing, verbatim.
    case code(String)
    /// An equation: its alternative text, when it has one.
    case math(alt: String?)
    /// An image with a meaningful description.
    case image(alt: String)
    /// Links inside a `<nav>` of a content document (a chapter's own mini contents), a web page's
    /// "← Previous  Next →" bar, a list of links atop a chapter: never spoken.
    case navigation
    /// What a web or converter tool left that is not the book's text: a pointer to media left out of
    /// this version, an image description that repeats the caption beside it. Never spoken.
    case clutter
}

/// Where the links of a block point (`DocumentFlattener.link`), counted.
struct LinkCounts: Hashable, Sendable {
    /// Links with a target.
    var total = 0
    /// To a URL with a scheme (`https:`, `mailto:`): outside the book.
    var external = 0
    /// To a fragment of the document itself.
    var sameFile = 0
    /// To another document of the book.
    var otherFile = 0
    /// To the spine item just before or after this one, as a whole (counted in `otherFile` too).
    var neighbour = 0
}

/// One block as the extractor saw it, before options choose what is spoken.
struct RawBlock: Hashable, Sendable {
    var kind: BlockKind
    /// Spoken text: normalised, note references and citations removed.
    var text: String
    var language: String?
    var omitted: OmittedContent?
    /// 1...6 for headings.
    var headingLevel: Int?
    /// Set when the block is part of a footnote or endnote body (not read inline): the note's id.
    var noteID: String?
    /// Semantic types (`epub:type`, `doc-*` roles) of the enclosing elements, outermost first.
    var types: [String]
    var words: Int
    /// Words inside links.
    var linkWords: Int
    /// Targets of the note references removed from this block, as written (`#n1`, `notes.xhtml#n1`).
    var noteRefs: [String]
    /// Where the block's links point.
    var links = LinkCounts()
    /// Line breaks (`<br>`) inside the block outside a poem: a paragraph of short broken lines is a stanza.
    var lineBreaks = 0
    /// The `<section>` and `<article>` elements around the block: a heading of one level nested
    /// deeper is a sub-section (HTML's outline).
    var sectionDepth = 0
    /// The classes of the block elements the text is in (`DocumentFlattener.classPath`), as
    /// written: converters that write headings as paragraphs give them a class of their own
    /// (`<p class="block_1">`).
    var styleClass: String?
}

extension RawBlock {
    /// `text.count < 400`, without counting characters when the bytes already say so.
    var isShort: Bool {
        if text.utf8.count < 400 { return true }
        return TextCleaner.characterCount(text, atMost: 400) < 400  // stops counting: a long block is long
    }
}

/// A content document turned into a flat list of blocks, with where each id starts.
struct FlatDocument: Sendable {
    var blocks: [RawBlock] = []
    /// Element id → index of the first block at or after the element's start.
    var anchors: [String: Int] = [:]
    /// The XHTML `<title>`, cleaned.
    var title: String?
    /// Semantic types on `<body>` (and `<html>`).
    var bodyTypes: [String] = []
    var language: String?
    var imageCount = 0
    /// The hrefs of note references that point into other documents ("notes.xhtml#n3"), as
    /// written: the notes they point at are told apart when the book is indexed.
    var noteReferencesOut: [String] = []

    var words: Int { blocks.reduce(0) { $0 + ($1.noteID == nil ? $1.words : 0) } }
}

/// Walks an XHTML tree and produces `RawBlock`s.
///
/// Block ordinals depend only on the document, never on options, so that positions stay stable.
struct DocumentFlattener {
    /// Elements whose content is never spoken.
    private static let skipped: Set<String> = [
        "script", "style", "head", "template", "noscript", "object", "embed", "iframe", "audio", "video", "button",
        "input", "select", "textarea", "canvas", "map", "svg", "rt", "rp",
    ]
    /// Elements that end the current block and start a new one.
    private static let blockElements: Set<String> = [
        "p", "div", "section", "article", "aside", "nav", "header", "footer", "main", "h1", "h2", "h3", "h4", "h5",
        "h6", "ul", "ol", "li", "dl", "dt", "dd", "blockquote", "figure", "figcaption", "address", "hgroup",
        "center", "body", "caption", "details", "summary", "form", "fieldset", "legend", "menu", "dir", "html",
        "tr", "td", "th", "tbody", "thead", "tfoot", "table", "pre", "hr",
    ]
    static let noteTypes: Set<String> = [
        "footnote", "endnote", "rearnote", "note", "footnotes", "endnotes", "rearnotes",
    ]
    private static let poemTypes: Set<String> = [
        "z3998:poem", "z3998:verse", "z3998:song", "z3998:hymn", "z3998:lyrics",
    ]
    private static let poemClasses: Set<String> = [
        "poem", "poetry", "verse", "stanza", "linegroup", "lg", "poem-block",
    ]

    private struct Context {
        var headingLevel: Int?
        var sectionDepth = 0
        /// The classes of the innermost block elements (`RawBlock.styleClass`).
        var blockClass: String?
        var inList = false
        var inQuote = false
        var inCaption = false
        var inPoem = false
        var language: String?
        var noteID: String?
        var types: [String] = []
        var inLink = false
        var inNavigation = false
        /// Inside a link to a note that has words of its own: its marker is dropped, its words read.
        var inNoteLink = false
        /// Inside a `<figure>`: its caption, folded (an image description it holds is not read again).
        var figureCaption: String?
    }

    private var doc = FlatDocument()
    private var buffer = ""
    private var bufferLinkWords = 0
    private var bufferLineBreaks = 0
    private var bufferNoteRefs: [String] = []
    private var pendingAnchors: [String] = []
    /// Where the links of the running block point.
    private var bufferLinks = LinkCounts()
    /// Set when a link back to a note's reference was left out of the running block: the brackets
    /// around it ("[←3]") go with it.
    private var bufferDroppedBackLink = false
    /// Set when the running block holds an element its style floats (a drop capital).
    private var bufferFloated = false
    /// The end (in UTF-8 bytes of `buffer`) of a link of the running block that points into a web
    /// page and shows its own address (`isPointerLink`).
    private var bufferPointerEnd: Int?
    /// A block of one or two capitals held back until the next block says whether it continues
    /// their word (`isDropCapital`, `continuesWord`), with the anchors that pointed at it.
    private var pendingCapital: (text: String, ctx: Context, floated: Bool, anchors: [String])?
    /// The document's stylesheet rules, nil when none hides or floats anything (or when they were
    /// set aside for hiding too much: `flatten`).
    private let rules: StyleRules?
    /// Words of the elements `rules` hid.
    private var styleHiddenWords = 0
    /// The paths (relative to the package folder) of the spine items before and after this one.
    private let neighbours: Set<String>
    /// Ids that note references in this document point to (`#id`).
    private var noteTargets: Set<String> = []
    /// The ids (or HTML 4 `name`s) of the note references in this document: a note body's number
    /// links back to one of them.
    private var noteReferenceIDs: Set<String> = []
    private let documentPath: String
    /// The language of text that declares none (the book's): what mathematics is read in there.
    private let bookLanguage: String?

    private init(documentPath: String, bookLanguage: String?, neighbours: Set<String>, rules: StyleRules?) {
        self.documentPath = documentPath
        self.bookLanguage = bookLanguage
        self.neighbours = neighbours
        self.rules = rules
    }

    /// The largest share of a document's words its stylesheets may hide. A class that hides more
    /// hides the text itself (a script shows it, or a rule meant for another medium): the document
    /// is then read as if no stylesheet hid anything, as the inline `hidden` never is.
    static let largestHiddenShare = 0.5

    /// Flattens `root` (an `<html>` element). `documentPath` tells which links point into the same
    /// file; `bookLanguage` is the language of text that declares none (mathematics is put into
    /// words in it; English when nil); `neighbours` are the paths of the spine items before and
    /// after this one (a bar of links to them is navigation); `styles` are the book's stylesheets,
    /// of which the document applies the ones it links.
    static func flatten(
        _ root: MarkupElement, documentPath: String = "", bookLanguage: String? = nil, neighbours: Set<String> = [],
        styles: BookStyles? = nil
    ) -> FlatDocument {
        let rules = root.localName == "svg" ? nil : documentRules(root, documentPath: documentPath, styles: styles)
        var f = DocumentFlattener(
            documentPath: documentPath, bookLanguage: bookLanguage, neighbours: neighbours, rules: rules)
        f.run(root)
        if f.styleHiddenWords > 0 {
            let shown = f.doc.blocks.reduce(0) { $0 + TextCleaner.wordCount($1.text) }
            if Double(f.styleHiddenWords) > largestHiddenShare * Double(shown + f.styleHiddenWords) {
                var unstyled = DocumentFlattener(
                    documentPath: documentPath, bookLanguage: bookLanguage, neighbours: neighbours, rules: nil)
                unstyled.run(root)
                return unstyled.doc
            }
        }
        return f.doc
    }

    /// The rules of the stylesheets `root` applies, in order: each `<link rel="stylesheet">` of its
    /// head (not an alternate stylesheet, nor one for another medium) found in `styles`, and each
    /// `<style>` element. Nil when none hides or floats anything.
    static func documentRules(_ root: MarkupElement, documentPath: String, styles: BookStyles?) -> StyleRules? {
        guard let head = root.firstChild(named: "head") else { return nil }
        var rules = StyleRules()
        for case .element(let e) in head.children {
            if let media = e.value(of: "media"), !StyleRules.mediaApplies(media) { continue }
            switch e.localName {
            case "link":
                let rel = MarkupElement.tokens(e.value(of: "rel") ?? "")
                guard let styles, rel.contains("stylesheet"), !rel.contains("alternate"),
                    let href = e.value(of: "href"), !Self.hasScheme(href)
                else { continue }
                let path = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                if let sheet = styles.rules(forPath: SpokenTextExtractor.resolve(String(path), from: documentPath)) {
                    rules = rules.merged(with: sheet)
                }
            case "style":
                rules = rules.merged(with: StyleRules(css: e.rawText))
            default: continue
            }
        }
        return rules.isEmpty ? nil : rules
    }

    /// Walks the document into `doc`, then applies the rules that look at the whole document.
    private mutating func run(_ root: MarkupElement) {
        if root.localName == "svg" {
            flattenSVG(root)
            return
        }
        collectNoteTargets(root)
        if let head = root.firstChild(named: "head"), let title = head.firstChild(named: "title") {
            let t = TextCleaner.normalize(title.rawText)
            doc.title = t.isEmpty ? nil : t
        }
        doc.language = root.languageValue
        let body = root.firstChild(named: "body") ?? root
        doc.bodyTypes = root.semanticTypes + body.semanticTypes
        var ctx = Context()
        ctx.language = root.languageValue
        ctx.types = root.semanticTypes
        walk(body, ctx, depth: 0)
        flush(ctx)
        emitPendingCapital()
        for id in pendingAnchors where doc.anchors[id] == nil { doc.anchors[id] = doc.blocks.count }
        doc.readNotesThatAreTheText()
        doc.readNavigationThatIsTheText()
        doc.dropNavigationBars()
        doc.dropContentsAtTheTop()
        doc.dropImageDescriptionsBesideTheirCaption()
    }

    // MARK: SVG content documents

    /// SVG elements whose content a reading system never shows as text: definitions drawn only where
    /// they are used, styling, scripts, metadata, paint servers and effects.
    private static let svgSkipped: Set<String> = [
        "defs", "symbol", "style", "script", "metadata", "clippath", "mask", "pattern", "marker", "filter",
        "lineargradient", "radialgradient",
    ]
    /// SVG elements read as one block each: `<text>` is drawn on the page, `<title>` and `<desc>` are what
    /// a reading system gives as the picture's name and description.
    private static let svgTextElements: Set<String> = ["title", "desc", "text"]

    /// An SVG content document (a spine item of type `image/svg+xml`, EPUB 3 §3.2): its root `<title>` is
    /// the document's title and first block (a heading), then each `<title>`, `<desc>` and `<text>` in
    /// document order, one block each, and XHTML inside `<foreignObject>` as in an XHTML document. A block
    /// that repeats an earlier one (a `<desc>` saying the `<title>` again) is left out.
    private mutating func flattenSVG(_ root: MarkupElement) {
        var ctx = Context()
        ctx.language = root.languageValue
        doc.language = root.languageValue
        doc.bodyTypes = root.semanticTypes
        if let title = root.firstChild(named: "title") {
            let t = TextCleaner.normalize(title.rawText)
            doc.title = t.isEmpty ? nil : t
        }
        var seen: Set<String> = []
        walkSVG(root, ctx, depth: 0, seen: &seen)
        flush(ctx)
        emitPendingCapital()
        for id in pendingAnchors where doc.anchors[id] == nil { doc.anchors[id] = doc.blocks.count }
    }

    private mutating func walkSVG(_ e: MarkupElement, _ parent: Context, depth: Int, seen: inout Set<String>) {
        guard depth < 400 else { return }
        let name = e.localName
        if let id = e.idValue { pendingAnchors.append(id) }
        if Self.svgSkipped.contains(name) || (depth > 0 && Self.isHiddenSVG(e)) { return }
        var ctx = parent
        if let lang = e.languageValue { ctx.language = lang }
        if Self.svgTextElements.contains(name) {
            let text = TextCleaner.normalize(Self.svgText(e))
            guard !text.isEmpty, !(name == "title" && Self.isPageLabel(text)),
                seen.insert(TextCleaner.fold(text)).inserted
            else { return }
            if name == "title", depth == 1 { ctx.headingLevel = 1 }
            buffer = text
            flush(ctx)
            return
        }
        if name == "switch" {
            // A reading system draws one child of a <switch>: the first whose conditions it meets.
            let chosen = e.elements.first { Self.svgConditionsHold($0, language: ctx.language) }
            if let chosen { walkSVG(chosen, ctx, depth: depth + 1, seen: &seen) }
            return
        }
        if name == "foreignobject" {
            // XHTML embedded in the picture: read as in a content document.
            flush(ctx)
            walkChildren(e, ctx, depth: depth)
            flush(ctx)
            return
        }
        for case .element(let c) in e.children { walkSVG(c, ctx, depth: depth + 1, seen: &seen) }
    }

    /// Hidden as in XHTML, or by SVG's own `display="none"` and `visibility="hidden"` attributes.
    private static func isHiddenSVG(_ e: MarkupElement) -> Bool {
        if isHidden(e, types: [], classes: e.classes) { return true }
        return e.value(of: "display")?.lowercased() == "none" || e.value(of: "visibility")?.lowercased() == "hidden"
    }

    /// Whether a child of a `<switch>` would be drawn: its `systemLanguage` (when given) names the text's
    /// language, and its `requiredExtensions` (when given) are only XHTML, which a reading system renders.
    static func svgConditionsHold(_ e: MarkupElement, language: String?) -> Bool {
        if let languages = e.value(of: "systemlanguage") ?? e.value(of: "systemLanguage") {
            let wanted = LanguageDetector.primaryLanguage(language ?? "")
            let offered = languages.split(separator: ",").map { LanguageDetector.primaryLanguage(String($0)) }
            guard !wanted.isEmpty, offered.contains(wanted) else { return false }
        }
        if let extensions = e.value(of: "requiredExtensions") ?? e.value(of: "requiredextensions") {
            let xhtml = "http://www.w3.org/1999/xhtml"
            guard extensions.split(whereSeparator: \.isWhitespace).allSatisfy({ $0 == xhtml }) else { return false }
        }
        return true
    }

    /// A `<title>` that only names the page or its file ("Page 12", "p012", "12", "page_012.svg"): what a
    /// tool wrote, not words for the listener.
    static func isPageLabel(_ title: String) -> Bool {
        let lower = title.lowercased()
        if [".svg", ".xhtml", ".html", ".jpg", ".jpeg", ".png"].contains(where: lower.hasSuffix) { return true }
        if !lower.contains(" "), lower.contains("_"), lower.count > 8 { return true }
        var rest = Substring(lower)
        for prefix in ["page", "pg", "p"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        rest = rest.drop { $0 == "." || $0 == " " || $0 == "-" || $0 == "_" }
        return !rest.isEmpty && rest.count <= 6 && rest.allSatisfy(\.isNumber)
    }

    /// The characters of an SVG text element, with a space where a `<tspan>` or `<textPath>` starts a new
    /// line or column (its own `x`, `y` or `dy`); a `<tspan>` that only styles letters joins its word.
    static func svgText(_ e: MarkupElement) -> String {
        var out = ""
        func walk(_ e: MarkupElement, depth: Int) {
            guard depth < 100 else { return }
            for child in e.children {
                switch child {
                case .text(let t): out += t
                case .element(let c):
                    guard !svgSkipped.contains(c.localName) else { continue }
                    if c.value(of: "x") != nil || c.value(of: "y") != nil || c.value(of: "dy") != nil { out += " " }
                    walk(c, depth: depth + 1)
                }
            }
        }
        walk(e, depth: 0)
        return out
    }

    // MARK: note references

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
    private static let noteWords: Set<String> = ["note", "n", "fn", "endnote", "footnote", "anm", "nota", "noot"]

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

    private static let backArrows: Set<Character> = ["←", "↑", "↩", "⤴", "⇧", "⬆", "↖", "⇐", "^", "↩︎", "↑︎", "⬆︎"]

    private static func isBackLink(_ a: MarkupElement) -> Bool {
        let types = a.semanticTypes
        if types.contains("backlink") || types.contains("se:referrer") { return true }
        let t = TextCleaner.normalize(a.rawText).lowercased()
        return ["↩", "↩︎", "↑", "^", "back", "return", "retour", "zurück"].contains(t)
    }

    /// Note targets in this document, and note references out of it (not from a `<nav>`: a page
    /// list's "169" links a page, not a note).
    private mutating func collectNoteTargets(_ root: MarkupElement) {
        var stack: [(MarkupElement, Int, inNavigation: Bool)] = [(root, 0, false)]
        while let (e, depth, inNavigation) = stack.popLast() {
            let name = e.localName
            if name == "a", Self.isNoteReference(e), let href = e.value(of: "href"),
                let hash = href.firstIndex(of: "#")
            {
                let path = String(href[..<hash])
                if path.isEmpty || documentPath.hasSuffix(path) {
                    noteTargets.insert(String(href[href.index(after: hash)...]))
                    if let own = e.value(of: "id") ?? e.value(of: "name") { noteReferenceIDs.insert(own) }
                } else if !inNavigation {
                    doc.noteReferencesOut.append(href)
                }
            }
            guard depth < 400 else { continue }
            for case .element(let c) in e.children { stack.append((c, depth + 1, inNavigation || name == "nav")) }
        }
    }

    // MARK: walking

    private static func isHidden(_ e: MarkupElement, types: [String], classes: [String]) -> Bool {
        if e.value(of: "hidden") != nil { return true }
        if e.value(of: "aria-hidden")?.lowercased() == "true" { return true }
        if let style = e.value(of: "style")?.lowercased().replacingOccurrences(of: " ", with: ""),
            style.contains("display:none") || style.contains("visibility:hidden")
        {
            return true
        }
        if types.contains("page-list") { return true }
        let marksAPage =
            types.contains("pagebreak")
            || classes.contains {
                ["pagenum", "page-number", "pageno", "pagebreak", "page-break", "pagenumber"].contains($0)
            }
        return marksAPage && isPageMarkerSized(e)
    }

    /// A page number is a few words, one of them a number ("12", "[Pg 12]", "Page xii"): an
    /// element named like one that holds more, or no number, is text (a `<div class="page-break">`
    /// around a whole chapter, a line of verse).
    static let longestPageMarker = 6

    private static func isPageMarkerSized(_ e: MarkupElement) -> Bool {
        let text = e.rawText
        guard TextCleaner.wordCount(text) <= longestPageMarker else { return false }
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }
        return words.isEmpty || words.contains { Patterns.isNumeral(String($0)) }
    }

    /// One element: its id and context, then the element's own handling (an element that is
    /// spoken in a way of its own, else an inline run or a block).
    private mutating func walk(_ e: MarkupElement, _ parent: Context, depth: Int) {
        // The name, its kind, the id and the attribute tokens, looked up once per element.
        let name = e.localName
        let isBlock = Self.blockElements.contains(name)
        let id = e.idValue
        // A block element closes the running block before its id is recorded, so the id points
        // at the block element's own first block.
        if isBlock { flush(parent) }
        if let id { pendingAnchors.append(id) }
        // An HTML 4 named anchor (`<a name="_ftn1">`, Word's notes, old Gutenberg files) is a
        // fragment's target as an id is.
        if id == nil, name == "a", let anchor = e.value(of: "name") { pendingAnchors.append(anchor) }
        let types = e.semanticTypes
        let classes = e.classes
        if Self.skipped.contains(name) || (name != "body" && Self.isHidden(e, types: types, classes: classes)) {
            return  // SVG titles, ruby readings, scripts, hidden page numbers: never read
        }
        if styleHides(e, name: name, id: id, classes: classes) { return }
        let ctx = context(
            of: e, ElementFacts(name: name, isBlock: isBlock, id: id), types: types, classes: classes, parent: parent)
        if walkSpecialElement(e, name: name, ctx, classes: classes, depth: depth) { return }
        if isBlock {
            walkBlock(e, ctx, types: types, classes: classes, parent: parent, depth: depth)
        } else {
            walkInline(e, ctx, parent: parent, depth: depth)
        }
    }

    /// Whether the document's stylesheets hide `e` (its words are counted, for `flatten`'s bound),
    /// and, when they or its own style float it, notes that the running block holds a floated element.
    /// An inline `display` other than `none` shows what a class hid.
    private mutating func styleHides(_ e: MarkupElement, name: String, id: String?, classes: [String]) -> Bool {
        let style = e.value(of: "style")?.lowercased().replacingOccurrences(of: " ", with: "")
        if let style, style.contains("float:left") || style.contains("float:right") { bufferFloated = true }
        guard let rules, name != "body", name != "html", !classes.isEmpty || id != nil else { return false }
        let decision = rules.decide(element: name, id: id, classes: classes)
        if decision.floated { bufferFloated = true }
        guard decision.hidden, !(style?.contains("display:") ?? false) else { return false }
        styleHiddenWords += TextCleaner.wordCount(e.rawText)
        recordAnchorsInside(e)  // a link into hidden text lands on what follows it
        return true
    }

    /// What `walk` has looked up about an element, for the steps after it.
    private struct ElementFacts {
        var name: String
        var isBlock: Bool
        var id: String?
    }

    /// The context below `e`: its language, semantic types, navigation, and the note it is part of.
    private func context(
        of e: MarkupElement, _ facts: ElementFacts, types: [String], classes: [String], parent: Context
    ) -> Context {
        let name = facts.name
        var ctx = parent
        if name == "nav" { ctx.inNavigation = true }
        if name == "section" || name == "article" { ctx.sectionDepth += 1 }
        if let lang = e.languageValue { ctx.language = lang }
        if !types.isEmpty, name != "a", name != "span" { ctx.types += types }
        guard name != "a" else { return ctx }
        // Footnote and endnote bodies: kept apart, not read inline. The innermost note wins, so a
        // list of endnotes gives one note per item. A plain `note` without an id, which no link can
        // reach, is an admonition set off in the text ("Note: keep the lid closed"): read in place.
        let backlinked = facts.isBlock ? noteOpeningWithBacklink(e) : nil
        let isTarget = facts.isBlock && (facts.id.map(noteTargets.contains) ?? false || backlinked != nil)
        let isSingleNote =
            types.contains(where: { ["footnote", "endnote", "rearnote"].contains($0) })
            || (types.contains("note") && facts.id != nil)
            || classes.contains(where: { ["footnote", "endnote"].contains($0) })
        let isNoteList =
            types.contains(where: { ["footnotes", "endnotes", "rearnotes"].contains($0) })
            || classes.contains(where: { ["footnotes", "endnotes"].contains($0) })
        if isTarget || isSingleNote {
            ctx.noteID = backlinked ?? facts.id ?? "note-\(doc.blocks.count)"
        } else if isNoteList, ctx.noteID == nil {
            ctx.noteID = facts.id ?? "notes-\(doc.blocks.count)"
        }
        return ctx
    }

    /// The id of the anchor a note reference points at, when block `e` opens with it before any
    /// text and it links back to that reference: Word's footnotes (`<p class="MsoFootnoteText"><a
    /// href="#_ftnref1" name="_ftn1">[1]</a> …`) and other notes whose id is on their number, not
    /// on their paragraph. Both links are needed: a page anchor at a paragraph's start
    /// (`<a id="page_12">`) that an index's "12" points at links nowhere back, and stays text.
    private func noteOpeningWithBacklink(_ e: MarkupElement) -> String? {
        var current = e
        for _ in 0..<4 {
            var first: MarkupElement?
            for child in current.children {
                switch child {
                case .text(let text):
                    if !text.allSatisfy(\.isWhitespace) { return nil }
                case .element(let element):
                    first = element
                }
                if first != nil { break }
            }
            guard let first else { return nil }
            if first.localName == "a" {
                guard let own = first.value(of: "id") ?? first.value(of: "name"), noteTargets.contains(own),
                    let href = first.value(of: "href"), let hash = href.firstIndex(of: "#"),
                    noteReferenceIDs.contains(String(href[href.index(after: hash)...]))
                else { return nil }
                return own
            }
            guard ["span", "sup", "b", "strong", "i", "em", "small"].contains(first.localName) else { return nil }
            current = first
        }
        return nil
    }

    /// Elements spoken in a way of their own. False when `e` is to be walked as any other element
    /// (a prose table, a link inside a link, a superscript that is text).
    private mutating func walkSpecialElement(
        _ e: MarkupElement, name: String, _ ctx: Context, classes: [String], depth: Int
    ) -> Bool {
        switch name {
        case "br": lineBreak(ctx)
        case "hr":
            flush(ctx)
            appendBlock(kind: .sceneBreak, text: "", ctx: ctx)
        case "img", "image": image(e, ctx)
        case "math": math(e, ctx)
        case "table": return table(e, ctx, depth: depth)
        case "pre": preformatted(e, ctx, classes: classes)
        case "a": return link(e, ctx, depth: depth)
        case "sup": return superscript(e, ctx)
        case "switch", "epub:switch":
            guard name == "epub:switch" || e.namespace == Self.opsNamespace else { return false }
            epubSwitch(e, ctx, depth: depth)
        default: return false
        }
        return true
    }

    /// The namespace of EPUB 3.0's own elements in a content document (`epub:switch`).
    static let opsNamespace = "http://www.idpf.org/2007/ops"

    /// `<epub:switch>`: a reading system draws one child, a `case` whose markup (ChemML, MathML...)
    /// it renders, else the `default` every one can draw. Read once, as a reading system without
    /// the case's markup shows it: the default, or the first case when there is no default.
    private mutating func epubSwitch(_ e: MarkupElement, _ ctx: Context, depth: Int) {
        let children = e.elements
        let drawn =
            children.first { $0.localName == "default" || $0.localName == "epub:default" }
            ?? children.first { $0.localName == "case" || $0.localName == "epub:case" }
        guard let drawn else { return }
        flush(ctx)
        walkChildren(drawn, ctx, depth: depth + 1)
        flush(ctx)
    }

    /// `<br>`: a new line of a poem, else a space (counted: a paragraph of broken lines is a stanza).
    private mutating func lineBreak(_ ctx: Context) {
        if ctx.inPoem {
            flush(ctx)
        } else {
            buffer += " "
            bufferLineBreaks += 1
        }
    }

    /// An image: a drop capital's letters join the text; a meaningful description is a notice,
    /// unless the caption of its figure already says it.
    private mutating func image(_ e: MarkupElement, _ ctx: Context) {
        doc.imageCount += 1
        let alt = TextCleaner.normalize(e.value(of: "alt") ?? "")
        if Self.isDrawnCapital(alt) {
            buffer += alt  // a drop capital: the first letters of the paragraph
            return
        }
        guard buffer.allSatisfy(\.isWhitespace) else { return }
        emitPendingCapital()  // a picture between a capital and a paragraph: they are not one word
        guard Self.isMeaningfulAlt(alt) else { return }
        if let caption = ctx.figureCaption, Self.containsWords(caption, TextCleaner.fold(alt)) { return }
        flush(ctx)
        appendBlock(kind: .notice, text: "Image: \(alt)", ctx: ctx, omitted: .image(alt: alt))
    }

    /// The description of a drop capital drawn as a picture: one letter, or two capitals ("T",
    /// "TH" before "E day").
    static func isDrawnCapital(_ alt: String) -> Bool {
        guard (1...2).contains(alt.count), alt.allSatisfy(\.isLetter) else { return false }
        return alt.count == 1 || alt.allSatisfy(\.isUppercase)
    }

    /// Whether folded `text` holds the folded words `words`, whole.
    static func containsWords(_ text: String, _ words: String) -> Bool {
        !words.isEmpty && " \(text) ".utf8.containsBytes(" \(words) ")
    }

    /// MathML: the author's words for it first; else a simple expression read from its markup.
    private mutating func math(_ e: MarkupElement, _ ctx: Context) {
        let alt =
            e.value(of: "alttext").map(TextCleaner.normalize).flatMap { Self.isPlaceholderAlt($0) ? nil : $0 }
            ?? MathSpeech.spoken(e, language: ctx.language ?? bookLanguage)
        if e.value(of: "display") == "block" {
            flush(ctx)
            appendBlock(kind: .notice, text: alt ?? "", ctx: ctx, omitted: .math(alt: alt))
        } else if let alt, !alt.isEmpty {
            buffer += " \(alt)"  // the source's own spacing follows: "x squared."
        } else if e.rawText.contains(where: { $0.isLetter || $0.isNumber }) {
            // Too large to follow by ear, or markup not covered.
            buffer += " " + MathSpeech.words(for: ctx.language ?? bookLanguage).equation
        }  // else a mark alone (an end-of-proof square): nothing to say
        recordAnchorsInside(e)
    }

    /// A table: read row by row when it holds words, else a notice with its rows. False for drama
    /// and prose laid out in tables (speaker | speech), which are walked cell by cell.
    private mutating func table(_ e: MarkupElement, _ ctx: Context, depth: Int) -> Bool {
        flush(ctx)
        if Self.isProseTable(e, types: ctx.types) { return false }
        if let caption = e.firstChild(named: "caption") {
            var c = ctx
            c.inCaption = true
            walk(caption, c, depth: depth + 1)
            flush(c)
        }
        let cells = Self.tableCells(e)
        recordAnchorsInside(e)
        let rows = cells.rows.map { $0.joined(separator: ", ") }
        if Self.isWordTable(cells.data.isEmpty ? cells.rows.flatMap { $0 } : cells.data) {
            // Definitions, glosses, a layout table of text: words the listener needs, row by row.
            // A table of links (a printed contents list) keeps its link words for the classifier.
            for (row, links) in zip(rows, cells.linkWords) {
                appendBlock(
                    kind: .paragraph, text: CitationFilter.removeCitations(from: row), ctx: ctx, linkWords: links)
            }
        } else if !rows.isEmpty {
            appendBlock(kind: .notice, text: "Table omitted.", ctx: ctx, omitted: .table(rows: rows))
        }
        return true
    }

    /// A table's non-empty rows (cell texts, header cells included), its data cells, and the link
    /// words of each row, in document order; the caption is left out.
    static func tableCells(_ table: MarkupElement) -> (rows: [[String]], data: [String], linkWords: [Int]) {
        var rows: [[String]] = []
        var data: [String] = []
        var rowLinkWords: [Int] = []
        var stack: [MarkupElement] = [table]
        while let x = stack.popLast() {
            if x.localName == "tr" {
                let cells = x.children.compactMap { node -> String? in
                    guard case .element(let c) = node, c.localName == "td" || c.localName == "th" else {
                        return nil
                    }
                    let t = TextCleaner.normalize(c.rawText)
                    if c.localName == "td", !t.isEmpty { data.append(t) }
                    return t.isEmpty ? nil : t
                }
                if !cells.isEmpty {
                    rows.append(cells)
                    rowLinkWords.append(linkWords(in: x))
                }
            } else if x.localName != "caption" {
                for case .element(let c) in x.children.reversed() { stack.append(c) }
            }
        }
        return (rows, data, rowLinkWords)
    }

    /// `<pre>`: a code listing is read when it reads as language, else announced; other
    /// preformatted text (verse, letters) is read line by line.
    private mutating func preformatted(_ e: MarkupElement, _ ctx: Context, classes: [String]) {
        flush(ctx)
        let isCode =
            e.firstDescendant(where: { $0.localName == "code" || $0.localName == "samp" }) != nil
            || classes.contains(where: { $0.contains("code") || $0.contains("program") || $0.contains("listing") })
        recordAnchorsInside(e)
        let source = e.rawText
        if isCode, !Self.readsAsLanguage(code: source) {
            appendBlock(kind: .notice, text: "Code example omitted.", ctx: ctx, omitted: .code(source))
            return
        }
        for line in source.split(separator: "\n") {
            let t = TextCleaner.normalize(String(line))
            if !t.isEmpty { appendBlock(kind: ctx.inPoem ? .poemLine : .paragraph, text: t, ctx: ctx) }
        }
    }

    /// The share of a code listing's visible characters that may be symbols for it to be read
    /// aloud: pseudo-code ("set source to font file", "while outer < 52") and shell commands stay
    /// under it; markup (`<p id="x">`, 20-30%) and most programming languages (10-20%: brackets,
    /// operators, punctuation) are over it and are announced.
    static let maxSymbolShareOfReadableCode = 0.08

    /// Whether a listing is words a listener can follow: at least a few words, and few symbols
    /// among its visible characters.
    static func readsAsLanguage(code: String) -> Bool {
        var visible = 0
        var symbols = 0
        for scalar in code.unicodeScalars where !scalar.properties.isWhitespace {
            visible += 1
            if !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) { symbols += 1 }
        }
        guard visible > 0, TextCleaner.wordCount(code) >= 4 else { return false }
        return Double(symbols) <= Double(visible) * maxSymbolShareOfReadableCode
    }

    /// A link: a note reference is dropped (its words kept when it has some); a link's words are
    /// counted as link words. False for a link inside a link or without a target.
    private mutating func link(_ e: MarkupElement, _ parent: Context, depth: Int) -> Bool {
        var ctx = parent
        if Self.isNoteReference(e) {
            if let href = e.value(of: "href") { bufferNoteRefs.append(href) }
            // "...when clicking on <a epub:type='noteref'>this link</a>": the words are part of the sentence.
            if !ctx.inNoteLink, Self.hasWordsOfItsOwn(e) {
                ctx.inNoteLink = true
                ctx.inLink = true
                let before = TextCleaner.wordCount(buffer)
                walkChildren(e, ctx, depth: depth)
                while let last = buffer.last, last.isWhitespace || "*†‡".contains(last) { buffer.removeLast() }
                bufferLinkWords += max(0, TextCleaner.wordCount(buffer) - before)
                return true
            }
            recordAnchorsInside(e)
            return true
        }
        if Self.isArrowBackLink(e) || (ctx.noteID != nil && Self.isBackLink(e)) {
            recordAnchorsInside(e)
            bufferDroppedBackLink = true
            return true
        }
        guard let href = e.value(of: "href"), !ctx.inLink else { return false }
        let target = linkTarget(href)
        if target == .external || target == .media, Self.isIconLink(e) {
            recordAnchorsInside(e)  // "🔊 Listen": a web page's player, not the book's words
            return true
        }
        countLink(target)
        ctx.inLink = true
        let before = TextCleaner.wordCount(buffer)
        walkChildren(e, ctx, depth: depth)
        bufferLinkWords += max(0, TextCleaner.wordCount(buffer) - before)
        if target == .external, Self.isPointerLink(e, href: href) { bufferPointerEnd = buffer.utf8.count }
        return true
    }

    /// Where a link points, as far as the reading of its block cares.
    enum LinkTarget {
        /// A URL with a scheme: outside the book.
        case external
        /// An audio or video file of the book (a player's source).
        case media
        /// A fragment of this document.
        case sameFile
        /// The spine item just before or after this one, as a whole (no fragment).
        case neighbour
        /// Another file of the book.
        case otherFile
    }

    private func linkTarget(_ href: String) -> LinkTarget {
        if Self.hasScheme(href) { return .external }
        let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first ?? ""
        if path.isEmpty { return .sameFile }
        let resolved = SpokenTextExtractor.resolve(String(path), from: documentPath)
        if resolved == documentPath { return .sameFile }
        if Self.mediaExtensions.contains(where: { resolved.lowercased().hasSuffix($0) }) { return .media }
        // A page before or after, as a whole: a link to a place in it (a title linking back to its
        // entry in the contents) is no step of a navigation bar.
        let wholePage = parts.count == 1 || parts[1].isEmpty
        return wholePage && neighbours.contains(resolved) ? .neighbour : .otherFile
    }

    /// File name endings of audio and video.
    private static let mediaExtensions = [
        ".mp3", ".m4a", ".m4b", ".aac", ".ogg", ".oga", ".opus", ".wav", ".flac", ".mp4", ".m4v", ".webm", ".ogv",
        ".mov",
    ]

    private mutating func countLink(_ target: LinkTarget) {
        bufferLinks.total += 1
        switch target {
        case .external, .media: bufferLinks.external += 1
        case .sameFile: bufferLinks.sameFile += 1
        case .neighbour:
            bufferLinks.neighbour += 1
            bufferLinks.otherFile += 1
        case .otherFile: bufferLinks.otherFile += 1
        }
    }

    /// Whether `href` names a scheme (`https:`, `mailto:`, `urn:`): letters, digits, `+`, `-` or `.`
    /// before a colon, ahead of any `/`, `?` or `#`.
    static func hasScheme(_ href: String) -> Bool {
        for (offset, c) in href.utf8.enumerated() {
            if c == UInt8(ascii: ":") { return offset > 0 }
            let isSchemeByte =
                (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") || (c >= 0x30 && c <= 0x39)
                || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
            if !isSchemeByte { return false }
        }
        return false
    }

    /// A link whose text is a pictograph and a few words ("🔊 Listen", "▶️ Play"): a web page's button.
    static func isIconLink(_ a: MarkupElement) -> Bool {
        let text = a.rawText
        return TextCleaner.wordCount(text) <= 3 && text.contains(where: TextCleaner.isPictographic)
    }

    /// A link that shows its own address and points at a place inside a web page
    /// (`<a href="https://example.org/book/ch-2/#audio-1">https://example.org/book/ch-2/#audio-1</a>`):
    /// what a web-built book puts where it left out a player, a video or an exercise.
    static func isPointerLink(_ a: MarkupElement, href: String) -> Bool {
        guard let hash = href.firstIndex(of: "#"), href.index(after: hash) < href.endIndex else { return false }
        let text = TextCleaner.normalize(a.rawText).lowercased()
        guard text.hasPrefix("http") || text.hasPrefix("www.") else { return false }
        let shown = text.hasPrefix("www.") ? String(text.dropFirst(4)) : text
        let lowerHref = href.lowercased()
        return lowerHref.hasSuffix(shown) || lowerHref.hasPrefix(shown) || shown.hasSuffix(lowerHref)
    }

    /// A superscript that marks a note or a citation is dropped (its targets recorded). False for
    /// a superscript that is text: "x<sup>2</sup>", "1<sup>st</sup>".
    private mutating func superscript(_ e: MarkupElement, _ ctx: Context) -> Bool {
        // A superscript holding only a linked marker is a note reference ("<sup><a>1</a></sup>").
        if let only = onlyElementChild(e), only.localName == "a", Self.isNoteReference(only) {
            if let href = only.value(of: "href") { bufferNoteRefs.append(href) }
            recordAnchorsInside(e)
            return true
        }
        // A marker inside a note link with words, and citation superscripts: "<sup>14,15</sup>",
        // "<sup>3–5</sup>", "ended.<sup>7</sup>".
        let sup = TextCleaner.normalize(e.rawText)
        guard (ctx.inNoteLink && Self.isNoteMarker(sup)) || Self.isCitationSuperscript(sup, after: buffer) else {
            return false
        }
        var stack: [MarkupElement] = [e]
        while let x = stack.popLast() {
            if x.localName == "a", let href = x.value(of: "href") { bufferNoteRefs.append(href) }
            for case .element(let c) in x.children { stack.append(c) }
        }
        recordAnchorsInside(e)
        return true
    }

    /// An inline element: its text joins the running block, except a passage in another language
    /// (a whole sentence, not a borrowed word), which becomes a block of its own so that it can be
    /// spoken with a voice for that language.
    private mutating func walkInline(_ e: MarkupElement, _ ctx: Context, parent: Context, depth: Int) {
        if let lang = e.languageValue, lang.lowercased() != (parent.language ?? "").lowercased(),
            ctx.headingLevel == nil, TextCleaner.wordCount(e.rawText) >= 3
        {
            flush(parent)
            walkChildren(e, ctx, depth: depth)
            flush(ctx)
            return
        }
        walkChildren(e, ctx, depth: depth)
    }

    /// A block element: close the running block, set the context (heading, list, quote, caption,
    /// poem), walk, close again; a stanza of a poem ends with a stanza break.
    private mutating func walkBlock(
        _ e: MarkupElement, _ blockContext: Context, types: [String], classes: [String], parent: Context, depth: Int
    ) {
        let name = e.localName
        var ctx = blockContext
        flush(parent)
        ctx.blockClass = Self.classPath(blockContext.blockClass, e.value(of: "class"))
        if let level = Self.headingLevel(name) { ctx.headingLevel = ctx.headingLevel ?? level }
        if name == "hgroup" { ctx.headingLevel = ctx.headingLevel ?? 1 }
        if name == "li" || name == "dt" || name == "dd" { ctx.inList = true }
        if name == "blockquote" { ctx.inQuote = true }
        if name == "figcaption" || name == "caption" { ctx.inCaption = true }
        if name == "figure", let caption = e.firstDescendant(where: { $0.localName == "figcaption" }) {
            ctx.figureCaption = TextCleaner.fold(caption.rawText)
        }
        let startsPoem =
            types.contains(where: Self.poemTypes.contains) || classes.contains(where: Self.poemClasses.contains)
        let isStanza =
            ctx.inPoem && !classes.contains(where: { $0.hasPrefix("line") || $0 == "l" })
            && (classes.contains("stanza") || name == "p"
                || (name == "div"
                    && e.children.contains {
                        if case .element(let c) = $0 { Self.blockElements.contains(c.localName) } else { false }
                    }))
        if startsPoem { ctx.inPoem = true }
        walkChildren(e, ctx, depth: depth)
        flush(ctx)
        if (isStanza || (startsPoem && name == "p")), doc.blocks.last.map({ $0.kind == .poemLine }) == true {
            appendBlock(kind: .stanzaBreak, text: "", ctx: ctx)
        }
    }

    /// The classes of a block element and the block elements around it, innermost last and at most
    /// `classPathLength` of them: a converter may style a heading on its wrapper
    /// (`<div class="s3"><p class="calibre2">`) or on the paragraph itself.
    static func classPath(_ outer: String?, _ own: String?) -> String {
        var path = (outer ?? "") + "/" + (own ?? "")
        var separators = 0
        for index in path.indices.reversed() where path[index] == "/" {
            separators += 1
            if separators == classPathLength {
                path = String(path[path.index(after: index)...])
                break
            }
        }
        return path
    }

    /// How many nested block elements `classPath` keeps.
    static let classPathLength = 3

    /// Words inside the links below `e`.
    static func linkWords(in e: MarkupElement) -> Int {
        var words = 0
        var stack = [e]
        while let x = stack.popLast() {
            if x.localName == "a", x.value(of: "href") != nil {
                words += TextCleaner.wordCount(x.rawText)
                continue
            }
            for case .element(let c) in x.children { stack.append(c) }
        }
        return words
    }

    /// A table of words rather than figures: more of its data cells' words have letters than have
    /// none (numbers, dates, amounts), as in a list of names and their years or of dates and events;
    /// header cells are words in any table and do not count. Such a table is read row by row; a
    /// table mostly of figures is announced.
    static func isWordTable(_ cells: [String]) -> Bool {
        // One cell of words is a box drawn around text (a layout table), no table of data.
        guard !cells.isEmpty else { return false }
        var words = 0
        var figures = 0
        for cell in cells {
            for token in cell.split(separator: " ") {
                if token.contains(where: \.isLetter) { words += 1 } else { figures += 1 }
            }
        }
        return words > figures
    }

    static func isProseTable(_ table: MarkupElement, types: [String]) -> Bool {
        if types.contains(where: { $0 == "z3998:drama" || $0 == "z3998:play" || $0 == "z3998:script" }) { return true }
        var rows = 0
        var words = 0
        var numericCells = 0
        var stack: [MarkupElement] = [table]
        while let x = stack.popLast() {
            if x.localName == "tr" {
                rows += 1
            } else if x.localName == "td" || x.localName == "th" {
                let text = x.rawText
                words += TextCleaner.wordCount(text)
                if text.contains(where: \.isNumber), TextCleaner.wordCount(text) <= 2 { numericCells += 1 }
            }
            for case .element(let c) in x.children { stack.append(c) }
        }
        return rows > 0 && words >= 40 && words / rows >= 10 && numericCells * 4 < rows
    }

    private func onlyElementChild(_ e: MarkupElement) -> MarkupElement? {
        var found: MarkupElement?
        for child in e.children {
            switch child {
            case .text(let t): if !t.allSatisfy(\.isWhitespace) { return nil }
            case .element(let c):
                if found != nil { return nil }
                found = c
            }
        }
        return found
    }

    private mutating func walkChildren(_ e: MarkupElement, _ ctx: Context, depth: Int) {
        guard depth < 400 else { return }
        for child in e.children {
            switch child {
            case .text(let t): buffer += t
            case .element(let c): walk(c, ctx, depth: depth + 1)
            }
        }
    }

    /// Ids inside content handled as a whole (tables, math): they point at the current block.
    private mutating func recordAnchorsInside(_ e: MarkupElement) {
        var stack: [MarkupElement] = [e]
        while let x = stack.popLast() {
            if let id = x.idValue { pendingAnchors.append(id) }
            for case .element(let c) in x.children { stack.append(c) }
        }
    }

    private static func headingLevel(_ name: String) -> Int? {
        guard name.count == 2, name.first == "h", let d = name.last?.wholeNumberValue, (1...6).contains(d) else {
            return nil
        }
        return d
    }

    /// Alternative text that only says there is none ("Alternative text not available", "no alt
    /// text", "description unavailable"): a producer's placeholder, never worth hearing.
    static func isPlaceholderAlt(_ alt: String) -> Bool {
        let folded = TextCleaner.fold(alt)
        guard !folded.isEmpty, TextCleaner.wordCount(folded) <= 6 else { return false }
        let spaced = " \(folded) "  // whole words only: "alt" is no part of "Walter"
        let saysMissing = [" not available ", " unavailable ", " missing ", " no ", " none "].contains {
            spaced.contains($0)
        }
        let namesAlt = [" alt ", " alternative ", " text ", " description ", " image ", " equation "].contains {
            spaced.contains($0)
        }
        return saysMissing && namesAlt
    }

    static func isMeaningfulAlt(_ alt: String) -> Bool {
        if isPlaceholderAlt(alt) { return false }
        let folded = TextCleaner.fold(alt)
        guard folded.count >= 3 else { return false }
        let lower = alt.lowercased()
        for ext in [".jpg", ".jpeg", ".png", ".gif", ".svg", ".webp"] where lower.hasSuffix(ext) { return false }
        let meaningless: Set<String> = [
            "cover", "cover image", "image", "img", "illustration", "figure", "picture", "photo", "graphic", "logo",
            "decoration", "ornament", "divider", "separator", "title", "titlepage", "title page", "front cover",
            "couverture", "bild", "imagen", "immagine", "imagem", "spacer", "blank", "billede", "bilde", "afbeelding",
            "kuva", "obraz", "fig", "pic",
        ]
        if meaningless.contains(folded) || meaningless.contains(Self.droppingTrailingNumber(folded)) { return false }
        return folded.contains(where: \.isLetter)
    }

    /// "picture0", "img 003" (folded from "img_003") → "picture", "img": the word an exporter
    /// numbers its images with. Text that does not end in a number is returned as it is.
    private static func droppingTrailingNumber(_ folded: String) -> String {
        let stem = folded.reversed().drop { $0.isASCII && ($0.isNumber || $0 == " ") }
        guard stem.count < folded.count, folded.last?.isNumber == true else { return folded }
        return String(stem.reversed())
    }

    // MARK: blocks

    private var currentKind: (Context) -> BlockKind {
        { ctx in
            if ctx.headingLevel != nil { return .heading }
            if ctx.inCaption { return .caption }
            if ctx.inPoem { return .poemLine }
            if ctx.inList { return .listItem }
            if ctx.inQuote { return .blockQuote }
            return .paragraph
        }
    }

    private mutating func flush(_ ctx: Context) {
        guard !buffer.isEmpty || !bufferNoteRefs.isEmpty else { return }
        let endsWithPointer = bufferPointerEnd.map { end in !buffer.utf8.dropFirst(end).contains(where: Self.isAlnum) }
        var text = TextCleaner.normalize(buffer)
        text = Self.readingAddresses(text)
        text = CitationFilter.removeCitations(from: text)
        let linkWords = bufferLinkWords
        let refs = bufferNoteRefs
        let lineBreaks = bufferLineBreaks
        let links = bufferLinks
        let floated = bufferFloated
        if bufferDroppedBackLink { text = Self.withoutEmptyBrackets(text) }
        bufferDroppedBackLink = false
        buffer = ""
        bufferLinkWords = 0
        bufferLineBreaks = 0
        bufferNoteRefs = []
        bufferLinks = LinkCounts()
        bufferFloated = false
        bufferPointerEnd = nil
        guard !text.isEmpty else {
            if !refs.isEmpty, var last = doc.blocks.popLast() {
                last.noteRefs += refs
                doc.blocks.append(last)
            }
            return
        }
        if Self.isSceneBreakText(text) {
            appendBlock(kind: .sceneBreak, text: "", ctx: ctx)
            return
        }
        let kind = currentKind(ctx)
        if let capital = pendingCapital, kind == .paragraph, ctx.noteID == capital.ctx.noteID,
            Self.continuesWord(text, after: capital.text, floated: capital.floated)
        {
            pendingCapital = nil
            text = capital.text + text
            pendingAnchors = capital.anchors + pendingAnchors
        }
        if kind == .paragraph, ctx.noteID == nil, Self.isDropCapital(text) {
            emitPendingCapital()
            pendingCapital = (text, ctx, floated, pendingAnchors)
            pendingAnchors = []
            return
        }
        let words = TextCleaner.wordCount(text)
        let isPointer = endsWithPointer == true && links.total == 1 && words <= Self.longestPointer
        appendBlock(
            kind: kind, text: text, ctx: ctx, omitted: isPointer ? .clutter : nil, linkWords: min(linkWords, words),
            noteRefs: refs)
        doc.blocks[doc.blocks.count - 1].lineBreaks = lineBreaks
        doc.blocks[doc.blocks.count - 1].links = links
    }

    /// Text without the brackets a dropped back-link stood in ("[←3] A remark." → "A remark."), and
    /// empty when nothing but punctuation is left.
    static func withoutEmptyBrackets(_ text: String) -> String {
        guard text.contains(where: { $0.isLetter || $0.isNumber }) else { return "" }
        var out = text
        for pair in ["[ ]", "[]", "( )", "()", "{ }", "{}"] { out = out.replacingOccurrences(of: pair, with: "") }
        return out == text ? text : TextCleaner.normalize(out)
    }

    private static func isAlnum(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || (byte >= 0x30 && byte <= 0x39)
            || byte >= 0x80
    }

    /// The most words of a block that stands for web content left out (`isPointerLink`): "An audio
    /// element has been excluded from this version of the text. You can listen to it online here: …".
    static let longestPointer = 40

    // MARK: drop capitals

    /// One capital letter, maybe after an opening quote: a drop capital set in an element of its own
    /// ("<div class='dropcap'>T</div><p>HE day…"), or a line of a title page ("A", "I").
    static func isDropCapital(_ text: String) -> Bool {
        // A capital and a quote or two: a few bytes (every paragraph passes here; counting its
        // characters cost a tenth of indexing a long book).
        guard text.utf8.count <= 12 else { return false }
        let letters = text.drop { "\"'«‹¿¡(".contains($0) }
        return letters.count == 1 && letters.allSatisfy { $0.isLetter && $0.isUppercase }
    }

    /// The fewest words of the paragraph a drop capital opens: a chapter's first paragraph is prose,
    /// where the lines after a title page's "A" or "BY" are a few words.
    static let fewestWordsAfterDropCapital = 8

    /// Whether `text` (a paragraph) goes on with the word that `capital` (`isDropCapital`) begins:
    /// it starts with a small letter ("T" + "he day"), or with a word in capitals ("T" + "HE day",
    /// the first word set in small capitals), and is prose. A Roman numeral letter ("I", "V", "X")
    /// followed by a word in capitals is a section number over a paragraph that opens in capitals,
    /// unless the letter floats as a drop capital does.
    static func continuesWord(_ text: String, after capital: String, floated: Bool) -> Bool {
        guard let first = text.first, first.isLetter, first.isLowercase || first.isUppercase,
            TextCleaner.wordCount(text) >= fewestWordsAfterDropCapital
        else { return false }
        if first.isLowercase { return true }
        let word = text.prefix(while: \.isLetter)
        guard word.allSatisfy(\.isUppercase) else { return false }
        return floated || !capital.allSatisfy { !$0.isLetter || "IVXLCDM".contains($0) }
    }

    /// Appends the drop capital held back, as a block of its own: what followed did not continue it.
    private mutating func emitPendingCapital() {
        guard let capital = pendingCapital else { return }
        pendingCapital = nil
        let later = pendingAnchors
        pendingAnchors = capital.anchors
        appendBlock(kind: .paragraph, text: capital.text, ctx: capital.ctx)
        pendingAnchors = later
    }

    // MARK: addresses

    /// Text with each web address read as its host: "see https://www.example.org/a/b.html." → "see
    /// example.org.". A listener cannot follow a link, and an address spelled out character by
    /// character is a minute of noise; the host says where the text points. An address alone in
    /// its block is read the same way (it is what the block says).
    static func readingAddresses(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.containsBytes("://") || utf8.containsBytesIgnoringASCIICase("www.") else { return text }
        var changed = false
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> Substring in
            guard let host = host(in: word) else { return word }
            changed = true
            return host
        }
        return changed ? words.joined(separator: " ") : text
    }

    /// The word with the web address in it replaced by the address's host, punctuation around it kept;
    /// nil when the word holds no address (`http://`, `https://`, `ftp://` or `www.`).
    private static func host(in word: Substring) -> Substring? {
        let chars = Array(word)
        func starts(_ prefix: String, at i: Int) -> Bool {
            var k = i
            for p in prefix {
                guard k < chars.count, chars[k].lowercased() == String(p) else { return false }
                k += 1
            }
            return true
        }
        var start: Int?
        var hostStart = 0
        for i in chars.indices where i == 0 || !chars[i - 1].isLetter {
            if let scheme = ["https://", "http://", "ftp://"].first(where: { starts($0, at: i) }) {
                (start, hostStart) = (i, i + scheme.count)
            } else if starts("www.", at: i) {
                (start, hostStart) = (i, i)
            }
            if start != nil { break }
        }
        guard let start else { return nil }
        var end = chars.count
        while end > hostStart, ".,;:!?)]}\"'»›>".contains(chars[end - 1]) { end -= 1 }
        var host = chars[hostStart..<end].prefix { !"/?#".contains($0) }
        if let at = host.lastIndex(of: "@") { host = host[(at + 1)...] }
        if let colon = host.firstIndex(of: ":") { host = host[..<colon] }
        if starts("www.", at: host.startIndex) { host = host.dropFirst(4) }
        guard host.contains("."), host.contains(where: \.isLetter) else { return nil }
        return Substring(String(chars[..<start]) + String(host) + String(chars[end...]))
    }

    /// A row of asterisks, dots or similar ornaments marks a scene break.
    static func isSceneBreakText(_ text: String) -> Bool {
        // At most 20 ornaments and nothing else but spaces; stops at the first other character.
        var count = 0
        var allDots = true
        for ch in text where !ch.isWhitespace {
            guard count < 20, sceneBreakOrnaments.contains(ch) else { return false }
            count += 1
            allDots = allDots && ch == "."
        }
        return count > 0 && !(allDots && count == 3)
    }

    private static let sceneBreakOrnaments: Set<Character> = Set("*⁂•·.~#-–—_=+○●◆◇❦❧✣✤✥✦✧✱✲✳✴✵✶✷✸✹✺✻✼✽✾✿❀❁❂❃❋§")

    private mutating func appendBlock(
        kind: BlockKind, text: String, ctx: Context, omitted: OmittedContent? = nil, linkWords: Int = 0,
        noteRefs: [String] = []
    ) {
        emitPendingCapital()
        // A content document's own <nav> (a mini contents list) is navigation: kept as a block, so
        // positions stay stable, but never spoken and never counted.
        let omitted = ctx.inNavigation && kind != .sceneBreak ? .navigation : omitted
        let index = doc.blocks.count
        for id in pendingAnchors where doc.anchors[id] == nil { doc.anchors[id] = index }
        pendingAnchors.removeAll()
        doc.blocks.append(
            RawBlock(
                kind: kind, text: text, language: ctx.language, omitted: omitted,
                headingLevel: kind == .heading ? ctx.headingLevel : nil, noteID: ctx.noteID, types: ctx.types,
                words: omitted == nil ? TextCleaner.wordCount(text) : 0, linkWords: linkWords, noteRefs: noteRefs,
                sectionDepth: ctx.sectionDepth, styleClass: ctx.blockClass))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
