import EPUBReader
import Markup
import Testing

@testable import ReadAlong

/// The parts that make the read-along copy of an EPUB 2 book an EPUB 3 package.
@Suite struct EPUB3UpgradeTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: - The navigation document

    @Test func theNCXBecomesNestedListsLinkedFromTheNavsOwnFolder() throws {
        let toc = [
            TOCEntry(
                label: "Part <One>", target: nil,
                children: [
                    TOCEntry(label: "Chapter 1", target: EPUBLink(path: "Text/ch1.xhtml", fragment: "s1")),
                    TOCEntry(label: "", target: EPUBLink(path: "Text/ch2.xhtml")),
                ]),
            TOCEntry(label: "Picture", target: EPUBLink(path: "images/p.png")),
            TOCEntry(label: "", target: nil, children: [TOCEntry(label: "Notes", target: EPUBLink(path: "n.xhtml"))]),
        ]
        let bytes = EPUB3Upgrade.navigationDocument(
            toc: toc, title: "A & B", language: "en", navPath: "OEBPS/read-along/nav.xhtml",
            packageDirectory: "OEBPS/", documents: ["OEBPS/Text/ch1.xhtml", "OEBPS/Text/ch2.xhtml", "OEBPS/n.xhtml"])
        let nav = text(bytes)
        let document = try EditableMarkup(xml: bytes, documentName: "nav.xhtml")
        #expect(nav.contains("<!DOCTYPE html>"))
        #expect(nav.contains("<nav epub:type=\"toc\" id=\"toc\">"))
        #expect(nav.contains("xml:lang=\"en\" lang=\"en\"") && nav.contains("<title>A &amp; B</title>"))
        // A label without a link is a span over its children; an empty label is the file's name.
        #expect(nav.contains("<li><span>Part &lt;One&gt;</span>"))
        #expect(nav.contains("<li><a href=\"../Text/ch1.xhtml#s1\">Chapter 1</a></li>"))
        #expect(nav.contains("<li><a href=\"../Text/ch2.xhtml\">ch2.xhtml</a></li>"))
        // Outside the spine: no link, and nothing left of it; no label: its children take its place.
        #expect(!nav.contains("Picture"))
        #expect(nav.contains("<li><a href=\"../n.xhtml\">Notes</a></li>"))
        let lists = document.elements(named: "ol")
        #expect(lists.count == 2)
        #expect(document.children(of: lists[0]).count == 2)
        #expect(document.elements(named: "li", under: lists[1]).count == 2)
    }

    @Test func withoutAnNCXTheNavLinksTheFirstDocument() throws {
        let nav = text(
            EPUB3Upgrade.navigationDocument(
                toc: [], title: "Book", language: nil, navPath: "read-along/nav.xhtml", packageDirectory: "",
                documents: ["a b.xhtml"]))
        #expect(nav.contains("<ol>\n      <li><a href=\"../a%20b.xhtml\">Book</a></li>\n    </ol>"))
        #expect(!nav.contains("lang="))
    }

    @Test func nonLinearDocumentsTheTOCDoesNotLinkGetALinkInAHiddenNav() throws {
        let bytes = EPUB3Upgrade.navigationDocument(
            toc: [TOCEntry(label: "One", target: EPUBLink(path: "one.xhtml"))], title: "Book", language: nil,
            navPath: "read-along/nav.xhtml", packageDirectory: "", documents: ["one.xhtml", "plate.xhtml"],
            unlisted: [("one.xhtml", "One"), ("plate.xhtml", "Plate <1>")])
        let nav = text(bytes)
        let document = try EditableMarkup(xml: bytes, documentName: "nav.xhtml")
        let navs = document.elements(named: "nav")
        #expect(navs.count == 2)
        #expect(document.attribute("hidden", of: navs[1]) == "hidden")
        #expect(document.elements(named: "a", under: navs[1]).count == 1)
        #expect(nav.contains("<li><a href=\"../plate.xhtml\">Plate &lt;1&gt;</a></li>"))
    }

    // MARK: - The package document

    private let opf2 = """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
            <dc:identifier id="id" opf:scheme="UUID">urn:uuid:1</dc:identifier>
            <dc:creator opf:role="aut" opf:file-as="Lee, Ann">Ann Lee</dc:creator>
            <dc:contributor id="ill" opf:role="ill">Bo Ko</dc:contributor>
            <dc:language xsi:type="dcterms:RFC4646">en</dc:language>
            <dc:date opf:event="conversion">2020-01-01</dc:date>
            <dc:date opf:event="publication">1901-05-01</dc:date>
            <meta name="cover" content="c"/>
          </metadata>
        </package>
        """

    @Test func anOPF2PackageBecomesEPUB3WithRefinesInPlaceOfOPFAttributes() throws {
        let opf = try EditableMarkup(xml: Array(opf2.utf8), documentName: "content.opf")
        let metadata = try #require(opf.elements(named: "metadata").first)
        var ids = UniqueIDs(taken: opf.ids)
        EPUB3Upgrade.upgradePackage(opf, metadata: metadata, ids: &ids)
        let result = text(opf.serialized())
        #expect(result.contains("version=\"3.0\""))
        #expect(!result.contains("opf:role") && !result.contains("opf:file-as") && !result.contains("opf:scheme"))
        #expect(!result.contains("opf:event") && !result.contains("xsi:type"))
        #expect(result.contains("<dc:identifier id=\"id\">urn:uuid:1</dc:identifier>"))
        #expect(result.contains("<dc:creator id=\"e2a-creator\">Ann Lee</dc:creator>"))
        #expect(result.contains("<meta refines=\"#e2a-creator\" property=\"role\" scheme=\"marc:relators\">aut</meta>"))
        #expect(result.contains("<meta refines=\"#e2a-creator\" property=\"file-as\">Lee, Ann</meta>"))
        #expect(result.contains("<meta refines=\"#ill\" property=\"role\" scheme=\"marc:relators\">ill</meta>"))
        // One date: the publication date.
        #expect(result.contains("<dc:date>1901-05-01</dc:date>") && !result.contains("2020-01-01"))
        #expect(result.contains("<meta name=\"cover\" content=\"c\"/>"))
        #expect(result.contains("unique-identifier=\"id\""))
    }

    // MARK: - Content documents

    private func document(_ head: String, _ body: String) throws -> EditableMarkup {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            \(head)
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body>\(body)</body></html>
            """
        return try EditableMarkup(xml: Array(xml.utf8), documentName: "a.xhtml")
    }

    @Test func theXHTML11DocumentTypeBecomesHTML5() throws {
        let old = try document(
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.1//EN\" \"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd\">",
            "<p>x&nbsp;y</p>")
        #expect(EPUB3Upgrade.upgradeDocumentType(of: old))
        let result = text(old.serialized())
        #expect(result.contains("<!DOCTYPE html>\n<html") && !result.contains("xhtml11.dtd"))
        #expect(!EPUB3Upgrade.upgradeDocumentType(of: try document("<!DOCTYPE html>", "<p/>")))
        #expect(!EPUB3Upgrade.upgradeDocumentType(of: try document("", "<p/>")))
    }

    @Test func aTableSummaryBecomesItsARIADescription() throws {
        let tables = try document(
            "", "<table summary=\"Ratios\"><tr><td>1</td></tr></table><table summary=\"x\" aria-describedby=\"c\"/>")
        #expect(EPUB3Upgrade.replaceTableSummaries(in: tables))
        let result = text(tables.serialized())
        #expect(result.contains("<table aria-description=\"Ratios\">"))
        #expect(result.contains("<table aria-describedby=\"c\"/>"))
        #expect(!EPUB3Upgrade.replaceTableSummaries(in: try document("", "<table><tr><td>1</td></tr></table>")))
    }

    @Test(arguments: [
        ("<p>plain</p>", [String]()),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>", ["svg"]),
        ("<math xmlns=\"http://www.w3.org/1998/Math/MathML\"><mi>x</mi></math>", ["mathml"]),
        ("<script>var a = 1;</script>", ["scripted"]),
        ("<form><input/></form><svg xmlns=\"http://www.w3.org/2000/svg\"/>", ["svg", "scripted"]),
        ("<p>an svg element outside SVG's namespace</p><svg/>", []),
    ])
    func contentDocumentsGetThePropertiesOfWhatTheyHold(body: String, expected: [String]) throws {
        #expect(EPUB3Upgrade.contentProperties(of: try document("", body)) == expected)
    }
}
