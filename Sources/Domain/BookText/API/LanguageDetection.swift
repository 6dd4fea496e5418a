import EPUBReader
import Foundation

/// A language recognised in a text.
public struct DetectedLanguage: Hashable, Sendable {
    /// A BCP 47 primary language tag: `en`, `de`, `ru`, `ja`...
    public var language: String
    /// How clearly the text is in that language, 0...1: the share of its letters in the language's
    /// script for a script of its own (Greek, Cyrillic, Han...), else the weight of the language's stop
    /// words against that of the runner-up's (`best / (best + second)`; 1 when no other language scored).
    public var confidence: Double

    /// A language and how sure the detector is of it.
    public init(language: String, confidence: Double) {
        self.language = language
        self.confidence = confidence
    }
}

/// Tells which language a text is in from its script and its commonest words: enough to notice a book
/// whose `dc:language` says one language while its text is plainly in another, with no dependency.
///
/// Scripts that belong to one language (Greek, Hebrew, Hangul, kana, Thai...) decide alone; Latin-script
/// text is scored by short lists of stop words ("the", "und", "les", "que"...) of English, French,
/// German, Spanish, Italian, Portuguese, Dutch, Swedish, Polish and Finnish. The answer is nil when the
/// text is too short or no language clearly wins: a detector that guesses would override a correct
/// `dc:language`.
public enum LanguageDetector {
    /// Fewer words than this say nothing reliable.
    public static let minimumWords = 8
    /// Fewer stop words than this say nothing reliable either ("Hamlet, Prince of Denmark").
    public static let minimumStopWords = 4
    /// The winning language must have this many times the stop-word weight of the next one.
    public static let winningRatio = 2.0
    /// Only the first this many characters are looked at: a few pages decide, and the cost is bounded.
    public static let maxCharacters = 50_000

