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
        return TextMeasure.characterCount(text, atMost: 400) < 400  // stops counting: a long block is long
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
