/// A place in the book: a path relative to the package document's folder, percent-decoded, and
/// an optional fragment (`text/chapter-1.xhtml#start`).
public struct EPUBLink: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Percent-decoded path relative to the package document's folder.
    public var path: String
    /// The fragment identifier without `#`, nil when the link points at the whole file.
    public var fragment: String?

    /// A link to `path` (inside the container), with an optional `#fragment`.
    public init(path: String, fragment: String? = nil) {
        self.path = path
        self.fragment = fragment
    }

    /// `path#fragment`, or `path` alone.
    public var description: String { fragment.map { "\(path)#\($0)" } ?? path }
}

/// A person credited in the metadata (`dc:creator`, `dc:contributor`).
public struct EPUBCreator: Hashable, Sendable, Codable {
    /// The name as written in the metadata.
    public var name: String
    /// MARC relator code (`aut`, `trl`, `ill`, ...) when given.
    public var role: String?
    /// Sort form (`Melville, Herman`) when given.
    public var fileAs: String?

    /// A creator or contributor.
    public init(name: String, role: String? = nil, fileAs: String? = nil) {
        self.name = name
        self.role = role
        self.fileAs = fileAs
    }
}

/// The package document's metadata.
public struct EPUBMetadata: Hashable, Sendable, Codable {
    /// All `dc:title`s in document order; `title` is the main one.
    public var titles: [String]
    /// The main title (the one refined as `main`, else the first), whitespace cleaned.
    public var title: String?
    /// Creators in document order (`dc:creator`).
    public var creators: [EPUBCreator]
    /// Contributors (`dc:contributor`).
    public var contributors: [EPUBCreator]
    /// `dc:language` values, BCP 47 as written.
    public var languages: [String]
    /// The unique identifier (the one named by `unique-identifier`, else the first `dc:identifier`).
    public var identifier: String?
    /// `dc:publisher`.
    public var publisher: String?
    /// `dc:date`, as written.
    public var date: String?
    /// `dc:description`: its text (elements inside it apart by a space), whitespace collapsed. Markup
    /// written escaped in the text (`&lt;p&gt;`) is still there: `descriptionText` has none.
    public var description: String?
    /// Path of the cover image relative to the package folder (EPUB 3 `cover-image`, EPUB 2 `meta name="cover"`).
    public var coverImage: String?

    /// Metadata; parsers fill it from the package document.
    public init(
        titles: [String] = [], title: String? = nil, creators: [EPUBCreator] = [], contributors: [EPUBCreator] = [],
        languages: [String] = [], identifier: String? = nil, publisher: String? = nil, date: String? = nil,
        description: String? = nil, coverImage: String? = nil
    ) {
        self.titles = titles
        self.title = title
        self.creators = creators
        self.contributors = contributors
        self.languages = languages
        self.identifier = identifier
        self.publisher = publisher
        self.date = date
        self.description = description
        self.coverImage = coverImage
    }

    /// Authors: creators whose role is `aut` or unspecified, but for the placeholder a converter
    /// writes when it knows none (calibre's "Unknown"): shown under the title and put in every
    /// file's tags, it named nobody.
    public var authors: [String] {
        creators.filter {
            ($0.role == nil || $0.role == "aut") && !Self.placeholderAuthors.contains($0.name.lowercased())
        }
        .map(\.name)
    }

    /// Author names that stand for no author (lower case).
    static let placeholderAuthors: Set<String> = ["unknown", "unknown author", "inconnu", "unbekannt", "desconocido"]
}

/// An item of the manifest.
public struct ManifestItem: Hashable, Sendable, Codable {
    /// The item's `id`, unique in the manifest.
    public var id: String
    /// Percent-decoded path relative to the package folder.
    public var href: String
    /// The item's declared media type (`application/xhtml+xml`...).
    public var mediaType: String
    /// EPUB 3 `properties` (`nav`, `cover-image`, `scripted`, ...).
    public var properties: [String]
    /// `fallback` item id, if any.
    public var fallback: String?

    /// A manifest item.
    public init(id: String, href: String, mediaType: String, properties: [String] = [], fallback: String? = nil) {
        self.id = id
        self.href = href
        self.mediaType = mediaType
        self.properties = properties
        self.fallback = fallback
    }
}

/// An item of the spine, in reading order, after fallbacks were followed and repeats dropped.
public struct SpineItem: Hashable, Sendable, Codable {
    /// Position in the spine as read (0-based, after repeats were dropped).
    public var index: Int
    /// The manifest item whose content is read (the end of the fallback chain when one was followed).
    public var item: ManifestItem
    /// `linear="no"` makes this false.
    public var linear: Bool
    /// itemref `properties` (`page-spread-left`, ...).
    public var properties: [String]

