/// A writing system, as far as a voice cares: the scripts speech engines tell apart, named by their
/// ISO 15924 codes (`Latn`, `Cyrl`, `Hani`...).
///
/// Only letters have a script here (`Script(letter:)`): digits, punctuation, spaces and symbols are
/// read by every voice, and letters of scripts not listed are left out of every count and decision.
public enum Script: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable, Comparable {
    case latin = "Latn"
    case cyrillic = "Cyrl"
    case greek = "Grek"
    case armenian = "Armn"
    case georgian = "Geor"
    case hebrew = "Hebr"
    case arabic = "Arab"
    case devanagari = "Deva"
    case bengali = "Beng"
    case gurmukhi = "Guru"
    case gujarati = "Gujr"
    case oriya = "Orya"
    case tamil = "Taml"
    case telugu = "Telu"
    case kannada = "Knda"
    case malayalam = "Mlym"
    case sinhala = "Sinh"
    case thai = "Thai"
    case myanmar = "Mymr"
    case ethiopic = "Ethi"
    case hangul = "Hang"
    case hiragana = "Hira"
    case katakana = "Kana"
    /// Chinese characters (hanzi, kanji, hanja), Simplified and Traditional alike.
    case han = "Hani"

    /// The script's English name, for messages.
    public var name: String {
        switch self {
        case .latin: "Latin"
        case .cyrillic: "Cyrillic"
        case .greek: "Greek"
        case .armenian: "Armenian"
        case .georgian: "Georgian"
        case .hebrew: "Hebrew"
        case .arabic: "Arabic"
        case .devanagari: "Devanagari"
        case .bengali: "Bengali"
        case .gurmukhi: "Gurmukhi"
        case .gujarati: "Gujarati"
        case .oriya: "Oriya"
        case .tamil: "Tamil"
        case .telugu: "Telugu"
        case .kannada: "Kannada"
        case .malayalam: "Malayalam"
        case .sinhala: "Sinhala"
        case .thai: "Thai"
        case .myanmar: "Myanmar"
        case .ethiopic: "Ethiopic"
        case .hangul: "Hangul"
        case .hiragana: "Hiragana"
        case .katakana: "Katakana"
        case .han: "Han (Chinese characters)"
        }
    }

    /// Declaration order: Latin first, Han last (a stable order for messages and JSON).
    public static func < (lhs: Script, rhs: Script) -> Bool {
        lhs.index < rhs.index
    }

    /// The position in `allCases` (a switch: this runs for every letter counted).
    var index: Int {
        switch self {
        case .latin: 0
        case .cyrillic: 1
        case .greek: 2
        case .armenian: 3
        case .georgian: 4
        case .hebrew: 5
        case .arabic: 6
        case .devanagari: 7
        case .bengali: 8
        case .gurmukhi: 9
        case .gujarati: 10
        case .oriya: 11
        case .tamil: 12
        case .telugu: 13
        case .kannada: 14
        case .malayalam: 15
        case .sinhala: 16
        case .thai: 17
        case .myanmar: 18
        case .ethiopic: 19
        case .hangul: 20
        case .hiragana: 21
        case .katakana: 22
        case .han: 23
        }
    }

    /// The script of a letter (a scalar with the Unicode property Alphabetic, or a Han, kana or
    /// Hangul character); nil for anything else and for letters of scripts not listed.
    public init?(letter scalar: Unicode.Scalar) {
        let value = scalar.value
        if value < 0x80 {
            guard (value | 0x20) &- 0x61 < 26 else { return nil }
            self = .latin
            return
        }
        if (0x4E00...0x9FFF).contains(value) {
            self = .han  // the commonest non-Latin letters by far: no search of the table
            return
        }
        guard let script = Self.block(of: value) else { return nil }
        // The blocks hold punctuation, digits and signs too (the Greek question mark, the Arabic
        // comma, the Devanagari danda): only letters count. Han, kana and Hangul are all letters.
        if script != .han, script != .hiragana, script != .katakana, script != .hangul,
            !UnicodeTable.isAlphabetic(scalar)
        {
            return nil
        }
        self = script
    }

