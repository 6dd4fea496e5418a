import AudioFiles
import Contracts
import Foundation
import TestSupport
import Testing

@testable import Conversion

/// Issue 12: in a book with volumes, chapters titled "I", "II" are named after their volume in file
/// names, tags and the playlist, through the live source and writer (with a fake engine).
@Suite struct SectionNamingTests {
    static let chapter =
        "<p>"
        + Array(repeating: "The keeper climbed the stairs and lit the lamp.", count: 12)
        .joined(separator: " ") + "</p>"

    static func volume(_ title: String) -> SmallEPUB.Entry {
        SmallEPUB.Entry(
            title: title, body: "<section epub:type='part'><h1>\(title)</h1></section>",
            children: ["I", "II"].map { SmallEPUB.Entry(title: $0, body: "<h2>\($0)</h2>\(chapter)") })
    }

    @Test func bareNumeralChaptersAreNamedAfterTheirVolume() async throws {
        let sandbox = try Sandbox()
        let book = try SmallEPUB(entries: [Self.volume("Volume One"), Self.volume("Volume Two")])
            .write(into: sandbox.root)
        let source = try EPUBSectionSource(input: BookInput(path: book))
        let chapters = source.sections.filter { $0.title.contains("—") }
        #expect(
            chapters.map(\.title) == ["Volume One — I", "Volume One — II", "Volume Two — I", "Volume Two — II"],
            "\(source.sections.map(\.title))")
        // The spoken title stays the chapter's own: the volume was just read before it.
        let first = try #require(chapters.first)
        #expect(try source.blocks(section: first.number).first?.text == "One")

        let env = epubEnvironment { FakeEngine() }
        let request = ConversionRequest(
            bookPath: book, outputDirectory: sandbox.output, selection: .numbers(chapters.map(\.number)),
            voice: VoiceSettings(voice: "en"), jobs: 1)
        let summary = try await Converter(environment: env).run(request)
        #expect(summary.sectionsDone == 4)
        let manifest = try sandbox.manifest()
        let files = manifest.sections.compactMap(\.file)
        #expect(
            files.map { String($0.dropFirst(6)) }
                == ["Volume One — I.wav", "Volume One — II.wav", "Volume Two — I.wav", "Volume Two — II.wav"],
            "\(files)")
        let playlist = String(decoding: try #require(sandbox.contents(Playlist.fileName)), as: UTF8.self)
        #expect(playlist.contains(",Volume Two — II\n"), "\(playlist)")
        for (file, title) in zip(files, chapters.map(\.title)) {
            #expect(try AudioTags.read(path: sandbox.output + "/" + file).title == title)
        }
    }
}