    /// The language of `text`, or nil when it cannot be told with confidence.
    public static func detect(_ text: String) -> DetectedLanguage? {
        var scripts: [WritingSystem: Int] = [:]
        var letters = 0
        var words: [String] = []
        var word = ""
        var seen = 0
        for scalar in text.unicodeScalars {
            seen += 1
            if seen > maxCharacters { break }
            if scalar.properties.isAlphabetic {
                letters += 1
                if let script = WritingSystem(scalar) { scripts[script, default: 0] += 1 }
                word.unicodeScalars.append(scalar)
            } else if scalar == "'" || scalar == "’", !word.isEmpty {
                // "l'homme", "don't": the part before the apostrophe is a word of its own.
                words.append(word.lowercased())
                word = ""
            } else if !word.isEmpty {
                words.append(word.lowercased())
                word = ""
            }
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        guard letters > 0 else { return nil }

        // A script of its own: the script decides (Han without kana is Chinese; with kana, Japanese).
        let latin = scripts[.latin] ?? 0
        let kana = scripts[.kana] ?? 0
        let others = WritingSystem.allCases.filter { $0 != .latin && $0 != .kana && scripts[$0] != nil }
        let own = others.max { scripts[$0]! < scripts[$1]! }
        let ownLetters = (own.flatMap { scripts[$0] } ?? 0) + kana
        if ownLetters >= 20, Double(ownLetters) / Double(letters) >= 0.5 {
            let language = own?.language(kana: kana, text: text) ?? "ja"
            return DetectedLanguage(language: language, confidence: Double(ownLetters) / Double(letters))
        }
        guard Double(latin) / Double(letters) >= 0.5, words.count >= minimumWords else { return nil }

        let scores = stopWordScores(words)
        let ranked = scores.sorted {
            $0.value.weight != $1.value.weight ? $0.value.weight > $1.value.weight : $0.key < $1.key
        }
        guard let best = ranked.first, best.value.hits >= minimumStopWords else { return nil }
        let second = ranked.dropFirst().first?.value.weight ?? 0
        guard best.value.weight >= winningRatio * second else { return nil }
        return DetectedLanguage(language: best.key, confidence: best.value.weight / (best.value.weight + second))
    }

    /// Whether the text `detected` is in strongly disagrees with `declared` (a BCP 47 tag): it is in
    /// another script, or in another language whose stop words the detector knows, with confidence.
    /// A language the detector does not know (Norwegian, Catalan...) is contradicted only by its script.
    public static func contradicts(declared: String, detected: DetectedLanguage) -> Bool {
        let primary = primaryLanguage(declared)
        guard !primary.isEmpty, primary != detected.language, detected.confidence >= 0.6 else { return false }
        // Another script: "en" over Cyrillic text. An unknown tag ("und", "tlh") is never contradicted.
        guard let declaredScript = WritingSystem.of(language: primary) else { return false }
        if declaredScript != WritingSystem.of(language: detected.language) { return true }
        // The same script: only a language whose own stop words were counted can be told apart
        // (Norwegian text scores as Danish or Swedish; Ukrainian is not Russian's business).
        return stopWords[primary] != nil
    }

    /// The primary language subtag, lower case: `fr` for `fr-CA`.
    public static func primaryLanguage(_ tag: String) -> String {
        String(tag.lowercased().prefix { $0 != "-" && $0 != "_" }).trimmingCharacters(in: .whitespaces)
    }

    /// Stop words of each known language found in `words`: how many, and their weight, a word shared by
    /// `k` languages weighing `1/k` for each ("la" is French, Spanish and Italian; "und" only German).
    static func stopWordScores(_ words: [String]) -> [String: (hits: Int, weight: Double)] {
        var scores: [String: (hits: Int, weight: Double)] = [:]
        for word in words {
            guard let languages = stopWordLanguages[word] else { continue }
            for language in languages {
                scores[language, default: (0, 0)].hits += 1
                scores[language, default: (0, 0)].weight += 1 / Double(languages.count)
            }
        }
        return scores
    }

    /// The commonest short words of each language, chosen to tell the languages apart (a word shared by
    /// several lists counts for each of them).
    static let stopWords: [String: Set<String>] = [
        "en": [
            "the", "and", "of", "to", "is", "was", "that", "with", "for", "his", "her", "he", "she", "it", "they",
            "this", "which", "were", "have", "had", "not", "from", "but", "by", "at", "be", "are", "you", "would",
            "there", "what", "when", "their", "been", "an",
        ],
        "fr": [
            "le", "la", "les", "et", "est", "une", "des", "du", "que", "qui", "dans", "pour", "pas", "sur", "avec",
            "ne", "il", "elle", "ils", "nous", "vous", "je", "au", "aux", "mais", "son", "sa", "ses", "cette",
            "était", "été", "ce", "se", "plus", "l", "d", "qu", "n", "de", "pendant",
        ],
        "de": [
            "der", "die", "das", "und", "ist", "nicht", "ein", "eine", "einen", "dem", "den", "des", "mit", "sich",
            "auf", "für", "von", "zu", "war", "ich", "er", "sie", "es", "auch", "wie", "aber", "noch", "nach",
            "wird", "bei", "im", "über", "dass", "wenn",
        ],
        "es": [
            "el", "los", "las", "y", "que", "una", "por", "con", "para", "del", "se", "su", "sus", "es", "está",
            "pero", "como", "más", "lo", "le", "al", "fue", "era", "muy", "también", "sin", "sobre", "este", "esta",
            "ya", "cuando", "hay", "la", "mientras",
        ],
        "it": [
            "il", "lo", "gli", "e", "che", "di", "una", "per", "non", "con", "del", "della", "delle", "dei", "sono",
            "è", "si", "ma", "come", "anche", "più", "nel", "nella", "alla", "questo", "questa", "era", "ha",
            "hanno", "loro", "la", "le", "un", "da", "in", "mentre", "suo", "sua", "al", "ai", "nei", "degli",
        ],
        "pt": [
            "o", "os", "as", "e", "que", "um", "uma", "não", "com", "para", "por", "do", "da", "dos", "das", "no",
            "na", "em", "se", "mais", "como", "mas", "foi", "ele", "ela", "seu", "sua", "são", "está", "muito",
            "também", "já", "à", "ao", "a", "enquanto",
        ],
        "nl": [
            "de", "het", "een", "en", "van", "is", "niet", "dat", "die", "met", "op", "voor", "zijn", "ik", "je",
            "hij", "zij", "wij", "maar", "ook", "als", "bij", "naar", "om", "aan", "er", "nog", "wat", "dan",
            "heeft", "werd", "deze", "uit", "te", "zo", "terwijl",
        ],
        "sv": [
            "och", "att", "det", "är", "som", "en", "ett", "på", "för", "med", "inte", "jag", "han", "hon", "den",
            "till", "av", "om", "var", "har", "sig", "men", "så", "från", "vid", "eller", "när", "kan",
            "skulle", "hade",
        ],
        "pl": [
            "w", "na", "się", "nie", "z", "że", "do", "to", "jest", "jak", "co", "ale", "po", "od", "tak", "już",
            "był", "była", "go", "jej", "jego", "dla", "przez", "który", "która", "są", "tylko", "ze", "czy",
        ],
        "fi": [
            "ja", "on", "ei", "se", "että", "oli", "hän", "mutta", "kun", "niin", "joka", "ovat", "myös", "kuin",
            "tai", "jo", "nyt", "minä", "sinä", "me", "he", "olen", "ole", "mitä", "vain", "tämä", "siitä", "sen",
            "hänen",
        ],
    ]

    /// For each stop word, the languages whose list holds it.
    private static let stopWordLanguages: [String: [String]] = {
        var index: [String: [String]] = [:]
        for (language, words) in stopWords.sorted(by: { $0.key < $1.key }) {
            for word in words { index[word, default: []].append(language) }
        }
        return index
    }()
}

/// Writing systems the detector tells apart (a coarser table than `Contracts.Script`: kana as one).
enum WritingSystem: Hashable, CaseIterable {
    case latin, cyrillic, greek, arabic, hebrew, han, kana, hangul, devanagari, thai, armenian, georgian

