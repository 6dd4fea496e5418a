import Contracts
import EPUBReader
import Foundation
import Markup

/// What the spoken text keeps of content that does not read well aloud.
public struct SpokenTextOptions: Hashable, Sendable, Codable {
    /// Where footnotes and endnotes go.
    public enum Notes: String, Sendable, Codable, CaseIterable {
        /// Not read (the default): note references are removed, note bodies skipped.
        case skip
        /// The notes a section refers to are read at its end, as `.note` blocks.
        case end
    }

    /// How a kind of content that does not read well aloud is handled.
    public enum Omission: String, Sendable, Codable, CaseIterable {
        /// A short notice ("Table omitted.", "Image: a lighthouse", the equation's alt text).
        case notice
        /// Nothing at all.
        case skip
        /// Read in full (table rows one by one, code verbatim); images and equations as with `notice`.
        case read
    }

    /// Where footnotes and endnotes go (`--notes`).
    public var notes: Notes
    /// Tables: a notice by default.
    public var tables: Omission
    /// Code listings: a notice by default.
    public var code: Omission
    /// Images: their alt text, after `imagePrefix`, by default.
    public var images: Omission
    /// Equations: their alt text, else `equationNotice`, by default.
    public var math: Omission
    /// Spoken for an omitted table; nil (the default): "Table omitted." in the language the notice
    /// is read in (`NoticeWording`).
    public var tableNotice: String?
    /// Spoken for an omitted code listing; nil: "Code example omitted." in the notice's language.
    public var codeNotice: String?
    /// Spoken for an equation without alternative text; nil: "Equation omitted." in the notice's language.
    public var equationNotice: String?
    /// Put before an image's alt text; nil: "Image: " in the notice's language.
    public var imagePrefix: String?
    /// The language the book is read in, when not its `dc:language` (whose text contradicts it): blocks
    /// are marked with their language when it differs from this one.
    public var language: String?

    /// Options; the defaults skip notes and replace tables and code with a short notice.
    public init(
        notes: Notes = .skip, tables: Omission = .notice, code: Omission = .notice, images: Omission = .notice,
        math: Omission = .notice, tableNotice: String? = nil, codeNotice: String? = nil, equationNotice: String? = nil,
        imagePrefix: String? = nil
    ) {
        self.notes = notes
        self.tables = tables
        self.code = code
        self.images = images
        self.math = math
        self.tableNotice = tableNotice
        self.codeNotice = codeNotice
        self.equationNotice = equationNotice
        self.imagePrefix = imagePrefix
    }
}

/// Turns a section into the blocks a speech engine reads.
///
/// The first block is the section's title (`.title`); a leading heading that repeats it is not
/// read twice. The title's `source` is that heading's position, else block -1 of the section's
/// first spine item: every block of a section has a position of its own. Its `language` is that of
/// the heading it stands for, else of the section's first block (nil when the book's). Note references, in-text citations, page-break markers, hidden content, scripts and
/// styles are never spoken; footnote and endnote bodies only with `notes: .end`.
public enum SpokenTextExtractor {
    /// The blocks of `section`, in reading order.
    ///
    /// Throws when a content document of the section cannot be read (the indexer only warned).
    /// A caller that extracts many sections of one book passes `spinePaths` and `styles`, built once
    /// for the book; without them the lookup is built by the call that needs it (one that reads
    /// notes) and the stylesheets are read by each call.
    public static func blocks(
        for section: BookSection, in book: some BookContent, options: SpokenTextOptions = SpokenTextOptions(),
        spinePaths: SpinePaths? = nil, styles: BookStyles? = nil
    ) throws -> [SpokenBlock] {
        var cache = DocumentCache(
            book: book, paths: spinePaths, language: options.language, styles: styles ?? BookStyles(book))
        return try blocks(for: section, cache: &cache, options: options)
    }

