import BookText
import EPUBReader
import Testing

/// Issue 12: the language of a text from its script and stop words; the book check built on it.
@Suite struct LanguageDetectionTests {
    static let texts: [(String, String)] = [
        (
            "en",
            "The keeper climbed the narrow stairs at dusk and lit the great lamp above the sea while the wind was blowing."
        ),
        (
            "fr",
            "Le gardien monta l'escalier étroit au crépuscule et alluma la grande lampe au-dessus de la mer, pendant que le vent soufflait."
        ),
        (
            "de",
            "Der Wärter stieg in der Dämmerung die schmale Treppe hinauf und zündete die große Lampe über dem Meer an, während der Wind wehte."
        ),
        (
            "es",
            "El guardián subió la estrecha escalera al anochecer y encendió la gran lámpara sobre el mar, mientras el viento soplaba del norte."
        ),
        (
            "it",
            "Il guardiano salì la stretta scala al tramonto e accese la grande lampada sopra il mare, mentre il vento soffiava e la notte era fredda."
        ),
        (
            "pt",
            "O guarda subiu a escada estreita ao anoitecer e acendeu a grande lâmpada sobre o mar, enquanto o vento soprava e a noite era fria."
        ),
        (
            "nl",
            "De wachter klom in de schemering de smalle trap op en stak de grote lamp boven de zee aan, terwijl de wind uit het noorden waaide."
        ),
        (
            "sv",
            "Väktaren gick uppför den smala trappan i skymningen och tände den stora lampan över havet, medan vinden blåste och det var kallt."
        ),
        (
            "pl",
            "Strażnik wszedł o zmierzchu po wąskich schodach i zapalił wielką lampę nad morzem, a wiatr wiał z północy i było zimno, ale on nie spał."
        ),
        (
            "fi",
            "Vartija kiipesi hämärässä kapeita portaita ja sytytti suuren lampun meren yllä, kun tuuli puhalsi ja oli kylmä, mutta hän ei nukkunut."
        ),
        (
            "ru",
            "Смотритель поднялся по узкой лестнице в сумерках и зажёг большую лампу над морем, пока ветер дул с севера."
        ),
        (
            "uk",
            "Доглядач піднявся вузькими сходами в сутінках і запалив велику лампу над морем, поки вітер дув з півночі."
        ),
        ("el", "Ο φύλακας ανέβηκε τη στενή σκάλα το σούρουπο και άναψε τη μεγάλη λάμπα πάνω από τη θάλασσα."),
        ("ja", "灯台守は夕暮れに狭い階段を上り、海の上の大きなランプに火をともした。"),
        ("zh", "灯塔看守人在黄昏时爬上狭窄的楼梯，点亮了海上的大灯，风从北方吹来。"),
        ("ko", "등대지기는 해질녘에 좁은 계단을 올라가 바다 위의 큰 등불을 켰다."),
        ("ar", "صعد حارس المنارة الدرج الضيق عند الغسق وأشعل المصباح الكبير فوق البحر."),
        ("he", "שומר המגדלור עלה במדרגות הצרות בשעת בין הערביים והדליק את המנורה הגדולה מעל הים."),
    ]

    @Test(arguments: texts)
    func shortTextsAreRecognised(language: String, text: String) throws {
        let detected = try #require(LanguageDetector.detect(text))
        #expect(detected.language == language)
        #expect(detected.confidence >= 0.6, "\(detected)")
    }

    /// Too short, no words the detector knows, or no clear winner: no answer rather than a guess.
    @Test(arguments: [
        "",
        "Hello world.",
        "Hamlet, Prince of Denmark",
        "1234 5678 — 42! 3.14 … 2024",
        "xyzzy plugh frobozz quux blorp zzyzx wibble wobble grault garply waldo fred",
        "Omnia Gallia est divisa in partes tres, quarum unam incolunt Belgae, aliam Aquitani, tertiam Celtae.",
        "The cat und der Hund, le chat und the mouse, der Schluss and the end",
        "東京",
    ])
    func unclearTextsAreNotGuessed(text: String) {
        #expect(LanguageDetector.detect(text) == nil)
    }

