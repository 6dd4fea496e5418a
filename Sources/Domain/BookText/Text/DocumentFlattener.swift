import Contracts
import Markup

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
    /// page and shows its own address (`WebLinks.isPointerLink`).
    private var bufferPointerEnd: Int?
    /// A block of one or two capitals held back until the next block says whether it continues
    /// their word (`DropCapital.isDropCapital`, `DropCapital.continuesWord`), with the anchors that pointed at it.
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
        var flattener = DocumentFlattener(
            documentPath: documentPath, bookLanguage: bookLanguage, neighbours: neighbours, rules: rules)
        flattener.run(root)
        if flattener.styleHiddenWords > 0 {
            let shown = flattener.doc.blocks.reduce(0) { $0 + TextMeasure.wordCount($1.text) }
            if Double(flattener.styleHiddenWords) > largestHiddenShare * Double(shown + flattener.styleHiddenWords) {
                var unstyled = DocumentFlattener(
                    documentPath: documentPath, bookLanguage: bookLanguage, neighbours: neighbours, rules: nil)
                unstyled.run(root)
                return unstyled.doc
            }
        }
        return flattener.doc
    }

    /// The rules of the stylesheets `root` applies, in order: each `<link rel="stylesheet">` of its
    /// head (not an alternate stylesheet, nor one for another medium) found in `styles`, and each
    /// `<style>` element. Nil when none hides or floats anything.
    static func documentRules(_ root: MarkupElement, documentPath: String, styles: BookStyles?) -> StyleRules? {
        guard let head = root.firstChild(named: "head") else { return nil }
        var rules = StyleRules()
        for case .element(let element) in head.children {
            if let media = element.value(of: "media"), !StyleRules.mediaApplies(media) { continue }
            switch element.localName {
            case "link":
                let rel = MarkupElement.tokens(element.value(of: "rel") ?? "")
                guard let styles, rel.contains("stylesheet"), !rel.contains("alternate"),
                    let href = element.value(of: "href"), !WebLinks.hasScheme(href)
                else { continue }
                let path = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                if let sheet = styles.rules(forPath: SpokenTextExtractor.resolve(String(path), from: documentPath)) {
                    rules = rules.merged(with: sheet)
                }
            case "style":
                rules = rules.merged(with: StyleRules(css: element.rawText))
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
            let titleText = TextCleaner.normalize(title.rawText)
            doc.title = titleText.isEmpty ? nil : titleText
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
            let titleText = TextCleaner.normalize(title.rawText)
            doc.title = titleText.isEmpty ? nil : titleText
        }
        var seen: Set<String> = []
        walkSVG(root, ctx, depth: 0, seen: &seen)
        flush(ctx)
        emitPendingCapital()
        for id in pendingAnchors where doc.anchors[id] == nil { doc.anchors[id] = doc.blocks.count }
    }

    private mutating func walkSVG(_ element: MarkupElement, _ parent: Context, depth: Int, seen: inout Set<String>) {
        guard depth < 400 else { return }
        let name = element.localName
        if let id = element.idValue { pendingAnchors.append(id) }
        if SVGText.svgSkipped.contains(name) || (depth > 0 && SVGText.isHiddenSVG(element)) { return }
        var ctx = parent
        if let lang = element.languageValue { ctx.language = lang }
        if SVGText.svgTextElements.contains(name) {
            let text = TextCleaner.normalize(SVGText.svgText(element))
            guard !text.isEmpty, !(name == "title" && SVGText.isPageLabel(text)),
                seen.insert(TextFold.fold(text)).inserted
            else { return }
            if name == "title", depth == 1 { ctx.headingLevel = 1 }
            buffer = text
            flush(ctx)
            return
        }
        if name == "switch" {
            // A reading system draws one child of a <switch>: the first whose conditions it meets.
            let chosen = element.elements.first { SVGText.svgConditionsHold($0, language: ctx.language) }
            if let chosen { walkSVG(chosen, ctx, depth: depth + 1, seen: &seen) }
            return
        }
        if name == "foreignobject" {
            // XHTML embedded in the picture: read as in a content document.
            flush(ctx)
            walkChildren(element, ctx, depth: depth)
            flush(ctx)
            return
        }
        for case .element(let child) in element.children { walkSVG(child, ctx, depth: depth + 1, seen: &seen) }
    }

    // MARK: note references

    /// Note targets in this document, and note references out of it (not from a `<nav>`: a page
    /// list's "169" links a page, not a note).
    private mutating func collectNoteTargets(_ root: MarkupElement) {
        var stack: [(MarkupElement, Int, inNavigation: Bool)] = [(root, 0, false)]
        while let (element, depth, inNavigation) = stack.popLast() {
            let name = element.localName
            if name == "a", NoteMarkers.isNoteReference(element), let href = element.value(of: "href"),
                let hash = href.firstIndex(of: "#")
            {
                let path = String(href[..<hash])
                if path.isEmpty || documentPath.hasSuffix(path) {
                    noteTargets.insert(String(href[href.index(after: hash)...]))
                    if let own = element.value(of: "id") ?? element.value(of: "name") { noteReferenceIDs.insert(own) }
                } else if !inNavigation {
                    doc.noteReferencesOut.append(href)
                }
            }
            guard depth < 400 else { continue }
            for case .element(let child) in element.children {
                stack.append((child, depth + 1, inNavigation || name == "nav"))
            }
        }
    }

    // MARK: walking

    /// One element: its id and context, then the element's own handling (an element that is
    /// spoken in a way of its own, else an inline run or a block).
    private mutating func walk(_ element: MarkupElement, _ parent: Context, depth: Int) {
        // The name, its kind, the id and the attribute tokens, looked up once per element.
        let name = element.localName
        let isBlock = Self.blockElements.contains(name)
        let id = element.idValue
        // A block element closes the running block before its id is recorded, so the id points
        // at the block element's own first block.
        if isBlock { flush(parent) }
        if let id { pendingAnchors.append(id) }
        // An HTML 4 named anchor (`<a name="_ftn1">`, Word's notes, old Gutenberg files) is a
        // fragment's target as an id is.
        if id == nil, name == "a", let anchor = element.value(of: "name") { pendingAnchors.append(anchor) }
        let types = element.semanticTypes
        let classes = element.classes
        if Self.skipped.contains(name)
            || (name != "body" && HiddenContent.isHidden(element, types: types, classes: classes))
        {
            return  // SVG titles, ruby readings, scripts, hidden page numbers: never read
        }
        if styleHides(element, name: name, id: id, classes: classes) { return }
        let ctx = context(
            of: element, ElementFacts(name: name, isBlock: isBlock, id: id), types: types, classes: classes,
            parent: parent)
        if walkSpecialElement(element, name: name, ctx, classes: classes, depth: depth) { return }
        if isBlock {
            walkBlock(element, ctx, types: types, classes: classes, parent: parent, depth: depth)
        } else {
            walkInline(element, ctx, parent: parent, depth: depth)
        }
    }

    /// Whether the document's stylesheets hide `element` (its words are counted, for `flatten`'s bound),
    /// and, when they or its own style float it, notes that the running block holds a floated element.
    /// An inline `display` other than `none` shows what a class hid.
    private mutating func styleHides(_ element: MarkupElement, name: String, id: String?, classes: [String]) -> Bool {
        let style = element.value(of: "style")?.lowercased().replacingOccurrences(of: " ", with: "")
        if let style, style.contains("float:left") || style.contains("float:right") { bufferFloated = true }
        guard let rules, name != "body", name != "html", !classes.isEmpty || id != nil else { return false }
        let decision = rules.decide(element: name, id: id, classes: classes)
        if decision.floated { bufferFloated = true }
        guard decision.hidden, !(style?.contains("display:") ?? false) else { return false }
        styleHiddenWords += TextMeasure.wordCount(element.rawText)
        recordAnchorsInside(element)  // a link into hidden text lands on what follows it
        return true
    }

    /// What `walk` has looked up about an element, for the steps after it.
    private struct ElementFacts {
        var name: String
        var isBlock: Bool
        var id: String?
    }

    /// The context below `element`: its language, semantic types, navigation, and the note it is part of.
    private func context(
        of element: MarkupElement, _ facts: ElementFacts, types: [String], classes: [String], parent: Context
    ) -> Context {
        let name = facts.name
        var ctx = parent
        if name == "nav" { ctx.inNavigation = true }
        if name == "section" || name == "article" { ctx.sectionDepth += 1 }
        if let lang = element.languageValue { ctx.language = lang }
        if !types.isEmpty, name != "a", name != "span" { ctx.types += types }
        guard name != "a" else { return ctx }
        // Footnote and endnote bodies: kept apart, not read inline. The innermost note wins, so a
        // list of endnotes gives one note per item. A plain `note` without an id, which no link can
        // reach, is an admonition set off in the text ("Note: keep the lid closed"): read in place.
        let backlinked = facts.isBlock ? noteOpeningWithBacklink(element) : nil
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

    /// The id of the anchor a note reference points at, when `block` opens with it before any
    /// text and it links back to that reference: Word's footnotes (`<p class="MsoFootnoteText"><a
    /// href="#_ftnref1" name="_ftn1">[1]</a> …`) and other notes whose id is on their number, not
    /// on their paragraph. Both links are needed: a page anchor at a paragraph's start
    /// (`<a id="page_12">`) that an index's "12" points at links nowhere back, and stays text.
    private func noteOpeningWithBacklink(_ block: MarkupElement) -> String? {
        var current = block
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

    /// Elements spoken in a way of their own. False when `element` is to be walked as any other element
    /// (a prose table, a link inside a link, a superscript that is text).
    private mutating func walkSpecialElement(
        _ element: MarkupElement, name: String, _ ctx: Context, classes: [String], depth: Int
    ) -> Bool {
        switch name {
        case "br": lineBreak(ctx)
        case "hr":
            flush(ctx)
            appendBlock(kind: .sceneBreak, text: "", ctx: ctx)
        case "img", "image": image(element, ctx)
        case "math": math(element, ctx)
        case "table": return table(element, ctx, depth: depth)
        case "pre": preformatted(element, ctx, classes: classes)
        case "a": return link(element, ctx, depth: depth)
        case "sup": return superscript(element, ctx)
        case "switch", "epub:switch":
            guard name == "epub:switch" || element.namespace == Self.opsNamespace else { return false }
            epubSwitch(element, ctx, depth: depth)
        default: return false
        }
        return true
    }

    /// The namespace of EPUB 3.0's own elements in a content document (`epub:switch`).
    static let opsNamespace = "http://www.idpf.org/2007/ops"

    /// `<epub:switch>`: a reading system draws one child, a `case` whose markup (ChemML, MathML...)
    /// it renders, else the `default` every one can draw. Read once, as a reading system without
    /// the case's markup shows it: the default, or the first case when there is no default.
    private mutating func epubSwitch(_ element: MarkupElement, _ ctx: Context, depth: Int) {
        let children = element.elements
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
    private mutating func image(_ element: MarkupElement, _ ctx: Context) {
        doc.imageCount += 1
        let alt = TextCleaner.normalize(element.value(of: "alt") ?? "")
        if AltText.isDrawnCapital(alt) {
            buffer += alt  // a drop capital: the first letters of the paragraph
            return
        }
        guard buffer.allSatisfy(\.isWhitespace) else { return }
        emitPendingCapital()  // a picture between a capital and a paragraph: they are not one word
        guard AltText.isMeaningfulAlt(alt) else { return }
        if let caption = ctx.figureCaption, AltText.containsWords(caption, TextFold.fold(alt)) { return }
        flush(ctx)
        appendBlock(kind: .notice, text: "Image: \(alt)", ctx: ctx, omitted: .image(alt: alt))
    }

    /// MathML: the author's words for it first; else a simple expression read from its markup.
    private mutating func math(_ element: MarkupElement, _ ctx: Context) {
        let alt =
            element.value(of: "alttext").map(TextCleaner.normalize).flatMap { AltText.isPlaceholderAlt($0) ? nil : $0 }
            ?? MathSpeech.spoken(element, language: ctx.language ?? bookLanguage)
        if element.value(of: "display") == "block" {
            flush(ctx)
            appendBlock(kind: .notice, text: alt ?? "", ctx: ctx, omitted: .math(alt: alt))
        } else if let alt, !alt.isEmpty {
            buffer += " \(alt)"  // the source's own spacing follows: "x squared."
        } else if element.rawText.contains(where: { $0.isLetter || $0.isNumber }) {
            // Too large to follow by ear, or markup not covered.
            buffer += " " + MathSpeech.words(for: ctx.language ?? bookLanguage).equation
        }  // else a mark alone (an end-of-proof square): nothing to say
        recordAnchorsInside(element)
    }

    /// A table: read row by row when it holds words, else a notice with its rows. False for drama
    /// and prose laid out in tables (speaker | speech), which are walked cell by cell.
    private mutating func table(_ element: MarkupElement, _ ctx: Context, depth: Int) -> Bool {
        flush(ctx)
        if TableShape.isProseTable(element, types: ctx.types) { return false }
        if let caption = element.firstChild(named: "caption") {
            var captionContext = ctx
            captionContext.inCaption = true
            walk(caption, captionContext, depth: depth + 1)
            flush(captionContext)
        }
        let cells = TableShape.tableCells(element)
        recordAnchorsInside(element)
        let rows = cells.rows.map { $0.joined(separator: ", ") }
        if TableShape.isWordTable(cells.data.isEmpty ? cells.rows.flatMap { $0 } : cells.data) {
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

    /// `<pre>`: a code listing is read when it reads as language, else announced; other
    /// preformatted text (verse, letters) is read line by line.
    private mutating func preformatted(_ element: MarkupElement, _ ctx: Context, classes: [String]) {
        flush(ctx)
        let isCode =
            element.firstDescendant(where: { $0.localName == "code" || $0.localName == "samp" }) != nil
            || classes.contains(where: { $0.contains("code") || $0.contains("program") || $0.contains("listing") })
        recordAnchorsInside(element)
        let source = element.rawText
        if isCode, !CodeListing.readsAsLanguage(code: source) {
            appendBlock(kind: .notice, text: "Code example omitted.", ctx: ctx, omitted: .code(source))
            return
        }
        for line in source.split(separator: "\n") {
            let lineText = TextCleaner.normalize(String(line))
            if !lineText.isEmpty { appendBlock(kind: ctx.inPoem ? .poemLine : .paragraph, text: lineText, ctx: ctx) }
        }
    }

    /// A link: a note reference is dropped (its words kept when it has some); a link's words are
    /// counted as link words. False for a link inside a link or without a target.
    private mutating func link(_ element: MarkupElement, _ parent: Context, depth: Int) -> Bool {
        var ctx = parent
        if NoteMarkers.isNoteReference(element) {
            if let href = element.value(of: "href") { bufferNoteRefs.append(href) }
            // "...when clicking on <a epub:type='noteref'>this link</a>": the words are part of the sentence.
            if !ctx.inNoteLink, NoteMarkers.hasWordsOfItsOwn(element) {
                ctx.inNoteLink = true
                ctx.inLink = true
                let before = TextMeasure.wordCount(buffer)
                walkChildren(element, ctx, depth: depth)
                while let last = buffer.last, last.isWhitespace || "*†‡".contains(last) { buffer.removeLast() }
                bufferLinkWords += max(0, TextMeasure.wordCount(buffer) - before)
                return true
            }
            recordAnchorsInside(element)
            return true
        }
        if NoteMarkers.isArrowBackLink(element) || (ctx.noteID != nil && NoteMarkers.isBackLink(element)) {
            recordAnchorsInside(element)
            bufferDroppedBackLink = true
            return true
        }
        guard let href = element.value(of: "href"), !ctx.inLink else { return false }
        let target = linkTarget(href)
        if target == .external || target == .media, WebLinks.isIconLink(element) {
            recordAnchorsInside(element)  // "🔊 Listen": a web page's player, not the book's words
            return true
        }
        countLink(target)
        ctx.inLink = true
        let before = TextMeasure.wordCount(buffer)
        walkChildren(element, ctx, depth: depth)
        bufferLinkWords += max(0, TextMeasure.wordCount(buffer) - before)
        if target == .external, WebLinks.isPointerLink(element, href: href) { bufferPointerEnd = buffer.utf8.count }
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
        if WebLinks.hasScheme(href) { return .external }
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

    /// A superscript that marks a note or a citation is dropped (its targets recorded). False for
    /// a superscript that is text: "x<sup>2</sup>", "1<sup>st</sup>".
    private mutating func superscript(_ element: MarkupElement, _ ctx: Context) -> Bool {
        // A superscript holding only a linked marker is a note reference ("<sup><a>1</a></sup>").
        if let only = onlyElementChild(element), only.localName == "a", NoteMarkers.isNoteReference(only) {
            if let href = only.value(of: "href") { bufferNoteRefs.append(href) }
            recordAnchorsInside(element)
            return true
        }
        // A marker inside a note link with words, and citation superscripts: "<sup>14,15</sup>",
        // "<sup>3–5</sup>", "ended.<sup>7</sup>".
        let sup = TextCleaner.normalize(element.rawText)
        guard (ctx.inNoteLink && NoteMarkers.isNoteMarker(sup)) || NoteMarkers.isCitationSuperscript(sup, after: buffer)
        else {
            return false
        }
        var stack: [MarkupElement] = [element]
        while let current = stack.popLast() {
            if current.localName == "a", let href = current.value(of: "href") { bufferNoteRefs.append(href) }
            for case .element(let child) in current.children { stack.append(child) }
        }
        recordAnchorsInside(element)
        return true
    }

    /// An inline element: its text joins the running block, except a passage in another language
    /// (a whole sentence, not a borrowed word), which becomes a block of its own so that it can be
    /// spoken with a voice for that language.
    private mutating func walkInline(_ element: MarkupElement, _ ctx: Context, parent: Context, depth: Int) {
        if let lang = element.languageValue, lang.lowercased() != (parent.language ?? "").lowercased(),
            ctx.headingLevel == nil, TextMeasure.wordCount(element.rawText) >= 3
        {
            flush(parent)
            walkChildren(element, ctx, depth: depth)
            flush(ctx)
            return
        }
        walkChildren(element, ctx, depth: depth)
    }

    /// A block element: close the running block, set the context (heading, list, quote, caption,
    /// poem), walk, close again; a stanza of a poem ends with a stanza break.
    private mutating func walkBlock(
        _ element: MarkupElement, _ blockContext: Context, types: [String], classes: [String], parent: Context,
        depth: Int
    ) {
        let name = element.localName
        var ctx = blockContext
        flush(parent)
        ctx.blockClass = Self.classPath(blockContext.blockClass, element.value(of: "class"))
        if let level = Self.headingLevel(name) { ctx.headingLevel = ctx.headingLevel ?? level }
        if name == "hgroup" { ctx.headingLevel = ctx.headingLevel ?? 1 }
        if name == "li" || name == "dt" || name == "dd" { ctx.inList = true }
        if name == "blockquote" { ctx.inQuote = true }
        if name == "figcaption" || name == "caption" { ctx.inCaption = true }
        if name == "figure", let caption = element.firstDescendant(where: { $0.localName == "figcaption" }) {
            ctx.figureCaption = TextFold.fold(caption.rawText)
        }
        let startsPoem =
            types.contains(where: Self.poemTypes.contains) || classes.contains(where: Self.poemClasses.contains)
        let isStanza =
            ctx.inPoem && !classes.contains(where: { $0.hasPrefix("line") || $0 == "l" })
            && (classes.contains("stanza") || name == "p"
                || (name == "div"
                    && element.children.contains {
                        if case .element(let child) = $0 { Self.blockElements.contains(child.localName) } else { false }
                    }))
        if startsPoem { ctx.inPoem = true }
        walkChildren(element, ctx, depth: depth)
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

    private func onlyElementChild(_ element: MarkupElement) -> MarkupElement? {
        var found: MarkupElement?
        for child in element.children {
            switch child {
            case .text(let text): if !text.allSatisfy(\.isWhitespace) { return nil }
            case .element(let childElement):
                if found != nil { return nil }
                found = childElement
            }
        }
        return found
    }

    private mutating func walkChildren(_ element: MarkupElement, _ ctx: Context, depth: Int) {
        guard depth < 400 else { return }
        for child in element.children {
            switch child {
            case .text(let text): buffer += text
            case .element(let childElement): walk(childElement, ctx, depth: depth + 1)
            }
        }
    }

    /// Ids inside content handled as a whole (tables, math): they point at the current block.
    private mutating func recordAnchorsInside(_ element: MarkupElement) {
        var stack: [MarkupElement] = [element]
        while let current = stack.popLast() {
            if let id = current.idValue { pendingAnchors.append(id) }
            for case .element(let child) in current.children { stack.append(child) }
        }
    }

    private static func headingLevel(_ name: String) -> Int? {
        guard name.count == 2, name.first == "h", let level = name.last?.wholeNumberValue, (1...6).contains(level)
        else {
            return nil
        }
        return level
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
        text = WebLinks.readingAddresses(text)
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
        if SceneBreak.isSceneBreakText(text) {
            appendBlock(kind: .sceneBreak, text: "", ctx: ctx)
            return
        }
        let kind = currentKind(ctx)
        if let capital = pendingCapital, kind == .paragraph, ctx.noteID == capital.ctx.noteID,
            DropCapital.continuesWord(text, after: capital.text, floated: capital.floated)
        {
            pendingCapital = nil
            text = capital.text + text
            pendingAnchors = capital.anchors + pendingAnchors
        }
        if kind == .paragraph, ctx.noteID == nil, DropCapital.isDropCapital(text) {
            emitPendingCapital()
            pendingCapital = (text, ctx, floated, pendingAnchors)
            pendingAnchors = []
            return
        }
        let words = TextMeasure.wordCount(text)
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

    /// The most words of a block that stands for web content left out (`WebLinks.isPointerLink`): "An audio
    /// element has been excluded from this version of the text. You can listen to it online here: …".
    static let longestPointer = 40

    /// Appends the drop capital held back, as a block of its own: what followed did not continue it.
    private mutating func emitPendingCapital() {
        guard let capital = pendingCapital else { return }
        pendingCapital = nil
        let later = pendingAnchors
        pendingAnchors = capital.anchors
        appendBlock(kind: .paragraph, text: capital.text, ctx: capital.ctx)
        pendingAnchors = later
    }

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
                words: omitted == nil ? TextMeasure.wordCount(text) : 0, linkWords: linkWords, noteRefs: noteRefs,
                sectionDepth: ctx.sectionDepth, styleClass: ctx.blockClass))
    }
}
