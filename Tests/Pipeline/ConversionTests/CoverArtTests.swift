import AudioFiles
import Contracts
import Foundation
import TestSupport
import Testing

@testable import Conversion
@testable import TagEditing

/// The cover embedded in section files (`CoverArt`): small files made by the libsndfile writer,
/// edited, then parsed back byte by byte; and the step in a conversion (settings, resume).
@Suite struct CoverArtTests {
    /// A 24×24 RGB PNG, small enough to read here.
    static let png = TestImages.png

    static var cover: AudiobookCover { AudiobookCover(data: png)! }

    /// Whether `error` says the file is not laid out as its format says (not a failure to read or write).
    static func isMalformed(_ error: any Error) -> Bool {
        if case TagEditingError.malformed = error { return true }
        return false
    }

    /// A "JPEG" of `count` bytes (a real signature and SOF0, then filler): large enough that its
    /// comment spans several Ogg pages (a page holds at most 255 × 255 bytes).
    static func largeJPEG(count: Int) -> AudiobookCover {
        let head: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0x00, 0x02, 0x00, 0x03]
        return AudiobookCover(data: head + (0..<count - head.count).map { UInt8(truncatingIfNeeded: $0 &* 31) })!
    }

    static let tags = AudioTags(
        title: "Chapter One", album: "The Book", artist: "Ann Author", trackNumber: "3/12", genre: "Audiobook")

    /// A one-second file of `format` made by the writer the pipeline uses, in `directory`.
    static func makeFile(_ format: AudioFormat, in directory: String, tags: AudioTags = tags) throws -> String {
        let path = directory + "/section.\(format.fileExtension).part"
        let writer = try AudioFileWriter(
            path: path, encoding: AudioEncoding(format: format), sampleRate: 22_050, tags: tags)
        let samples = (0..<22_050).map { Int16(8_000 * sin(Double($0) * 2 * Double.pi * 440 / 22_050)) }
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.close()
        return path
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try #require(FileManager.default.contents(atPath: path)))
    }

    /// The metadata blocks of a FLAC file: type, last flag, body; and where the audio starts.
    static func flacBlocks(_ data: [UInt8]) throws -> (blocks: [(type: UInt8, last: Bool, body: [UInt8])], end: Int) {
        try #require(data.starts(with: Array("fLaC".utf8)))
        var blocks: [(UInt8, Bool, [UInt8])] = []
        var at = 4
        while blocks.last?.1 != true {
            let length = Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
            blocks.append((data[at] & 0x7F, data[at] & 0x80 != 0, Array(data[at + 4..<at + 4 + length])))
            at += 4 + length
        }
        return (blocks, at)
    }

    // MARK: - FLAC

    @Test func flacGetsAPictureBlockAfterItsOwnBlocks() throws {
        let directory = try TemporaryFolder()
        let path = try Self.makeFile(.flac, in: directory.path)
        let before = try Self.bytes(path)
        try CoverArt.embed(Self.cover, format: .flac, inFileAt: path)
        let after = try Self.bytes(path)

        let (old, oldEnd) = try Self.flacBlocks(before)
        let (new, newEnd) = try Self.flacBlocks(after)
        #expect(old.map(\.type) == [0, 4], "libsndfile writes STREAMINFO and the Vorbis comments")
        #expect(new.map(\.type) == [0, 4, 6])
        #expect(new.map(\.last) == [false, false, true])
        #expect(new[0].body == old[0].body && new[1].body == old[1].body)
        #expect(new[2].body == FLACMetadata.picture(Self.cover))
        #expect(Array(after[newEnd...]) == Array(before[oldEnd...]), "the audio frames are copied as they are")
        // Front cover, PNG, 24×24×24.
        let picture = new[2].body
        #expect(Array(picture[0..<4]) == [0, 0, 0, 3])
        #expect(Array(picture[8..<17]) == Array("image/png".utf8))
        #expect(FLACMetadata.imageSize(Self.png)! == (24, 24, 24))

        // Still a FLAC file libsndfile reads, with its tags; embedding again gives the same bytes.
        #expect(try AudioFileInfo.inspect(path: path).frames == 22_050)
        #expect(try AudioTags.read(path: path).title == "Chapter One")
        try CoverArt.embed(Self.cover, format: .flac, inFileAt: path)
        #expect(try Self.bytes(path) == after)
        #expect(directory.names == ["section.flac.part"], "no temporary file left")
    }

    // MARK: - MP3

    @Test func mp3GetsAnAPICFrameInItsID3v2Tag() throws {
        try #require(AudioFileWriter.availableFormats().contains(.mp3), "this libsndfile writes no MP3")
        let directory = try TemporaryFolder()
        let path = try Self.makeFile(.mp3, in: directory.path)
        let before = try Self.bytes(path)
        try CoverArt.embed(Self.cover, format: .mp3, inFileAt: path)
        let after = try Self.bytes(path)

        let oldLength = try #require(ID3v2.tagLength(header: Array(before.prefix(10))))
        let newLength = try #require(ID3v2.tagLength(header: Array(after.prefix(10))))
        let (oldVersion, oldFrames) = try ID3v2.frames(of: Array(before.prefix(oldLength)))
        let (version, frames) = try ID3v2.frames(of: Array(after.prefix(newLength)))
        #expect(oldVersion == 3 && version == 3, "LAME writes ID3v2.3; the version is kept")
        #expect(oldFrames.map(\.id).contains("TIT2"))
        #expect(frames.map(\.id) == oldFrames.map(\.id) + ["APIC"])
        #expect(Array(frames.dropLast()) == oldFrames, "the other frames are kept byte for byte")
        // The tag's size is its frames, exactly (no padding); the frame's size is plain in v2.3.
        #expect(newLength == 10 + frames.reduce(0) { $0 + $1.bytes.count })
        let apic = try #require(frames.last).bytes
        let body = [0] + Array("image/png".utf8) + [0, 3, 0] + Self.png
        #expect(Array(apic[4..<8]) == FLACMetadata.bigEndian(UInt64(body.count), bytes: 4))
        #expect(Array(apic[10...]) == body)
        #expect(Array(after[newLength...]) == Array(before[oldLength...]), "the audio is copied as it is")

        #expect(try AudioTags.read(path: path).title == "Chapter One")
        try CoverArt.embed(Self.cover, format: .mp3, inFileAt: path)
        #expect(try Self.bytes(path) == after, "embedding again replaces the picture")
    }

    @Test func mp3TextLatin1CannotHoldGoesInUTF16Frames() throws {
        try #require(AudioFileWriter.availableFormats().contains(.mp3), "this libsndfile writes no MP3")
        let directory = try TemporaryFolder()
        let tags = AudioTags(title: "第一回 靈根育孕源流出", album: "西遊記", artist: "Łukasz Ō", trackNumber: "1/100")
        let path = try Self.makeFile(.mp3, in: directory.path, tags: tags)
        let before = try Self.bytes(path)
        let texts = ID3v2.unicodeTexts(tags)
        #expect(texts.map(\.id) == ["TIT2", "TALB", "TPE1"])
        #expect(ID3v2.unicodeTexts(AudioTags(title: "L'été à Zürich", artist: "Ann")).isEmpty, "Latin-1 holds these")
        try CoverArt.embed(nil, texts: texts, format: .mp3, inFileAt: path)
        let after = try Self.bytes(path)

        let oldLength = try #require(ID3v2.tagLength(header: Array(before.prefix(10))))
        let newLength = try #require(ID3v2.tagLength(header: Array(after.prefix(10))))
        let (_, oldFrames) = try ID3v2.frames(of: Array(before.prefix(oldLength)))
        let (version, frames) = try ID3v2.frames(of: Array(after.prefix(newLength)))
        #expect(version == 3)
        // LAME's other frames (its encoder, the track number) are kept; the three texts are ours.
        #expect(
            frames.map(\.id) == oldFrames.map(\.id).filter { !["TIT2", "TALB", "TPE1"].contains($0) } + texts.map(\.id))
        func text(_ id: String) -> String? {
            guard let frame = frames.first(where: { $0.id == id }), frame.bytes[10...12] == [1, 0xFF, 0xFE] else {
                return nil
            }
            let units = stride(from: 13, to: frame.bytes.count - 1, by: 2).map {
                UInt16(frame.bytes[$0]) | UInt16(frame.bytes[$0 + 1]) << 8
            }
            return String(decoding: units, as: UTF16.self)
        }
        #expect(text("TIT2") == tags.title && text("TALB") == tags.album && text("TPE1") == tags.artist)
        #expect(Array(after[newLength...]) == Array(before[oldLength...]), "the audio is copied as it is")
    }

    @Test func id3v24FrameSizesAreSyncsafeAndAFileWithoutATagGetsOne() throws {
        // A v2.4 tag with one TIT2 frame of 200 bytes (a size that differs when syncsafe) and padding.
        let text = [3] + [UInt8](repeating: 0x41, count: 199)
        let frame = Array("TIT2".utf8) + ID3v2.syncsafe(text.count) + [0, 0] + text
        let tag =
            Array("ID3".utf8) + [4, 0, 0] + ID3v2.syncsafe(frame.count + 50) + frame + [UInt8](repeating: 0, count: 50)
        let edited = try ID3v2.tag(tag, withPicture: Self.cover)
        let (version, frames) = try ID3v2.frames(of: edited)
        #expect(version == 4)
        #expect(frames.map(\.id) == ["TIT2", "APIC"])
        #expect(frames[0].bytes == frame)
        let size = 1 + 9 + 1 + 1 + 1 + Self.png.count
        #expect(Array(frames[1].bytes[4..<8]) == ID3v2.syncsafe(size))
        #expect(ID3v2.syncsafe(ID3v2.syncsafe(size)[...]) == size)
        #expect(ID3v2.syncsafe(200) == [0, 0, 1, 0x48])

        let fresh = try ID3v2.tag(nil, withPicture: Self.cover)
        #expect(Array(fresh.prefix(5)) == Array("ID3".utf8) + [3, 0])
        #expect(try ID3v2.frames(of: fresh).frames.map(\.id) == ["APIC"])

        var unsynchronised = tag
        unsynchronised[5] = 0x80
        #expect { try ID3v2.tag(unsynchronised, withPicture: Self.cover) } throws: { Self.isMalformed($0) }
        #expect { try ID3v2.frames(of: Array(tag.prefix(40))) } throws: { Self.isMalformed($0) }
    }

    // MARK: - Ogg

    /// Every page of an Ogg file (CRC checked by `OggPage`) and its packets.
    static func oggPages(_ data: [UInt8]) throws -> (pages: [OggPage], packets: [[UInt8]]) {
        var pages: [OggPage] = []
        var packets: [[UInt8]] = []
        var partial: [UInt8] = []
        var at = 0
        while at < data.count {
            let segments = Int(data[at + 26])
            let header = Array(data[at..<at + 27 + segments])
            let length = header[27...].reduce(0) { $0 + Int($1) }
            let page = try OggPage(header: header, body: Array(data[at + 27 + segments..<at + 27 + segments + length]))
            #expect(page.bytes == Array(data[at..<at + 27 + segments + length]), "a page is written as it was read")
            for piece in page.pieces {
                partial += piece.bytes
                if piece.ends {
                    packets.append(partial)
                    partial = []
                }
            }
            pages.append(page)
            at += 27 + segments + length
        }
        #expect(partial.isEmpty)
        return (pages, packets)
    }

    /// How many pages, from the first, it takes to end `packets` packets.
    static func pagesHolding(_ packets: Int, of pages: [OggPage]) -> Int {
        var ended = 0
        for (index, page) in pages.enumerated() {
            ended += page.pieces.filter(\.ends).count
            if ended >= packets { return index + 1 }
        }
        return pages.count
    }

    @Test(arguments: [AudioFormat.opus, .ogg], [2_000, 300_000])
    func oggGetsAPictureCommentOnNewPages(_ format: AudioFormat, coverBytes: Int) throws {
        try #require(AudioFileWriter.availableFormats().contains(format), "this libsndfile writes no \(format)")
        let directory = try TemporaryFolder()
        let path = try Self.makeFile(format, in: directory.path)
        let cover = coverBytes < 10_000 ? Self.cover : Self.largeJPEG(count: coverBytes)
        let before = try Self.oggPages(try Self.bytes(path))
        try CoverArt.embed(cover, format: format, inFileAt: path)
        let after = try Self.oggPages(try Self.bytes(path))

        // Every packet is intact but the comment header, which gains the picture.
        #expect(after.packets.count == before.packets.count)
        #expect(after.packets[0] == before.packets[0])
        #expect(Array(after.packets[2...]) == Array(before.packets[2...]))
        let (_, oldComments, oldTail) = try VorbisCommentPacket.parse(before.packets[1])
        let (_, comments, tail) = try VorbisCommentPacket.parse(after.packets[1])
        #expect(Array(comments.dropLast()) == oldComments)
        if format == .opus {
            #expect(!oldTail.isEmpty && oldTail.allSatisfy { $0 == 0 }, "libsndfile pads its Opus comment header")
            #expect(tail.isEmpty, "the padding is dropped (ffmpeg reported it on every file)")
        } else {
            #expect(tail == oldTail && tail == [1], "the framing bit is kept")
        }
        let picture = String(decoding: try #require(comments.last), as: UTF8.self)
        #expect(picture == "METADATA_BLOCK_PICTURE=" + Data(FLACMetadata.picture(cover)).base64EncodedString())

        // Pages: one stream, numbered 0, 1, 2... (CRCs were checked while reading), the headers at
        // granule 0 (or -1 on a page where no packet ends), the audio pages' granules unchanged.
        let pages = after.pages
        #expect(Set(pages.map(\.serial)).count == 1)
        #expect(pages.map(\.sequence) == (0..<UInt32(pages.count)).map { $0 })
        #expect(pages.first?.headerType == OggPage.beginning)
        #expect(((pages.last?.headerType ?? 0) & OggPage.end) != 0)
        let headerPackets = format == .opus ? 2 : 3
        let oldHeaderPages = Self.pagesHolding(headerPackets, of: before.pages)
        let headerPages = Self.pagesHolding(headerPackets, of: pages)
        #expect(pages.count - headerPages == before.pages.count - oldHeaderPages)
        #expect(headerPages > (coverBytes > 100_000 ? 5 : 1), "a large comment spans several pages")
        for page in pages[1..<headerPages] {
            let ends = page.pieces.contains { $0.ends }
            #expect(page.granule == (ends ? 0 : OggPage.noGranule))
        }
        #expect(pages[headerPages...].map(\.granule) == before.pages[oldHeaderPages...].map(\.granule))
        #expect(pages[headerPages...].map(\.body) == before.pages[oldHeaderPages...].map(\.body))

        // libsndfile still reads it; embedding again gives the same bytes.
        #expect(try AudioFileInfo.inspect(path: path).frames > 0)
        let once = try Self.bytes(path)
        try CoverArt.embed(cover, format: format, inFileAt: path)
        #expect(try Self.bytes(path) == once)
    }

    /// libsndfile gives each Ogg stream a random serial number and libsoxr dithers from the clock:
    /// the same audio written twice must still make the same file once its headers are laid out.
    @Test(arguments: [AudioFormat.opus, .ogg])
    func theSameAudioMakesTheSameOggFile(_ format: AudioFormat) throws {
        try #require(AudioFileWriter.availableFormats().contains(format), "this libsndfile writes no \(format)")
        var files: [[UInt8]] = []
        for _ in 0..<2 {
            let directory = try TemporaryFolder()
            let path = try Self.makeFile(format, in: directory.path)
            try CoverArt.embed(nil, format: format, inFileAt: path)
            files.append(try Self.bytes(path))
        }
        #expect(files[0] == files[1])
        let other = try TemporaryFolder()
        var tags = Self.tags
        tags.title = "Chapter Two"
        let retitled = try Self.makeFile(format, in: other.path, tags: tags)
        try CoverArt.embed(nil, format: format, inFileAt: retitled)
        let serials = try [files[0], Self.bytes(retitled)].map { try Self.oggPages($0).pages[0].serial }
        #expect(serials[0] != serials[1], "two sections' streams have serial numbers of their own")
    }

    @Test func commentsAreSetInPlaceAndAddedBeforeThePicture() throws {
        func packet(_ comments: [String], tail: [UInt8]) -> [UInt8] {
            var out = Array("OpusTags".utf8) + [3, 0, 0, 0] + Array("lib".utf8)
            out += OggPage.littleEndian(UInt64(comments.count), bytes: 4)
            for comment in comments { out += OggPage.littleEndian(UInt64(comment.utf8.count), bytes: 4) + comment.utf8 }
            return out + tail
        }
        let before = packet(["TITLE=One", "tracknumber=5/14", "GENRE=Audiobook", "TRACKNUMBER=6/14"], tail: [0, 0, 0])
        let after = try VorbisCommentPacket.edited(before, picture: nil, values: [("TRACKNUMBER", "1/10")])
        #expect(after == packet(["TITLE=One", "tracknumber=1/10", "GENRE=Audiobook"], tail: []))
        let added = try VorbisCommentPacket.edited(
            packet(["TITLE=One", "METADATA_BLOCK_PICTURE=x"], tail: [1, 9]), picture: nil,
            values: [("TRACKNUMBER", "2/10")])
        #expect(
            added == packet(["TITLE=One", "TRACKNUMBER=2/10", "METADATA_BLOCK_PICTURE=x"], tail: [1, 9]),
            "binary data an editor must keep (its lowest bit set) is kept")
    }

    @Test func paginationLaysPacketsOnPagesOfAtMost255Segments() throws {
        // 255 × 255 bytes: exactly one full page of segments, then a page with the closing 0.
        let packets: [[UInt8]] = [[UInt8](repeating: 7, count: 255 * 255), [1, 2, 3], []]
        let pages = OggPage.paginate(packets, serial: 9, firstSequence: 1)
        #expect(pages.map(\.lacing.count) == [255, 3])
        #expect(pages.map(\.headerType) == [0, OggPage.continued])
        #expect(pages.map(\.granule) == [OggPage.noGranule, 0])
        #expect(pages.map(\.sequence) == [1, 2])
        // A packet that ends exactly with a full page: the next page starts a packet, not a continuation.
        let exact = OggPage.paginate([[UInt8](repeating: 1, count: 254 * 255 + 10), [5]], serial: 1, firstSequence: 0)
        #expect(exact.map(\.lacing.count) == [255, 1])
        #expect(exact.map(\.headerType) == [0, 0])
        #expect(exact.map(\.granule) == [0, 0])
        var reassembled: [[UInt8]] = []
        var partial: [UInt8] = []
        for page in pages {
            let parsed = try OggPage(header: Array(page.bytes.prefix(27 + page.lacing.count)), body: page.body)
            for piece in parsed.pieces {
                partial += piece.bytes
                if piece.ends {
                    reassembled.append(partial)
                    partial = []
                }
            }
        }
        #expect(reassembled == packets)
    }

    @Test func oggCRCIsTheOneOfTheSpecification() throws {
        // CRC-32/MPEG-2 without the final XOR and with initial value 0 ("CRC-32/OGG"): check value of "123456789".
        #expect(OggCRC.checksum(Array("123456789".utf8)) == 0x89A1_897F)
        var page = OggPage.paginate([[1, 2, 3]], serial: 5, firstSequence: 0)[0].bytes
        page[30] ^= 1
        #expect {
            _ = try OggPage(header: Array(page.prefix(28)), body: Array(page[28...]))
        } throws: { Self.isMalformed($0) }
    }

    @Test func aFileThatIsNotItsFormatIsRefusedAndLeftAlone() throws {
        let directory = try TemporaryFolder()
        let path = directory.path + "/bad.part"
        for format in [AudioFormat.flac, .opus, .ogg] {
            try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: path))
            #expect { try CoverArt.embed(Self.cover, format: format, inFileAt: path) } throws: { Self.isMalformed($0) }
            #expect(try Self.bytes(path) == Array("not audio at all".utf8))
        }
        #expect(directory.names == ["bad.part"], "no temporary file left")
        // WAV is left as it is.
        try CoverArt.embed(Self.cover, format: .wav, inFileAt: path)
        #expect(try Self.bytes(path) == Array("not audio at all".utf8))
    }

    // MARK: - In a conversion

    /// A conversion with the fake engine into real files (libsndfile), from `source`.
    static func fileEnvironment(_ source: @escaping @Sendable () -> FakeSource) -> ConversionEnvironment {
        ConversionEnvironment(
            makeSource: { _ in source() }, makeEngine: { FakeEngine() },
            makeSink: {
                try AudioFileWriter(path: $0.path, encoding: $0.encoding, sampleRate: $0.sampleRate, tags: $0.tags)
            })
    }

    @Test func aConversionEmbedsTheCoverAndResumesWhatIsDone() async throws {
        let sandbox = try Sandbox()
        let env = Self.fileEnvironment { FakeSource.make(count: 3) }
        var request = sandbox.request()
        request.selection = .all
        request.encoding = AudioEncoding(format: .flac)
        request.cover = Self.cover
        let first = try await Converter(environment: env).run(request)
        #expect(first.sectionsDone == 3)
        let manifest = try sandbox.manifest()
        #expect(manifest.settings?.coverSHA256 == SHA256.hex(Self.png))
        #expect(sandbox.files().contains("cover.png"), "the cover the workers read is beside the sections")
        for record in manifest.sections {
            let file = try #require(record.file)
            let data = try #require(sandbox.contents(file))
            #expect(try Self.flacBlocks(Array(data)).blocks.map(\.type) == [0, 4, 6])
            #expect(Int64(data.count) == record.bytes, "the size recorded is the file's with its cover")
        }
        #expect(!sandbox.files().contains { $0.hasSuffix(".part") })

        // The same cover: everything is resumed. Another cover, or none: everything is redone.
        #expect(try await Converter(environment: env).run(request).sectionsSkipped == 3)
        request.cover = Self.largeJPEG(count: 5_000)
        #expect(try await Converter(environment: env).run(request).sectionsDone == 3)
        request.cover = nil
        #expect(try await Converter(environment: env).run(request).sectionsDone == 3)
        for record in try sandbox.manifest().sections {
            let file = try #require(record.file)
            let data = try #require(sandbox.contents(file))
            #expect(try Self.flacBlocks(Array(data)).blocks.map(\.type) == [0, 4])
        }
        #expect(try sandbox.manifest().settings?.coverSHA256 == nil)
    }

    @Test func aCoverConvertedAgainIntoOtherBytesFromTheSameSourceRedoesNothing() async throws {
        let sandbox = try Sandbox()
        let env = Self.fileEnvironment { FakeSource.make(count: 3) }
        var request = sandbox.request()
        request.selection = .all
        request.encoding = AudioEncoding(format: .flac)
        // Two drawings of one SVG that differ (another ffmpeg, a decoder that is not deterministic).
        request.cover = AudiobookCover(data: TestImages.png(width: 24, height: 36), sourceSHA256: "svg drawn, v1")
        #expect(try await Converter(environment: env).run(request).sectionsDone == 3)
        #expect(try sandbox.manifest().settings?.coverSHA256 == "svg drawn, v1")
        request.cover = AudiobookCover(data: TestImages.png(width: 24, height: 38), sourceSHA256: "svg drawn, v1")
        let again = try await Converter(environment: env).run(request)
        #expect(again.sectionsSkipped == 3 && again.sectionsDone == 0, "resume does not depend on the drawing")
        // Another source (or recipe) is another cover.
        request.cover = AudiobookCover(data: TestImages.png(width: 24, height: 38), sourceSHA256: "svg drawn, v2")
        #expect(try await Converter(environment: env).run(request).sectionsDone == 3)
    }

    @Test(
        "Opus and Vorbis files, with and without a cover: ffprobe has nothing to say about their headers",
        .enabled(if: FFTools.installed, "ffmpeg/ffprobe are not installed (make deps installs them)"),
        arguments: [AudioFormat.opus, .ogg], [true, false])
    func oggFilesProbeWithoutWarnings(_ format: AudioFormat, withCover: Bool) async throws {
        try #require(AudioFileWriter.availableFormats().contains(format), "this libsndfile writes no \(format)")
        let sandbox = try Sandbox()
        let env = Self.fileEnvironment { FakeSource.make(count: 2) }
        var request = sandbox.request()
        request.selection = .all
        request.encoding = AudioEncoding(format: format)
        request.cover = withCover ? Self.cover : nil
        #expect(try await Converter(environment: env).run(request).sectionsDone == 2)
        for record in try sandbox.manifest().sections {
            let path = sandbox.output + "/" + (try #require(record.file))
            #expect(try FFTools.messages(path, level: "warning").isEmpty, "\(path)")
            let info = try FFTools.messages(path, level: "info")
            #expect(!info.contains("remain"), "\(info)")
            #expect(info.contains(withCover ? "attached pic" : "Audio:"), "\(info)")
        }
    }

    /// A long section made in parts (raw PCM joined by the coordinator) takes the cover when joined.
    @Test func aSectionMadeInPartsTakesTheCoverToo() async throws {
        let sandbox = try Sandbox()
        let env = Self.fileEnvironment { SectionPartsTests.book() }
        var request = sandbox.request()
        request.selection = .all
        request.encoding = AudioEncoding(format: .flac)
        request.partWords = SectionPartsTests.partWords
        request.cover = Self.cover
        #expect(try await Converter(environment: env).run(request).sectionsDone == 4)
        for record in try sandbox.manifest().sections {
            let file = try #require(record.file)
            let data = try #require(sandbox.contents(file))
            #expect(try Self.flacBlocks(Array(data)).blocks.map(\.type) == [0, 4, 6], "\(file)")
            #expect(Int64(data.count) == record.bytes)
        }
        #expect(!sandbox.files().contains { $0.hasSuffix(".pcm") || $0.hasSuffix(".part") })
    }

    @Test func aCoverTooLargeToEmbedIsLeftOutWithAWarningAndWAVNeverTakesOne() async throws {
        let sandbox = try Sandbox()
        let env = Self.fileEnvironment { FakeSource.make(count: 1) }
        var request = sandbox.request()
        request.selection = .all
        request.encoding = AudioEncoding(format: .flac)
        request.cover = Self.largeJPEG(count: CoverArt.maxCoverBytes + 1)
        let log = EventLog()
        #expect(try await Converter(environment: env).run(request, onEvent: log.append).sectionsDone == 1)
        let warnings = log.all.compactMap { event -> String? in
            if case .warning(let message) = event { return message }
            return nil
        }
        #expect(warnings.contains { $0.contains("not embedded") }, "\(warnings)")
        // One unit for the size and the limit (it said "8 MB" for a cover over 8 MiB).
        #expect(
            warnings.contains { $0.contains("(\(CoverArt.maxCoverBytes + 1) bytes) is larger than 8 MiB") },
            "\(warnings)")
        #expect(try sandbox.manifest().settings?.coverSHA256 == nil)
        #expect(!sandbox.files().contains { $0.hasPrefix("cover.") })

        let wav = try Sandbox()
        var plain = wav.request()
        plain.selection = .all
        plain.cover = Self.cover
        #expect(try await Converter(environment: env).run(plain).sectionsDone == 1)
        #expect(try wav.manifest().settings?.coverSHA256 == nil, "WAV files carry no cover")
    }

    @Test func settingsWithoutACoverKeepTheirFingerprint() throws {
        let settings = AudioSettings(voice: VoiceSettings(voice: "en"))
        #expect(!String(decoding: CanonicalJSON.encode(settings), as: UTF8.self).contains("cover"))
        var covered = settings
        covered.coverSHA256 = SHA256.hex(Self.png)
        #expect(covered.fingerprint != settings.fingerprint)
        let decoded = try JSONDecoder().decode(AudioSettings.self, from: CanonicalJSON.encode(covered))
        #expect(decoded == covered)
    }
}