    @Test(arguments: [
        ("en", "de", true),
        ("en-GB", "fr", true),
        ("en", "ru", true),
        ("fr", "ja", true),
        ("de", "de", false),
        ("de-AT", "de", false),
        ("EN-us", "en", false),
        ("nb", "sv", false),  // Norwegian has no stop words here: text in a Latin script is not disputed
        ("ca", "es", false),
        ("nb", "ru", true),  // ...but another script is
        ("ru", "uk", false),
        ("und", "de", false),
        ("", "de", false),
    ])
    func disagreementNeedsAKnownLanguageOrAnotherScript(declared: String, detected: String, expected: Bool) {
        let detection = DetectedLanguage(language: detected, confidence: 0.9)
        #expect(LanguageDetector.contradicts(declared: declared, detected: detection) == expected)
        #expect(
            !LanguageDetector.contradicts(
                declared: declared, detected: DetectedLanguage(language: detected, confidence: 0.4)))
    }

    static let germanChapter =
        "<h1>Erstes Kapitel</h1><p>"
        + String(
            repeating: "Der Wärter stieg die Treppe hinauf und zündete die Lampe an, aber der Wind war stark. ",
            count: 6) + "</p>"
    static let englishChapter =
        "<h1>Chapter One</h1><p>"
        + String(repeating: "The keeper climbed the stairs and lit the lamp, but the wind was strong. ", count: 6)
        + "</p>"

    @Test func aBookDeclaredEnglishButWrittenInGermanIsNoticed() throws {
        let book = MemoryBook(
            spine: [("c1.xhtml", Self.germanChapter), ("c2.xhtml", Self.germanChapter)], toc: [], language: "en",
            documentLanguage: nil)
        let mismatch = try #require(BookLanguage.mismatch(in: book))
        #expect(mismatch.declared == "en")
        #expect(mismatch.detected.language == "de")
        #expect(mismatch.warning.description.contains("'en'") && mismatch.warning.description.contains("'de'"))
    }

    @Test(
        arguments: [
            // The text agrees with dc:language.
            ("de", nil, germanChapter),
            ("en", nil, englishChapter),
            // A content document declares a language: trusted, whatever the text looks like.
            ("en", "en", germanChapter),
            // A language the detector cannot tell from German's neighbours is not disputed.
            ("nb", nil, germanChapter),
            // Too little text to tell.
            ("en", nil, "<p>Guten Tag.</p>"),
        ] as [(String, String?, String)])
    func noMismatchWhenTheTextAgreesOrCannotTell(declared: String, documentLanguage: String?, body: String) {
        let book = MemoryBook(
            spine: [("c1.xhtml", body)], toc: [], language: declared, documentLanguage: documentLanguage)
        #expect(BookLanguage.mismatch(in: book) == nil)
    }

    /// The language the documents read declare, against `dc:language`: what `--list` shows.
    static func textLanguage(
        declared: String, documents: [String: String],
        chapters: [(String, String)] = [
            ("c1.xhtml", germanChapter), ("c2.xhtml", germanChapter), ("c3.xhtml", germanChapter),
        ]
    ) throws -> String? {
        let book = MemoryBook(
            spine: chapters, toc: chapters.enumerated().map { entry("Kapitel \($0.offset + 1)", $0.element.0) },
            language: declared, documentLanguage: nil, documentLanguages: documents)
        return try SectionIndexer.index(book).textLanguage
    }

    @Test func documentsThatAllDeclareAnotherLanguageNameTheTextsLanguage() throws {
        let all = ["c1.xhtml": "de-DE", "c2.xhtml": "de-DE", "c3.xhtml": "de-DE"]
        #expect(try Self.textLanguage(declared: "en", documents: all) == "de-DE")
        // The same language in another spelling or region is no other language.
        #expect(try Self.textLanguage(declared: "de", documents: all) == nil)
        #expect(try Self.textLanguage(declared: "DE-AT", documents: all) == nil)
    }

    @Test func theLanguageOfMostOfTheWordsReadDecides() throws {
        // One German chapter in a book of English ones (the rest declare nothing: the book's language).
        #expect(try Self.textLanguage(declared: "en", documents: ["c2.xhtml": "de"]) == nil)
        // Two of three chapters declare German.
        #expect(try Self.textLanguage(declared: "en", documents: ["c1.xhtml": "de", "c3.xhtml": "de"]) == "de")
        // Documents that declare nothing say nothing against dc:language.
        #expect(try Self.textLanguage(declared: "en", documents: [:]) == nil)
        // A long chapter outweighs two short ones.
        let long = "<h1>Erstes Kapitel</h1>" + String(repeating: prose(400, "Wort"), count: 3)
        let chapters = [("c1.xhtml", long), ("c2.xhtml", Self.englishChapter), ("c3.xhtml", Self.englishChapter)]
        #expect(
            try Self.textLanguage(declared: "en", documents: ["c1.xhtml": "de"], chapters: chapters) == "de")
        #expect(
            try Self.textLanguage(
                declared: "en", documents: ["c2.xhtml": "de", "c3.xhtml": "de"], chapters: chapters) == nil)
    }

    /// Devanagari prose: what a Sanskrit (or Hindi) book's text looks like to the detector.
    static let devanagariChapter =
        "<h1>प्रथमः अध्यायः</h1><p>"
        + String(repeating: "धर्मक्षेत्रे कुरुक्षेत्रे समवेता युयुत्सवः मामकाः पाण्डवाश्चैव किमकुर्वत सञ्जय। ", count: 6)
        + "</p>"

    /// `autoVoice` for a book of `chapter`s, with voices for `installed` languages only.
    static func autoVoice(
        declared: String, documents: String?, chapter: String, installed: Set<String> = ["en", "de", "hi"]
    ) throws -> AutoVoice<String>? {
        let book = MemoryBook(
            spine: [("c1.xhtml", chapter), ("c2.xhtml", chapter)], toc: [], language: declared,
            documentLanguage: documents)
        let textLanguage = BookLanguage.textLanguage(
            of: try SectionIndexer.index(book), mismatch: BookLanguage.mismatch(in: book))
        return BookLanguage.autoVoice(for: book, textLanguage: textLanguage) {
            installed.contains(LanguageDetector.primaryLanguage($0)) ? "voice:\($0)" : nil
        }
    }

    @Test func theTextReadsAsItsScriptsLanguageWhateverTheDocumentsDeclare() {
        let book = MemoryBook(
            spine: [("c1.xhtml", Self.devanagariChapter)], toc: [], language: "sa", documentLanguage: "sa")
        #expect(BookLanguage.detectedLanguage(of: book)?.language == "hi")
        // A passage marked as in another language than its document's is left out of the sample.
        let marked = MemoryBook(
            spine: [("c1.xhtml", "<div xml:lang=\"hi\">\(Self.devanagariChapter)</div>" + Self.englishChapter)],
            toc: [], language: "sa", documentLanguage: "sa")
        #expect(BookLanguage.detectedLanguage(of: marked)?.language == "en")
    }

    @Test func aBookInALanguageNoVoiceSpeaksIsReadInTheLanguageItsTextReadsAs() throws {
        // Sanskrit declared everywhere, no voice for it: the voice of the script's language.
        let sanskrit = try #require(
            try Self.autoVoice(declared: "sa", documents: "sa", chapter: Self.devanagariChapter))
        #expect(sanskrit.voice == "voice:hi")
        #expect(sanskrit.followsText)
        #expect(
            sanskrit.fallback?.description
                == "no voice for the book's language 'sa': reading in 'hi', the language its text reads as")
        // A language with a voice is read in it, whatever the detector would say.
        let hindi = try #require(try Self.autoVoice(declared: "hi", documents: "hi", chapter: Self.devanagariChapter))
        #expect(hindi.voice == "voice:hi" && hindi.fallback == nil && !hindi.followsText)
        // A text whose language has no voice either: English, said so.
        let unknown = try #require(
            try Self.autoVoice(
                declared: "sa", documents: "sa", chapter: Self.devanagariChapter, installed: ["en"]))
        #expect(unknown.voice == "voice:en" && !unknown.followsText)
        #expect(unknown.fallback?.description == "no voice for the book's language 'sa': reading in English")
        // Text the detector cannot tell: English.
        let unclear = try #require(try Self.autoVoice(declared: "tlh", documents: nil, chapter: "<p>Qapla' batlh.</p>"))
        #expect(unclear.voice == "voice:en" && unclear.fallback?.textLanguage == nil)
        // The text contradicts dc:language: its own language decides, with no fallback to tell.
        let german = try #require(try Self.autoVoice(declared: "en", documents: nil, chapter: Self.germanChapter))
        #expect(german.voice == "voice:de" && german.fallback == nil)
        // The documents declare the language the text is read in, dc:language another: the documents'.
        let declared = try #require(try Self.autoVoice(declared: "en", documents: "de", chapter: Self.germanChapter))
        #expect(declared.voice == "voice:de" && declared.fallback == nil)
        // Not even English has a voice.
        #expect(try Self.autoVoice(declared: "sa", documents: "sa", chapter: "<p>x</p>", installed: []) == nil)
    }
}