    /// The script whose Unicode blocks hold `value`.
    static func block(of value: UInt32) -> Script? {
        switch value {
        case 0x00C0...0x024F where value != 0xD7 && value != 0xF7: .latin
        case 0x0250...0x02AF, 0x1D00...0x1DBF, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F,
            0xFB00...0xFB06, 0xFF21...0xFF3A, 0xFF41...0xFF5A:
            .latin
        case 0x0370...0x03FF, 0x1F00...0x1FFF: .greek
        case 0x0400...0x052F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: .cyrillic
        case 0x0530...0x058F, 0xFB13...0xFB17: .armenian
        case 0x0590...0x05FF, 0xFB1D...0xFB4F: .hebrew
        case 0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: .arabic
        case 0x0900...0x097F, 0xA8E0...0xA8FF: .devanagari
        case 0x0980...0x09FF: .bengali
        case 0x0A00...0x0A7F: .gurmukhi
        case 0x0A80...0x0AFF: .gujarati
        case 0x0B00...0x0B7F: .oriya
        case 0x0B80...0x0BFF: .tamil
        case 0x0C00...0x0C7F: .telugu
        case 0x0C80...0x0CFF: .kannada
        case 0x0D00...0x0D7F: .malayalam
        case 0x0D80...0x0DFF: .sinhala
        case 0x0E00...0x0E7F: .thai
        case 0x1000...0x109F: .myanmar
        case 0x10A0...0x10FF, 0x1C90...0x1CBF, 0x2D00...0x2D2F: .georgian
        case 0x1100...0x11FF, 0x3131...0x318E, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xD7B0...0xD7FF, 0xFFA0...0xFFDC:
            .hangul
        case 0x1200...0x139F, 0x2D80...0x2DDF: .ethiopic
        case 0x3041...0x3096, 0x309D...0x309F: .hiragana
        case 0x30A1...0x30FA, 0x30FC...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: .katakana
        // 々 and 〇 are written as Han characters; then the unified ideographs and their extensions.
        case 0x3005, 0x3007, 0x3021...0x3029, 0x3038...0x303B, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0x20000...0x3FFFF:
            .han
        default: nil
        }
    }

    /// Whether a non-letter belongs with the CJK scripts when it stands next to them: the ideographic
    /// space, comma and full stop, the corner brackets, the fullwidth punctuation, the kana marks.
    static func isCJKPunctuation(_ value: UInt32) -> Bool {
        (0x3000...0x303F).contains(value) || (0xFF01...0xFF65).contains(value) || value == 0x30FB
            || (0x3099...0x309C).contains(value)
    }

    /// Scripts read together as one run of text: Han, kana and Hangul (Japanese mixes kanji and kana,
    /// Korean may mix hanja and Hangul) are the Han family; each other script is its own.
    public var family: Script {
        switch self {
        case .han, .hiragana, .katakana, .hangul: .han
        default: self
        }
    }

    /// Primary language subtags written in this script, the usual one first: a run of the script in
    /// a text of another language switches to a voice of one of them. Latin lists English only:
    /// every language not listed under another script is taken to write Latin
    /// (`isWritten(byLanguage:)`).
    public var languages: [String] {
        switch self {
        case .latin: ["en"]
        case .cyrillic: ["ru", "uk", "be", "bg", "mk", "sr", "kk", "ky", "tt", "ba", "cv", "mn", "tg"]
        case .greek: ["el", "grc"]
        case .armenian: ["hy"]
        case .georgian: ["ka"]
        case .hebrew: ["he", "yi"]
        case .arabic: ["ar", "fa", "ur", "ps", "sd", "ug", "ckb"]
        case .devanagari: ["hi", "mr", "ne", "sa", "kok", "mai", "bho"]
        case .bengali: ["bn", "as", "bpy"]
        case .gurmukhi: ["pa"]
        case .gujarati: ["gu"]
        case .oriya: ["or"]
        case .tamil: ["ta"]
        case .telugu: ["te"]
        case .kannada: ["kn"]
        case .malayalam: ["ml"]
        case .sinhala: ["si"]
        case .thai: ["th"]
        case .myanmar: ["my", "shn"]
        case .ethiopic: ["am", "ti", "gez"]
        case .hangul: ["ko"]
        case .hiragana, .katakana: ["ja"]
        case .han: ["cmn", "yue", "zh", "hak", "nan", "wuu", "ja", "ko"]
        }
    }

    /// Whether `language` (a language tag, `ja-JP`, or a voice's language) is written in this
    /// script: its text in the script is its own, never switched to another voice.
    public func isWritten(byLanguage language: String) -> Bool {
        let primary = Script.primaryLanguage(language)
        if languages.contains(primary) { return true }
        guard self == .latin else { return false }
        return !Script.allCases.contains { $0 != .latin && $0.languages.contains(primary) }
    }

