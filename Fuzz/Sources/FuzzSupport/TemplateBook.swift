/// A small valid EPUB (container, OPF with nav and NCX, two chapters) in which one file is replaced by fuzzer
/// bytes: the structure-aware input format of `fuzz-parts`.
///
/// Input layout: the first byte chooses the file (`Slot(rawValue: byte % Slot.allCases.count)`), the rest is
/// that file's content. Seeds are written the same way by `Fuzz/make-seeds.py` from the samples and fixtures.
public enum TemplateBook {
    /// The file of the template that the fuzzer's bytes replace.
    public enum Slot: UInt8, CaseIterable, Sendable {
        case container = 0
        case package = 1
        case nav = 2
        case ncx = 3
        case chapter = 4
        case encryption = 5

        /// The file's path inside the archive.
        public var path: String {
            switch self {
            case .container: "META-INF/container.xml"
            case .package: "OEBPS/content.opf"
            case .nav: "OEBPS/nav.xhtml"
            case .ncx: "OEBPS/toc.ncx"
            case .chapter: "OEBPS/text/one.xhtml"
            case .encryption: "META-INF/encryption.xml"
            }
        }
    }

    /// The archive for one fuzz input (an empty input gives the unmodified template).
    public static func archive(fuzzInput input: [UInt8]) -> [UInt8] {
        guard let first = input.first else { return archive(replacing: nil, with: []) }
        let slot = Slot(rawValue: first % UInt8(Slot.allCases.count))!
        return archive(replacing: slot, with: Array(input.dropFirst()))
    }

    /// A fuzz input that replaces `slot` with `content` (for making seeds).
    public static func fuzzInput(slot: Slot, content: [UInt8]) -> [UInt8] { [slot.rawValue] + content }

    /// The template with `slot` (if any) replaced by `content`.
    public static func archive(replacing slot: Slot?, with content: [UInt8]) -> [UInt8] {
        var files: [(name: String, bytes: [UInt8])] = [("mimetype", Array("application/epub+zip".utf8))]
        for each in Slot.allCases where each != .encryption || slot == .encryption {
            files.append((each.path, each == slot ? content : template(each)))
        }
        files.append(("OEBPS/text/two.xhtml", Array(chapterTwo.utf8)))
        return StoredZip.make(files)
    }

    /// The template's own content for a slot.
    public static func template(_ slot: Slot) -> [UInt8] {
        switch slot {
        case .container: Array(container.utf8)
        case .package: Array(package.utf8)
        case .nav: Array(nav.utf8)
        case .ncx: Array(ncx.utf8)
        case .chapter: Array(chapterOne.utf8)
        case .encryption: Array(encryption.utf8)
        }
    }

    static let container = """
        <?xml version="1.0"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
        </container>
        """

    static let package = """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier id="id">urn:uuid:00000000-0000-0000-0000-000000000000</dc:identifier>
            <dc:title>Fuzz</dc:title><dc:creator id="a">A. Writer</dc:creator><dc:language>en</dc:language>
            <meta refines="#a" property="role">aut</meta><meta name="cover" content="c1"/>
          </metadata>
          <manifest>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
            <item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/>
            <item id="c2" href="text/two.xhtml" media-type="application/xhtml+xml" fallback="c1"/>
          </manifest>
          <spine toc="ncx"><itemref idref="c1"/><itemref idref="c2" linear="no"/></spine>
          <guide><reference type="text" title="Start" href="text/one.xhtml#s"/></guide>
        </package>
        """

    static let nav = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <head><title>Contents</title></head><body>
        <nav epub:type="toc"><ol><li><a href="text/one.xhtml">One</a>
          <ol><li><a href="text/one.xhtml#s">Part</a></li></ol></li>
          <li><span>Two</span><ol><li><a href="text/two.xhtml">Two</a></li></ol></li></ol></nav>
        <nav epub:type="landmarks"><ol><li><a epub:type="bodymatter" href="text/one.xhtml">Start</a></li></ol></nav>
        </body></html>
        """

    static let ncx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head/><docTitle><text>Fuzz</text></docTitle>
        <navMap><navPoint id="p1" playOrder="1"><navLabel><text>One</text></navLabel><content src="text/one.xhtml"/>
        <navPoint id="p2" playOrder="2"><navLabel><text>Part</text></navLabel><content src="text/one.xhtml#s"/>
        </navPoint></navPoint></navMap></ncx>
        """

    static let chapterOne = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en">
        <head><title>One</title><meta charset="utf-8"/></head>
        <body><section epub:type="chapter"><h1>Chapter One</h1><p>It was a dark&#160;night&nbsp;&mdash; and
        <em>stormy</em>.<a epub:type="noteref" href="#n1">1</a></p><h2 id="s">Part</h2><p>More text.</p>
        <aside epub:type="footnote" id="n1"><p>A note.</p></aside></section></body></html>
        """

    static let chapterTwo = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Two</title></head>
        <body><h1>Two</h1><p>The end.</p></body></html>
        """

    static let encryption = """
        <?xml version="1.0" encoding="UTF-8"?>
        <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container"
          xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData>
          <enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
          <enc:CipherData><enc:CipherReference URI="OEBPS/fonts/a.otf"/></enc:CipherData></enc:EncryptedData>
        </encryption>
        """
}
