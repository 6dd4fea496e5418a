import EPUBReader
import Foundation
import TestSupport
import Testing

@testable import Bundling
@testable import Conversion
@testable import TagEditing

/// The pure parts of `AudiobookBundler`: chapters, ffmetadata, concat list, ffmpeg arguments, names.
struct AudiobookBundlerTests {
    static func record(_ number: Int, _ title: String, frames: Int?, rate: Int? = 22_050) -> SectionRecord {
        var record = SectionRecord(
            number: number, title: title, status: .done, file: String(format: "%03d - %@.wav", number, title))
        record.frames = frames
        record.sampleRate = frames == nil ? nil : rate
        return record
    }

    @Test func chaptersStartAtTheRunningSumOfFrames() throws {
        let records = [
            Self.record(1, "One", frames: 30_209), Self.record(2, "Two", frames: 52_259),
            Self.record(3, "Three", frames: 74_309),
        ]
        let (chapters, rate) = try AudiobookBundler.chapters(for: records) { _ in
            Issue.record(); return (0, 0)
        }
        #expect(rate == 22_050)
        #expect(chapters.map(\.startFrame) == [0, 30_209, 82_468])
        #expect(chapters.map(\.title) == ["One", "Two", "Three"])
        #expect(chapters.map(\.file) == ["001 - One.wav", "002 - Two.wav", "003 - Three.wav"])
    }

    @Test func recordsWithoutFramesAskTheFiles() throws {
        let records = [Self.record(1, "One", frames: 100), Self.record(2, "Two", frames: nil)]
        let (chapters, _) = try AudiobookBundler.chapters(for: records) { _ in (250, 22_050) }
        #expect(chapters.map(\.frames) == [100, 250])
    }

    @Test func unfinishedSectionsAndMixedRatesAreRefused() {
        var pending = Self.record(1, "One", frames: 10)
        pending.status = .pending
        #expect(throws: ConversionError.self) { try AudiobookBundler.chapters(for: [pending]) { _ in (1, 1) } }
        let mixed = [Self.record(1, "One", frames: 10), Self.record(2, "Two", frames: 10, rate: 44_100)]
        #expect(throws: ConversionError.self) { try AudiobookBundler.chapters(for: mixed) { _ in (1, 1) } }
        #expect(throws: ConversionError.self) { try AudiobookBundler.chapters(for: []) { _ in (1, 1) } }
    }

