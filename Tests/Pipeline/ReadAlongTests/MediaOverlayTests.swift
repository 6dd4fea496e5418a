import Contracts
import Markup
import Testing

@testable import ReadAlong

/// The clips of the sentences found and the SMIL documents.
@Suite struct MediaOverlayTests {
    private func cue(_ start: Int, _ end: Int, block: Int = 0) -> SpokenCue {
        SpokenCue(source: SourcePosition(spineIndex: 0, blockIndex: block), text: "x", startFrame: start, endFrame: end)
    }

    @Test func clipsRunFromOneFoundSentenceToTheNextWithoutGaps() {
        let cues = [cue(100, 900), cue(1_000, 1_900), cue(2_000, 2_500)]
        let spans = [
            [SentenceSpan(id: "a", length: 5)], [SentenceSpan(id: "b", length: 5)], [SentenceSpan(id: "c", length: 5)],
        ]
        let clips = MediaOverlay.clips(for: cues, spans: spans, sampleRate: 1_000)
        #expect(clips.map { $0.map(\.begin) } == [[100], [1_000], [2_000]])
        #expect(clips.map { $0.map(\.end) } == [[1_000], [2_000], [2_500]])
    }

    @Test func aSentenceNotFoundGivesItsTimeToTheOneBeforeAndLeadingOnesToTheFirstFound() {
        let cues = [cue(0, 500, block: -1), cue(600, 900), cue(1_000, 1_900), cue(2_000, 2_500)]
        let spans = [[], [SentenceSpan(id: "a", length: 1)], [], [SentenceSpan(id: "c", length: 1)]]
        let clips = MediaOverlay.clips(for: cues, spans: spans, sampleRate: 1_000)
        #expect(clips[1].map(\.begin) == [0])
        #expect(clips[1].map(\.end) == [2_000])
        #expect(clips[0].isEmpty && clips[2].isEmpty)
        #expect(clips[3].map(\.end) == [2_500])
    }

    @Test func aSentenceInSeveralSpansSharesItsTimeByLength() {
        let parts = MediaOverlay.split(
            1_000..<2_000, among: [SentenceSpan(id: "a", length: 30), SentenceSpan(id: "b", length: 10)])
        #expect(parts.map(\.id) == ["a", "b"])
        #expect(parts.map(\.begin) == [1_000, 1_750])
        #expect(parts.map(\.end) == [1_750, 2_000])
    }

    @Test func aSpanWhoseShareRoundsToNothingGetsNoClip() {
        let parts = MediaOverlay.split(
            0..<2, among: [SentenceSpan(id: "a", length: 100), SentenceSpan(id: "b", length: 1)])
        #expect(parts.map(\.id) == ["a"])
    }

    @Test(arguments: [(0, "0:00:00.000"), (62_345, "0:01:02.345"), (3_600_000 * 12 + 5, "12:00:00.005")])
    func clockValues(milliseconds: Int, clock: String) {
        #expect(MediaOverlay.clock(milliseconds) == clock)
    }

    @Test func theSMILDocumentIsWellFormedAndLinksEachSpanAndClip() throws {
        let smil = MediaOverlay.smil(
            textHref: "../text/a%20b.xhtml",
            pars: [
                OverlayPar(textID: "e2a-1", audioHref: "section-001.mp3", begin: 0, end: 1_500),
                OverlayPar(textID: "e2a-2", audioHref: "section-001.mp3", begin: 1_500, end: 2_000),
            ])
        let document = try EditableMarkup(xml: Array(smil.utf8), documentName: "o.smil")
        let texts = document.elements(named: "text", namespace: "http://www.w3.org/ns/SMIL")
        #expect(
            texts.compactMap { document.attribute("src", of: $0) } == [
                "../text/a%20b.xhtml#e2a-1", "../text/a%20b.xhtml#e2a-2",
            ])
        let audios = document.elements(named: "audio")
        #expect(audios.compactMap { document.attribute("clipEnd", of: $0) } == ["0:00:01.500", "0:00:02.000"])
    }
}
