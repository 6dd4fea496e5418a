import Contracts
import EPUBReader
import Foundation
import Markup
import TestSupport
import Testing
import ZipReader

@testable import ReadAlong

/// The package root (`#filePath` is …/Tests/Pipeline/ReadAlongTests/EPUBCheckTests.swift).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// Books of the corpus (`../shared/corpus/real`) of different producers and languages.
private let corpusBooks = [
    "se_h-g-wells_the-time-machine.epub",  // Standard Ebooks, English
    "pandoc_pushkin_povesti-belkina_ru.epub",  // pandoc, Russian
    "framabook_histoires-et-cultures-du-libre_fr.epub",  // Framabook, French
    "pg_nietzsche_also-sprach-zarathustra_de.epub",  // Project Gutenberg, German
    "pg_wu-chengen_xiyouji_zh.epub",  // Project Gutenberg, Chinese
    "idpf_regime-anticancer-arabic.epub",  // IDPF sample, Arabic
    "epubjs_carroll_alice-in-wonderland.epub",  // epub.js sample, English
    "calibre_lonnrot_kalevala_fi.epub",  // calibre, EPUB 2, Finnish
    "pg_dickens_a-christmas-carol.epub",  // Project Gutenberg, EPUB 2, English (HTML 4 table attributes)
    "sigil_andersen_eventyr-og-historier_da.epub",  // Sigil, EPUB 2, Danish (non-linear documents, empty titles)
    "pg_luxemburg_briefe-aus-dem-gefaengnis_de.epub",  // Project Gutenberg, EPUB 2, German (<big>, http-equiv)
]

private func corpusPath(_ name: String) -> String {
    packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/real/\(name)").path
}

/// What EPUBCheck 5.3.0 says of read-along books made from the samples and from corpus books, with
/// sentence timing made up from their paragraphs (the writer's part: the pipeline's own timing is
/// tested with the CLI): nothing it does not say of the source.
@Suite(.serialized) struct EPUBCheckTests {
    static let ready = EPUBCheck.missing == nil && FFTools.installed

    @Test(
        .enabled(if: ready, "EPUBCheck, Java or ffmpeg is missing: the read-along EPUBCheck tests are skipped"),
    )
    func theReadAlongSampleGivesNoNewMessage() throws {
        try check(packageRoot.appendingPathComponent("samples/the-lighthouse-keepers-daughter.epub").path)
    }

    /// An EPUB 2 book: its read-along copy is an EPUB 3 package that EPUBCheck checks as EPUB 3.
    @Test(
        .enabled(if: ready, "EPUBCheck, Java or ffmpeg is missing: the read-along EPUBCheck tests are skipped"),
    )
    func theEPUB2SampleGivesNoNewMessage() throws {
        try check(packageRoot.appendingPathComponent("samples/a-treatise-on-small-machines.epub").path)
    }

    @Test(
        .enabled(if: ready, "EPUBCheck, Java or ffmpeg is missing: the read-along EPUBCheck tests are skipped"),
        arguments: corpusBooks)
    func aReadAlongCorpusBookGivesNoNewMessage(name: String) throws {
        let path = corpusPath(name)
        try #require(FileManager.default.fileExists(atPath: path), "\(name) is not in ../shared/corpus/real")
        try check(path)
    }

    private func check(_ source: String) throws {
        let folder = try TemporaryFolder()
        let audio = folder.path + "/silence.mp3"
        try makeSilence(audio, seconds: 2)
        let sections = try MadeUpTiming.sections(of: source, audioPath: audio, documents: 4)
        try #require(!sections.isEmpty)
        let output = folder.path + "/out (read-along).epub"
        let result = try ReadAlongEPUB.write(
            bookPath: source, sections: sections, format: .mp3, to: output,
            modified: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(result.overlaidDocuments > 0)
        // Every sentence but the made-up titles is in the text.
        let titles = sections.count
        #expect(
            result.placedSentences * 10 >= (result.sentences - titles) * 9,
            "\(result.placedSentences) of \(result.sentences - titles)")
        let new = try EPUBCheck.newMessages(in: output, comparedWith: source)
        #expect(new.isEmpty, "\(new.map(\.description).joined(separator: "\n"))")
        // Every file of the source is still there, `mimetype` first and stored.
        let written = try ZipArchive(path: output)
        #expect(written.entries.first?.name == "mimetype" && written.entries.first?.isStored == true)
        let names = Set(written.entries.map(\.name))
        let sourceNames = try ZipArchive(path: source).entries.filter { !$0.isDirectory }.map(\.name)
        #expect(sourceNames.allSatisfy(names.contains))
    }

    private func makeSilence(_ path: String, seconds: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "anullsrc=r=22050:cl=mono", "-t", "\(seconds)",
            "-c:a", "libmp3lame", "-b:a", "32k", path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
    }
}

/// Sentence timing made up from a book's paragraphs: one section per content document (the first
/// `documents` with text), its paragraphs cut at full stops, a second per sentence, a made-up title first.
enum MadeUpTiming {
    static func sections(of path: String, audioPath: String, documents: Int) throws -> [ReadAlongSection] {
        let book = try EPUBBook.open(path: path)
        var sections: [ReadAlongSection] = []
        for item in book.package.spine where sections.count < documents {
            guard item.item.mediaType == "application/xhtml+xml",
                let markup = try? EditableMarkup(xml: try book.data(forHref: item.href), documentName: item.href)
            else { continue }
            var cues = [
                SpokenCue(
                    source: SourcePosition(spineIndex: item.index, blockIndex: -1), text: "A title.", startFrame: 0,
                    endFrame: 11_025)
            ]
            for paragraph in markup.elements(named: "p").prefix(30) {
                let text = markup.text(of: paragraph)
                for sentence in text.split(separator: ". ") where sentence.contains(where: \.isLetter) {
                    let start = cues.count * 22_050
                    cues.append(
                        SpokenCue(
                            source: SourcePosition(spineIndex: item.index, blockIndex: 0),
                            text: sentence.split(whereSeparator: \.isWhitespace).joined(separator: " "),
                            startFrame: start, endFrame: start + 20_000))
                }
            }
            guard cues.count > 1 else { continue }
            let timing = SectionTiming(
                section: sections.count + 1, sampleRate: 22_050, frames: cues.count * 22_050, cues: cues)
            sections.append(ReadAlongSection(number: sections.count + 1, audioPath: audioPath, timing: timing))
        }
        return sections
    }
}
