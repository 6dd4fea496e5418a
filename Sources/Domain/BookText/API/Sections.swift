import Contracts
import EPUBReader
import Markup

/// Where a section sits in the book, as a listener understands it.
public enum SectionRole: String, Sendable, Codable, CaseIterable {
    /// Before the text proper: cover, title page, copyright, contents, dedication, preface...
    case front
    /// The text proper: parts, chapters, prologue, epilogue.
    case body
    /// After the text proper: notes, appendices, index, colophon, licence...
    case back
}

/// What a section is. Body kinds are read by default; the others only when asked for.
public enum SectionKind: String, Sendable, Codable, CaseIterable {
    case cover
    case titlepage
    case halftitle
    case copyright
    /// A publisher's imprint page ("this ebook was produced by...").
    case imprint
    case toc
    case dedication
    case epigraph
    case foreword
    case preface
    case introduction
    case transcriberNotes = "transcriber-notes"
    case dramatisPersonae = "dramatis-personae"
    case advertisement
    case prologue
    case part
    case chapter
    case interlude
    case epilogue
    case afterword
    case acknowledgments
    case appendix
    case notes
    case bibliography
    case glossary
    case index
    case colophon
    case aboutAuthor = "about-author"
    case alsoBy = "also-by"
    case contributors
    case license
    /// List of illustrations.
    case loi
    /// List of tables.
    case lot
    /// Text with no recognisable kind (read when it sits among the chapters).
    case other

    /// Kinds that are the text proper and read by default.
    public static let bodyKinds: Set<SectionKind> = [.prologue, .part, .chapter, .interlude, .epilogue, .other]

    /// Whether the kind belongs to the text proper.
    public var isBody: Bool { Self.bodyKinds.contains(self) }

    /// Where this kind usually sits when its position does not say.
    public var usualRole: SectionRole {
        switch self {
        case .prologue, .part, .chapter, .interlude, .epilogue, .other: .body
        case .afterword, .acknowledgments, .appendix, .notes, .bibliography, .glossary, .index, .colophon,
            .aboutAuthor, .alsoBy, .contributors, .license:
            .back
        default: .front
        }
    }
}

/// A section of the book: what `--list` shows and what becomes one audio file.
///
/// Its JSON form (`--list --json`) has the keys `number`, `title`, `partTitle`, `level`, `href`
/// (a string `path#fragment`), `spine`, `role`, `kind`, `confidence`, `reasons`, `words`, `letters`
/// (by ISO 15924 script code, `{"Latn": 41234}`), `languages` (letters by `xml:lang`, `{"en": 41000, "de": 234}`),
/// `included`.
public struct BookSection: Hashable, Sendable, Codable {
    /// 1-based number in reading order, as `--chapters` selects it.
    public var number: Int
    /// Title for listing and the spoken title: TOC label, else first heading, else the XHTML
    /// `<title>`, else "Section N". Never a file name.
    public var title: String
    /// The label of the enclosing part, book or volume, when the TOC nests this section in one.
    public var partTitle: String?
    /// Depth in the table of contents, 1 for top-level entries (and for sections not in the TOC).
    public var level: Int
    /// Where the section starts.
    public var href: EPUBLink
    /// Every spine item (href) whose content belongs, wholly or partly, to this section, in order.
    public var spine: [String]
    /// Front matter, body or back matter.
    public var role: SectionRole
    /// What the section is (chapter, preface, notes...): decides whether it is read by default.
    public var kind: SectionKind
    /// How sure the classifier is of `role` and `kind`, 0...1.
    public var confidence: Double
    /// Human-readable evidence behind the decision, strongest first.
    public var reasons: [String]
    /// Words of spoken text (with the default spoken-text options).
    public var words: Int
    /// The letters of the same text by script: what a voice must be able to speak, and what the
    /// length of text read by the character (Chinese, Japanese, Korean) is estimated from.
    public var letters: ScriptCensus
    /// The letters of the same text by the language its markup declares (`xml:lang`, lower case): what a
    /// voice of one language (a neural voice) leaves to other voices. Blocks declaring none are not counted.
    public var languages: [String: Int]
    /// Whether the section is read by default under the options it was indexed with.
    public var included: Bool
    /// First block of the section.
    public var start: SourcePosition
    /// First block after the section (the next section's start, or the end of the book).
    public var end: SourcePosition

