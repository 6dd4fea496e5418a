import Contracts
import Conversion
import Foundation
import TestSupport
import Testing

@testable import Subtitles

/// `SubtitleFiles`: the files written into an output folder from its manifest and timing files.
struct SubtitleFilesTests {
    /// A folder with a manifest of three done sections (1 and 2 with timing files, 3 without) and a
    /// pending one.
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        var records: [SectionRecord] = []
        for (number, title) in [(1, "One"), (2, "Two"), (3, "Three"), (4, "Four")] {
            var record = SectionRecord(
                number: number, title: title, status: number == 4 ? .pending : .done,
                file: String(format: "%03d - %@.mp3", number, title))
            record.frames = 2_000
            record.sampleRate = 1_000
            records.append(record)
        }
        try Manifest(sections: records).write(toDirectory: folder.path)
        for number in [1, 2] {
            let timing = section(number: number, frames: 2_000, [sentence("Section \(number) & more.", 100, 900)])
            try SectionTimingFile.write(timing, directory: folder.path)
        }
        return folder
    }

    @Test func eachFinishedSectionGetsAFileNamedAfterItsAudio() throws {
        let folder = try Self.folder()
        let result = try SubtitleFiles.write(
            directory: folder.path, numbers: [1, 2, 3, 4], options: SubtitleOptions(format: .vtt))
        #expect(result.files == ["001 - One.vtt", "002 - Two.vtt"])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.contains("section 3 (Three)") == true)
        let text = try String(contentsOfFile: folder.path + "/001 - One.vtt", encoding: .utf8)
        #expect(text == "WEBVTT\n\n00:00:00.100 --> 00:00:00.900\nSection 1 &amp; more.\n")
        // Subtitle files are not sections: the manifest is untouched.
        let manifest = try #require(try Manifest.load(fromDirectory: folder.path))
        #expect(manifest.sections.compactMap(\.file).allSatisfy { $0.hasSuffix(".mp3") })
    }

    @Test func onlyTheSectionsAskedForAreWritten() throws {
        let folder = try Self.folder()
        let result = try SubtitleFiles.write(
            directory: folder.path, numbers: [2], options: SubtitleOptions(format: .srt))
        #expect(result.files == ["002 - Two.srt"])
        #expect(result.warnings.isEmpty)
        #expect(!folder.names.contains("001 - One.srt"))
    }

    @Test func theBooksFilePlacesEachSectionAtItsStartInTheBundle() throws {
        let folder = try Self.folder()
        let result = try SubtitleFiles.writeBook(
            directory: folder.path, numbers: [1, 2, 3], options: SubtitleOptions(format: .srt), fileName: "Book.srt")
        #expect(result.files == ["Book.srt"])
        #expect(result.warnings.count == 1)
        let cues = try StrictSubtitleParser.parseSRT(
            String(contentsOfFile: folder.path + "/Book.srt", encoding: .utf8))
        #expect(cues.map(\.startMS) == [100, 2_100])
        #expect(cues.map(\.text) == ["Section 1 & more.", "Section 2 & more."])
    }

    @Test func aTimingFileOfAnotherSectionIsRefused() throws {
        let folder = try Self.folder()
        try FileManager.default.removeItem(atPath: folder.path + "/" + SectionTiming.fileName(section: 2))
        try FileManager.default.copyItem(
            atPath: folder.path + "/" + SectionTiming.fileName(section: 1),
            toPath: folder.path + "/" + SectionTiming.fileName(section: 2))
        let result = try SubtitleFiles.write(
            directory: folder.path, numbers: [2], options: SubtitleOptions(format: .srt))
        #expect(result.files.isEmpty)
        #expect(result.warnings.first?.contains("section 2") == true)
    }

    @Test func subtitlesUnderATitleTheSectionNoLongerHasAreRemoved() throws {
        let folder = try Self.folder()
        for name in ["001 - Old One.vtt", "001 - Old One.srt", "003 - Three.vtt", "001 - Notes.txt", "Mine.vtt"] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder.path + "/" + name))
        }
        _ = try SubtitleFiles.write(directory: folder.path, numbers: [1], options: SubtitleOptions(format: .vtt))
        let names = folder.names
        #expect(names.contains("001 - One.vtt"))
        #expect(!names.contains("001 - Old One.vtt"))
        // Another format, another section, another kind of file, a name not ours: left alone.
        #expect(["001 - Old One.srt", "003 - Three.vtt", "001 - Notes.txt", "Mine.vtt"].allSatisfy(names.contains))
    }

    @Test func fileNamesKeepTheAudiosBase() {
        #expect(SubtitleFiles.fileName(replacingExtensionOf: "007 - A. B.mp3", format: .vtt) == "007 - A. B.vtt")
        #expect(
            SubtitleFiles.fileName(replacingExtensionOf: "Title - Author.m4b", format: .srt) == "Title - Author.srt")
    }

    @Test func wordTimingNeedsWebVTT() {
        #expect(SubtitleOptions(format: .srt, words: true).problem != nil)
        #expect(SubtitleOptions(format: .vtt, words: true).problem == nil)
        #expect(SubtitleOptions(format: .srt).problem == nil)
    }
}