    static func blocks(
        for section: BookSection, cache: inout DocumentCache<some BookContent>, options: SpokenTextOptions
    )
        throws -> [SpokenBlock]
    {
        let package = cache.book.package
        let bookLanguage = (options.language ?? package.metadata.languages.first)?.lowercased()
        func language(_ tag: String?) -> String? {
            guard let tag, !tag.isEmpty, tag.lowercased() != bookLanguage else { return nil }
            return tag
        }
        var body: [SpokenBlock] = []
        var noteRefs: [(path: String, href: String)] = []
        var leadingHeadings: [SourcePosition] = []
        var pendingHeadings: [(SourcePosition, RawBlock)] = []
        // The title is read in the language of the heading it stands for, else of the section's first
        // block: "Kapitel IV" over a German chapter of an English book is German ("Kapitel vier").
        var leadingLanguage: String?
        var firstLanguage: String?
        var sawFirstBlock = false
        var wordsRead = 0  // counted up to `titleRepeatWindow`
        let foldedTitle = TextFold.fold(section.title)
        // A notes section that is read (asked for with --include or --chapters) reads its notes:
        // they are its text. Elsewhere note bodies are never read in the middle of the text.
        let readsNoteBodies = section.kind == .notes
        var spineIndex = section.start.spineIndex
        while spineIndex < package.spine.count, spineIndex <= section.end.spineIndex {
            let from = spineIndex == section.start.spineIndex ? section.start.blockIndex : 0
            if spineIndex == section.end.spineIndex, section.end.blockIndex == 0 { break }
            var doc = try cache.flat(spineIndex: spineIndex)
            let to =
                spineIndex == section.end.spineIndex ? min(section.end.blockIndex, doc.blocks.count) : doc.blocks.count
            if from < to, let inferred = Self.inferredLanguage(of: doc, bookLanguage: bookLanguage) {
                for blockIndex in doc.blocks.indices where doc.blocks[blockIndex].language == nil {
                    doc.blocks[blockIndex].language = inferred
                }
            }
            if from < to {
                for blockIndex in from..<to {
                    let block = doc.blocks[blockIndex]
                    if !sawFirstBlock {
                        sawFirstBlock = true
                        firstLanguage = block.language ?? doc.language
                    }
                    guard block.noteID == nil || readsNoteBodies else { continue }
                    let source = SourcePosition(spineIndex: spineIndex, blockIndex: blockIndex)
                    noteRefs += block.noteRefs.map { (package.spine[spineIndex].href, $0) }
                    // Headings at the very start that repeat the title are the title ("Chapter One" +
                    // "The Lever" under the title "1. The Lever"): they are not read twice.
                    if pendingHeadings.count + leadingHeadings.count < 3, body.isEmpty, block.kind == .heading,
                        !foldedTitle.isEmpty
                    {
                        pendingHeadings.append((source, block))
                        if foldedTitle.contains(TextFold.fold(block.text)) {
                            if leadingHeadings.isEmpty { leadingLanguage = pendingHeadings.first?.1.language }
                            leadingHeadings += pendingHeadings.map(\.0)
                            pendingHeadings.removeAll()
                        }
                        continue
                    }
                    // A chapter title written as a paragraph ("Toinen runo", found as a heading line)
                    // opens the section with exactly the title's words: it is the title too.
                    if body.isEmpty, pendingHeadings.isEmpty, leadingHeadings.isEmpty, block.kind == .paragraph,
                        !foldedTitle.isEmpty, TextFold.fold(block.text) == foldedTitle
                    {
                        leadingHeadings.append(source)
                        leadingLanguage = block.language
                        continue
                    }
                    // The rest of the title under the heading that began it ("II", then "The Storm" as
                    // a paragraph, under the title "II. The Storm") is the title too.
                    if body.isEmpty, pendingHeadings.isEmpty, !leadingHeadings.isEmpty, block.kind == .paragraph,
                        Self.continuesTitle(block.text, foldedTitle)
                    {
                        leadingHeadings.append(source)
                        continue
                    }
                    // A heading a few lines in that says the whole title again (an editor's note, then
                    // the story's own title, under a TOC label naming both) was heard as the title.
                    if block.kind == .heading, pendingHeadings.isEmpty, wordsRead <= Self.titleRepeatWindow,
                        Self.repeatsTitleInFull(block.text, foldedTitle)
                    {
                        continue
                    }
                    // A title drawn as a picture (a poem's name set as an image, its words in `alt`)
                    // says what the title just said: "Image: Stone Fence" after "Stone Fence" is
                    // not read.
                    if body.isEmpty, case .image(let alt) = block.omitted, Self.repeatsTitle(alt, foldedTitle) {
                        continue
                    }
                    for (pendingSource, pending) in pendingHeadings {
                        body += spoken(
                            pending, source: pendingSource, options: options, language: language(pending.language),
                            bookLanguage: bookLanguage)
                    }
                    pendingHeadings.removeAll()
                    var blocks = spoken(
                        block, source: source, options: options, language: language(block.language),
                        bookLanguage: bookLanguage)
                    // A note's number dropped as a marker leaves what punctuated it ("1. Strictly" →
                    // ". Strictly"): a lone "." or ")" before a space opens no sentence (an ellipsis does).
                    for index in blocks.indices {
                        let text = blocks[index].text
                        if let first = text.first, first == "." || first == ")",
                            text.dropFirst().first?.isWhitespace == true
                        {
                            blocks[index].text = String(text.dropFirst().drop { $0.isWhitespace })
                        }
                    }
                    if wordsRead <= Self.titleRepeatWindow {
                        wordsRead += blocks.reduce(0) { $0 + TextMeasure.wordCount($1.text) }
                    }
                    body += blocks
                }
            }
            spineIndex += 1
        }
        for (pendingSource, pending) in pendingHeadings {
            body += spoken(
                pending, source: pendingSource, options: options, language: language(pending.language),
                bookLanguage: bookLanguage)
        }
        // The title takes the place of the headings it repeats; without one, a position of its own
        // (block -1 of the section's first spine item), so no two blocks of a section share one.
        let titleSource =
            leadingHeadings.first ?? SourcePosition(spineIndex: section.start.spineIndex, blockIndex: -1)
        let titleLanguage = language(leadingHeadings.isEmpty ? firstLanguage : leadingLanguage)
        var out: [SpokenBlock] = []
        if !Self.opensWithCutTitle(body, title: section.title) {
            out.append(
                SpokenBlock(
                    kind: .title, text: TextCleaner.normalize(section.title), language: titleLanguage,
                    source: titleSource))
        }
        out += body
        if options.notes == .end {
            out += try notes(noteRefs, cache: &cache, options: options, language: language)
        }
        return out
    }