    @Test func ffmetadataHasTagsAndExactChapters() {
        let metadata = AudiobookMetadata(
            title: "A = B; #1", authors: ["Ann", "Bob"], date: "1999-03-01", description: "Line one\nback\\slash")
        let chapters = [
            AudiobookChapter(title: "One", file: "a", startFrame: 0, frames: 100),
            AudiobookChapter(title: "Two", file: "b", startFrame: 100, frames: 50),
        ]
        let text = AudiobookBundler.ffmetadata(metadata: metadata, chapters: chapters, sampleRate: 22_050)
        #expect(
            text == """
                ;FFMETADATA1
                title=A \\= B\\; \\#1
                artist=Ann, Bob
                album=A \\= B\\; \\#1
                album_artist=Ann, Bob
                genre=Audiobook
                date=1999-03-01
                comment=Line one\\
                back\\\\slash
                media_type=2
                [CHAPTER]
                TIMEBASE=1/22050
                START=0
                END=100
                title=One
                [CHAPTER]
                TIMEBASE=1/22050
                START=100
                END=150
                title=Two

                """)
    }

    @Test func missingTagsAreLeftOut() {
        let text = AudiobookBundler.ffmetadata(metadata: AudiobookMetadata(title: "T"), chapters: [], sampleRate: 8_000)
        #expect(text == ";FFMETADATA1\ntitle=T\nalbum=T\ngenre=Audiobook\nmedia_type=2\n")
    }

    @Test func filterGraphCutsEachSectionToItsFramesAndJoinsThemInOrder() {
        let chapters = [
            AudiobookChapter(title: "One", file: "a", startFrame: 0, frames: 100),
            AudiobookChapter(title: "Two", file: "b", startFrame: 100, frames: 50),
        ]
        #expect(
            AudiobookBundler.filterGraph(chapters: chapters, sampleRate: 22_050) == """
                [0:a]aresample=22050,apad=whole_len=100,atrim=end_sample=100[s0];
                [1:a]aresample=22050,apad=whole_len=50,atrim=end_sample=50[s1];
                [s0][s1]concat=n=2:v=0:a=1[audio]

                """)
    }

    @Test func ffmpegArgumentsEncodeOnceIntoAnIpodFile() {
        let plain = AudiobookBundler.ffmpegArguments(
            sectionFiles: ["/o/1.wav", "/o/2.wav"], graphFile: "/t/g", metadataFile: "/t/m", coverFile: nil,
            output: "/o/x.m4b")
        #expect(
            plain == [
                "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", "/o/1.wav", "-i", "/o/2.wav",
                "-f", "ffmetadata", "-i", "/t/m", "-filter_complex_script", "/t/g", "-map", "[audio]",
                "-map_metadata", "2", "-map_chapters", "2", "-c:a", "aac", "-aac_coder", "fast", "-profile:a",
                "aac_low", "-b:a", "64k", "-movflags", "+faststart", "-f", "ipod", "/o/x.m4b",
            ])
        #expect(!plain.joined(separator: " ").contains("use_metadata_tags"))
        let withCover = AudiobookBundler.ffmpegArguments(
            sectionFiles: ["/o/1.wav"], graphFile: "/t/g", metadataFile: "/t/m", coverFile: "/t/c.jpg",
            output: "/o/x.m4b")
        #expect(withCover.contains("attached_pic"))
        #expect(withCover.filter { $0 == "-i" }.count == 3)
        #expect(withCover.contains("2:v"))
    }

    @Test(arguments: [
        (AudiobookMetadata(title: "Moby Dick", authors: ["Herman Melville"]), "Moby Dick - Herman Melville.m4b"),
        (AudiobookMetadata(title: "Untitled"), "Untitled.m4b"),
        (AudiobookMetadata(title: "A/B: C?", authors: ["X", "Y"]), "A-B - C - X, Y.m4b"),
    ])
    func fileNames(metadata: AudiobookMetadata, expected: String) {
        #expect(AudiobookBundler.fileName(for: metadata, format: .m4b) == expected)
    }

    @Test(
        "a language tag's ISO 639-2 code",
        arguments: [
            ("zh", "zho"), ("zh-Hant", "zho"), ("en-GB", "eng"), ("de", "deu"), ("fr_CA", "fra"), ("pt-BR", "por"),
            ("cmn", "cmn"), ("GRC", "grc"), ("und", nil), ("mul", nil), ("x-private", nil), ("", nil), ("e1", nil),
        ] as [(String, String?)])
    func languageCodes(tag: String, code: String?) {
        #expect(BundleLanguage.iso639_2(tag) == code)
    }

    @Test func mdhdLanguagePacksFiveBitLetters() {
        #expect(BundleLanguage.packed("eng") == 0x15C7)
        #expect(BundleLanguage.packed("und") == 0x55C4)
        #expect(BundleLanguage.packed("EN") == nil)
        // The language of a text track's mdhd is found, version 0 and 1; a sound track's is not touched.
        func track(handler: String, version: UInt8) -> [UInt8] {
            func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
                FLACMetadata.bigEndian(UInt64(body.count + 8), bytes: 4) + Array(type.utf8) + body
            }
            let times = [UInt8](repeating: 0, count: version == 1 ? 28 : 16)
            let mdhd = box("mdhd", [version, 0, 0, 0] + times + [0x15, 0xC7, 0, 0])
            let hdlr = box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
            return box("trak", box("mdia", mdhd + hdlr))
        }
        let tracks =
            track(handler: "soun", version: 0) + track(handler: "text", version: 0) + track(handler: "text", version: 1)
        let movie = FLACMetadata.bigEndian(UInt64(8 + tracks.count), bytes: 4) + Array("moov".utf8) + tracks
        let offsets = BundleLanguage.textTrackLanguageOffsets(inMovie: movie)
        #expect(offsets.count == 2)
        for offset in offsets { #expect(Array(movie[offset..<offset + 2]) == [0x15, 0xC7]) }
    }

    @Test func theBundleDescriptionIsPlainText() throws {
        let folder = try TemporaryFolder()
        var book = SmallEPUB(entries: [SmallEPUB.Entry(title: "One", body: "<p>Text.</p>")])
        book.description =
            "&lt;p&gt;&lt;i&gt;The Lamp&lt;/i&gt;, a novel.&lt;/p&gt;" + "&lt;p&gt;Two &amp;amp; three.&lt;/p&gt;"
        let epub = try EPUBBook.open(path: try book.write(into: folder.path))
        let metadata = AudiobookMetadata(book: epub, title: "The Lamp")
        #expect(metadata.description == "The Lamp, a novel. Two & three.")
        for format in BundleFormat.allCases {
            let text = AudiobookBundler.ffmetadata(metadata: metadata, chapters: [], sampleRate: 22_050, format: format)
            #expect(text.contains("\ncomment=The Lamp, a novel. Two & three.\n"), "\(format): \(text)")
        }
    }

    @Test func inputsHashChangesWithASection() {
        let records = [Self.record(1, "One", frames: 10)]
        var changed = records
        changed[0].textSHA256 = "other"
        let a = AudiobookBundler.inputsSHA256(metadataText: "m", chapters: [], records: records, cover: nil)
        #expect(a == AudiobookBundler.inputsSHA256(metadataText: "m", chapters: [], records: records, cover: nil))
        #expect(a != AudiobookBundler.inputsSHA256(metadataText: "m", chapters: [], records: changed, cover: nil))
        #expect(a != AudiobookBundler.inputsSHA256(metadataText: "n", chapters: [], records: records, cover: nil))
        // A cover counts by its source: two drawings of one SVG are the same input, another source is not.
        func inputs(_ cover: AudiobookCover?) -> String {
            AudiobookBundler.inputsSHA256(
                format: .opus, metadataText: "m", chapters: [], records: records, cover: cover)
        }
        let drawn = AudiobookCover(data: [0xFF, 0xD8, 0xFF, 1], sourceSHA256: "svg")
        #expect(inputs(drawn) == inputs(AudiobookCover(data: [0xFF, 0xD8, 0xFF, 2], sourceSHA256: "svg")))
        #expect(inputs(drawn) != inputs(AudiobookCover(data: [0xFF, 0xD8, 0xFF, 1], sourceSHA256: "other")))
        #expect(inputs(drawn) != inputs(nil))
    }

    @Test func vorbisCommentFormatsCarryChaptersAsComments() {
        let metadata = AudiobookMetadata(title: "T", authors: ["A"], narrator: "espeak-ng, voice en")
        let chapters = [
            AudiobookChapter(title: "One", file: "a", startFrame: 0, frames: 33_075),
            AudiobookChapter(title: "Two = 2", file: "b", startFrame: 33_075, frames: 50),
        ]
        let flac = AudiobookBundler.ffmetadata(
            metadata: metadata, chapters: chapters, sampleRate: 22_050, format: .flac,
            cover: AudiobookCover(data: [0xFF, 0xD8, 0xFF, 0xE0]))
        #expect(
            flac == """
                ;FFMETADATA1
                title=T
                artist=A
                album=T
                album_artist=A
                genre=Audiobook
                composer=espeak-ng, voice en
                CHAPTER001=00:00:00.000
                CHAPTER001NAME=One
                CHAPTER002=00:00:01.500
                CHAPTER002NAME=Two \\= 2

                """)
        let opus = AudiobookBundler.ffmetadata(
            metadata: metadata, chapters: chapters, sampleRate: 22_050, format: .opus,
            cover: AudiobookCover(data: [0xFF, 0xD8, 0xFF, 0xE0]))
        #expect(opus.contains("\nCHAPTER002NAME=Two \\= 2\nMETADATA_BLOCK_PICTURE="))
        #expect(!opus.contains("[CHAPTER]") && !opus.contains("media_type"))
        let mp3 = AudiobookBundler.ffmetadata(metadata: metadata, chapters: chapters, sampleRate: 22_050, format: .mp3)
        #expect(mp3.contains("[CHAPTER]\nTIMEBASE=1/22050\nSTART=33075\nEND=33125\ntitle=Two \\= 2\n"))
        #expect(!mp3.contains("CHAPTER001"))
    }

    @Test(arguments: [
        (0, "00:00:00.000"), (11, "00:00:00.000"), (12, "00:00:00.001"), (22_050 * 3_661 + 11_025, "01:01:01.500"),
        (22_050 * 3_600 * 101, "101:00:00.000"),
    ])
    func vorbisChapterTimes(frames: Int, expected: String) {
        #expect(AudiobookBundler.vorbisChapterTime(frames: frames, sampleRate: 22_050) == expected)
    }

    @Test func ffmpegArgumentsPerFormat() {
        func arguments(_ format: BundleFormat, cover: String? = "/t/c.jpg", nero: Bool = true) -> [String] {
            AudiobookBundler.ffmpegArguments(
                format: format, sectionFiles: ["/o/1.wav"], graphFile: "/t/g", metadataFile: "/t/m",
                coverFile: cover, output: "/o/x", neroChapters: nero)
        }
        #expect(arguments(.mp3).joined(separator: " ").contains("-map_chapters 1 -c:a libmp3lame -b:a 64k"))
        #expect(arguments(.mp3).contains("attached_pic"))
        #expect(arguments(.flac).joined(separator: " ").contains("-map_chapters -1 -c:a flac -c:v copy"))
        for ogg in [BundleFormat.opus, .ogg] {
            // The Ogg cover is a comment: no picture input or stream.
            #expect(!arguments(ogg).contains("/t/c.jpg") && !arguments(ogg).contains("attached_pic"))
            #expect(arguments(ogg).suffix(3) == ["-f", "ogg", "/o/x"])
        }
        #expect(arguments(.m4b, nero: false).contains("+faststart+disable_chpl"))
        #expect(arguments(.m4b).contains("+faststart"))
    }

    @Test func chapterListLimitsWarn() {
        #expect(AudiobookBundler.warnings(format: .m4b, chapters: 255).isEmpty)
        #expect(AudiobookBundler.warnings(format: .m4b, chapters: 256).count == 1)
        #expect(AudiobookBundler.warnings(format: .flac, chapters: 254).isEmpty)
        #expect(AudiobookBundler.warnings(format: .flac, chapters: 255).count == 1)
        #expect(AudiobookBundler.warnings(format: .mp3, chapters: 1_000).isEmpty)
    }

    @Test func flacCueSheetLayout() throws {
        let sheet = try #require(FLACMetadata.cueSheet(starts: [0, 1_000], totalSamples: 5_000))
        #expect(sheet.count == 396 + 2 * 48 + 36)
        #expect(sheet[395] == 3)
        #expect(sheet[396 + 48 + 7] == UInt8(1_000 & 0xFF) && sheet[396 + 48 + 6] == UInt8(1_000 >> 8))
        #expect(sheet[396 + 48 + 8] == 2)
        #expect(sheet[396 + 48 + 35] == 1, "one index point")
        #expect(sheet[396 + 96 + 8] == 255, "lead-out")
        #expect(FLACMetadata.cueSheet(starts: Array(0..<255), totalSamples: 300) == nil)
        #expect(FLACMetadata.cueSheet(starts: [], totalSamples: 0) == nil)
    }

    @Test func bundleRecordReadsVersionOneAsItsFormatsEntry() throws {
        let old = Data(#"{"file":"T - A.m4b","inputsSHA256":"abc","version":1}"#.utf8)
        let record = try JSONDecoder().decode(BundleRecord.self, from: old)
        #expect(record.bundles == ["m4b": BundleRecord.Entry(file: "T - A.m4b", inputsSHA256: "abc")])
        let written = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        #expect(written.contains(#""version":2"#) && written.contains(#""bundles":{"m4b":"#))
    }

    @Test func locatesFFmpegOnlyOnThePath() {
        #expect(AudiobookBundler.locateFFmpeg(searchPath: "/nonexistent:") == nil)
        #expect(AudiobookBundler.locateFFmpeg(searchPath: nil) == nil)
    }
}