    /// The primary language subtag, lower case: `ja` for `ja-JP`, `cmn` for `cmn-Latn-pinyin`.
    public static func primaryLanguage(_ tag: String) -> String {
        String(tag.lowercased().prefix { $0 != "-" && $0 != "_" })
    }

    /// Scripts written without spaces between words, whose characters stand for syllables or words:
    /// speech takes about as long per character as per word of other scripts.
    public var isCharacterTimed: Bool {
        self == .han || self == .hiragana || self == .katakana || self == .hangul
    }
}

/// How many letters of each script a text holds (digits, punctuation and spaces are no letters).
///
/// Stored so that the usual case, a text in Latin letters only, allocates nothing.
public struct ScriptCensus: Hashable, Sendable {
    /// Latin letters.
    private var latin = 0
    /// Letters of the other scripts.
    private var others: [Script: Int] = [:]

    /// No letters.
    public init() {}

    /// The letters of `text`, by script, leaving out letters that stand alone among other text (a
    /// Greek variable in an English sentence, `LetterRun.isSpeech`): a voice names those as symbols.
    public init(_ text: String) {
        // Most text is Latin letters among ASCII and a few other neutral characters (curly quotes,
        // dashes, accents): counted from the bytes, with no Unicode property looked up. Any other
        // script sends the text through its runs.
        var text = text
        if let latin = text.withUTF8({ Self.latinLetters($0) }) {
            self.latin = latin
            return
        }
        let scalars = Array(text.unicodeScalars)
        for run in LetterRun.runs(scalars, in: 0..<scalars.count) where run.isSpeech {
            for (index, count) in run.counts.enumerated() where count > 0 { add(count, of: Script.allCases[index]) }
        }
    }

    /// The letters of UTF-8 text whose letters are all Latin (accented ones included) and whose other
    /// characters are ASCII, Latin-1 signs, combining accents or general punctuation; nil for any
    /// other text.
    static func latinLetters(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var count = 0
        var scalar: UInt32 = 0
        var pending = 0
        for byte in bytes {
            if pending > 0 {
                scalar = scalar << 6 | UInt32(byte & 0x3F)
                pending -= 1
                guard pending == 0 else { continue }
                switch scalar {
                case 0xC0...0x24F where scalar != 0xD7 && scalar != 0xF7, 0x1E00...0x1EFF: count += 1
                case 0x80...0xBF, 0xD7, 0xF7, 0x300...0x36F, 0x2000...0x206F, 0x20A0...0x20CF: break
                default: return nil
                }
            } else if byte < 0x80 {
                if (byte | 0x20) &- 0x61 < 26 { count += 1 }
            } else if byte >= 0xF0 {
                scalar = UInt32(byte & 0x07)
                pending = 3
            } else if byte >= 0xE0 {
                scalar = UInt32(byte & 0x0F)
                pending = 2
            } else {
                scalar = UInt32(byte & 0x1F)
                pending = 1
            }
        }
        return count
    }

    /// Counts, for tests and for decoding: `[.han: 12, .hiragana: 30]`.
    public init(_ counts: [Script: Int]) {
        for (script, count) in counts { add(count, of: script) }
    }

    /// Letters of `script`.
    public subscript(script: Script) -> Int {
        script == .latin ? latin : others[script] ?? 0
    }

    /// Every letter counted.
    public var total: Int { latin + others.values.reduce(0, +) }

    /// Whether the text holds no letter.
    public var isEmpty: Bool { latin == 0 && others.isEmpty }

    /// The scripts that have letters, in `Script` order.
    public var scripts: [Script] {
        (latin > 0 ? [.latin] : []) + others.keys.sorted()
    }

    /// The counts as a dictionary (scripts without letters left out).
    public var counts: [Script: Int] {
        var all = others
        if latin > 0 { all[.latin] = latin }
        return all
    }

    /// Letters of the scripts read by the character rather than by the word (Han, kana, Hangul).
    public var characterTimedLetters: Int {
        others.reduce(0) { $0 + ($1.key.isCharacterTimed ? $1.value : 0) }
    }

    /// Adds `count` letters of `script`.
    public mutating func add(_ count: Int, of script: Script) {
        guard count > 0 else { return }
        if script == .latin { latin += count } else { others[script, default: 0] += count }
    }