    /// How far into a section (words read) a heading that repeats the whole title is dropped.
    static let titleRepeatWindow = 400

    /// Whether a heading of three words or more says what the title says: it stands within the
    /// title and holds most of its letters ("THE KING OF THE GOLDEN RIVER" under "204 The King of
    /// the Golden River"; not "The Golden River", a part of it).
    static func repeatsTitleInFull(_ heading: String, _ foldedTitle: String) -> Bool {
        let folded = TextFold.fold(heading)
        guard folded.split(separator: " ").count >= 3, " \(foldedTitle) ".contains(" \(folded) ") else { return false }
        return 5 * folded.count(where: \.isLetter) >= 4 * foldedTitle.count(where: \.isLetter)
    }

    /// The most words of a title's rest set as a paragraph under its heading.
    static let longestTitleRest = 12

    /// Whether a short paragraph's words stand in the title as whole words (`foldedTitle` is folded).
    static func continuesTitle(_ text: String, _ foldedTitle: String) -> Bool {
        let folded = TextFold.fold(text)
        guard folded.count >= 2, TextMeasure.wordCount(text) <= longestTitleRest else { return false }
        return " \(foldedTitle) ".contains(" \(folded) ")
    }

    /// Whether the section's title is its first block's opening, cut short ("There are several
    /// editions of this ebook…" for a TOC label that is a whole paragraph): the block says it all,
    /// and announced first, its opening would be heard twice.
    static func opensWithCutTitle(_ body: [SpokenBlock], title: String) -> Bool {
        guard title.hasSuffix("…"), let first = body.first else { return false }
        let cut = TextFold.fold(String(title.dropLast()))
        return !cut.isEmpty && TextFold.fold(first.text).hasPrefix(cut)
    }

    /// Whether an image's description says what the section's title says: the same words, or two
    /// or more of the title's words in a row ("Stone Fence" under "I. Stone Fence"). One word is
    /// not enough: a drop capital's "A" under "A Late Harvest" is the first word of the text.
    /// `foldedTitle` is folded (`TextFold.fold`).
    static func repeatsTitle(_ alt: String, _ foldedTitle: String) -> Bool {
        let folded = TextFold.fold(alt)
        guard !folded.isEmpty, !foldedTitle.isEmpty else { return false }
        if folded == foldedTitle { return true }
        return folded.contains(" ") && " \(foldedTitle) ".contains(" \(folded) ")
    }