    init?(_ scalar: Unicode.Scalar) {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF: self = .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: self = .greek
        case 0x400...0x52F: self = .cyrillic
        case 0x531...0x58F: self = .armenian
        case 0x590...0x5FF: self = .hebrew
        case 0x600...0x6FF, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: self = .arabic
        case 0x900...0x97F: self = .devanagari
        case 0xE00...0xE7F: self = .thai
        case 0x10A0...0x10FF: self = .georgian
        case 0x3040...0x30FF: self = .kana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF: self = .han
        case 0xAC00...0xD7AF, 0x1100...0x11FF: self = .hangul
        default: return nil
        }
    }

    /// The language a text mostly in this script is taken to be in.
    func language(kana: Int, text: String) -> String {
        switch self {
        case .latin: "en"
        case .cyrillic:
            // Letters Russian does not use: і ї є ґ are Ukrainian.
            text.unicodeScalars.contains { "іїєґІЇЄҐ".unicodeScalars.contains($0) } ? "uk" : "ru"
        case .greek: "el"
        case .arabic:
            // Letters Arabic does not use: پ چ ژ گ are Persian.
            text.unicodeScalars.contains { "پچژگ".unicodeScalars.contains($0) } ? "fa" : "ar"
        case .hebrew: "he"
        case .han: kana > 0 ? "ja" : "zh"
        case .kana: "ja"
        case .hangul: "ko"
        case .devanagari: "hi"
        case .thai: "th"
        case .armenian: "hy"
        case .georgian: "ka"
        }
    }

    /// The script a language is written in, when the detector knows it.
    static func of(language: String) -> WritingSystem? {
        switch language {
        case "en", "fr", "de", "es", "it", "pt", "nl", "sv", "pl", "fi", "da", "nb", "nn", "no", "ca", "cs", "sk",
            "hu", "ro", "tr", "la", "eo", "id", "ms", "vi", "hr", "sl", "et", "lv", "lt", "is", "ga", "cy", "eu":
            .latin
        case "ru", "uk", "bg", "sr", "be", "mk": .cyrillic
        case "el": .greek
        case "ar", "fa", "ur": .arabic
        case "he", "yi": .hebrew
        case "zh": .han
        case "ja": .kana
        case "ko": .hangul
        case "hi", "mr", "ne": .devanagari
        case "th": .thai
        case "hy": .armenian
        case "ka": .georgian
        default: nil
        }
    }
}

/// A book whose text is plainly in another language than its `dc:language` says, while none of its
/// content documents declares a language of its own.
public struct LanguageMismatch: Hashable, Sendable {
    /// The first `dc:language`.
    public var declared: String
    /// The language the text reads as.
    public var detected: DetectedLanguage

    /// A contradiction between `dc:language` and the detected language.
    public init(declared: String, detected: DetectedLanguage) {
        self.declared = declared
        self.detected = detected
    }

    /// What the listener is told: the two languages, and who decides.
    public var warning: EPUBWarning {
        EPUBWarning(
            .major,
            "the book says its language is '\(declared)' (dc:language), but its text reads as '\(detected.language)' "
                + "and no content document declares a language: --voice auto reads it in '\(detected.language)', "
                + "--voice chooses another")
    }
}

/// Checks a book's declared language against its text.
public enum BookLanguage {
    /// Content documents sampled, spread evenly over the spine (the cost stays small in any book).
    public static let sampleDocuments = 12
    /// Words taken from each sampled document.
    public static let sampleWordsPerDocument = 400

    /// The language the text is read in when it is not `dc:language`: the one the documents read
    /// declare (`SectionIndex.textLanguage`), else the one the text reads as when no document
    /// declares any (`mismatch`). What `--list` and the service's listing name.
    public static func textLanguage(of index: SectionIndex, mismatch: LanguageMismatch?) -> String? {
        index.textLanguage ?? mismatch?.detected.language
    }