    /// A section; the indexer makes them, tests build them directly.
    public init(
        number: Int, title: String, partTitle: String? = nil, level: Int = 1, href: EPUBLink, spine: [String],
        role: SectionRole, kind: SectionKind, confidence: Double = 1, reasons: [String] = [], words: Int = 0,
        letters: ScriptCensus = ScriptCensus(), languages: [String: Int] = [:], included: Bool, start: SourcePosition,
        end: SourcePosition
    ) {
        self.number = number
        self.title = title
        self.partTitle = partTitle
        self.level = level
        self.href = href
        self.spine = spine
        self.role = role
        self.kind = kind
        self.confidence = confidence
        self.reasons = reasons
        self.words = words
        self.letters = letters
        self.languages = languages
        self.included = included
        self.start = start
        self.end = end
    }

    enum CodingKeys: String, CodingKey {
        case number, title, partTitle, level, href, spine, role, kind, confidence, reasons, words, letters, included
        case start, end, languages
    }

    /// Decodes a section as `--list --json` writes it; missing optional keys take their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        title = try container.decode(String.self, forKey: .title)
        partTitle = try container.decodeIfPresent(String.self, forKey: .partTitle)
        level = try container.decodeIfPresent(Int.self, forKey: .level) ?? 1
        let hrefString = try container.decode(String.self, forKey: .href)
        href = EPUBLink(string: hrefString)
        spine = try container.decodeIfPresent([String].self, forKey: .spine) ?? [href.path]
        role = try container.decodeIfPresent(SectionRole.self, forKey: .role) ?? .body
        kind = try container.decodeIfPresent(SectionKind.self, forKey: .kind) ?? .chapter
        confidence = try container.decodeIfPresent(Double.self, forKey: .confidence) ?? 1
        reasons = try container.decodeIfPresent([String].self, forKey: .reasons) ?? []
        words = try container.decodeIfPresent(Int.self, forKey: .words) ?? 0
        letters = try container.decodeIfPresent(ScriptCensus.self, forKey: .letters) ?? ScriptCensus()
        languages = try container.decodeIfPresent([String: Int].self, forKey: .languages) ?? [:]
        included = try container.decodeIfPresent(Bool.self, forKey: .included) ?? (role == .body)
        start =
            try container.decodeIfPresent(SourcePosition.self, forKey: .start)
            ?? SourcePosition(spineIndex: 0, blockIndex: 0)
        end = try container.decodeIfPresent(SourcePosition.self, forKey: .end) ?? start
    }

    /// Encodes the section as `--list --json` shows it (a stable contract: keys are added, never renamed).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(title, forKey: .title)
        try container.encodeIfPresent(partTitle, forKey: .partTitle)
        try container.encode(level, forKey: .level)
        try container.encode(href.description, forKey: .href)
        try container.encode(spine, forKey: .spine)
        try container.encode(role, forKey: .role)
        try container.encode(kind, forKey: .kind)
        try container.encode((confidence * 100).rounded() / 100, forKey: .confidence)
        try container.encode(reasons, forKey: .reasons)
        try container.encode(words, forKey: .words)
        try container.encode(letters, forKey: .letters)
        try container.encode(languages, forKey: .languages)
        try container.encode(included, forKey: .included)
        try container.encode(start, forKey: .start)
        try container.encode(end, forKey: .end)
    }
}

extension EPUBLink {
    /// Parses `path#fragment` as written in `BookSection`'s JSON (no percent-decoding).
    public init(string: String) {
        if let hash = string.firstIndex(of: "#") {
            let fragment = String(string[string.index(after: hash)...])
            self.init(path: String(string[..<hash]), fragment: fragment.isEmpty ? nil : fragment)
        } else {
            self.init(path: string)
        }
    }
}

/// Which sections to cut and which to read.
public struct SectionOptions: Hashable, Sendable, Codable {
    /// Depth of the table of contents that makes sections: nil picks the chapter level (leaves,
    /// except that a chapter's sub-sections inside its own file or titled as sections stay in it);
    /// 1 makes only top-level entries sections, 2 adds their children, and so on.
    public var tocDepth: Int?
    /// Non-body kinds to read as well (`preface`, `appendix`, ...).
    public var include: Set<SectionKind>
    /// Read every section, whatever its kind.
    public var includeAll: Bool

    /// Options; the defaults cut at the chapter level and read the body only.
    public init(tocDepth: Int? = nil, include: Set<SectionKind> = [], includeAll: Bool = false) {
        self.tocDepth = tocDepth
        self.include = include
        self.includeAll = includeAll
    }

