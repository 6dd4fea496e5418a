import Testing

@testable import Markup

/// The pre-pass edits bytes in place; these pin what each edit leaves around it.
@Suite struct EntityPrepassTests {
    private func rewrite(_ text: String, maxDepth: Int = 250) -> (text: String, warnings: [String]) {
        let result = EntityPrepass.rewrite(Array(text.utf8), maxDepth: maxDepth)
        return (String(decoding: result.bytes, as: UTF8.self), result.warnings)
    }

    @Test func documentWithNothingToChangeComesBackAsItIs() {
        let text = "<html><body><p a=\"1&amp;2\">x &lt; y &#233;<br>z<!-- a & b --></p></body></html>"
        let result = rewrite(text)
        #expect(result.text == text)
        #expect(result.warnings.isEmpty)
    }

    @Test func everyKindOfEditLandsAtItsPlace() {
        let text =
            "<!DOCTYPE x [<!ENTITY own \"o\">]><x>a &own; b&nbsp;c &bogus; d & e<![CDATA[ & ]]>"
            + "<!-- &nbsp; --></x>"
        let result = rewrite(text)
        #expect(result.text == "<!DOCTYPE x ><x>a  b&#160;c  d &amp; e<![CDATA[ & ]]><!-- &nbsp; --></x>")
        #expect(result.warnings.contains { $0.contains("internal DTD subset with 1 entity") })
        #expect(result.warnings.contains { $0.contains("unknown entity &bogus;") })
        #expect(result.warnings.contains { $0.contains("1 bare '&' escaped") })
    }

    @Test func tagsBelowTheDepthLimitAreDroppedAndVoidElementsOpenNoLevel() {
        let result = rewrite("<a><BR><b><c>text</c></b></a>", maxDepth: 2)
        #expect(result.text == "<a><BR><b>text</b></a>")
        #expect(result.warnings.contains { $0.contains("2 tags removed") })
    }
}
