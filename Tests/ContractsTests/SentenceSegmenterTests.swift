import Testing

@testable import Contracts

/// `|` marks where a sentence must end; the text spoken is the same string without the marks.
private func check(_ marked: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let plain = marked.replacing("|", with: "")
    let expected = marked.split(separator: "|").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    let utf16 = Array(plain.utf16)
    let found = SentenceSegmenter.sentenceRanges(in: plain).map { range in
        String(decoding: utf16[range], as: UTF16.self)
    }
    #expect(found == expected, sourceLocation: sourceLocation)
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

@Suite struct SentenceSegmenterTests {
    @Test(arguments: [
        "Hello world. | How are you? | Fine!",
        "It rained!!! | We stayed in. | Did you?! | Yes.",
        "One sentence without a final stop",
        "Ends with spaces.   ",
    ])
    func basicTerminators(_ marked: String) { check(marked) }

    @Test(arguments: [
        "He said, “Stop.” | Then he left.",
        "“Really?” she asked. | “Yes.” | “Good.”",
        "\"Run!\" he shouted. | \"Now!\"",
        "(This is an aside.) | Next sentence.",
        "Il a dit « Bonjour. » | Puis il est parti.",
        "Il a dit «\u{00A0}Non\u{00A0}!\u{00A0}» | Puis il est parti.",
        "She whispered, ‘Go.’ | He went.",
        "“Wait — what?” | “Nothing,” she said.",
    ])
    func dialogueAndClosingPunctuation(_ marked: String) { check(marked) }

    @Test(arguments: [
        "Mr. Smith met Dr. Jones and Mrs. Brown. | They talked.",
        "Prof. Xavier lives on St. James Street. | Nice.",
        "Compare cats vs. Dogs in Fig. 3 and see p. 12. | Done.",
        "Apples, pears, etc. and more. | Then we ate.",
        "Apples, pears, etc. | Then we ate.",
        "Smith et al. Found it first. | Really.",
        "See No. 5 and Vol. 2 of the series. | Good.",
        "No. | I won't. | Never.",
        "E.g. This is an example, i.e. A demonstration. | End.",
        "Approx. Forty people came, cf. Chapter two. | Right.",
        "Martin Luther King Jr. was born in 1929. | He died in 1968.",
    ])
    func englishAbbreviations(_ marked: String) { check(marked) }

    @Test(arguments: [
        "J. R. R. Tolkien wrote it. | It was long.",
        "The U.S. Army arrived. | Good.",
        "Pi is roughly 3.14 and e is 2.718. | Yes.",
        "Version 2.0 is out! | Get it at example.com today.",
        "1. Preheat the oven to 200 degrees. | Then wait.",
        "IV. The return of the king. | It ends.",
        "He was born in 1984. | She in 1990.",
        "He paused... | Then he spoke. | Fine.",
        "I thought… maybe not. | Right.",
        "Wait... what was that? | Nothing.",
        "It cost $5.50. | Cheap.",
    ])
    func initialsNumbersAndEllipses(_ marked: String) { check(marked) }

    @Test(arguments: [
        "M. Dupont est arrivé. | Mme. Martin aussi.",
        "Das ist z.B. ein Test. | Er kam usw. und ging. | Fertig.",
        "Siehe Nr. 4 und S. 7 im Band. | Ende.",
        "¿Dónde está el Sr. García? | ¡Aquí! | La Sra. López también.",
        "今日は晴れです。|明日は雨です。|",
        "Это первое предложение. | Это второе!",
        "Ένα. | Δύο.",
    ])
    func otherLanguages(_ marked: String) { check(marked) }

    @Test func rangesAreUTF16OffsetsIntoTheText() {
        let text = "Café 😀 ouvert. Ñandú corre."
        let ranges = SentenceSegmenter.sentenceRanges(in: text)
        let utf16 = Array(text.utf16)
        #expect(ranges.count == 2)
        #expect(ranges.map { String(decoding: utf16[$0], as: UTF16.self) } == ["Café 😀 ouvert.", "Ñandú corre."])
        // The emoji is two UTF-16 units: the second sentence starts after 16 of them.
        #expect(ranges.last?.lowerBound == 16)
    }

    @Test func emptyAndBlankTextHaveNoSentences() {
        #expect(SentenceSegmenter.sentenceRanges(in: "").isEmpty)
        #expect(SentenceSegmenter.sentenceRanges(in: " \n\t ").isEmpty)
    }
}