    /// Words of a content document's text the language check reads, and the fewest it decides on.
    static let languageSampleWords = 400
    static let fewestWordsForLanguage = 100
    /// How sure the detector must be (`DetectedLanguage.confidence`) before one document's text
    /// overrides the book's language: more than for the whole book, since a document is a small
    /// sample (dialect verse can look like another language's stop words).
    static let documentLanguageConfidence = 0.85

    /// The language of a content document that declares none, when its text plainly contradicts the
    /// language the book is read in (`LanguageDetector.contradicts`): the German chapter of an English
    /// book written without `xml:lang`. Nil otherwise: a document that declares its language, or whose
    /// text agrees or is too short to tell, follows the book.
    static func inferredLanguage(of doc: FlatDocument, bookLanguage: String?) -> String? {
        guard doc.language == nil, let bookLanguage, !bookLanguage.isEmpty else { return nil }
        var text = ""
        var words = 0
        for block in doc.blocks where block.noteID == nil && block.language == nil && !block.text.isEmpty {
            text += block.text + "\n"
            words += block.words
            if words >= languageSampleWords { break }
        }
        guard words >= fewestWordsForLanguage, let detected = LanguageDetector.detect(text),
            detected.confidence >= documentLanguageConfidence,
            LanguageDetector.contradicts(declared: bookLanguage, detected: detected)
        else { return nil }
        return detected.language
    }

    /// The text to speak for one raw block under the options (none, one or several blocks).
    /// `language` is the block's when it is not the book's (`bookLanguage`), else nil; a notice is
    /// worded in the language it is read in.
    static func spoken(
        _ rawBlock: RawBlock, source: SourcePosition, options: SpokenTextOptions, language: String?,
        bookLanguage: String?
    ) -> [SpokenBlock] {
        func block(_ kind: BlockKind, _ text: String) -> SpokenBlock {
            SpokenBlock(kind: kind, text: text, language: language, source: source)
        }
        var wording: NoticeWording { NoticeWording.of(language ?? bookLanguage) }
        guard let omitted = rawBlock.omitted else {
            if rawBlock.kind == .sceneBreak || rawBlock.kind == .stanzaBreak { return [block(rawBlock.kind, "")] }
            return rawBlock.text.isEmpty ? [] : [block(rawBlock.kind, rawBlock.text)]
        }
        switch omitted {
        case .table(let rows):
            switch options.tables {
            case .notice: return [block(.notice, options.tableNotice ?? wording.table)]
            case .skip: return []
            case .read: return rows.map { block(.paragraph, CitationFilter.removeCitations(from: $0)) }
            }
        case .code(let code):
            switch options.code {
            case .notice: return [block(.notice, options.codeNotice ?? wording.code)]
            case .skip: return []
            case .read:
                return code.split(separator: "\n").map { TextCleaner.normalize(String($0)) }.filter { !$0.isEmpty }
                    .map { block(.paragraph, $0) }
            }
        case .math(let alt):
            if options.math == .skip { return [] }
            let notice = options.equationNotice ?? wording.equation
            return [block(.notice, alt.map { $0.isEmpty ? notice : $0 } ?? notice)]
        case .image(let alt):
            if options.images == .skip { return [] }
            return [block(.notice, (options.imagePrefix ?? wording.imagePrefix) + alt)]
        case .navigation, .clutter:
            return []
        }
    }

    /// The notes referred to, in the order of their references, each once.
    private static func notes(
        _ refs: [(path: String, href: String)], cache: inout DocumentCache<some BookContent>,
        options: SpokenTextOptions,
        language: (String?) -> String?
    ) throws -> [SpokenBlock] {
        var out: [SpokenBlock] = []
        var seen: Set<String> = []
        for ref in refs {
            guard let hash = ref.href.firstIndex(of: "#") else { continue }
            let fragment = String(ref.href[ref.href.index(after: hash)...])
            let relative = String(ref.href[..<hash])
            let path = relative.isEmpty ? ref.path : resolve(relative, from: ref.path)
            guard let spineIndex = cache.spineIndex(of: path), !seen.contains("\(spineIndex)#\(fragment)") else {
                continue
            }
            seen.insert("\(spineIndex)#\(fragment)")
            let doc = try cache.flat(spineIndex: spineIndex)
            guard let blockIndex = doc.anchors[fragment], blockIndex < doc.blocks.count,
                let noteID = doc.blocks[blockIndex].noteID
            else {
                continue
            }
            var index = blockIndex
            var first = true
            while index < doc.blocks.count, doc.blocks[index].noteID == noteID {
                let block = doc.blocks[index]
                var text = block.text
                if first { text = stripLeadingMarker(text) }
                if !text.isEmpty {
                    out.append(
                        SpokenBlock(
                            kind: .note, text: text, language: language(block.language),
                            source: SourcePosition(spineIndex: spineIndex, blockIndex: index)))
                }
                first = false
                index += 1
            }
        }
        return out
    }