    /// Whether a section of this kind and role is read.
    public func includes(kind: SectionKind, role: SectionRole) -> Bool {
        includeAll || include.contains(kind) || (role == .body && kind.isBody)
    }
}

/// The sections of a book in reading order, with what went wrong while cutting them.
public struct SectionIndex: Sendable {
    /// The sections in reading order.
    public var sections: [BookSection]
    /// Problems worked around (TOC links outside the spine, a useless TOC replaced by headings...).
    public var warnings: [EPUBWarning]
    /// The language the content documents holding most of the words read declare, when it is not
    /// the book's `dc:language` (a book whose metadata says `en` and whose documents all say
    /// `lang="it"`, as some converters write it): what the text is read in. Nil when they agree,
    /// or when most of those words are in documents that declare no language.
    public var textLanguage: String?
    /// Spine documents that could not be read (not well-formed beyond repair, unreadable in the
    /// container): their text is in no section, and a warning names each.
    public var unreadableDocuments = 0

    /// An index of `sections` with the problems met while cutting them.
    public init(sections: [BookSection], warnings: [EPUBWarning] = [], textLanguage: String? = nil) {
        self.sections = sections
        self.warnings = warnings
        self.textLanguage = textLanguage
    }

    /// Sections read under the options the index was built with.
    public var includedSections: [BookSection] { sections.filter(\.included) }
}

/// Where the indexer and the text extractor read a book from: an open `EPUBBook`, or memory in tests.
public protocol BookContent {
    /// The book's package: metadata, spine, TOC, landmarks.
    var package: EPUBPackage { get }
    /// The parsed content document at `href` (a path relative to the package folder).
    func document(forHref href: String) throws -> MarkupDocument
    /// The content document at `href`, read now and parsed by `DocumentSource.parse`, which may run
    /// on any thread: the indexer reads the container one document at a time and parses in
    /// parallel. The document may keep only `MarkupElement.attributesRead`. The default parses
    /// at once.
    func documentSource(forHref href: String) throws -> DocumentSource
    /// The bytes of another file of the book at `href` (a stylesheet: `BookStyles`). The default
    /// has none: it throws `EPUBError.resourceNotFound`.
    func data(forHref href: String) throws -> [UInt8]
}

extension BookContent {
    /// The document at `href`, parsed when the source is asked (here already parsed: a content that
    /// can parse on another thread overrides this).
    public func documentSource(forHref href: String) throws -> DocumentSource {
        let document = try document(forHref: href)
        return DocumentSource { document }
    }

    /// No resource bytes by default (a content made of parsed documents only): every href is not found.
    public func data(forHref href: String) throws -> [UInt8] {
        throw EPUBError.resourceNotFound(href: href)
    }
}

/// A content document whose bytes are read and whose parse can run on another thread.
public struct DocumentSource: Sendable {
    private let make: @Sendable () throws -> MarkupDocument

    /// A source that runs `parse` each time the document is asked for.
    public init(parse: @escaping @Sendable () throws -> MarkupDocument) {
        make = parse
    }

    /// Parses the document (XHTML, falling back to HTML for broken markup).
    public func parse() throws -> MarkupDocument { try make() }
}

/// Errors of the book-text layer.
public enum BookTextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The book's spine has no item to read.
    case emptySpine
    /// A chapter selection could not be parsed.
    case invalidChapterSelection(String, reason: String)
    /// A chapter selection names sections the book does not have.
    case chapterOutOfRange(Int, count: Int)

    /// A readable sentence naming what could not be read and why.
    public var description: String {
        switch self {
        case .emptySpine: "the book's spine has no content document to read"
        case .invalidChapterSelection(let part, let reason): "invalid chapter selection \"\(part)\": \(reason)"
        case .chapterOutOfRange(let number, let count):
            "section \(number) does not exist: the book has \(Counts.of(count, "section"))"
        }
    }
}

/// An open EPUB is the usual source of content.
extension EPUBBook: BookContent {
    /// The bytes now (the ZIP archive is read by one thread at a time), the parse later, keeping
    /// only the attributes the text is read from.
    public func documentSource(forHref href: String) throws -> DocumentSource {
        let bytes = try data(forHref: href)
        let name = ContainerPath.resolve(href, against: package.packageDirectory) ?? href
        return DocumentSource {
            try EPUBBook.parseDocument(bytes, name: name, attributes: MarkupElement.attributesRead)
        }
    }
}
