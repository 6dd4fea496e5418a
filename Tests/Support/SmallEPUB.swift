import Foundation

/// A small EPUB 3 written by a test: a nested navigation document and one XHTML file per entry that
/// has a body, so books with volumes and with passages in other languages are one literal each.
public struct SmallEPUB: Sendable {
    /// A TOC entry; `body` (XHTML inside `<body>`) makes a file of its own for it.
    public struct Entry: Sendable {
        /// The title in the navigation document.
        public var title: String
        /// The XHTML inside the entry's `<body>`; nil: a heading without a file of its own.
        public var body: String?
        /// The file's `xml:lang`, when it differs from the book's.
        public var language: String?
        /// Entries nested under this one.
        public var children: [Entry] = []

        /// An entry titled `title`, with its own file when `body` is given, in `language` when given.
        public init(title: String, body: String? = nil, language: String? = nil, children: [Entry] = []) {
            self.title = title
            self.body = body
            self.language = language
            self.children = children
        }
    }

    /// `dc:title`.
    public var title = "A Small Book"
    /// `dc:language`.
    public var language = "en"
    /// The table of contents, in order.
    public var entries: [Entry]
    /// `dc:description` as written in the package (XML-escaped by the test when it means text).
    public var description: String?
    /// A cover image (`cover-image`), `OEBPS/cover.<fileExtension>` with its media type.
    public var cover: (data: [UInt8], fileExtension: String, mediaType: String)?

    /// A book of `entries`.
    public init(title: String = "A Small Book", language: String = "en", entries: [Entry]) {
        self.title = title
        self.language = language
        self.entries = entries
    }

    /// Writes the book into `directory` as `book.epub`; returns its path.
    public func write(into directory: String) throws -> String {
        let path = directory + "/book.epub"
        try Data(bytes()).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The EPUB file's bytes.
    public func bytes() -> [UInt8] {
        var files: [(name: String, entry: Entry)] = []
        func number(_ entries: [Entry]) -> String {
            var items = ""
            for entry in entries {
                var link = ""
                if entry.body != nil {
                    files.append(("f\(files.count + 1).xhtml", entry))
                    link = "<a href=\"\(files.last!.name)\">\(entry.title)</a>"
                } else {
                    link = "<span>\(entry.title)</span>"
                }
                let children = entry.children.isEmpty ? "" : "<ol>\(number(entry.children))</ol>"
                items += "<li>\(link)\(children)</li>"
            }
            return items
        }
        let toc = number(entries)
        let manifest = files.enumerated().map {
            "<item id=\"i\($0.offset)\" href=\"\($0.element.name)\" media-type=\"application/xhtml+xml\"/>"
        }.joined()
        let spine = files.indices.map { "<itemref idref=\"i\($0)\"/>" }.joined()
        let coverItem =
            cover.map {
                "<item id=\"cover\" href=\"cover.\($0.fileExtension)\" media-type=\"\($0.mediaType)\" "
                    + "properties=\"cover-image\"/>"
            } ?? ""
        let descriptionElement = description.map { "<dc:description>\($0)</dc:description>" } ?? ""
        var zip: [TestZipEntry] = [
            .stored("mimetype", "application/epub+zip"),
            .stored(
                "META-INF/container.xml",
                """
                <?xml version="1.0"?>
                <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
                </container>
                """),
            .stored(
                "OEBPS/content.opf",
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
                <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:test:small</dc:identifier>
                <dc:title>\(title)</dc:title><dc:language>\(language)</dc:language>\(descriptionElement)
                <meta property="dcterms:modified">2024-01-01T00:00:00Z</meta></metadata>
                <manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>\(manifest)\(coverItem)</manifest>
                <spine>\(spine)</spine>
                </package>
                """),
            .stored(
                "OEBPS/nav.xhtml",
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
                <head><title>Contents</title></head>
                <body><nav epub:type="toc"><h1>Contents</h1><ol>\(toc)</ol></nav></body></html>
                """),
        ]
        for file in files {
            let lang = file.entry.language.map { " xml:lang=\"\($0)\" lang=\"\($0)\"" } ?? ""
            zip.append(
                .stored(
                    "OEBPS/\(file.name)",
                    """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"\(lang)>
                    <head><title>\(file.entry.title)</title></head>
                    <body>\(file.entry.body!)</body></html>
                    """))
        }
        if let cover { zip.append(.stored("OEBPS/cover.\(cover.fileExtension)", cover.data)) }
        return makeZip(zip)
    }
}
