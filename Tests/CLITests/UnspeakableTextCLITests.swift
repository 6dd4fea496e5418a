import Foundation
import Testing

/// Issue 31, point 8: text the voice cannot speak. espeak-ng's Japanese voice names every kanji
/// ("Chinese letter"): a book most of whose text is kanji is refused (exit 6) unless `--force`, one
/// with fewer is converted with a warning; runs of Japanese in Russian text go to the Japanese voice.
@Suite("Text the voice cannot speak: warned about, refused, or read by another voice")
struct UnspeakableTextCLITests {
    /// Mostly kanji (a catalogue's title, in the style of a report's).
    static let kanji = "東京都立中央図書館所蔵古典籍総合目録編纂事業報告書第三版刊行記念特別展示会開催概要。"
    /// Mostly kana, a kanji in four or so.
    static let kana = "きょうは天気がよかったので、公園へ散歩にいきました。友達といっしょに本を読みました。"
    static let russian = "Ветер дул над морем, и чайки громко кричали над старым маяком."
    static let mixed = "Слово 日本語のテキスト значит «японский текст», а слово ありがとう значит «спасибо»."

    static func book(_ scratch: Scratch, language: String, chapters: [[String]]) throws -> String {
        let url = scratch.file("book.epub")
        try TestBook(
            title: "Book", language: language,
            chapters: chapters.enumerated().map { TestBook.Chapter(title: "\($0.offset + 1)", paragraphs: $0.element) }
        ).write(to: url)
        return url.path
    }

    @Test("a book mostly in kanji is refused under the Japanese voice, with exit 6, and --force converts it")
    func mostlyKanjiIsRefusedUnlessForced() async throws {
        let scratch = try Scratch("unspeakable-refused")
        let book = try Self.book(
            scratch, language: "ja", chapters: [Array(repeating: Self.kanji, count: 3), [Self.kana]])
        let out = scratch.file("out").path
        let refused = try await BinaryRunner.run([book, "-o", out, "--progress", "none"], timeout: 90)
        #expect(refused.status == 6, "exit \(refused.status): \(refused.stderr)")
        #expect(refused.stderr.contains("of the text (sections 1–2) is in a script the voice 'ja' cannot speak: Han"))
        #expect(refused.stderr.contains("--force converts it anyway"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "a refused book leaves nothing behind")

        let forced = try await BinaryRunner.run([book, "-o", out, "--progress", "none", "--force"], timeout: 90)
        #expect(forced.status == 0, "exit \(forced.status): \(forced.stderr)")
        #expect(Conversions.audio(out).count == 2)
    }

    @Test("a book with some kanji is converted, with one warning giving the share and the sections")
    func someKanjiAreWarnedAbout() async throws {
        let scratch = try Scratch("unspeakable-warned")
        let book = try Self.book(
            scratch, language: "ja",
            chapters: [Array(repeating: Self.kana, count: 6), Array(repeating: Self.kana, count: 6)])
        let out = scratch.file("out").path
        let result = try await BinaryRunner.run([book, "-o", out, "--progress", "none"], timeout: 90)
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("cannot speak") }
        #expect(lines.count == 1, "\(result.stderr)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("warning: 2") && line.contains("% of the text (sections 1–2)"), "\(line)")
        #expect(line.contains("no installed voice of its language speaks it"))
        #expect(Conversions.audio(out).count == 2)

        let listing = try await BinaryRunner.run([book, "--list", "--json"])
        let speech = try #require(jsonObject(listing.stdout)?["speech"] as? [String: Any])
        #expect(speech["voice"] as? String == "ja")
        #expect(speech["refused"] as? Bool == false)
        #expect((speech["unspeakable"] as? [String: Int])?["Hani"] ?? 0 > 50)
    }

    @Test("runs of Japanese in Russian text go to the Japanese voice, said once, the same bytes for any --jobs")
    func japaneseRunsInRussianTextSwitchVoices() async throws {
        let scratch = try Scratch("unspeakable-switched")
        let book = try Self.book(
            scratch, language: "ru", chapters: [[Self.russian, Self.mixed, Self.russian], [Self.mixed, Self.russian]])
        let one = scratch.file("one").path
        let first = try await BinaryRunner.run([book, "-o", one, "--progress", "none", "--jobs", "1"], timeout: 90)
        #expect(first.status == 0, "exit \(first.status): \(first.stderr)")
        let said = first.stderr.split(separator: "\n").filter { $0.contains("read by other voices") }
        // The kanji of the Japanese runs go with their kana (and are named: too few to warn about).
        #expect(
            said == [
                "warning: text in other scripts is read by other voices: Hiragana, Katakana and Han (Chinese characters) by 'ja'"
            ])
        #expect(!first.stderr.contains("cannot speak"), "\(first.stderr)")
        let two = scratch.file("two").path
        let second = try await BinaryRunner.run([book, "-o", two, "--progress", "none", "--jobs", "2"], timeout: 90)
        #expect(second.status == 0, "exit \(second.status): \(second.stderr)")
        let a = Conversions.audio(one)
        #expect(a.count == 2 && a == Conversions.audio(two))
    }
}
