import Foundation
import Testing

@testable import Contracts

private func block(
    _ kind: BlockKind, _ text: String = "", language: String? = nil, spine: Int = 0, _ index: Int
) -> SpokenBlock {
    SpokenBlock(
        kind: kind, text: text, language: language, source: SourcePosition(spineIndex: spine, blockIndex: index))
}

private func pauseBlock(_ kind: BlockKind, _ index: Int) -> SpokenBlock {
    block(kind, "", index)
}

private func words(_ text: String) -> [Substring] {
    text.split(whereSeparator: \.isWhitespace)
}

/// The chunk's text is exactly the UTF-16 range of its block's text.
private func textAtRange(_ chunk: SpeechChunk, in block: SpokenBlock) -> String {
    String(decoding: Array(block.text.utf16)[chunk.textRange], as: UTF16.self)
}

@Suite struct ChunkerTests {
    let options = ChunkerOptions()

    @Test func groupsSentencesUpToTheTarget() {
        let sentence = "This sentence has exactly forty-eight characters."
        let text = Array(repeating: sentence, count: 30).joined(separator: " ")
        let b = block(.paragraph, text, 3)
        let chunker = Chunker(options: ChunkerOptions(targetCharacters: 200, maxCharacters: 400))
        let chunks = chunker.chunks(section: 1, blocks: [b])
        #expect(chunks.count == 8)  // 4 sentences (4 * 49 - 1 = 195) fit in 200, 30 / 4 → 8 chunks
        for chunk in chunks {
            #expect(chunk.text.unicodeScalars.count <= 200)
            #expect(chunk.text.hasSuffix("."))
            #expect(textAtRange(chunk, in: b) == chunk.text)
        }
        #expect(words(chunks.map(\.text).joined(separator: " ")) == words(text))
    }

    @Test func aSentenceLongerThanTheTargetStaysWhole() {
        let long = "Then " + String(repeating: "word ", count: 40) + "end."
        let b = block(.paragraph, "Short one. " + long + " Short two.", 0)
        let chunks = Chunker(options: ChunkerOptions(targetCharacters: 50, maxCharacters: 1000))
            .chunks(section: 0, blocks: [b])
        #expect(chunks.map(\.text) == ["Short one.", long, "Short two."])
    }

    @Test func veryLongSentencesSplitAtClausePunctuationNeverInsideAWord() throws {
        let clause = "and then the traveller walked on through the rain, "
        let text = String(repeating: clause, count: 60) + "until he arrived."
        let b = block(.paragraph, text, 0)
        let chunks = Chunker(options: ChunkerOptions(targetCharacters: 300, maxCharacters: 500))
            .chunks(section: 0, blocks: [b])
        #expect(chunks.count > 1)
        for chunk in chunks.dropLast() {
            #expect(chunk.text.unicodeScalars.count <= 500)
            #expect(chunk.text.hasSuffix(","), "cut at a comma: \(chunk.text.suffix(20))")
            #expect(textAtRange(chunk, in: b) == chunk.text)
        }
        #expect(words(chunks.map(\.text).joined(separator: " ")) == words(text))
    }

    @Test func semicolonsAndDashesBeatCommas() {
        let text = String(repeating: "a, ", count: 20) + "first part; " + String(repeating: "b, ", count: 20) + "end."
        let chunks = Chunker(options: ChunkerOptions(targetCharacters: 60, maxCharacters: 100))
            .chunks(section: 0, blocks: [block(.paragraph, text, 0)])
        #expect(chunks.first?.text.hasSuffix("first part;") == true)
        let dashed = String(repeating: "x, ", count: 10) + "one — two " + String(repeating: "y ", count: 20)
        let dashChunks = Chunker(options: ChunkerOptions(targetCharacters: 40, maxCharacters: 50))
            .chunks(section: 0, blocks: [block(.paragraph, dashed, 0)])
        #expect(dashChunks.first?.text.hasSuffix("one —") == true)
    }

