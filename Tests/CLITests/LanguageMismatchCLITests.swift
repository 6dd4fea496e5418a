import Foundation
import Testing

/// Issue 12: a book whose `dc:language` its text contradicts (and whose documents declare no language).
@Suite("dc:language contradicted by the text")
struct LanguageMismatchCLITests {
    static let german = [
        "Der Wärter stieg in der Dämmerung die schmale Treppe hinauf und zündete die große Lampe an. "
            + "Der Wind wehte über das Meer, und die Möwen schrien laut über dem alten Leuchtturm.",
        "Im Jahr 1907 war der Winter sehr kalt, aber er hat das Licht nie ausgehen lassen. "
            + "Am Morgen lag der Nebel über der Küste, und die Schiffe fuhren langsam in den Hafen.",
    ]

    /// Declared English; written in German; no `xml:lang` anywhere (or `documents` on every document).
    static func book(in scratch: Scratch, declared: String = "en", documents: String? = nil) throws -> String {
        let book = TestBook(
            title: "Der Leuchtturm", language: declared, documentLanguage: documents,
            chapters: [
                TestBook.Chapter(title: "Kapitel IV", paragraphs: german),
                TestBook.Chapter(title: "Kapitel V", paragraphs: german.reversed()),
            ])
        let url = scratch.file("book.epub")
        try book.write(to: url)
        return url.path
    }

    static func voice(in output: String) -> String? {
        let manifest = jsonObject(file: output + "/manifest.json")
        return ((manifest?["settings"] as? [String: Any])?["voice"] as? [String: Any])?["voice"] as? String
    }

    @Test("--list warns once, naming both languages")
    func listWarnsOnce() async throws {
        let scratch = try Scratch("lang-list")
        let result = try await BinaryRunner.run([try Self.book(in: scratch), "--list"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "reads as 'de'").count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("'en' (dc:language)"))
    }

    @Test(
        "--voice auto follows the text; --voice decides otherwise; the warning comes once",
        arguments: [
            ("auto", "gmw/de", "Kapitel vier"),
            // English rules: a numeral in a heading after a word that is no monarch's name is a cardinal.
            ("en", "gmw/en", "Kapitel Four"),
        ])
    func voiceFollowsTheTextOrTheOption(voice: String, expectedVoice: String, title: String) async throws {
        let scratch = try Scratch("lang-voice")
        let book = try Self.book(in: scratch)
        let out = scratch.file("out").path
        let result = try await BinaryRunner.run(
            [book, "--voice", voice, "--chapters", "1", "-o", out, "--progress", "none"], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "reads as 'de'").count == 2, "\(result.stderr)")
        #expect(Self.voice(in: out) == expectedVoice)
        // The text is normalised in the voice's language.
        let text = scratch.file("text").path
        let exported = try await BinaryRunner.run([book, "--voice", voice, "--chapters", "1", "--text", "-o", text])
        #expect(exported.status == 0, "\(exported.stderr)")
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: text).first { $0.hasSuffix(".txt") })
        let spoken = String(decoding: try #require(bytes(text + "/" + file)), as: UTF8.self)
        #expect(spoken.hasPrefix(title), "\(spoken.prefix(80))")
    }

    @Test("documents that declare German under a dc:language of English: --voice auto speaks German")
    func documentsDeclareTheVoice() async throws {
        let scratch = try Scratch("lang-documents")
        let book = try Self.book(in: scratch, declared: "en", documents: "de")
        let out = scratch.file("out").path
        let result = try await BinaryRunner.run(
            [book, "--chapters", "1", "-o", out, "--progress", "none"], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.voice(in: out) == "gmw/de")
    }

    @Test("a book whose text agrees with dc:language gets no warning and its own voice")
    func agreeingBookIsQuiet() async throws {
        let scratch = try Scratch("lang-agree")
        let book = try Self.book(in: scratch, declared: "de")
        let out = scratch.file("out").path
        let result = try await BinaryRunner.run(
            [book, "--chapters", "1", "-o", out, "--progress", "none"], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("dc:language"), "\(result.stderr)")
        #expect(Self.voice(in: out) == "gmw/de")
    }

    @Test(
        "--list names the language the text is read in, and what dc:language says when that differs",
        arguments: [
            // No document declares a language: the text's, as detected.
            ("en", nil, "de (dc:language says en)", "de"),
            // Every document declares German: what they declare, no detection and no warning.
            ("en", "de", "de (dc:language says en)", "de"),
            // They agree.
            ("de", nil, "de", nil),
            ("de-AT", "de", "de-AT", nil),
        ] as [(String, String?, String, String?)])
    func listNamesTheTextsLanguage(declared: String, documents: String?, header: String, json: String?)
        async throws
    {
        let scratch = try Scratch("lang-header")
        let book = try Self.book(in: scratch, declared: declared, documents: documents)
        let list = try await BinaryRunner.run([book, "--list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("\n\(header) · EPUB 3.0 · "), "\(list.stdout.prefix(200))")
        #expect(list.stderr.contains("reads as") == (documents == nil && json != nil), "\(list.stderr)")
        let listing = try await BinaryRunner.run([book, "--list", "--json"])
        let object = try #require(jsonObject(listing.stdout))
        #expect(object["language"] as? String == declared)
        #expect(object["textLanguage"] as? String == json)
    }

    @Test(
        "--voice auto reads a book in a language no voice speaks in the language its text reads as, else English",
        arguments: [
            // Sanskrit in Devanagari, declared everywhere: the Hindi voice reads the script.
            (
                "sa", "sa", "धर्मक्षेत्रे कुरुक्षेत्रे समवेता युयुत्सवः मामकाः पाण्डवाश्चैव किमकुर्वत सञ्जय।", "inc/hi",
                "reading in 'hi', the language its text reads as"
            ),
            // Klingon in Latin letters: nothing to tell it by, so English.
            (
                "tlh", nil, "Qapla' batlh Daqawlu'taH. nuqneH, jIyajbe'. Heghlu'meH QaQ jajvam.", "gmw/en",
                "reading in English"
            ),
        ] as [(String, String?, String, String, String)])
    func aLanguageWithoutAVoiceFallsBackToTheText(
        declared: String, documents: String?, paragraph: String, expectedVoice: String, warning: String
    ) async throws {
        let scratch = try Scratch("lang-novoice")
        let book = TestBook(
            title: "Book", language: declared, documentLanguage: documents,
            chapters: [TestBook.Chapter(title: "I", paragraphs: Array(repeating: paragraph, count: 8))])
        let url = scratch.file("book.epub")
        try book.write(to: url)
        let out = scratch.file("out").path
        let result = try await BinaryRunner.run([url.path, "-o", out, "--progress", "none"], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.voice(in: out) == expectedVoice)
        #expect(
            result.stderr.components(separatedBy: "no voice for the book's language '\(declared)': \(warning)").count
                == 2, "\(result.stderr)")
    }
}