    /// "1. Text" / "[1] Text" / "* Text" → "Text".
    static func stripLeadingMarker(_ text: String) -> String {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return text }
        var marker = String(parts[0])
        while let last = marker.last, ".):".contains(last) { marker.removeLast() }
        return NoteMarkers.isNoteMarker(marker) ? String(parts[1]) : text
    }

    /// Resolves a relative href against the document it appears in (both relative to the package folder).
    static func resolve(_ href: String, from documentPath: String) -> String {
        let decoded = href.removingPercentEncoding ?? href
        var parts = documentPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)
        for piece in decoded.split(separator: "/", omittingEmptySubsequences: false) {
            switch piece {
            case ".", "": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(String(piece))
            }
        }
        return parts.joined(separator: "/")
    }

    /// Blocks as plain text (`--text`): a blank line between blocks, verse lines together,
    /// scene breaks as "* * *".
    public static func plainText(_ blocks: [SpokenBlock]) -> String {
        var out = ""
        var previous: BlockKind?
        for block in blocks {
            switch block.kind {
            case .sceneBreak:
                out += out.isEmpty ? "" : "\n"
                out += "* * *\n"
            case .stanzaBreak:
                break
            case .poemLine:
                if previous != .poemLine, !out.isEmpty { out += "\n" }
                out += block.text + "\n"
            default:
                if !out.isEmpty { out += "\n" }
                out += block.text + "\n"
            }
            previous = block.kind == .stanzaBreak ? nil : block.kind
        }
        return out
    }
}

/// The spine index of each content document, by path: build it once per book and pass it to every
/// `SpokenTextExtractor.blocks` call (built per call, it made each section cost O(spine): about 9 ms
/// a section on a book of 10,000 spine items).
public struct SpinePaths: Sendable {
    private var exact: [String: Int] = [:]
    private var folded: [String: Int] = [:]

    /// The paths of `package`'s spine; the first item wins when two share a path.
    public init(_ package: EPUBPackage) {
        for item in package.spine {
            if exact[item.href] == nil { exact[item.href] = item.index }
            let key = item.href.lowercased()
            if folded[key] == nil { folded[key] = item.index }
        }
    }

    /// The spine index of the document at `path`, else of the first one whose path differs only in case.
    public func spineIndex(of path: String) -> Int? {
        exact[path] ?? folded[path.lowercased()]
    }
}

/// Parsed and flattened documents of one book, by spine index.
struct DocumentCache<Book: BookContent> {
    let book: Book
    private var flats: [Int: FlatDocument] = [:]
    /// Built on first use when not given: most sections never look a path up.
    private var paths: SpinePaths?
    /// The language text that declares none is read in: `SpokenTextOptions.language`, else the
    /// book's `dc:language`.
    private let language: String?
    /// The book's stylesheets.
    private let styles: BookStyles

    init(book: Book, paths: SpinePaths? = nil, language: String? = nil, styles: BookStyles = BookStyles()) {
        self.book = book
        self.paths = paths
        self.language = language ?? book.package.metadata.languages.first
        self.styles = styles
    }

    mutating func spineIndex(of path: String) -> Int? {
        if paths == nil { paths = SpinePaths(book.package) }
        return paths?.spineIndex(of: path)
    }

    mutating func flat(spineIndex: Int) throws -> FlatDocument {
        if let document = flats[spineIndex] { return document }
        let href = book.package.spine[spineIndex].href
        let root = try book.documentSource(forHref: href).parse().root
        let document = DocumentFlattener.flatten(
            root, documentPath: href, bookLanguage: language,
            neighbours: SectionIndexer.neighbours(of: spineIndex, in: book.package.spine), styles: styles)
        flats[spineIndex] = document
        return document
    }
}
