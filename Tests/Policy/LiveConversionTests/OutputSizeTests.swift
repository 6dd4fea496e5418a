import Foundation
import Testing

@testable import LiveConversion

@Suite("The output's size, estimated before converting, and the free-space decision")
struct OutputSizeTests {
    /// Totals of `words` words read in `sections` sections (Latin text).
    static func totals(words: Int, sections: Int) -> ReadingTotals {
        var totals = ReadingTotals(sections: [])
        totals.readWords = words
        totals.readSections = sections
        return totals
    }

    @Test("WAV: the words at the rate give the seconds, and 44,100 bytes a second plus a header a file")
    func wav() {
        // 1,750 words at 175 a minute: 10 minutes.
        let estimate = OutputEstimate(
            totals: Self.totals(words: 1_750, sections: 4), wordsPerMinute: 175, encoding: AudioEncoding())
        let seconds = 600 + 4 * OutputEstimate.sectionPauseSeconds
        #expect(estimate.audioSeconds == seconds)
        #expect(
            estimate.sectionBytes
                == Int64((seconds * 44_100).rounded(.up)) + 4 * Int64(OutputEstimate.fileOverheadBytes))
        #expect(estimate.bundleBytes == 0 && estimate.bytes == estimate.sectionBytes)
        #expect(estimate.format == "wav" && estimate.bundle == nil)
        // Twice the rate, half the audio.
        let fast = OutputEstimate(
            totals: Self.totals(words: 1_750, sections: 4), wordsPerMinute: 350, encoding: AudioEncoding())
        #expect(fast.audioSeconds == 300 + 4 * OutputEstimate.sectionPauseSeconds)
        // A section without words still holds its pauses: a book of many short pages is mostly silence.
        let empty = OutputEstimate(
            totals: Self.totals(words: 0, sections: 10), wordsPerMinute: 175, encoding: AudioEncoding())
        #expect(empty.audioSeconds == 10 * OutputEstimate.sectionPauseSeconds && empty.audioSeconds >= 20)
    }

    @Test("silence costs a compressed format a fraction of what speech does, WAV the same")
    func silence() {
        let speech = SpokenLength(speechSeconds: 10)
        let silence = SpokenLength(silenceSeconds: 10)
        let wav = AudioEncoding()
        #expect(
            OutputEstimate(length: speech, sections: 1, encoding: wav).sectionBytes
                == OutputEstimate(length: silence, sections: 1, encoding: wav).sectionBytes)
        for format in [AudioFormat.flac, .mp3, .ogg, .opus] {
            let encoding = AudioEncoding(format: format)
            let spoken = OutputEstimate(length: speech, sections: 1, encoding: encoding)
            let quiet = OutputEstimate(length: silence, sections: 1, encoding: encoding)
            #expect(quiet.sectionBytes * 2 < spoken.sectionBytes, "\(format)")
            #expect(quiet.audioSeconds == spoken.audioSeconds)
        }
        // The tables' rates hold for audio with the sample books' share of silence.
        let flac = AudioEncoding(format: .flac)
        let mixed = SpokenLength(speechSeconds: 91, silenceSeconds: 9)
        let estimate = OutputEstimate(length: mixed, sections: 0, encoding: flac)
        #expect(abs(Double(estimate.sectionBytes) - 100 * OutputEstimate.sectionBytesPerSecond(flac)) < 2)
    }

    @Test("compressed formats are smaller than WAV, FLAC the largest of them; a higher --quality is larger")
    func compressed() {
        let totals = Self.totals(words: 17_500, sections: 10)
        func bytes(_ format: AudioFormat, _ level: Double? = nil) -> Int64 {
            OutputEstimate(
                totals: totals, wordsPerMinute: 175, encoding: AudioEncoding(format: format, compressionLevel: level)
            ).bytes
        }
        let wav = bytes(.wav)
        #expect(bytes(.flac) < wav && bytes(.mp3) < bytes(.flac) && bytes(.opus) < bytes(.mp3))
        for format in [AudioFormat.mp3, .ogg, .opus] {
            #expect(bytes(format, 0) > bytes(format, 0.5), "\(format)")
            #expect(bytes(format, 0.5) > bytes(format, 0.9), "\(format)")
        }
        // Between two measured levels, between their sizes.
        #expect(bytes(.ogg, 0.6) < bytes(.ogg, 0.5) && bytes(.ogg, 0.6) > bytes(.ogg, 0.75))
    }

    @Test("the read-along book adds the section files it carries and the book itself")
    func readAlong() {
        let mp3 = OutputEstimate(
            totals: Self.totals(words: 1_750, sections: 4), wordsPerMinute: 175, encoding: AudioEncoding(format: .mp3))
        let withBook = mp3.addingReadAlong(bookBytes: 300_000)
        #expect(withBook.sectionBytes == mp3.sectionBytes && withBook.audioSeconds == mp3.audioSeconds)
        #expect(withBook.bundleBytes == mp3.sectionBytes + 300_000)
        #expect(withBook.bytes == 2 * mp3.sectionBytes + 300_000)
        #expect(withBook.bundle == "epub" && withBook.format == "mp3")
    }

    @Test("a bundle adds its own bytes; the cover is counted in every section file but WAV's, and in the bundle")
    func bundleAndCover() {
        let totals = Self.totals(words: 1_750, sections: 4)
        let plain = OutputEstimate(totals: totals, wordsPerMinute: 175, encoding: AudioEncoding(format: .mp3))
        let bundled = OutputEstimate(
            totals: totals, wordsPerMinute: 175, encoding: AudioEncoding(format: .mp3), bundle: .m4b,
            coverBytes: 100_000)
        #expect(bundled.sectionBytes == plain.sectionBytes + 4 * 100_000)
        #expect(bundled.bundleBytes > 600 * 8_000 && bundled.bytes == bundled.sectionBytes + bundled.bundleBytes)
        #expect(bundled.bundle == "m4b")
        let wav = OutputEstimate(
            totals: totals, wordsPerMinute: 175, encoding: AudioEncoding(), coverBytes: 100_000)
        #expect(
            wav.sectionBytes
                == OutputEstimate(totals: totals, wordsPerMinute: 175, encoding: AudioEncoding()).sectionBytes)
    }

    @Test("a batch's estimate is the sum of its books'")
    func sum() {
        let a = OutputEstimate(audioSeconds: 60, sectionBytes: 1_000, bundleBytes: 10, format: "wav")
        let b = OutputEstimate(audioSeconds: 30, sectionBytes: 500, bundleBytes: 5, format: "wav")
        let total = OutputEstimate.sum([a, b])
        #expect(total.audioSeconds == 90 && total.sectionBytes == 1_500 && total.bundleBytes == 15)
        #expect(total.bytes == 1_515)
    }

    @Test(
        "fits, tight (under 1.2 × the estimate plus the margin), too small (under the estimate)",
        arguments: [
            (Int64(1_000_000_000), Int64(2_000_000_000), SpaceCheck.fits),
            (1_000_000_000, 1_300_000_001, .fits),
            (1_000_000_000, 1_299_999_999, .tight),
            (1_000_000_000, 1_000_000_000, .tight),
            (1_000_000_000, 999_999_999, .tooSmall),
            (0, 0, .fits),
            (10_000_000, 50_000_000, .tight),
        ])
    func decision(needed: Int64, free: Int64, expected: SpaceCheck) {
        #expect(SpaceCheck.decide(needed: needed, free: free) == expected)
    }

    @Test("free bytes of a folder not made yet are its nearest existing parent's; audio already written is counted")
    func freeBytesAndWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2a-space-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let free = try #require(SpaceCheck.freeBytes(at: folder.path))
        #expect(free > 0)
        #expect(SpaceCheck.freeBytes(at: folder.appendingPathComponent("not/made/yet").path) != nil)
        try Data(count: 1_000).write(to: folder.appendingPathComponent("001 - One.mp3"))
        try Data(count: 300).write(to: folder.appendingPathComponent("book.m4b"))
        try Data(count: 50).write(to: folder.appendingPathComponent("manifest.json"))
        #expect(SpaceCheck.bytesWritten(in: folder.path, format: .mp3) == 1_000)
        #expect(SpaceCheck.bytesWritten(in: folder.path, format: .mp3, bundle: .m4b) == 1_300)
        #expect(SpaceCheck.bytesWritten(in: folder.appendingPathComponent("none").path, format: .wav) == 0)
    }
}
