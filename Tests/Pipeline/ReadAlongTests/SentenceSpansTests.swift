import Markup
import Testing

@testable import ReadAlong

/// Sentences found in a document's text and wrapped in spans, the rest of the markup left alone.
@Suite struct SentenceSpansTests {
    /// `body` in an XHTML document, the sentences wrapped; returns the body as written and the spans.
    private func wrapped(_ body: String, _ sentences: [String?], head: String = "<title>T</title>") throws -> (
        String, [[SentenceSpan]]
    ) {
        let xhtml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head>\(head)</head><body>\(body)</body></html>
            """
        let document = try EditableMarkup(xml: Array(xhtml.utf8), documentName: "t.xhtml")
        let spans = SentenceSpans.wrap(sentences, in: document)
        let text = String(decoding: document.serialized(), as: UTF8.self)
        let start = try #require(text.range(of: "<body>"))
        let end = try #require(text.range(of: "</body>"))
        return (String(text[start.upperBound..<end.lowerBound]), spans)
    }

    @Test func sentencesInOneTextNodeGetOneSpanEach() throws {
        let (body, spans) = try wrapped("<p>Hello world. Second one.</p>", ["Hello world.", "Second one."])
        #expect(body == "<p><span id=\"e2a-1\">Hello world.</span> <span id=\"e2a-2\">Second one.</span></p>")
        #expect(spans.map { $0.map(\.id) } == [["e2a-1"], ["e2a-2"]])
    }

    @Test func aSentenceAcrossAnElementGetsOneSpanPerPieceAndTheElementStays() throws {
        let (body, spans) = try wrapped("<p>She was <em>very</em> tired. Next.</p>", ["She was very tired.", "Next."])
        #expect(
            body == "<p><span id=\"e2a-1\">She was</span> <em><span id=\"e2a-1-2\">very</span></em> "
                + "<span id=\"e2a-1-3\">tired.</span> <span id=\"e2a-2\">Next.</span></p>")
        // The spaces between the pieces stay outside them (and out of their share of the time).
        #expect(spans[0].map(\.length) == [7, 4, 6])
    }

    @Test func aRepeatedSentenceIsFoundAfterThePreviousOne() throws {
        let (body, _) = try wrapped("<p>Yes. No. Yes.</p>", ["Yes.", "No.", "Yes."])
        #expect(
            body == "<p><span id=\"e2a-1\">Yes.</span> <span id=\"e2a-2\">No.</span> <span id=\"e2a-3\">Yes.</span></p>"
        )
    }

    @Test func aCitationRemovedFromTheMiddleIsFoundByTheSentencesStartAndEnd() throws {
        let (body, spans) = try wrapped(
            "<p>The keeper climbed the long stair at dusk<a href=\"#n1\">[12]</a> and lit the great lamp for the night.</p>",
            ["The keeper climbed the long stair at dusk and lit the great lamp for the night."])
        #expect(spans[0].count == 3)
        #expect(
            body.hasPrefix("<p><span id=\"e2a-1\">The keeper climbed the long stair at dusk</span><a href=\"#n1\">"))
        #expect(body.hasSuffix("</a> <span id=\"e2a-1-3\">and lit the great lamp for the night.</span></p>"))
    }

    @Test func aSentenceTheDocumentDoesNotHoldGetsNoSpanAndTheNextIsStillFound() throws {
        let (body, spans) = try wrapped("<p>First. Third.</p>", ["First.", "Table omitted.", nil, "Third."])
        #expect(spans.map(\.count) == [1, 0, 0, 1])
        #expect(body == "<p><span id=\"e2a-1\">First.</span> <span id=\"e2a-4\">Third.</span></p>")
    }

    @Test func idsTheDocumentAlreadyHasAreNotGivenAgain() throws {
        let (body, _) = try wrapped("<p id=\"e2a-1\">Hello there.</p>", ["Hello there."])
        #expect(body == "<p id=\"e2a-1\"><span id=\"e2a-1-2\">Hello there.</span></p>")
    }

    @Test func quotesAndCaseDoNotMatterAndTheSpanTakesThePunctuation() throws {
        let (body, _) = try wrapped("<p>“Hello,” she said.</p>", ["\"hello,\" SHE said"])
        #expect(body == "<p><span id=\"e2a-1\">“Hello,” she said.</span></p>")
    }

    @Test func textInScriptsAndTheHeadIsNeitherSearchedNorWrapped() throws {
        let (body, _) = try wrapped(
            "<script>var a = \"Lamp light.\";</script><p>Lamp light.</p>", ["Lamp light."],
            head: "<title>Lamp light.</title>")
        #expect(body == "<script>var a = \"Lamp light.\";</script><p><span id=\"e2a-1\">Lamp light.</span></p>")
    }

    @Test func aShortSentenceIsNotLookedForFarAway() throws {
        let filler = String(repeating: "Other words here. ", count: 80)
        let (_, spans) = try wrapped("<p>Start.</p><p>\(filler)</p><p>Yes.</p>", ["Start.", "Yes."])
        #expect(spans.map(\.count) == [1, 0])
    }

    /// A title spoken from the table of contents ("1. The Lever") over a heading that words its number
    /// ("Chapter One"): the "1." is not in the heading, and the note mark "1" further on is not its
    /// place; taking it would leave the heading and the paragraph before the mark without a span.
    @Test func aSentenceFoundOnlyPastTheTextSpokenNextIsNotThere() throws {
        let (body, spans) = try wrapped(
            "<h1>Chapter One</h1><h2>The Lever and the Latch</h2>"
                + "<p>A lever waits for a push.<sup><a href=\"#n1\">1</a></sup> A latch says no.</p>",
            ["1.", "The Lever and the Latch", "A lever waits for a push.", "A latch says no."])
        #expect(spans.map(\.count) == [0, 1, 1, 1])
        #expect(
            body == "<h1>Chapter One</h1><h2><span id=\"e2a-2\">The Lever and the Latch</span></h2>"
                + "<p><span id=\"e2a-3\">A lever waits for a push.</span><sup><a href=\"#n1\">1</a></sup> "
                + "<span id=\"e2a-4\">A latch says no.</span></p>")
    }

    /// Text between two sentences that is not read (a table, a note) does not stop the next one
    /// from being found when the one after is further on still.
    @Test func aSentenceAfterUnreadTextIsFoundWhenTheNextFollowsIt() throws {
        let (body, spans) = try wrapped(
            "<p>The table below gives the ratios.</p><table><tr><td>Wheels and teeth</td></tr></table>"
                + "<p>Ten. The carry needs force at the worst moment.</p>",
            ["The table below gives the ratios.", "Ten.", "The carry needs force at the worst moment."])
        #expect(spans.map(\.count) == [1, 1, 1])
        #expect(body.contains("<p><span id=\"e2a-2\">Ten.</span> "), "\(body)")
    }

    @Test func diacriticsInEitherNormalisationFormMatch() throws {
        let (body, _) = try wrapped("<p>Caf\u{E9} cr\u{E8}me.</p>", ["Cafe\u{301} cre\u{300}me."])
        #expect(body == "<p><span id=\"e2a-1\">Caf\u{E9} cr\u{E8}me.</span></p>")
    }
}
