import Foundation
import TestSupport
import Testing

/// The book's cover in every section file, through the built binary with the real espeak-ng, read
/// back with ffprobe (skipped without it).
enum CoverArtBooks {
    /// A 24×24 RGB PNG.
    static let png = TestImages.png

    /// A short generated book of three chapters with `cover` (`png` unless given) as its cover.
    static func book(in scratch: Scratch, cover: TestBook.Cover = .png(png)) throws -> String {
        var book = TestBook(
            title: "The Painted Lamp", authors: ["Ada Keeper"],
            chapters: (1...3).map { TestBook.Chapter(title: "Chapter \($0)", paragraphs: prose(words: 20, seed: $0)) })
        book.cover = cover
        let url = scratch.file("book.epub")
        try book.write(to: url)
        return url.path
    }

    /// The streams ffprobe finds in `path`.
    static func streams(_ path: String) throws -> [[String: Any]] {
        let probe = try FFTools.probe(path)
        #expect(probe.status == 0, "ffprobe failed on \(path)")
        return try #require(probe.json?["streams"] as? [[String: Any]])
    }

    /// The `ffmpeg` on the PATH, if any.
    static let realFFmpeg: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { String($0) + "/ffmpeg" }.first { access($0, X_OK) == 0 }

    /// The attached picture stream of `path`, if any.
    static func picture(_ path: String) throws -> [String: Any]? {
        try streams(path).first { ($0["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1 }
    }
}

extension EndToEnd {
    @Suite("The cover in every section file")
    struct CoverArt {
        @Test(
            "flac, mp3, opus: every section file carries the PNG cover as an attached picture, tags intact",
            .enabled(if: FFTools.installed, "ffmpeg/ffprobe are not installed (make deps installs them)"),
            arguments: ["flac", "mp3", "opus"])
        func everySectionFileHasTheCover(format: String) async throws {
            let scratch = try Scratch("cover-\(format)")
            let book = try CoverArtBooks.book(in: scratch)
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run([book, "--format", format, "-o", out, "--jobs", "2"], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let files = listing(out).filter { $0.hasSuffix("." + format) }
            #expect(files.count == 3, "\(listing(out))")
            #expect(listing(out).contains("cover.png"))
            #expect(!listing(out).contains { $0.hasSuffix(".part") || $0.hasPrefix(".") }, "\(listing(out))")
            let sections = try Conversions.manifestSections(out)
            for file in files {
                let path = out + "/" + file
                // ffprobe shows the FLAC PICTURE block, the ID3v2 APIC frame and the Ogg
                // METADATA_BLOCK_PICTURE comment alike: a PNG stream marked as the attached picture.
                let picture = try #require(try CoverArtBooks.picture(path), "\(file): no attached picture")
                #expect(picture["codec_name"] as? String == "png", "\(file)")
                #expect(picture["width"] as? Int == 24 && picture["height"] as? Int == 24, "\(file)")
                let audio = try CoverArtBooks.streams(path).filter { $0["codec_type"] as? String == "audio" }
                #expect(audio.count == 1, "\(file)")
                // Opus tags are the audio stream's in ffprobe, the others the file's.
                let format = try FFTools.probe(path).json?["format"] as? [String: Any]
                let tags = (format?["tags"] ?? audio.first?["tags"]) as? [String: Any] ?? [:]
                let title = tags.first { $0.key.lowercased() == "title" }?.value as? String
                #expect(title?.hasPrefix("Chapter") == true, "\(file): \(tags)")
                let record = try #require(sections.values.first { $0["file"] as? String == file })
                let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
                #expect(record["bytes"] as? Int == size, "\(file): the manifest records the file with its cover")
            }

            // A second run keeps every file.
            let again = try await BinaryRunner.run(
                [book, "--format", format, "-o", out, "--progress", "json"], timeout: 120)
            #expect(again.status == 0, "\(again.stderr)")
            let done = Conversions.sectionDone(Conversions.events(again.stdout))
            #expect(done.count == 3 && done.allSatisfy { $0["skipped"] as? Bool == true }, "\(again.stdout)")
        }

        @Test(
            "an SVG cover, as Standard Ebooks books have, is drawn into cover.jpg and embedded in the files",
            .enabled(if: FFTools.installed, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func svgCover() async throws {
            let scratch = try Scratch("cover-svg")
            let svg = """
                <?xml version="1.0" encoding="utf-8"?>
                <svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 1400 2100">
                <rect x="100" y="1500" width="1200" height="400" fill="#000" fill-opacity=".75"/></svg>
                """
            let book = try CoverArtBooks.book(in: scratch, cover: .svg(svg))
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [book, "--format", "mp3", "-o", out, "--chapters", "1"], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let cover = try #require(bytes(out + "/cover.jpg"), "\(listing(out))")
            #expect(cover.starts(with: [0xFF, 0xD8, 0xFF]))
            let file = try #require(listing(out).first { $0.hasSuffix(".mp3") })
            let picture = try #require(try CoverArtBooks.picture(out + "/" + file), "\(file): no attached picture")
            #expect(picture["codec_name"] as? String == "mjpeg")
            #expect(picture["width"] as? Int == 1_066 && picture["height"] as? Int == 1_600)
        }

        @Test(
            "an SVG cover: a rerun in MP3 with --bundle mp3 is already done, even when the drawing changes",
            .enabled(if: FFTools.installed, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func svgCoverRerunIsAlreadyDone() async throws {
            let scratch = try Scratch("cover-svg-rerun")
            // As a Standard Ebooks cover: 2:3, a picture embedded as a data: URL over the whole page,
            // and a box for the title.
            let picture = Data(TestImages.png(width: 40, height: 60)).base64EncodedString()
            let svg = """
                <?xml version="1.0" encoding="utf-8"?>
                <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" \
                viewBox="0 0 1400 2100"><image height="2100" width="1400" x="0" y="0" \
                xlink:href="data:image/png;base64,\(picture)"/>
                <rect x="100" y="1500" width="1200" height="400" fill="#000" fill-opacity=".75"/></svg>
                """
            let book = try CoverArtBooks.book(in: scratch, cover: .svg(svg))
            // An ffmpeg whose drawings differ from run to run (as ffmpeg 5.1's did, and as another
            // version's may): the real one, with bytes a JPEG reader ignores after the drawing.
            let real = try #require(CoverArtBooks.realFFmpeg)
            let tools = scratch.file("tools")
            try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
            let wrapper = tools.appendingPathComponent("ffmpeg")
            try Data(
                """
                #!/bin/sh
                case "$*" in *svg_pipe*) "\(real)" "$@" && head -c 16 /dev/urandom ;; *) exec "\(real)" "$@" ;; esac

                """.utf8
            ).write(to: wrapper)
            chmod(wrapper.path, 0o755)
            let environment = ["PATH": tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")]
            let out = scratch.file("out").path
            let arguments = [book, "--format", "mp3", "--bundle", "mp3", "-o", out, "--progress", "plain"]
            let first = try await BinaryRunner.run(arguments, environment: environment, timeout: 120)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.contains("audiobook written"), "\(first.stderr)")
            let audio = listing(out).filter { $0.hasSuffix(".mp3") }
            #expect(audio.count == 4, "three sections and the bundle: \(listing(out))")
            #expect(listing(out).contains("cover.jpg"))
            let before = audio.map { bytes(out + "/" + $0) }

            let again = try await BinaryRunner.run(arguments, environment: environment, timeout: 120)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.components(separatedBy: "(already done)").count == 4, "\(again.stderr)")
            #expect(again.stderr.contains("0 sections made, 3 already done"), "\(again.stderr)")
            #expect(again.stderr.contains("audiobook up to date"), "\(again.stderr)")
            #expect(audio.map { bytes(out + "/" + $0) } == before, "no section file and no bundle changed")
        }

        @Test(
            "a 1×1 placeholder image is no cover: not embedded, not written beside the files, not in the bundle",
            .enabled(if: FFTools.installed, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func placeholderIsNoCover() async throws {
            let scratch = try Scratch("cover-placeholder")
            let book = try CoverArtBooks.book(in: scratch, cover: .png(TestImages.png(width: 1, height: 1)))
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [book, "--format", "flac", "--chapters", "1", "--bundle", "m4b", "-o", out], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!listing(out).contains { $0.hasPrefix("cover.") }, "\(listing(out))")
            for file in listing(out).filter({ $0.hasSuffix(".flac") || $0.hasSuffix(".m4b") }) {
                #expect(try CoverArtBooks.picture(out + "/" + file) == nil, "\(file) has a picture")
            }
        }

        @Test(
            "the cover keeps FLAC and MP3 files byte-identical whatever --jobs; --no-cover-art leaves it out",
            .enabled(if: FFTools.installed, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func deterministicAndOptional() async throws {
            let scratch = try Scratch("cover-jobs")
            let book = try CoverArtBooks.book(in: scratch)
            for format in ["flac", "mp3"] {
                let one = scratch.file("one-\(format)").path
                let two = scratch.file("two-\(format)").path
                for (out, jobs) in [(one, "1"), (two, "2")] {
                    let result = try await BinaryRunner.run(
                        [book, "--format", format, "-o", out, "--jobs", jobs], timeout: 120)
                    #expect(result.status == 0, "\(result.stderr)")
                }
                let files = listing(one).filter { $0.hasSuffix("." + format) }
                #expect(files.count == 3)
                for file in files {
                    #expect(
                        bytes(one + "/" + file) == bytes(two + "/" + file), "\(file) differs between --jobs 1 and 2")
                }
            }

            // --no-cover-art: the files are as without a cover (and redone, since they carried one);
            // cover.png is still beside them.
            let out = scratch.file("one-flac").path
            let result = try await BinaryRunner.run(
                [book, "--format", "flac", "-o", out, "--no-cover-art", "--progress", "json"], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let done = Conversions.sectionDone(Conversions.events(result.stdout))
            #expect(done.count == 3 && done.allSatisfy { $0["skipped"] as? Bool == false }, "\(result.stdout)")
            #expect(listing(out).contains("cover.png"))
            for file in listing(out).filter({ $0.hasSuffix(".flac") }) {
                #expect(try CoverArtBooks.picture(out + "/" + file) == nil, "\(file) has a picture")
            }
        }
    }
}
