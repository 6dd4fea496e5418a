import Foundation
import TestSupport
import Testing

@testable import Bundling
@testable import Conversion
@testable import TagEditing

/// `AudiobookBundler.bundle` with the real ffmpeg over WAV files the test writes (no speech engine).
@Suite(
    "AudiobookBundler with ffmpeg", .serialized,
    .enabled(if: BundlerFixture.toolsInstalled, "ffmpeg/ffprobe are not installed (make deps installs them)"))
struct AudiobookBundlerRunTests {
    @Test("300 sections: every chapter kept at its running frame sum; unchanged inputs are not rebuilt")
    func manySections() async throws {
        let fixture = try BundlerFixture(sections: 300)
        defer { fixture.remove() }
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        let metadata = AudiobookMetadata(title: "Many", authors: ["A. Writer"])
        let first = try await bundler.bundle(directory: fixture.directory, numbers: fixture.numbers, metadata: metadata)
        #expect(first.rebuilt)
        #expect(first.chapters == 300)
        #expect(first.path == fixture.directory + "/Many - A. Writer.m4b")
        // Nero chpl counts chapters in one byte: above 255 the chapter track alone, and a warning.
        #expect(first.warnings.count == 1)
        #expect(first.warnings.first?.contains("Nero") == true)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: first.path))
        #expect(bytes.range(of: Data("chpl".utf8)) == nil, "no Nero chapter list")
        #expect(bytes.range(of: Data("chap".utf8)) != nil, "a chapter track reference")

        let probe = try BundlerFixture.probe(first.path)
        let chapters = try #require(probe["chapters"] as? [[String: Any]])
        #expect(chapters.count == 300)
        for (index, chapter) in chapters.enumerated() {
            let start = try #require((chapter["start_time"] as? String).flatMap { Double($0) })
            let expected = Double(fixture.starts[index]) / Double(BundlerFixture.rate)
            #expect(abs(start - expected) <= 0.001, "chapter \(index + 1)")
        }
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: fixture.directory)).contains { $0.hasPrefix(".") })

        let again = try await bundler.bundle(directory: fixture.directory, numbers: fixture.numbers, metadata: metadata)
        #expect(!again.rebuilt)

        // A section made again with other text: the bundle is rebuilt.
        var manifest = try #require(try Manifest.load(fromDirectory: fixture.directory))
        manifest.sections[7].textSHA256 = "changed"
        try manifest.write(toDirectory: fixture.directory)
        #expect(
            try await bundler.bundle(directory: fixture.directory, numbers: fixture.numbers, metadata: metadata).rebuilt
        )
    }

    @Test("an m4b's audio track and chapter track are in the book's language, not ffmpeg's English")
    func m4bLanguage() async throws {
        let fixture = try BundlerFixture(sections: 3)
        defer { fixture.remove() }
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        let result = try await bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "Lamp", language: "zh"))
        let streams = try #require(try BundlerFixture.probe(result.path)["streams"] as? [[String: Any]])
        let languages = streams.map {
            ($0["codec_type"] as? String, ($0["tags"] as? [String: Any])?["language"] as? String)
        }
        #expect(languages.count == 2, "the audio and the chapter track: \(languages)")
        for (type, language) in languages { #expect(language == "zho", "\(type ?? "?")") }
        let chapters = try #require(try BundlerFixture.probe(result.path)["chapters"] as? [[String: Any]])
        #expect(chapters.count == 3, "the chapters still read")

        // Without a language: as ffmpeg writes it.
        let plain = try await bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "Plain"))
        let plainStreams = try #require(try BundlerFixture.probe(plain.path)["streams"] as? [[String: Any]])
        #expect(plainStreams.map { ($0["tags"] as? [String: Any])?["language"] as? String } == ["und", "eng"])
    }

    @Test("255 sections: the Nero chapter list too, no warning")
    func neroChapterLimit() async throws {
        let fixture = try BundlerFixture(sections: 255)
        defer { fixture.remove() }
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        let result = try await bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "Many"))
        #expect(result.warnings.isEmpty)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: result.path))
        #expect(bytes.range(of: Data("chpl".utf8)) != nil)
        let chapters = try #require(try BundlerFixture.probe(result.path)["chapters"] as? [[String: Any]])
        #expect(chapters.count == 255)
    }

    @Test("255 sections in FLAC: no cue sheet (it holds 254), a warning, every chapter in the comments")
    func flacCueSheetLimit() async throws {
        let fixture = try BundlerFixture(sections: 255)
        defer { fixture.remove() }
        let bundler = AudiobookBundler(format: .flac, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        let result = try await bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "Many"))
        #expect(result.warnings.count == 1)
        #expect(!(try BundlerFixture.flacBlocks(result.path)).contains { $0.type == 5 })
        let chapters = try #require(try BundlerFixture.probe(result.path)["chapters"] as? [[String: Any]])
        #expect(chapters.count == 255)
        let last = try #require((chapters.last?["start_time"] as? String).flatMap { Double($0) })
        #expect(abs(last - Double(fixture.starts[254]) / Double(BundlerFixture.rate)) <= 0.001)
    }

    @Test(
        "MP3, Opus, Vorbis and FLAC bundles: chapters at the exact offsets, titles, tags and cover read back",
        arguments: [BundleFormat.mp3, .opus, .ogg, .flac])
    func otherFormats(format: BundleFormat) async throws {
        let fixture = try BundlerFixture(sections: 4)
        defer { fixture.remove() }
        let cover = try #require(AudiobookCover(data: try BundlerFixture.jpeg(in: fixture.directory)))
        let bundler = AudiobookBundler(format: format, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        let metadata = AudiobookMetadata(
            title: "Lamp Ölig", authors: ["Ada Keeper", "Bo Writer"], date: "1907-05-01",
            description: "Three lamps; one keeper.", narrator: "espeak-ng, voice en-us", language: "zh-Hant")
        let progress = Locked<[BundleProgress]>([])
        let result = try await bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: metadata, cover: cover
        ) { value in progress.withLock { $0.append(value) } }
        #expect(result.path.hasSuffix("/Lamp Ölig - Ada Keeper, Bo Writer.\(format.fileExtension)"))
        #expect(result.warnings.isEmpty)
        let total = Double(fixture.totalFrames) / Double(BundlerFixture.rate)
        #expect(progress.value.first?.audioSeconds == 0)
        #expect(progress.value.last == BundleProgress(audioSeconds: total, totalSeconds: total))

        let probe = try BundlerFixture.probe(result.path)
        let chapters = try #require(probe["chapters"] as? [[String: Any]])
        #expect(chapters.count == 4)
        for (index, chapter) in chapters.enumerated() {
            let start = try #require((chapter["start_time"] as? String).flatMap { Double($0) })
            let expected = Double(fixture.starts[index]) / Double(BundlerFixture.rate)
            #expect(abs(start - expected) <= 0.001, "chapter \(index + 1): \(start) vs \(expected)")
            #expect((chapter["tags"] as? [String: Any])?["title"] as? String == "Section \(index + 1)")
        }
        // Ogg keeps its comments on the stream, the others on the file.
        let streams = try #require(probe["streams"] as? [[String: Any]])
        let audio = try #require(streams.first { $0["codec_type"] as? String == "audio" })
        var tags: [String: String] = [:]
        for source in [(probe["format"] as? [String: Any])?["tags"], audio["tags"]] {
            for (key, value) in source as? [String: Any] ?? [:] { tags[key.lowercased()] = value as? String }
        }
        #expect(tags["title"] == "Lamp Ölig")
        #expect(tags["album"] == "Lamp Ölig")
        #expect(tags["artist"] == "Ada Keeper, Bo Writer")
        #expect(tags["album_artist"] == "Ada Keeper, Bo Writer")
        #expect(tags["genre"] == "Audiobook")
        #expect(tags["date"] == "1907-05-01")
        #expect(tags["comment"] == "Three lamps; one keeper.")
        #expect(tags["composer"] == "espeak-ng, voice en-us")
        #expect(tags["language"] == "zho", "the book's language, ISO 639-2 (MP3 TLAN, a LANGUAGE comment)")
        let expectedCodec: [BundleFormat: String] = [.mp3: "mp3", .opus: "opus", .ogg: "vorbis", .flac: "flac"]
        #expect(audio["codec_name"] as? String == expectedCodec[format])
        let duration = try #require(
            ((probe["format"] as? [String: Any])?["duration"] as? String).flatMap { Double($0) })
        #expect(abs(duration - total) < 0.1, "duration \(duration) vs \(total)")

        let picture = try #require(
            streams.first { $0["codec_type"] as? String == "video" }, "the cover is embedded")
        #expect((picture["disposition"] as? [String: Any])?["attached_pic"] as? Int == 1)
        #expect(picture["codec_name"] as? String == "mjpeg")

        // The frames and comments themselves, as the format's own readers see them.
        let head = try Data(contentsOf: URL(fileURLWithPath: result.path)).prefix(1 << 20)
        let expectedMarks = format == .mp3 ? ["CTOC", "CHAP", "APIC"] : ["CHAPTER001=00:00:00.000", "CHAPTER004NAME="]
        for mark in expectedMarks { #expect(head.range(of: Data(mark.utf8)) != nil, "\(mark)") }
        if format == .opus || format == .ogg { #expect(head.range(of: Data("METADATA_BLOCK_PICTURE=".utf8)) != nil) }

        if format == .flac {
            // The cue sheet: one track per chapter at its exact first sample, then the lead-out.
            let blocks = try BundlerFixture.flacBlocks(result.path)
            let cueSheet = try #require(blocks.first { $0.type == 5 }?.body)
            #expect(cueSheet[395] == 5)
            for index in 0..<4 {
                let offset = cueSheet[396 + 48 * index..<396 + 48 * index + 8].reduce(0) { $0 << 8 | Int($1) }
                #expect(offset == fixture.starts[index])
                #expect(cueSheet[396 + 48 * index + 8] == UInt8(index + 1))
            }
            #expect(blocks.map(\.type).first == 0)
            #expect(blocks.contains { $0.type == 6 }, "a PICTURE block")
        }
    }

    @Test("cancelled while ffmpeg runs: no bundle, no temporary file; the sections stay")
    func cancelledBundle() async throws {
        let fixture = try BundlerFixture(sections: 20, framesEach: 22_050 * 20)
        defer { fixture.remove() }
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        // Cancelled from its own first report of encoded audio: ffmpeg is surely running then.
        await #expect(throws: ConversionError.cancelled) {
            try await bundler.bundle(
                directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "T")
            ) {
                if $0.audioSeconds > 0 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory)
        #expect(!names.contains { $0.hasSuffix(".m4b") || $0.hasPrefix(".") }, "\(names)")
        #expect(names.filter { $0.hasSuffix(".wav") }.count == 20)
    }

    @Test("a GIF cover becomes a PNG through ffmpeg; SVG is no raster")
    func gifCover() throws {
        let fixture = try BundlerFixture(sections: 1)
        defer { fixture.remove() }
        let gif = try BundlerFixture.image(in: fixture.directory, type: "gif")
        #expect(AudiobookCover(data: gif) == nil)
        #expect(AudiobookCover.isConvertibleRaster(gif))
        #expect(!AudiobookCover.isConvertibleRaster(Array("<svg xmlns=".utf8)))
        let ffmpeg = try #require(AudiobookBundler.locateFFmpeg())
        let cover = try #require(CoverConversion.cover(from: gif, ffmpegPath: ffmpeg))
        #expect(cover.fileExtension == "png")
        #expect(FLACMetadata.imageSize(cover.data)?.width == 32)
        #expect(CoverConversion.cover(from: Array("GIF89a broken".utf8), ffmpegPath: ffmpeg) == nil)
        // A megabyte to a program that reads none of it: nil, neither a hang nor SIGPIPE.
        let large = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 1 << 20)
        #expect(CoverConversion.cover(from: large, ffmpegPath: "/bin/false") == nil)
    }

    /// A 2:3 SVG cover: a transparent page with a red disc as wide as the page in its middle, and
    /// `extra` elements.
    static func svgCover(_ extra: String = "") -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200 300">
            <circle cx="100" cy="150" r="100" fill="#ff0000"/>\(extra)</svg>
            """.utf8)
    }

    /// The colours of a picture shrunk to 4×6 pixels by ffmpeg: 24 RGB triples, row by row.
    static func pixels(_ picture: [UInt8], ffmpeg: String) throws -> [[UInt8]] {
        let directory = try TemporaryFolder()
        let path = directory.path + "/picture"
        try Data(picture).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-v", "error", "-i", path, "-vf", "scale=4:6", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(data.count == 4 * 6 * 3)
        return stride(from: 0, to: data.count, by: 3).map { Array(data[$0..<$0 + 3]) }
    }

    static func isWhite(_ pixel: [UInt8]) -> Bool { pixel.allSatisfy { $0 > 235 } }
    static func isRed(_ pixel: [UInt8]) -> Bool { pixel[0] > 200 && pixel[1] < 60 && pixel[2] < 60 }

    @Test("an SVG cover is drawn into a JPEG of 1,600 pixels on its longer side, over white")
    func svgCover() throws {
        let ffmpeg = try #require(AudiobookBundler.locateFFmpeg())
        let cover = try #require(CoverConversion.cover(from: Self.svgCover(), ffmpegPath: ffmpeg))
        #expect(cover.fileExtension == "jpg")
        #expect(FLACMetadata.imageSize(cover.data).map { [$0.width, $0.height] } == [1_066, 1_600], "even sides")
        let pixels = try Self.pixels(cover.data, ffmpeg: ffmpeg)
        #expect(Self.isWhite(pixels[0]) && Self.isWhite(pixels[23]), "transparent corners are white")
        #expect(Self.isRed(pixels[2 * 4 + 1]) && Self.isRed(pixels[3 * 4 + 2]), "the disc in the middle")
        #expect(CoverConversion.cover(from: Self.svgCover(), ffmpegPath: ffmpeg) == cover, "the same bytes again")

        // Landscape: 1,600 wide.
        let wide = Array(
            String(decoding: Self.svgCover(), as: UTF8.self)
                .replacingOccurrences(of: "0 0 200 300", with: "0 0 300 200").utf8)
        let landscape = try #require(CoverConversion.cover(from: wide, ffmpegPath: ffmpeg))
        #expect(FLACMetadata.imageSize(landscape.data).map { [$0.width, $0.height] } == [1_600, 1_066])
        // Not the shape of a cover, or no size: no cover.
        let strip = Array(
            String(decoding: Self.svgCover(), as: UTF8.self)
                .replacingOccurrences(of: "0 0 200 300", with: "0 0 5000 10").utf8)
        #expect(CoverConversion.cover(from: strip, ffmpegPath: ffmpeg) == nil)
        #expect(CoverConversion.cover(from: Array("<svg><circle r='5'/></svg>".utf8), ffmpegPath: ffmpeg) == nil)
        #expect(CoverConversion.cover(from: Array("<svg viewBox='0 0 2 3'><broken".utf8), ffmpegPath: ffmpeg) == nil)
    }

    @Test("an SVG cover draws the images embedded in it, never a file it names")
    func svgCoverReadsNoFile() throws {
        let ffmpeg = try #require(AudiobookBundler.locateFFmpeg())
        let folder = try TemporaryFolder()
        let red = try BundlerFixture.image(in: folder.path, type: "png")
        let file = folder.path + "/red.png"
        try Data(red).write(to: URL(fileURLWithPath: file))
        let covering = "x='0' y='0' width='200' height='300' preserveAspectRatio='none'"
        // A whole-page picture of the red PNG, named by the file's URL and by its path: not drawn.
        for reference in ["file://" + file, file] {
            let svg = Self.svgCover("<image \(covering) xlink:href='\(reference)'/>")
            let cover = try #require(CoverConversion.cover(from: svg, ffmpegPath: ffmpeg))
            #expect(Self.isWhite(try Self.pixels(cover.data, ffmpeg: ffmpeg)[0]), "\(reference) was read")
        }
        // The same picture embedded as a data: URL covers the page.
        let embedded = Self.svgCover(
            "<image \(covering) xlink:href='data:image/png;base64,\(Data(red).base64EncodedString())'/>")
        let cover = try #require(CoverConversion.cover(from: embedded, ffmpegPath: ffmpeg))
        #expect(Self.isRed(try Self.pixels(cover.data, ffmpeg: ffmpeg)[0]))
    }

    @Test("bundles of two formats in one folder: each rebuilt only when its own inputs change")
    func twoFormats() async throws {
        let fixture = try BundlerFixture(sections: 3)
        defer { fixture.remove() }
        let ffmpeg = try #require(AudiobookBundler.locateFFmpeg())
        let (m4b, flac) = (
            AudiobookBundler(format: .m4b, ffmpegPath: ffmpeg), AudiobookBundler(format: .flac, ffmpegPath: ffmpeg)
        )
        let metadata = AudiobookMetadata(title: "Two")
        for bundler in [m4b, flac] {
            #expect(
                try await bundler.bundle(directory: fixture.directory, numbers: fixture.numbers, metadata: metadata)
                    .rebuilt)
        }
        for bundler in [m4b, flac] {
            #expect(
                !(try await bundler.bundle(directory: fixture.directory, numbers: fixture.numbers, metadata: metadata)
                    .rebuilt))
        }
        let record = try #require(BundleRecord.load(fromDirectory: fixture.directory))
        #expect(record.bundles["m4b"]?.file == "Two.m4b" && record.bundles["flac"]?.file == "Two.flac")
    }

    @Test("a new title: the bundle under the old name is replaced, not left behind")
    func renamedBundle() async throws {
        let fixture = try BundlerFixture(sections: 3)
        defer { fixture.remove() }
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        let first = try await bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "Old"))
        let second = try await bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "New"))
        #expect(second.rebuilt)
        #expect(!FileManager.default.fileExists(atPath: first.path))
        #expect(FileManager.default.fileExists(atPath: second.path))
    }

    @Test("an unreadable section: bundleFailed with ffmpeg's words, no bundle and no temporary file left")
    func ffmpegFailure() async throws {
        let fixture = try BundlerFixture(sections: 3)
        defer { fixture.remove() }
        try Data("not audio".utf8).write(to: URL(fileURLWithPath: fixture.directory + "/002 - Section 2.wav"))
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        await #expect {
            try await bundler.bundle(
                directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "T"))
        } throws: { error in
            guard case ConversionError.bundleFailed(let reason) = error else { return false }
            return reason.contains("ffmpeg failed")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory)
        #expect(!names.contains { $0.hasSuffix(".m4b") || $0.hasPrefix(".") }, "\(names)")
    }

    @Test("a folder another run holds: refused at once, nothing made; made once it is free")
    func lockedFolder() async throws {
        let fixture = try BundlerFixture(sections: 2)
        defer { fixture.remove() }
        let bundler = AudiobookBundler(format: .m4b, ffmpegPath: try #require(AudiobookBundler.locateFFmpeg()))
        let other = try FolderLock(directory: fixture.directory)
        await #expect {
            try await bundler.bundle(
                directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "T"))
        } throws: { error in
            guard case ConversionError.outputUnwritable(_, let reason) = error else { return false }
            return reason.contains("another epub2audio run")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory)
        #expect(!names.contains { $0.hasSuffix(".m4b") || $0.hasPrefix(".") || $0 == "bundle.json" }, "\(names)")
        other.release()
        let made = try await bundler.bundle(
            directory: fixture.directory, numbers: fixture.numbers, metadata: .init(title: "T"))
        #expect(made.rebuilt)
    }
}

/// An output folder as a conversion leaves it: WAV sections of slightly different lengths and a manifest.
struct BundlerFixture {
    static let rate = 22_050
    static let toolsInstalled = FFTools.installed

    let directory: String
    let numbers: [Int]
    /// Each section's first frame in the whole.
    let starts: [Int]

    /// Frames of all the sections.
    var totalFrames: Int { starts.last.map { $0 + framesOf(numbers.count) } ?? 0 }
    private let framesEach: Int?

    private func framesOf(_ number: Int) -> Int { framesEach ?? 2_205 + 37 * number }

    init(sections count: Int, framesEach: Int? = nil) throws {
        self.framesEach = framesEach
        directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("e2a-bundler-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var records: [SectionRecord] = []
        var starts: [Int] = []
        var start = 0
        for number in 1...count {
            // 0.1 s and a little more, never a multiple of an AAC frame
            let frames = framesEach ?? 2_205 + 37 * number
            let file = String(format: "%03d - Section %d.wav", number, number)
            try Self.wav(frames: frames, tone: number).write(to: URL(fileURLWithPath: directory + "/" + file))
            var record = SectionRecord(number: number, title: "Section \(number)", status: .done, file: file)
            record.frames = frames
            record.sampleRate = Self.rate
            record.textSHA256 = "text\(number)"
            records.append(record)
            starts.append(start)
            start += frames
        }
        self.numbers = Array(1...count)
        self.starts = starts
        try Manifest(sections: records).write(toDirectory: directory)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    /// 16-bit mono PCM WAV: a quiet square wave whose period depends on `tone`.
    static func wav(frames: Int, tone: Int) -> Data {
        var data = Data()
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8))
        u32(36 + frames * 2)
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16)
        u16(1)
        u16(1)
        u32(rate)
        u32(rate * 2)
        u16(2)
        u16(16)
        data.append(contentsOf: Array("data".utf8))
        u32(frames * 2)
        let period = 20 + tone % 50
        for frame in 0..<frames { u16((frame / period) % 2 == 0 ? 2_000 : 0x1_0000 - 2_000) }
        return data
    }

    static func probe(_ path: String) throws -> [String: Any] {
        try #require(try FFTools.probe(path).json)
    }

    /// A 32×24 JPEG made by ffmpeg in `directory`, as bytes.
    static func jpeg(in directory: String) throws -> [UInt8] { try image(in: directory, type: "jpg") }

    /// A 32×24 image of `type` (the file extension ffmpeg picks the format from), as bytes.
    static func image(in directory: String, type: String) throws -> [UInt8] {
        let path = directory + "/cover-source." + type
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=32x24:d=1", "-frames:v", "1", path,
        ]
        try process.run()
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(atPath: path) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The metadata blocks of a FLAC file: type and body.
    static func flacBlocks(_ path: String) throws -> [(type: UInt8, body: [UInt8])] {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(data.starts(with: Array("fLaC".utf8)))
        var blocks: [(UInt8, [UInt8])] = []
        var at = 4
        while at + 4 <= data.count {
            let length = Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
            blocks.append((data[at] & 0x7F, Array(data[at + 4..<min(data.count, at + 4 + length)])))
            if data[at] & 0x80 != 0 { break }
            at += 4 + length
        }
        return blocks
    }
}
