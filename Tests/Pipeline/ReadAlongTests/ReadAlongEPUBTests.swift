import Contracts
import EPUBReader
import Foundation
import Markup
import TestSupport
import Testing
import ZipReader

@testable import ReadAlong

/// The read-along copy of a book: what changes, what stays, what is refused.
@Suite struct ReadAlongEPUBTests {
    private let modified = Date(timeIntervalSince1970: 1_800_000_000)

    private func cue(_ spine: Int, _ text: String, _ second: Int, block: Int = 0) -> SpokenCue {
        SpokenCue(
            source: SourcePosition(spineIndex: spine, blockIndex: block), text: text, startFrame: second * 1_000,
            endFrame: second * 1_000 + 900)
    }

    @Test func onlyTheDocumentsReadChangeAndTheOthersAreCopiedAsTheyAre() throws {
        let folder = try TemporaryFolder()
        let source = try SmallEPUB(entries: [
            .init(title: "One", body: "<p>First line. Second line.</p>"),
            .init(title: "Broken", body: "<p>Open <b>bold</p>"),
            .init(title: "Skipped", body: "<p>Not read.</p>"),
        ]).write(into: folder.path)
        let audio = folder.path + "/a.mp3"
        try Data([0xFF, 0xFB, 0x90, 0x00]).write(to: URL(fileURLWithPath: audio))
        let sections = [
            ReadAlongSection(
                number: 1, audioPath: audio,
                timing: SectionTiming(
                    section: 1, sampleRate: 1_000, frames: 3_000,
                    cues: [cue(0, "One.", 0, block: -1), cue(0, "First line.", 1), cue(0, "Second line.", 2)])),
            ReadAlongSection(
                number: 2, audioPath: audio,
                timing: SectionTiming(section: 2, sampleRate: 1_000, frames: 1_000, cues: [cue(1, "Open bold", 0)])),
        ]
        let output = folder.path + "/out.epub"
        let result = try ReadAlongEPUB.write(
            bookPath: source, sections: sections, format: .mp3, to: output, modified: modified)
        #expect(result.overlaidDocuments == 1)
        #expect(result.placedSentences == 2 && result.sentences == 4)
        #expect(result.warnings.count == 1 && result.warnings[0].contains("OEBPS/f2.xhtml"))

        let before = try ZipArchive(path: source)
        let after = try ZipArchive(path: output)
        #expect(try after.read("OEBPS/f2.xhtml") == before.read("OEBPS/f2.xhtml"))
        #expect(try after.read("OEBPS/f3.xhtml") == before.read("OEBPS/f3.xhtml"))
        #expect(try after.read("OEBPS/nav.xhtml") == before.read("OEBPS/nav.xhtml"))
        let first = String(decoding: try after.read("OEBPS/f1.xhtml"), as: UTF8.self)
        #expect(first.contains("<p><span id=\"e2a-2\">First line.</span> <span id=\"e2a-3\">Second line.</span></p>"))
        #expect(first.contains("<link rel=\"stylesheet\" type=\"text/css\" href=\"read-along/read-along.css\"/>"))
        // Section 2 has no sentence in the text: its audio is not carried.
        #expect(try after.read("OEBPS/read-along/section-001.mp3") == [0xFF, 0xFB, 0x90, 0x00])
        #expect(after.entry(named: "OEBPS/read-along/section-002.mp3") == nil)
        let smil = String(decoding: try after.read("OEBPS/read-along/overlay-001.smil"), as: UTF8.self)
        #expect(smil.contains("<text src=\"../f1.xhtml#e2a-2\"/>"))
        // The made-up title's second goes to the first sentence found; the last runs to its end.
        #expect(smil.contains("clipBegin=\"0:00:00.000\" clipEnd=\"0:00:02.000\""))
        #expect(smil.contains("clipBegin=\"0:00:02.000\" clipEnd=\"0:00:02.900\""))

        let opf = String(decoding: try after.read("OEBPS/content.opf"), as: UTF8.self)
        #expect(
            opf.contains(
                "<item id=\"i0\" href=\"f1.xhtml\" media-type=\"application/xhtml+xml\" media-overlay=\"e2a-overlay-001\"/>"
            ))
        #expect(opf.contains("<item id=\"i1\" href=\"f2.xhtml\" media-type=\"application/xhtml+xml\"/>"))
        #expect(opf.contains("<meta property=\"media:duration\" refines=\"#e2a-overlay-001\">0:00:02.900</meta>"))
        #expect(opf.contains("<meta property=\"media:duration\">0:00:02.900</meta>"))
        #expect(opf.contains("<meta property=\"media:active-class\">-epub-media-overlay-active</meta>"))
        #expect(opf.contains("<meta property=\"dcterms:modified\">2027-01-15T08:00:00Z</meta>"))
        #expect(!opf.contains("2024-01-01T00:00:00Z"))
        #expect(opf.contains("href=\"read-along/section-001.mp3\" media-type=\"audio/mpeg\""))
        // The copy opens as a book.
        #expect(try EPUBBook.open(path: output).package.spine.count == 3)
    }

    @Test(arguments: [AudioFormat.wav, .flac, .ogg])
    func formatsThatAreNotEPUBCoreMediaTypesAreRefused(format: AudioFormat) throws {
        let book = try EPUBBook.open(
            path: packageRoot.appendingPathComponent("samples/the-lighthouse-keepers-daughter.epub").path)
        #expect(throws: ReadAlongError.audioFormat(format)) { try ReadAlongEPUB.check(book.package, format: format) }
        #expect(ReadAlongEPUB.mediaType(for: format) == nil)
    }

    @Test func mp3AndOpusAreCoreMediaTypes() {
        #expect(ReadAlongEPUB.mediaType(for: .mp3) == "audio/mpeg")
        #expect(ReadAlongEPUB.mediaType(for: .opus) == "audio/ogg; codecs=opus")
    }

    @Test func theCopyOfAnEPUB2BookIsAnEPUB3PackageWithANavMadeFromItsNCX() throws {
        let folder = try TemporaryFolder()
        let source = packageRoot.appendingPathComponent("samples/a-treatise-on-small-machines.epub").path
        let audio = folder.path + "/a.mp3"
        try Data([0xFF, 0xFB, 0x90, 0x00]).write(to: URL(fileURLWithPath: audio))
        let book = try EPUBBook.open(path: source)
        let spineIndex = try #require(book.package.spine.firstIndex { $0.item.href == "part0004.xhtml" })
        let markup = try EditableMarkup(xml: try book.data(forHref: "part0004.xhtml"), documentName: "part0004.xhtml")
        let paragraph = try #require(markup.elements(named: "p").first)
        let sentence = String(markup.text(of: paragraph).split(separator: ".")[0]) + "."
        let sections = [
            ReadAlongSection(
                number: 1, audioPath: audio,
                timing: SectionTiming(
                    section: 1, sampleRate: 1_000, frames: 1_000, cues: [cue(spineIndex, sentence, 0)]))
        ]
        let output = folder.path + "/out.epub"
        let result = try ReadAlongEPUB.write(
            bookPath: source, sections: sections, format: .mp3, to: output, modified: modified)
        #expect(result.overlaidDocuments == 1 && result.warnings.isEmpty)
        let after = try ZipArchive(path: output)
        let opf = String(decoding: try after.read("OEBPS/content.opf"), as: UTF8.self)
        #expect(opf.contains("version=\"3.0\"") && !opf.contains("opf:role"))
        #expect(opf.contains("<spine toc=\"ncx\">"))
        #expect(
            opf.contains(
                "<item id=\"e2a-nav\" href=\"read-along/nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>"
            ))
        let nav = String(decoding: try after.read("OEBPS/read-along/nav.xhtml"), as: UTF8.self)
        #expect(nav.contains("<li><a href=\"../part0004.xhtml\">1. The Lever and the Latch</a></li>"))
        // Every content document has the HTML5 document type, read or not; the NCX stays.
        for name in ["OEBPS/part0004.xhtml", "OEBPS/part0005.xhtml", "OEBPS/colophon.xhtml"] {
            let document = String(decoding: try after.read(name), as: UTF8.self)
            #expect(document.contains("<!DOCTYPE html>\n") && !document.contains("XHTML 1.1"), "\(name)")
        }
        #expect(try after.read("OEBPS/toc.ncx") == ZipArchive(path: source).read("OEBPS/toc.ncx"))
        let copy = try EPUBBook.open(path: output).package
        #expect(copy.version == "3.0" && copy.tocSource == .nav && copy.spine.count == book.package.spine.count)
    }

    @Test func aBookThatIsNeitherEPUB2Nor3IsRefused() throws {
        var package = try EPUBBook.open(
            path: packageRoot.appendingPathComponent("samples/a-treatise-on-small-machines.epub").path
        ).package
        #expect(throws: Never.self) { try ReadAlongEPUB.check(package, format: .mp3) }
        package.version = "1.0"
        #expect(throws: ReadAlongError.notEPUB3(version: "1.0")) { try ReadAlongEPUB.check(package, format: .mp3) }
    }

    @Test func aBookWithMediaOverlaysOfItsOwnIsRefused() throws {
        let book = try EPUBBook.open(
            path: packageRoot.appendingPathComponent("samples/the-lighthouse-keepers-daughter.epub").path)
        var package = book.package
        package.manifest.append(ManifestItem(id: "mo", href: "mo.smil", mediaType: "application/smil+xml"))
        #expect(throws: ReadAlongError.hasMediaOverlays) { try ReadAlongEPUB.check(package, format: .mp3) }
        #expect(throws: Never.self) { try ReadAlongEPUB.check(book.package, format: .mp3) }
    }

    @Test func theFileIsNamedAfterTheTitleAndAuthors() {
        #expect(
            ReadAlongEPUB.fileName(title: "The Keeper: A Tale", authors: ["Ann Lee", "Bo Ko"])
                == "The Keeper - A Tale - Ann Lee, Bo Ko (read-along).epub")
        #expect(ReadAlongEPUB.fileName(title: "Alone", authors: []) == "Alone (read-along).epub")
    }
}
