import ESpeakEngine
import NeuralEngine

/// The voices a conversion can speak with, and how a name, a language or `auto` finds one: the one
/// place that asks the speech engines (espeak-ng, the neural voices folder) what they have.
public enum LiveVoices {
    /// The installed voices, sorted by language then name (as `epub2audio voices` and
    /// `GET /v1/voices` list them).
    /// - Parameter language: only the voices that speak it (a tag, `pt-br`, or a name, `french`).
    /// - Returns: the voices, sorted.
    public static func installed(speaking language: String? = nil) -> [VoiceInfo] {
        var voices = ESpeakSpeechEngine.installedVoices()
        if let language { voices = ESpeakSpeechEngine.voices(speaking: language, installed: voices) }
        return voices.sorted { ($0.languages.first ?? "", $0.name) < ($1.languages.first ?? "", $1.name) }
    }

    /// The installed voice `name` names (an identifier, a voice name, a language, with or without a
    /// `+variant`).
    /// - Throws: `LiveConversionError.unknownVoice` when no installed voice answers to it.
    public static func resolve(_ name: String) throws(LiveConversionError) -> VoiceInfo {
        if let neural = try resolveNeural(name) { return neural }
        do {
            return try ESpeakSpeechEngine.resolveVoice(
                name, installed: ESpeakSpeechEngine.installedVoices(),
                variants: ESpeakSpeechEngine.installedVariants())
        } catch {
            throw .unknownVoice("\(error)")
        }
    }

    /// Speed, pitch and volume the engine accepts (`VoiceSettings`).
    public static let rateRange = ESpeakSpeechEngine.rateRange
    /// See `rateRange`.
    public static let pitchRange = ESpeakSpeechEngine.pitchRange
    /// See `rateRange`.
    public static let volumeRange = ESpeakSpeechEngine.volumeRange

    /// Who reads the audiobook, as its tags name the narrator.
    static func narrator(voice identifier: String) -> String {
        if identifier.hasPrefix(NeuralVoice.identifierPrefix) {
            return "Piper voice \(identifier.dropFirst(NeuralVoice.identifierPrefix.count)) (sherpa-onnx)"
        }
        return "espeak-ng, voice \(identifier)"
    }

    /// How well an installed voice speaks a script (`SpeakableText.Share`).
    static func share(_ voice: VoiceInfo, _ script: Script) -> Double {
        ESpeakSpeechEngine.share(of: script, spokenBy: voice)
    }
}

/// The voice a conversion of a book reads in: `--voice`/`voice` resolved (`auto` follows the book's
/// language, `BookLanguage.autoVoice`), and why when `auto` could not follow it.
public struct VoiceChoice: Sendable, Hashable {
    /// The voice.
    public var voice: VoiceInfo
    /// The voice was chosen from the text, for want of one for the book's language: the text is then
    /// read (normalised, notices worded) in the voice's language.
    public var followsText: Bool
    /// Set when `auto` found no voice for the book's language (a warning says so).
    public var fallback: AutoVoice<VoiceInfo>.Fallback?

    /// The voice `requested` (a name, a language, or `auto`) reads `book` in.
    /// - Throws: `LiveConversionError.unknownVoice` for a name no installed voice answers to (or, with
    ///   `auto`, when not even English has a voice).
    public static func resolve(_ requested: String, for book: OpenedBook) throws(LiveConversionError) -> VoiceChoice {
        guard requested.lowercased() == "auto" else {
            return VoiceChoice(voice: try LiveVoices.resolve(requested), followsText: false, fallback: nil)
        }
        let installed = ESpeakSpeechEngine.installedVoices()
        let chosen = BookLanguage.autoVoice(for: book.book, textLanguage: book.textLanguage) {
            try? ESpeakSpeechEngine.resolveVoice($0, installed: installed)
        }
        guard let chosen else {
            do {
                return VoiceChoice(
                    voice: try ESpeakSpeechEngine.resolveVoice("en", installed: installed), followsText: false,
                    fallback: nil)
            } catch {
                throw .unknownVoice("\(error)")
            }
        }
        // Of the language's voices, the one that speaks most of the text (`cmn-Latn-pinyin` over `cmn`).
        let voice = SpeakableText.preferredVoice(
            chosen.voice, for: book.sections, installed: installed, share: LiveVoices.share)
        return VoiceChoice(voice: voice, followsText: chosen.followsText, fallback: chosen.fallback)
    }

    /// The language the text is read in when it is not the book's: the voice's, when `dc:language` is
    /// contradicted by the text or the voice was chosen from the text; nil otherwise.
    func textLanguage(for book: OpenedBook) -> String? {
        guard book.languageMismatch != nil || followsText, let language = voice.languages.first else { return nil }
        return String(language.prefix { $0 != "-" })
    }

    /// What the voice can speak of the sections `book` reads (`SpeakableText.assess`): runs of other
    /// scripts go to voices that speak them; the share no voice speaks, and whether it is most of
    /// the text. Nil when the voice is no longer installed.
    public func speakableText(of book: OpenedBook) -> SpeakableTextReport? {
        Self.speakableText(of: book, voice: voice.identifier)
    }

    /// `SpeakableText.assess` of `book` for the installed voice `identifier`.
    static func speakableText(of book: OpenedBook, voice identifier: String) -> SpeakableTextReport? {
        let installed = ESpeakSpeechEngine.installedVoices()
        guard
            let resolved = try? ESpeakSpeechEngine.resolveVoice(
                identifier, installed: installed, variants: ESpeakSpeechEngine.installedVariants())
        else { return nil }
        return SpeakableText.assess(
            book.sections, voice: resolved, installed: installed, bookLanguage: book.readingLanguage,
            share: LiveVoices.share)
    }
}