    /// The mismatch between `dc:language` and the text, when the book declares a language, none of the
    /// sampled content documents declares one (`xml:lang` or `lang` on `<html>`), and the text is plainly
    /// in another language (`LanguageDetector.contradicts`). Documents that cannot be read are left out.
    public static func mismatch(in book: some BookContent) -> LanguageMismatch? {
        guard let declared = book.package.metadata.languages.first?.trimmingCharacters(in: .whitespaces),
            !declared.isEmpty,
            // A document that declares its language is trusted, and so is the book's metadata then.
            let sample = sampledText(of: book, untilADocumentDeclaresItsLanguage: true),
            let detected = LanguageDetector.detect(sample),
            LanguageDetector.contradicts(declared: declared, detected: detected)
        else { return nil }
        return LanguageMismatch(declared: declared, detected: detected)
    }

    /// The voice `--voice auto` reads a book in (the CLI's and the service's rule): the one for the
    /// language the text is read in, `textLanguage` (`textLanguage(of:mismatch:)`: the one its
    /// documents declare, or the one it plainly reads as, when that is not `dc:language`), else for
    /// `dc:language`; when no voice speaks that, the one for the language the text reads as
    /// (`detectedLanguage`), else English. `voice(language)` is the installed voice for a language,
    /// or nil; nil from this function means not even English has one. (An Italian book whose
    /// documents say `it` under a `dc:language` of `en` was normalised in Italian and spoken by the
    /// English voice.)
    public static func autoVoice<Voice>(
        for book: some BookContent, textLanguage: String?, voice: (String) -> Voice?
    ) -> AutoVoice<Voice>? {
        let language = textLanguage ?? book.package.metadata.languages.first
        if let language, let found = voice(language) { return AutoVoice(voice: found, fallback: nil) }
        if let read = detectedLanguage(of: book)?.language, let found = voice(read) {
            return AutoVoice(voice: found, fallback: .init(bookLanguage: language, textLanguage: read))
        }
        return voice("en").map { AutoVoice(voice: $0, fallback: .init(bookLanguage: language, textLanguage: nil)) }
    }

    /// The language the text reads as, whatever the book and its documents declare: what `--voice auto`
    /// reads a book in when no voice speaks the language it declares. The script often decides alone:
    /// Sanskrit in Devanagari reads as Hindi, whose voice reads that script.
    public static func detectedLanguage(of book: some BookContent) -> DetectedLanguage? {
        sampledText(of: book, untilADocumentDeclaresItsLanguage: false).flatMap(LanguageDetector.detect)
    }

    /// Text from up to `sampleDocuments` documents spread over the linear spine, about
    /// `sampleWordsPerDocument` words of each, leaving out notes and passages marked as in another
    /// language than their document's. nil when there is no linear spine item, or when
    /// `untilADocumentDeclaresItsLanguage` and a sampled document declares its language.
    private static func sampledText(of book: some BookContent, untilADocumentDeclaresItsLanguage: Bool)
        -> String?
    {
        let spine = book.package.spine.filter(\.linear)
        guard !spine.isEmpty else { return nil }
        let step = max(1, spine.count / sampleDocuments)
        var text = ""
        for item in stride(from: 0, to: spine.count, by: step).prefix(sampleDocuments).map({ spine[$0] }) {
            guard let document = try? book.documentSource(forHref: item.href).parse() else { continue }
            let flat = DocumentFlattener.flatten(document.root, documentPath: item.href)
            if untilADocumentDeclaresItsLanguage, flat.language != nil { return nil }
            var words = 0
            let own = flat.language?.lowercased()
            for block in flat.blocks
            where block.noteID == nil && block.language?.lowercased() == own && !block.text.isEmpty {
                text += block.text + "\n"
                words += block.words
                if words >= sampleWordsPerDocument { break }
            }
        }
        return text
    }
}

/// What `--voice auto` chose (`BookLanguage.autoVoice`), and why when it is not the book's language.
public struct AutoVoice<Voice> {
    /// The voice to read the book in.
    public var voice: Voice
    /// Set when no voice speaks the book's language: the voice is then the text's, or English.
    public var fallback: Fallback?

    /// Why the voice is not the book's language's.
    public struct Fallback: Hashable, Sendable {
        /// The language no voice speaks (`dc:language`, or the text's when it contradicts it); nil
        /// when the book names none.
        public var bookLanguage: String?
        /// The language the text reads as, whose voice was chosen; nil: English was.
        public var textLanguage: String?

        /// For a warning: "no voice for the book's language 'sa': reading in 'hi', the language its
        /// text reads as".
        public var description: String {
            let reason = bookLanguage.map { "no voice for the book's language '\($0)'" } ?? "the book names no language"
            let choice =
                textLanguage.map { "reading in '\($0)', the language its text reads as" } ?? "reading in English"
            return "\(reason): \(choice)"
        }
    }

    /// The voice was chosen from the text: the text is then read (normalised, notices worded) in the
    /// voice's language.
    public var followsText: Bool { fallback?.textLanguage != nil }
}
