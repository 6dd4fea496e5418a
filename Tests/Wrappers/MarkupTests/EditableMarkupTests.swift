import Markup
import Testing

/// Documents parsed into libxml2's tree, changed in place and written back.
@Suite struct EditableMarkupTests {
    private let xhtml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head>
        <body><!-- a note --><p id="a">One &amp; <em>two</em>&nbsp;three.</p><script>var x = 1;</script></body></html>
        """

    @Test func aDocumentWrittenBackUnchangedKeepsItsMarkup() throws {
        let document = try EditableMarkup(xml: Array(xhtml.utf8), documentName: "a.xhtml")
        let text = String(decoding: document.serialized(), as: UTF8.self)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"))
        // The HTML entity became its character; `&amp;` stays escaped; comments stay.
        #expect(text.contains("<body><!-- a note --><p id=\"a\">One &amp; <em>two</em>\u{A0}three.</p>"))
        #expect(!text.contains("http-equiv"))
    }

    @Test func textRunsSkipTheExcludedElementsAndWrappingSplitsATextNode() throws {
        let document = try EditableMarkup(xml: Array(xhtml.utf8), documentName: "a.xhtml")
        let body = try #require(document.elements(named: "body").first)
        let runs = document.textRuns(under: body, excluding: ["script"])
        #expect(runs.map(\.text) == ["One & ", "two", "\u{A0}three."])
        document.wrap(runs[2], pieces: [(1..<7, "s1")], in: "span")
        document.wrap(runs[0], pieces: [(0..<3, "s0")], in: "span")
        let text = String(decoding: document.serialized(), as: UTF8.self)
        #expect(
            text.contains(
                "<p id=\"a\"><span id=\"s0\">One</span> &amp; <em>two</em>\u{A0}<span id=\"s1\">three.</span></p>"))
        #expect(document.ids == ["a", "s0", "s1"])
    }

    @Test func elementsAddedGoBeforeTheClosingTagsWhiteSpace() throws {
        let opf =
            "<package xmlns=\"http://www.idpf.org/2007/opf\"><manifest>\n  <item id=\"a\"/>\n</manifest></package>"
        let document = try EditableMarkup(xml: Array(opf.utf8), documentName: "p.opf")
        let manifest = try #require(document.elements(named: "manifest").first)
        document.appendElement("item", attributes: [("id", "b"), ("href", "a&b")], to: manifest, indent: "\n  ")
        let item = try #require(document.children(of: manifest).first)
        document.setAttribute("media-overlay", "mo", of: item)
        #expect(
            String(decoding: document.serialized(), as: UTF8.self).contains(
                "<manifest>\n  <item id=\"a\" media-overlay=\"mo\"/>\n  <item id=\"b\" href=\"a&amp;b\"/>\n</manifest>")
        )
    }

    @Test func theDocumentTypeIsReadAndReplaced() throws {
        let xhtml11 = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- before -->
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title></head><body/></html>
            """
        let document = try EditableMarkup(xml: Array(xhtml11.utf8), documentName: "a.xhtml")
        #expect(document.documentType?.publicID == "-//W3C//DTD XHTML 1.1//EN")
        document.setDocumentType(name: "html")
        let text = String(decoding: document.serialized(), as: UTF8.self)
        #expect(text.contains("<!-- before -->\n<!DOCTYPE html>\n<html"))
        #expect(!text.contains("XHTML 1.1"))
        #expect(document.documentType.map { $0.publicID.isEmpty && $0.systemID.isEmpty } == true)
        let bare = try EditableMarkup(xml: Array("<html><body/></html>".utf8), documentName: "b.xhtml")
        #expect(bare.documentType == nil)
    }

    @Test func namespacedAttributesAreListedAndRemoved() throws {
        let opf = """
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">\
            <dc:creator id="c" opf:role="aut">A</dc:creator></metadata>
            """
        let document = try EditableMarkup(xml: Array(opf.utf8), documentName: "p.opf")
        let creator = try #require(document.elements(named: "creator").first)
        let attributes = document.attributes(of: creator)
        #expect(attributes.map(\.name) == ["id", "role"])
        #expect(attributes.map(\.namespace) == [nil, "http://www.idpf.org/2007/opf"])
        #expect(attributes.map(\.value) == ["c", "aut"])
        document.removeAttribute("role", namespace: "http://www.idpf.org/2007/opf", of: creator)
        #expect(String(decoding: document.serialized(), as: UTF8.self).contains("<dc:creator id=\"c\">A</dc:creator>"))
    }

    @Test func everyElementIsListedInOrderAndOneIsRenamedWithItsContent() throws {
        let document = try EditableMarkup(xml: Array(xhtml.utf8), documentName: "a.xhtml")
        let elements = document.allElements()
        #expect(elements.map { document.name(of: $0) } == ["head", "title", "body", "p", "em", "script"])
        document.rename(elements[4], to: "span")
        let text = String(decoding: document.serialized(), as: UTF8.self)
        #expect(text.contains("<p id=\"a\">One &amp; <span>two</span>"))
    }

    @Test func aDocumentThatIsNotWellFormedIsRefused() {
        #expect(throws: MarkupError.self) {
            try EditableMarkup(xml: Array("<html><p>open</html>".utf8), documentName: "bad.xhtml")
        }
    }
}
