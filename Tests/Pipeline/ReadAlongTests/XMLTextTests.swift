import Testing

@testable import ReadAlong

@Suite("XML written by hand: the one escape")
struct XMLTextTests {
    @Test("&, <, > and \" are escaped, everything else kept as it is")
    func escaping() {
        #expect(XMLText.escaped(#"Tom & "Jerry" <b>"#) == "Tom &amp; &quot;Jerry&quot; &lt;b&gt;")
        #expect(XMLText.escaped("l'été — 第一章") == "l'été — 第一章")
        #expect(XMLText.escaped("&amp;") == "&amp;amp;")
    }
}