    /// A spine entry: the manifest item read at position `index`.
    public init(index: Int, item: ManifestItem, linear: Bool = true, properties: [String] = []) {
        self.index = index
        self.item = item
        self.linear = linear
        self.properties = properties
    }

    /// Path relative to the package folder.
    public var href: String { item.href }
}

/// A reference of the OPF 2 `<guide>` or an EPUB 3 landmark.
public struct EPUBLandmark: Hashable, Sendable, Codable {
    /// Guide `type` or landmark `epub:type` (`cover`, `toc`, `bodymatter`, `text`, `copyright-page`, ...).
    public var type: String
    /// The landmark's label, when the book gives one.
    public var title: String?
    /// Where the landmark points.
    public var target: EPUBLink

    /// A landmark (EPUB 3 `landmarks` nav or EPUB 2 `guide` reference).
    public init(type: String, title: String?, target: EPUBLink) {
        self.type = type
        self.title = title
        self.target = target
    }
}

/// An entry of the table of contents (EPUB 3 nav `toc` or EPUB 2 NCX navMap).
public struct TOCEntry: Hashable, Sendable, Codable {
    /// The label, whitespace and line-break noise cleaned.
    public var label: String
    /// Where it points; nil for a heading entry without a link (a nav `<span>`).
    public var target: EPUBLink?
    /// Nested entries, in order.
    public var children: [TOCEntry]

    /// A table-of-contents entry.
    public init(label: String, target: EPUBLink?, children: [TOCEntry] = []) {
        self.label = label
        self.target = target
        self.children = children
    }
}

/// Which navigation document the table of contents came from.
public enum TOCSource: String, Hashable, Sendable, Codable {
    /// EPUB 3 navigation document.
    case nav
    /// EPUB 2 NCX.
    case ncx
    /// Neither was usable: no table of contents.
    case none
}

/// How serious a problem the reader worked around is.
public enum WarningSeverity: String, Hashable, Sendable, Codable, Comparable {
    /// Worked around, nothing lost (a late mimetype, a wrong-case href).
    case minor
    /// Worked around, something may be off (a broken NCX, a TOC link outside the spine).
    case major

    /// Minor warnings sort before major ones.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .minor && rhs == .major }
}

/// A problem that did not stop reading, kept as a value and shown to the user.
public struct EPUBWarning: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How much the problem matters to a listener.
    public var severity: WarningSeverity
    /// The file inside the book the problem is in, when there is one.
    public var path: String?
    /// What went wrong and what was done instead.
    public var message: String

    /// A warning about `path` (inside the book), when it is about one file.
    public init(_ severity: WarningSeverity, path: String? = nil, _ message: String) {
        self.severity = severity
        self.path = path
        self.message = message
    }

    /// The message, after the path inside the book when there is one.
    public var description: String { path.map { "\($0): \(message)" } ?? message }
}

/// Everything the reader learned about a book, as plain values (no open file behind it).
public struct EPUBPackage: Hashable, Sendable, Codable {
    /// Path of the package document inside the container (`OEBPS/content.opf`).
    public var packagePath: String
    /// The package document's folder inside the container, with a trailing `/`, or "" at the root.
    public var packageDirectory: String
    /// `version` of the package element (`2.0`, `3.0`).
    public var version: String
    /// Title, authors, language, identifier...
    public var metadata: EPUBMetadata
    /// Every manifest item, in document order.
    public var manifest: [ManifestItem]
    /// The reading order.
    public var spine: [SpineItem]
    /// OPF 2 `<guide>` references.
    public var guide: [EPUBLandmark]
    /// EPUB 3 nav landmarks.
    public var landmarks: [EPUBLandmark]
    /// The table of contents; empty when there is none.
    public var toc: [TOCEntry]
    /// Where `toc` came from: the EPUB 3 nav, the NCX, or nowhere.
    public var tocSource: TOCSource
    /// Path (relative to the package folder) of the navigation document or NCX that gave the TOC.
    public var tocDocument: String?
    /// Problems that did not stop reading.
    public var warnings: [EPUBWarning]

    /// A package; `EPUBBook.open` builds it from the container.
    public init(
        packagePath: String, packageDirectory: String, version: String, metadata: EPUBMetadata,
        manifest: [ManifestItem], spine: [SpineItem], guide: [EPUBLandmark] = [], landmarks: [EPUBLandmark] = [],
        toc: [TOCEntry] = [], tocSource: TOCSource = .none, tocDocument: String? = nil, warnings: [EPUBWarning] = []
    ) {
        self.packagePath = packagePath
        self.packageDirectory = packageDirectory
        self.version = version
        self.metadata = metadata
        self.manifest = manifest
        self.spine = spine
        self.guide = guide
        self.landmarks = landmarks
        self.toc = toc
        self.tocSource = tocSource
        self.tocDocument = tocDocument
        self.warnings = warnings
    }
}
