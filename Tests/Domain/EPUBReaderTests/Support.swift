import Foundation
import TestSupport

@testable import EPUBReader

/// Bytes of a fixture under `Fixtures/`.
func fixture(_ name: String) throws -> [UInt8] {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
        throw FixtureMissing(name: name)
    }
    return Array(try Data(contentsOf: url))
}

struct FixtureMissing: Error { var name: String }

func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

let containerXML = """
    <?xml version="1.0"?>
    <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
      <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
    </container>
    """

func chapter(_ title: String, body: String? = nil) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml"><head><title>\(title)</title></head>
    <body><h1 id="start">\(title)</h1><p>\(body ?? "Text of \(title).")</p></body></html>
    """
}

func navDocument(_ links: [(String, String)]) -> String {
    let items = links.map { "<li><a href=\"\($0.0)\">\($0.1)</a></li>" }.joined()
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Nav</title></head>
        <body><nav epub:type="toc"><ol>\(items)</ol></nav></body></html>
        """
}

func ncxDocument(_ links: [(String, String)]) -> String {
    let points = links.enumerated().map {
        "<navPoint id=\"n\($0.offset)\"><navLabel><text>\($0.element.1)</text></navLabel><content src=\"\($0.element.0)\"/></navPoint>"
    }.joined()
    return """
        <?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>\(points)</navMap></ncx>
        """
}

/// An OPF with one manifest item and itemref per chapter (`c1`, `c2`, ...), plus a nav when given.
func packageDocument(
    chapters: [String], nav: String? = "nav.xhtml", ncx: String? = nil, title: String = "Test Book",
    extraManifest: String = ""
) -> String {
    var manifest = chapters.enumerated().map {
        "<item id=\"c\($0.offset + 1)\" href=\"\($0.element)\" media-type=\"application/xhtml+xml\"/>"
    }
    if let nav {
        manifest.append("<item id=\"nav\" href=\"\(nav)\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>")
    }
    if let ncx { manifest.append("<item id=\"ncx\" href=\"\(ncx)\" media-type=\"application/x-dtbncx+xml\"/>") }
    let spine = chapters.indices.map { "<itemref idref=\"c\($0 + 1)\"/>" }.joined()
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
        <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">test</dc:identifier>
        <dc:title>\(title)</dc:title><dc:language>en</dc:language></metadata>
        <manifest>\(manifest.joined())\(extraManifest)</manifest>
        <spine\(ncx != nil ? " toc=\"ncx\"" : "")>\(spine)</spine>
        </package>
        """
}

/// A small valid EPUB 3: two chapters and a nav, under `OEBPS/`, with `files` added or replacing.
func makeEPUB(
    _ files: [(String, String)] = [], mimetype: Bool = true, container: String? = containerXML
) -> [UInt8] {
    var all: [(String, String)] = []
    if let container { all.append(("META-INF/container.xml", container)) }
    all += [
        ("OEBPS/content.opf", packageDocument(chapters: ["one.xhtml", "two.xhtml"])),
        ("OEBPS/one.xhtml", chapter("One")),
        ("OEBPS/two.xhtml", chapter("Two")),
        ("OEBPS/nav.xhtml", navDocument([("one.xhtml", "One"), ("two.xhtml#start", "Two")])),
    ]
    for (name, content) in files {
        if let index = all.firstIndex(where: { $0.0 == name }) {
            all[index].1 = content
        } else {
            all.append((name, content))
        }
    }
    var entries: [TestZipEntry] = mimetype ? [.stored("mimetype", "application/epub+zip")] : []
    entries += all.map { TestZipEntry.stored($0.0, $0.1) }
    return makeZip(entries)
}
