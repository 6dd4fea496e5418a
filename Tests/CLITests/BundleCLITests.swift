import Foundation
import TestSupport
import Testing

/// `--bundle m4b`: one audiobook file made by ffmpeg from the section files, read back with ffprobe.
enum Bundling {
    /// ffmpeg and ffprobe on the PATH (Debian's `ffmpeg` package has both; `make deps` installs it).
    static let toolsInstalled = FFTools.installed

    /// `ffprobe` of `path` (chapters, format, streams), parsed.
    static func probe(_ path: String) throws -> [String: Any] {
        let probe = try FFTools.probe(path)
        #expect(probe.status == 0)
        return try #require(probe.json)
    }

    static func book(in scratch: Scratch) throws -> String {
        let book = TestBook(
            title: "The Bundled Lamp", authors: ["Ada Keeper"],
            chapters: (1...3).map { TestBook.Chapter(title: "Chapter \($0)", paragraphs: prose(words: 25, seed: $0)) },
            date: "1907-05-01", summary: "A short book; three chapters.")
        let url = scratch.file("book.epub")
        try book.write(to: url)
        return url.path
    }
}

extension EndToEnd {
    @Suite("One audiobook file (--bundle m4b)")
    struct Bundle {
        @Test(
            "--bundle m4b: AAC chapters at the sections' sample offsets, titles, duration and tags",
            .enabled(if: Bundling.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func bundleThreeSections() async throws {
            let scratch = try Scratch("bundle")
            let out = scratch.file("out").path
            let book = try Bundling.book(in: scratch)
            // A relative -o: the section files must still be found by ffmpeg (its list sits elsewhere).
            let result = try await BinaryRunner.run(
                [book, "--bundle", "m4b", "-o", "out"], directory: scratch.url, timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let name = "The Bundled Lamp - Ada Keeper.m4b"
            #expect(listing(out).contains(name), "\(listing(out))")
            #expect(listing(out).contains("bundle.json"))
            #expect(!listing(out).contains { $0.hasPrefix(".") }, "no temporary file left: \(listing(out))")

            // Expected chapter starts: the running sum of the frames the manifest records.
            let sections = try Conversions.manifestSections(out)
            let numbers = sections.keys.sorted()
            #expect(numbers.count == 3)
            var starts: [Double] = []
            var total = 0
            var rate = 0
            for number in numbers {
                let section = try #require(sections[number])
                let frames = try #require(section["frames"] as? Int)
                rate = try #require(section["sampleRate"] as? Int)
                starts.append(Double(total) / Double(rate))
                total += frames
            }

            let probe = try Bundling.probe(out + "/" + name)
            let chapters = try #require(probe["chapters"] as? [[String: Any]])
            #expect(chapters.count == 3)
            for (index, chapter) in chapters.enumerated() {
                let start = try #require((chapter["start_time"] as? String).flatMap(Double.init))
                #expect(
                    abs(start - starts[index]) <= 0.001, "chapter \(index + 1) starts at \(start), not \(starts[index])"
                )
                let title = (chapter["tags"] as? [String: Any])?["title"] as? String
                #expect(title == sections[numbers[index]]?["title"] as? String)
            }
            #expect(
                chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String } == [
                    "Chapter 1", "Chapter 2", "Chapter 3",
                ])

            let format = try #require(probe["format"] as? [String: Any])
            let duration = try #require((format["duration"] as? String).flatMap(Double.init))
            #expect(abs(duration - Double(total) / Double(rate)) < 0.1, "duration \(duration)")
            let tags = try #require(format["tags"] as? [String: Any])
            #expect(tags["title"] as? String == "The Bundled Lamp")
            #expect(tags["album"] as? String == "The Bundled Lamp")
            #expect(tags["artist"] as? String == "Ada Keeper")
            #expect(tags["genre"] as? String == "Audiobook")
            #expect(tags["date"] as? String == "1907-05-01")
            #expect(tags["comment"] as? String == "A short book; three chapters.")
            #expect(tags["media_type"] as? String == "2")
            let streams = try #require(probe["streams"] as? [[String: Any]])
            let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
            #expect(audio["codec_name"] as? String == "aac")
            #expect(audio["profile"] as? String == "LC")

            // A second run changes nothing: the bundle is not rebuilt.
            let before = try #require(identity(out + "/" + name))
            let again = try await BinaryRunner.run([book, "--bundle", "m4b", "-o", out], timeout: 120)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("up to date"), "\(again.stderr)")
            #expect(identity(out + "/" + name) == before)

            // A changed section (another rate) makes a new bundle.
            let changed = try await BinaryRunner.run(
                [book, "--bundle", "m4b", "--rate", "220", "-o", out], timeout: 120)
            #expect(changed.status == 0, "\(changed.stderr)")
            #expect(changed.stderr.contains("audiobook written"), "\(changed.stderr)")
            #expect(identity(out + "/" + name) != before)
        }