    /// Adds the letters of `other`.
    public mutating func add(_ other: ScriptCensus) {
        latin += other.latin
        for (script, count) in other.others { others[script, default: 0] += count }
    }
}

extension ScriptCensus: Codable {
    /// Decodes `{"Latn": 1200, "Hani": 30}`; unknown script codes are ignored.
    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode([String: Int].self)
        self.init()
        for (code, count) in raw {
            if let script = Script(rawValue: code) { add(count, of: script) }
        }
    }

    /// Encodes `{"Latn": 1200, "Hani": 30}` (scripts without letters left out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) }))
    }
}

/// A stretch of text whose letters are all of one script family (`Script.family`: Han, kana and
/// Hangul together), with the spaces, digits and punctuation between them; what the chunker may
/// hand to another voice (`ScriptSwitching`) and what a census counts.
struct LetterRun {
    /// Scalar offsets: from the first letter to the last one (and the marks on it).
    var range: Range<Int>
    var family: Script
    /// Letters by script (`Script.index`).
    var counts: [Int]
    /// Two letters stand together somewhere in the run (nothing but marks between them).
    var hasWord: Bool

    /// Letters by script, the scripts without letters left out.
    var letters: [Script: Int] {
        var result: [Script: Int] = [:]
        for (index, count) in counts.enumerated() where count > 0 { result[Script.allCases[index]] = count }
        return result
    }

    /// Whether the run is speech in its script: a word of two letters or more, or characters that
    /// are words or syllables on their own (Chinese characters, kana, Hangul). A run of lone letters
    /// ("α + β", a variable named "λ") is symbols, which the voice around them names.
    var isSpeech: Bool { hasWord || family.isCharacterTimed }

    /// The runs of `scalars[range]`, in order. A letter of an unlisted script ends a run.
    static func runs(_ scalars: [Unicode.Scalar], in range: Range<Int>) -> [LetterRun] {
        var result: [LetterRun] = []
        // The run being read, in locals (a struct mutated through an optional is copied each time).
        var start = -1
        var end = -1
        var family = Script.latin
        var counts: [Int] = []
        var hasWord = false
        func close() {
            guard start >= 0 else { return }
            result.append(LetterRun(range: start..<end, family: family, counts: counts, hasWord: hasWord))
            start = -1
        }
        for index in range {
            let scalar = scalars[index]
            if let script = Script(letter: scalar) {
                if start < 0 || family != script.family {
                    close()
                    start = index
                    family = script.family
                    counts = Array(repeating: 0, count: Script.allCases.count)
                    hasWord = false
                } else if end == index {
                    hasWord = true
                }
                end = index + 1
                counts[script.index] += 1
            } else if scalar.value < 0x80 || start < 0 {
                continue
            } else if end == index, isMark(scalar) {
                // A combining mark stays with the letter it sits on.
                end = index + 1
            } else if UnicodeTable.isAlphabetic(scalar), !isMark(scalar) {
                // A letter of an unlisted script: text of another kind.
                close()
            }
        }
        close()
        return result
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool { UnicodeTable.isMark(scalar) }
}

/// Two Unicode properties of the Basic Multilingual Plane looked up once, as bits: counting the
/// letters of a book in Devanagari asked the Unicode tables for every character, a fifth of the
/// time of `--list`. Characters outside the plane are looked up as before.
enum UnicodeTable {
    /// Bit `v` of the Basic Multilingual Plane, for each property.
    private static let alphabetic = bits { $0.properties.isAlphabetic }
    private static let marks = bits {
        switch $0.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    private static func bits(_ property: (Unicode.Scalar) -> Bool) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: 0x10000 / 64)
        for value in 0..<UInt32(0x10000) {
            guard let scalar = Unicode.Scalar(value), property(scalar) else { continue }
            words[Int(value) >> 6] |= 1 << (UInt64(value) & 63)
        }
        return words
    }

    private static func lookUp(_ table: [UInt64], _ value: UInt32) -> Bool {
        table[Int(value) >> 6] & (1 << (UInt64(value) & 63)) != 0
    }

    /// `Unicode.Scalar.Properties.isAlphabetic`.
    static func isAlphabetic(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x10000 ? lookUp(alphabetic, scalar.value) : scalar.properties.isAlphabetic
    }

    /// A combining mark: non-spacing, spacing or enclosing.
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value < 0x10000 else {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return true
            default: return false
            }
        }
        return lookUp(marks, scalar.value)
    }
}
