import Markup
import Testing

@testable import ReadAlong

/// XHTML 1.1 markup that HTML5 made obsolete, made conforming in the copy of an EPUB 2 book.
@Suite struct ObsoleteHTMLTests {
    /// `body` (and `head`) in an XHTML document, updated with the book title "Book"; the document as written.
    private func updated(_ body: String, head: String = "<title>T</title>") throws -> (changed: Bool, text: String) {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head>\(head)</head><body>\(body)</body></html>
            """
        let document = try EditableMarkup(xml: Array(xml.utf8), documentName: "a.xhtml")
        let changed = ObsoleteHTML.update(document, title: "Book")
        return (changed, String(decoding: document.serialized(), as: UTF8.self))
    }

    @Test(arguments: [
        ("align", "center", "td", ObsoleteHTML.Change.move(["text-align: center"])),
        ("align", "right", "img", .move(["float: right"])),
        ("align", "middle", "img", .move(["vertical-align: middle"])),
        ("align", "center", "table", .move(["margin-left: auto", "margin-right: auto"])),
        ("align", "char", "col", .drop),
        ("valign", "top", "tr", .move(["vertical-align: top"])),
        ("width", "50%", "table", .move(["width: 50%"])),
        ("width", "120", "col", .move(["width: 120px"])),
        ("width", "100%", "img", .move(["width: 100%"])),
        ("width", "120", "img", .keep),
        ("width", "120", "p", .keep),
        ("border", "3", "table", .replace(value: "1", declarations: ["border-width: 3px"])),
        ("border", "1", "table", .keep),
        ("border", "0", "img", .drop),
        ("cellpadding", "4", "table", .drop),
        ("cellspacing", "2", "table", .move(["border-spacing: 2px"])),
        ("bgcolor", "#FFEEDD", "td", .move(["background-color: #ffeedd"])),
        ("bgcolor", "red;x:y", "td", .drop),
        ("rev", "made", "link", .drop),
        ("class", "x", "td", .keep),
    ])
    func anAttributeIsKeptDroppedOrMovedToCSS(
        attribute: String, value: String, element: String, expected: ObsoleteHTML.Change
    ) {
        #expect(ObsoleteHTML.change(attribute: attribute, value: value, element: element) == expected)
    }

    @Test func movedAttributesGoIntoTheStyleBeforeTheElementsOwn() throws {
        let (changed, text) = try updated(
            "<table border=\"3\" cellpadding=\"4\" summary=\"s\"><tr><td align=\"center\" style=\"color: red;\">1</td></tr></table>"
        )
        #expect(changed)
        #expect(text.contains("<table border=\"1\" summary=\"s\" style=\"border-width: 3px\">"))
        #expect(text.contains("<td style=\"text-align: center; color: red\">1</td>"))
    }

    @Test func obsoleteElementsBecomeSpansAndAbbr() throws {
        let (_, text) = try updated("<p><big>B</big> <tt>T</tt> <acronym title=\"x\">A</acronym></p>")
        #expect(
            text.contains(
                "<p><span style=\"font-size: larger\">B</span> <span style=\"font-family: monospace\">T</span> "
                    + "<abbr title=\"x\">A</abbr></p>"))
    }

    @Test func metasHTML5DoesNotKnowGoAndTheContentTypeSaysUTF8() throws {
        let (_, text) = try updated(
            "<p>x</p>",
            head: "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"/>"
                + "<meta http-equiv=\"Content-Style-Type\" content=\"text/css\"/><title>T</title>")
        #expect(text.contains("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\"/><title>"))
        #expect(!text.contains("Content-Style-Type"))
    }

    @Test func anEmptyTitleTakesTheBooksAndAFilledOneStays() throws {
        #expect(try updated("<p>x</p>", head: "<title> </title>").text.contains("<title>Book</title>"))
        let (changed, text) = try updated("<p>x</p>")
        #expect(!changed && text.contains("<title>T</title>"))
    }
}
