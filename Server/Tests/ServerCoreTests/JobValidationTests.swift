import Foundation
import LiveConversion
import Testing

@testable import ServerCore

/// What a job is checked for before it is stored (`ConversionAdapter.validate`).
@Suite struct JobValidationTests {
    /// A bundle needs ffmpeg, whatever the voice: `auto` is not let through unchecked.
    @Test(arguments: ["auto", "AUTO", "en"])
    func aBundleWithoutFFmpegIsRefused(voice: String) {
        let options = JobOptions(voice: voice, bundle: "m4b")
        #expect(throws: ConversionAdapter.Failure.self) { try ConversionAdapter.validate(options, ffmpeg: nil) }
        #expect(throws: Never.self) { try ConversionAdapter.validate(options, ffmpeg: "/usr/bin/ffmpeg") }
    }

    /// A bundle format the CLI does not know is refused even with ffmpeg.
    @Test func anUnknownBundleIsRefused() {
        #expect(throws: ConversionAdapter.Failure.self) {
            try ConversionAdapter.validate(JobOptions(bundle: "wav"), ffmpeg: "/usr/bin/ffmpeg")
        }
    }

    /// Subtitles as the CLI takes them: srt or vtt, word timing with vtt only.
    @Test(arguments: [
        (JobOptions(subtitles: "ass"), false), (JobOptions(subtitlesWords: true), false),
        (JobOptions(subtitles: "srt", subtitlesWords: true), false), (JobOptions(subtitles: "srt"), true),
        (JobOptions(subtitles: "vtt", subtitlesWords: true), true),
    ])
    func subtitlesAreCheckedAsTheCLIChecksThem(options: JobOptions, accepted: Bool) {
        if accepted {
            #expect(throws: Never.self) { try ConversionAdapter.validate(options, ffmpeg: nil) }
        } else {
            #expect(throws: ConversionAdapter.Failure.self) { try ConversionAdapter.validate(options, ffmpeg: nil) }
        }
    }

    /// The read-along book takes MP3 or Opus sections, as `--bundle epub` (which needs no ffmpeg);
    /// FLAC, WAV and Vorbis are refused with the CLI's reason.
    @Test(arguments: [("mp3", true), ("opus", true), ("flac", false), ("wav", false), ("ogg", false)])
    func aReadAlongBookNeedsACoreAudioType(format: String, accepted: Bool) {
        let options = JobOptions(format: format, bundle: "epub")
        if accepted {
            #expect(throws: Never.self) { try ConversionAdapter.validate(options, ffmpeg: nil) }
        } else {
            #expect {
                try ConversionAdapter.validate(options, ffmpeg: "/usr/bin/ffmpeg")
            } throws: { error in
                "\(error)" == "bundle epub needs format mp3 or opus (the EPUB core audio types), not \(format)"
            }
        }
    }

    /// An EPUB 2 book gives a read-along book (its copy is made an EPUB 3 package): planning the job
    /// succeeds, with the sections the CLI would make.
    @Test func aReadAlongJobOfAnEPUB2BookIsPlanned() throws {
        let book = Paths.sample("a-treatise-on-small-machines.epub")
        let plan = try ConversionAdapter.plan(
            bookPath: book, displayName: "b", options: try ServiceAPI.options(.init(bundle: .epub)))
        #expect(!plan.sections.isEmpty)
    }

    /// A book with Media Overlays of its own cannot give a read-along book: planning the job fails
    /// with the CLI's sentence, for good (no retry), before any section is made.
    @Test func aReadAlongJobOfABookWithMediaOverlaysFailsForGood() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let book = folder.path + "/overlaid.epub"
        try FileManager.default.copyItem(atPath: Paths.sample("the-lighthouse-keepers-daughter.epub"), toPath: book)
        let package = try #require(
            String(decoding: try runProcess("/usr/bin/unzip", ["-Z1", book]), as: UTF8.self)
                .split(separator: "\n").first { $0.hasSuffix(".opf") }.map(String.init))
        let text = String(decoding: try runProcess("/usr/bin/unzip", ["-p", book, package]), as: UTF8.self)
        let extracted = folder.path + "/" + package
        try FileManager.default.createDirectory(
            atPath: (extracted as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.replacingOccurrences(
            of: "</manifest>", with: #"<item id="mo" href="mo.smil" media-type="application/smil+xml"/></manifest>"#
        ).write(toFile: extracted, atomically: true, encoding: .utf8)
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        zip.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        zip.arguments = ["-q", book, package]
        try zip.run()
        zip.waitUntilExit()
        try #require(zip.terminationStatus == 0)
        // The book is readable: without the read-along book it is planned.
        #expect(throws: Never.self) {
            try ConversionAdapter.plan(bookPath: book, displayName: "b", options: JobOptions(format: "mp3"))
        }
        do {
            _ = try ConversionAdapter.plan(
                bookPath: book, displayName: "b", options: try ServiceAPI.options(.init(bundle: .epub)))
            Issue.record("a book with Media Overlays was planned for a read-along book")
        } catch {
            #expect("\(error)" == LiveConversionError.readAlongRefused(.hasMediaOverlays).description)
            #expect(TaskFailure.classify(error) == .permanent)
        }
    }
}