        @Test(
            "--format mp3 --bundle m4b: the MP3 files' encoder padding is cut, chapters do not drift",
            .enabled(if: Bundling.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func bundleFromMP3Sections() async throws {
            let scratch = try Scratch("bundle-mp3")
            let out = scratch.file("out").path
            let book = try Bundling.book(in: scratch)
            let result = try await BinaryRunner.run(
                [book, "--format", "mp3", "--bundle", "m4b", "-o", out], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let sections = try Conversions.manifestSections(out)
            let records = try sections.keys.sorted().map { try #require(sections[$0]) }
            let frames = try records.map { try #require($0["frames"] as? Int) }
            let rate = try #require(records.first?["sampleRate"] as? Int)
            let probe = try Bundling.probe(out + "/The Bundled Lamp - Ada Keeper.m4b")
            let chapters = try #require(probe["chapters"] as? [[String: Any]])
            let starts = chapters.compactMap { ($0["start_time"] as? String).flatMap(Double.init) }
            let expected = frames.indices.map { Double(frames[..<$0].reduce(0, +)) / Double(rate) }
            #expect(starts.count == 3)
            for (got, want) in zip(starts, expected) { #expect(abs(got - want) <= 0.001, "\(got) vs \(want)") }
            let format = try #require(probe["format"] as? [String: Any])
            let duration = try #require((format["duration"] as? String).flatMap { Double($0) })
            // Padding kept at each joint would add some 50 ms per section.
            #expect(abs(duration - Double(frames.reduce(0, +)) / Double(rate)) < 0.01, "duration \(duration)")
        }

        @Test(
            "--bundle flac --progress json: bundle-progress from 0 to the whole, bundle-done; chapters and narrator",
            .enabled(if: Bundling.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func bundleFLACWithJSONProgress() async throws {
            let scratch = try Scratch("bundle-flac")
            let out = scratch.file("out").path
            let book = try Bundling.book(in: scratch)
            let result = try await BinaryRunner.run(
                [book, "--bundle", "flac", "--voice", "en-us", "--progress", "json", "-o", out], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let events = result.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
            let names = events.compactMap { $0["event"] as? String }
            let bookDone = try #require(names.firstIndex(of: "book-done"))
            let progress = events.filter { $0["event"] as? String == "bundle-progress" }
            #expect(progress.count >= 2)
            #expect(names.firstIndex(of: "bundle-progress").map { $0 > bookDone } == true)
            #expect(names.last == "bundle-done")
            let total = try #require(progress.last?["totalSeconds"] as? Double)
            #expect(progress.first?["audioSeconds"] as? Double == 0)
            #expect(progress.last?["audioSeconds"] as? Double == total)
            #expect(events.last?["chapters"] as? Int == 3)
            #expect(events.last?["rebuilt"] as? Bool == true)
            #expect(events.last?["file"] as? String == "The Bundled Lamp - Ada Keeper.flac")

            let probe = try Bundling.probe(out + "/The Bundled Lamp - Ada Keeper.flac")
            let chapters = try #require(probe["chapters"] as? [[String: Any]])
            #expect(
                chapters.map { ($0["tags"] as? [String: Any])?["title"] as? String } == [
                    "Chapter 1", "Chapter 2", "Chapter 3",
                ])
            let tags = try #require((probe["format"] as? [String: Any])?["tags"] as? [String: Any])
            #expect((tags["composer"] as? String)?.hasPrefix("espeak-ng, voice ") == true, "\(tags)")
            #expect(
                abs(total - ((probe["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init)!) < 0.01)
        }

        @Test(
            "the folder stays player-friendly: names sort in book order, playlist, tracks 1/5 to 5/5 in its order",
            .enabled(if: Bundling.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func playerFriendlyFolder() async throws {
            let scratch = try Scratch("player-folder")
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "9-13", "--format", "flac", "-o", out], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let sections = try Conversions.manifestSections(out)
            let numbers = Array(9...13)
            let files = numbers.compactMap { sections[$0]?["file"] as? String }
            #expect(files.count == 5)
            #expect(listing(out).filter { $0.hasSuffix(".flac") } == files, "file names sort in book order")
            #expect(listing(out).contains("cover.png"))
            let playlist = try #require(bytes(out + "/playlist.m3u")).utf8String
            #expect(playlist.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init) == files)
            // Tracks 1 to 5, as the playlist lists the files, not the --list numbers 9 to 13.
            for (index, file) in files.enumerated() {
                let tags = try #require(
                    (try Bundling.probe(out + "/" + file)["format"] as? [String: Any])?["tags"] as? [String: Any])
                let track = tags.first { $0.key.lowercased() == "track" }?.value as? String
                #expect(track == "\(index + 1)/5", "\(file): \(tags)")
            }
        }

        @Test("--bundle goes with conversions only; with --list it is counted in the size estimate")
        func bundleIsRefusedWithText() async throws {
            let scratch = try Scratch("bundle-list")
            let book = try Bundling.book(in: scratch)
            let result = try await BinaryRunner.run([
                book, "--text", "-o", scratch.file("text").path, "--bundle", "m4b",
            ])
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.contains("--bundle"))
            let listed = try await BinaryRunner.run([book, "--list", "--bundle", "m4b"])
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.stdout.contains(" m4b bundle"), "\(listed.stdout)")
        }

        @Test(
            "--bundle m4b: the book's cover is the attached picture",
            .enabled(if: Bundling.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"))
        func bundleCarriesTheCover() async throws {
            let scratch = try Scratch("bundle-cover")
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "13", "--bundle", "m4b", "-o", out], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains(" (1 chapter)\n"), "one chapter, in the singular: \(result.stderr)")
            let bundle = try #require(listing(out).first { $0.hasSuffix(".m4b") })
            let streams = try #require(try Bundling.probe(out + "/" + bundle)["streams"] as? [[String: Any]])
            let picture = try #require(streams.first { $0["codec_type"] as? String == "video" })
            #expect((picture["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1)
            #expect(["png", "mjpeg"].contains(picture["codec_name"] as? String ?? ""))
        }

        @Test(
            "an Ogg bundle (opus, ogg) is the same bytes on every run, as every other file",
            .enabled(if: Bundling.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"),
            arguments: ["opus", "ogg"])
        func oggBundlesAreReproducible(format: String) async throws {
            let scratch = try Scratch("bundle-reproducible-\(format)")
            let book = try Bundling.book(in: scratch)
            var bundles: [Data] = []
            for run in ["first", "second"] {
                let out = scratch.file(run).path
                let result = try await BinaryRunner.run([book, "--bundle", format, "-o", out], timeout: 120)
                try #require(result.status == 0, "\(run): \(result.stderr)")
                bundles.append(try #require(bytes(out + "/The Bundled Lamp - Ada Keeper.\(format)")))
            }
            #expect(bundles[0] == bundles[1], "the two runs' \(format) bundles differ")
        }

        @Test(
            "--bundle works in the output folder alone: a TMPDIR that cannot be written stops nothing",
            .enabled(if: Bundling.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"),
            arguments: ["m4b", "flac"])
        func bundleWithoutATemporaryFolder(format: String) async throws {
            let scratch = try Scratch("bundle-tmpdir-\(format)")
            let out = scratch.file("out").path
            let book = try Bundling.book(in: scratch)
            // A regular file as TMPDIR: nothing can be made under it, as root too.
            let notAFolder = scratch.file("not-a-folder")
            try Data("x".utf8).write(to: notAFolder)
            let result = try await BinaryRunner.run(
                [book, "--bundle", format, "-o", out], environment: ["TMPDIR": notAFolder.path], timeout: 120)
            #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
            #expect(listing(out).contains("The Bundled Lamp - Ada Keeper.\(format)"), "\(listing(out))")
            #expect(!listing(out).contains { $0.hasPrefix(".") }, "no working file left: \(listing(out))")
        }

        @Test("a bundle's working folder left by a crash is removed by the next run, and only that")
        func staleBundleWorkingFolder() async throws {
            let scratch = try Scratch("bundle-stale")
            let out = scratch.file("out")
            let book = try Bundling.book(in: scratch)
            let first = try await BinaryRunner.run([book, "--chapters", "1", "-o", out.path], timeout: 60)
            #expect(first.status == 0, "\(first.stderr)")
            // What a bundler killed mid-run leaves: its working folder, holding a link to a file
            // outside the output folder, which must survive.
            let outside = scratch.file("outside.txt")
            try Data("keep".utf8).write(to: outside)
            let stale = out.appendingPathComponent(".epub2audio-tmp-99999-bundle")
            try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: false)
            try Data("[0:a]concat".utf8).write(to: stale.appendingPathComponent("graph.txt"))
            try FileManager.default.createSymbolicLink(
                at: stale.appendingPathComponent("cover.png"), withDestinationURL: outside)
            let second = try await BinaryRunner.run([book, "--chapters", "1-2", "-o", out.path], timeout: 60)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(!listing(out.path).contains { $0.hasPrefix(".") }, "\(listing(out.path))")
            #expect(try Data(contentsOf: outside) == Data("keep".utf8))
        }

        @Test("--bundle m4b without ffmpeg: exit 6 at once, one line, nothing made")
        func bundleWithoutFFmpeg() async throws {
            let scratch = try Scratch("bundle-missing")
            let out = scratch.file("out").path
            let book = try Bundling.book(in: scratch)
            let empty = scratch.file("bin")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let result = try await BinaryRunner.run(
                [book, "--bundle", "m4b", "-o", out], environment: ["PATH": empty.path], timeout: 60)
            #expect(result.status == 6, "exit \(result.status): \(result.stderr)")
            #expect(result.errorLines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("ffmpeg"))
            #expect(!FileManager.default.fileExists(atPath: out), "no section was made")
        }
    }
}