    @Test func withoutPunctuationItCutsAtSpaces() {
        let text = (0..<400).map { "w\($0)" }.joined(separator: " ")
        let chunks = Chunker(options: ChunkerOptions(targetCharacters: 100, maxCharacters: 120))
            .chunks(section: 0, blocks: [block(.paragraph, text, 0)])
        for chunk in chunks { #expect(chunk.text.unicodeScalars.count <= 120) }
        #expect(words(chunks.map(\.text).joined(separator: " ")) == words(text))
    }

    @Test func aSingleGiantWordIsCutBetweenGraphemes() {
        let text = String(repeating: "e\u{301}", count: 300)  // é as e + combining acute
        let chunks = Chunker(options: ChunkerOptions(targetCharacters: 50, maxCharacters: 101))
            .chunks(section: 0, blocks: [block(.paragraph, text, 0)])
        #expect(chunks.count > 1)
        for chunk in chunks {
            #expect(chunk.text.unicodeScalars.count <= 101)
            #expect(chunk.text.unicodeScalars.first == "e")
        }
        #expect(chunks.map(\.text).joined() == text)
    }

    @Test func aGraphemeClusterLongerThanTheLimitIsCutAtTheLimit() {
        // A letter under 1,000 combining marks: full pieces, not one scalar at a time.
        let text = "Hello a" + String(repeating: "\u{301}", count: 1_000) + " world."
        let chunks = Chunker(options: ChunkerOptions(targetCharacters: 50, maxCharacters: 101))
            .chunks(section: 0, blocks: [block(.paragraph, text, 0)])
        #expect(chunks.count <= 12, "\(chunks.count) pieces")
        for chunk in chunks { #expect(chunk.text.unicodeScalars.count <= 101) }
        #expect(chunks.map(\.text).joined().unicodeScalars.filter { $0 == "\u{301}" }.count == 1_000)
    }

    @Test func idsFollowTheDocumentedFormatAndAreDeterministic() {
        let blocks = [
            block(.title, "Chapter One", spine: 4, 0),
            block(.paragraph, "First. Second.", spine: 4, 7),
            block(.paragraph, String(repeating: "Long sentence here. ", count: 80), spine: 5, 2),
        ]
        let chunker = Chunker()
        let first = chunker.chunks(section: 3, blocks: blocks)
        #expect(first == chunker.chunks(section: 3, blocks: blocks))
        #expect(Array(first.prefix(2)).map(\.id) == ["s3-b4.0-c0", "s3-b4.7-c0"])
        #expect(first.dropFirst(2).map(\.id) == (0..<(first.count - 2)).map { "s3-b5.2-c\($0)" })
        #expect(Set(first.map(\.id)).count == first.count)
        // A block's ids do not depend on the blocks before it.
        let alone = chunker.chunks(section: 3, blocks: [blocks[2]])
        #expect(alone.map(\.id) == first.dropFirst(2).map(\.id))
        #expect(alone.map(\.textRange) == first.dropFirst(2).map(\.textRange))
    }

    @Test func pausesComeFromBlockStructure() throws {
        let blocks = [
            block(.title, "Chapter One", 0),
            block(.paragraph, "A paragraph.", 1),
            block(.heading, "A heading", 2),
            block(.paragraph, "After the heading.", 3),
            pauseBlock(.sceneBreak, 4),
            block(.paragraph, "New scene.", 5),
            block(.poemLine, "Roses are red,", 6),
            block(.poemLine, "violets are blue.", 7),
            pauseBlock(.stanzaBreak, 8),
            block(.poemLine, "Second stanza.", 9),
            block(.listItem, "Item one.", 10),
            block(.listItem, "Item two.", 11),
            block(.blockQuote, "Quoted.", 12),
            block(.paragraph, "The end.", 13),
        ]
        let chunks = Chunker(options: options).chunks(section: 0, blocks: blocks)
        #expect(chunks.count == 12)
        let after = chunks.map(\.pauseAfterMS)
        let o = options
        #expect(
            after == [
                o.afterTitleMS,  // title
                o.headingBeforeMS,  // paragraph before a heading: the larger pause wins
                o.headingAfterMS,
                o.sceneBreakMS,
                o.paragraphMS,
                o.poemLineMS,
                o.stanzaMS,
                o.stanzaMS,  // last line of a poem
                o.listItemMS,
                o.paragraphMS,  // end of the list
                o.blockQuoteMS,
                o.sectionEndMS,
            ])
        #expect(chunks.allSatisfy { $0.pauseBeforeMS == 0 })
    }

    @Test func breaksAtTheEdgesOfASection() {
        let chunks = Chunker().chunks(
            section: 2,
            blocks: [pauseBlock(.sceneBreak, 0), block(.paragraph, "Only text.", 1), pauseBlock(.sceneBreak, 2)])
        #expect(chunks.count == 1)
        #expect(chunks[0].pauseBeforeMS == options.sceneBreakMS)
        #expect(chunks[0].pauseAfterMS == max(options.sectionEndMS, options.sceneBreakMS))
        #expect(Chunker().chunks(section: 0, blocks: [pauseBlock(.sceneBreak, 0), block(.paragraph, "  ", 1)]).isEmpty)
    }

    @Test func chunksWithinABlockHaveNoPauseButTheLast() {
        let text = String(repeating: "Sentence number something. ", count: 60)
        let chunks = Chunker().chunks(section: 0, blocks: [block(.paragraph, text, 0), block(.paragraph, "x.", 1)])
        let firstBlock = chunks.filter { $0.source.blockIndex == 0 }
        #expect(firstBlock.count > 1)
        #expect(firstBlock.dropLast().allSatisfy { $0.pauseAfterMS == 0 })
        #expect(firstBlock.last?.pauseAfterMS == options.paragraphMS)
    }

    @Test func languageAndSourceAreCarried() {
        let b = block(.blockQuote, "Je pense, donc je suis. C'est tout.", language: "fr", spine: 2, 9)
        let chunks = Chunker().chunks(section: 1, blocks: [b])
        #expect(chunks.count == 1)
        #expect(chunks[0].language == "fr")
        #expect(chunks[0].source == b.source)
        #expect(chunks[0].section == 1)
    }

    @Test func nonASCIITextRangesAreUTF16() {
        let b = block(.paragraph, "  Ça va 😀 très bien. Und dann?  ", 0)
        let chunks = Chunker(options: ChunkerOptions(targetCharacters: 10)).chunks(section: 0, blocks: [b])
        #expect(chunks.map(\.text) == ["Ça va 😀 très bien.", "Und dann?"])
        for chunk in chunks { #expect(textAtRange(chunk, in: b) == chunk.text) }
        #expect(chunks[0].textRange == 2..<21)
    }

    @Test func theLazySequenceMatchesAndReadsAheadOnlyOneBlock() {
        final class Counter: @unchecked Sendable { var pulled = 0 }  // single-threaded test helper
        let counter = Counter()
        let blocks = (0..<1000).lazy.map { i -> SpokenBlock in
            counter.pulled += 1
            return block(.paragraph, "Paragraph \(i) is here. It has two sentences.", i)
        }
        var iterator = Chunker().lazyChunks(section: 0, blocks: blocks).makeIterator()
        let first = iterator.next()
        #expect(first?.id == "s0-b0.0-c0")
        #expect(counter.pulled == 2)
        let eager = Chunker().chunks(section: 0, blocks: Array(blocks))
        #expect(Array(Chunker().lazyChunks(section: 0, blocks: blocks)) == eager)
        #expect(eager.count == 1000)
    }

    @Test func optionsDecodeWithMissingKeys() throws {
        let json = Data(#"{"targetCharacters": 321, "sceneBreakMS": 2000}"#.utf8)
        let decoded = try JSONDecoder().decode(ChunkerOptions.self, from: json)
        var expected = ChunkerOptions()
        expected.targetCharacters = 321
        expected.sceneBreakMS = 2000
        #expect(decoded == expected)
        let roundTrip = try JSONDecoder().decode(ChunkerOptions.self, from: JSONEncoder().encode(expected))
        #expect(roundTrip == expected)
    }
}
