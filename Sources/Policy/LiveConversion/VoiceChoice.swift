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
        try resolveWithCapabilities(name).voice
    }

    /// `resolve`, with what the voice can do.
    static func resolveWithCapabilities(_ name: String) throws(LiveConversionError) -> (
        voice: VoiceInfo, capabilities: VoiceCapabilities
    ) {
        if let neural = try resolveNeural(name) { return (neural.info, .neural(neural)) }
        do {
            let voice = try ESpeakSpeechEngine.resolveVoice(
                name, installed: ESpeakSpeechEngine.installedVoices(),
                variants: ESpeakSpeechEngine.installedVariants())
            return (voice, .espeak(languages: voice.languages))
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
    /// What the voice can do: its engine, pitch control, languages, rate.
    public var capabilities: VoiceCapabilities
    /// The voice was chosen from the text, for want of one for the book's language: the text is then
    /// read (normalised, notices worded) in the voice's language.
    public var followsText: Bool
    /// Set when `auto` found no voice for the book's language (a warning says so).
    public var fallback: AutoVoice<VoiceInfo>.Fallback?

    /// The voice `requested` (a name, a language, or `auto`) reads `book` in, of the engine `engine` asks
    /// for: `auto` is espeak-ng's voice of the book's language unless `engine` is `.neural`, which takes the
    /// installed neural voice of the book's language (`bestNeural`).
    /// - Throws: `LiveConversionError.unknownVoice` for a name no installed voice answers to (or, with
    ///   `auto`, when not even English has a voice); `.engineMismatch` for a voice of the other engine;
    ///   `.noNeuralVoice` when `.neural` finds no neural voice of the book's language.
    public static func resolve(
        _ requested: String, engine: EnginePreference = .auto, for book: OpenedBook,
        neuralFolder: String = LiveVoices.neuralFolder()
    ) throws(LiveConversionError) -> VoiceChoice {
        guard requested.lowercased() == "auto" else {
            let (voice, capabilities) = try LiveVoices.resolveWithCapabilities(requested)
            try check(capabilities.engine, named: requested, against: engine)
            return VoiceChoice(voice: voice, capabilities: capabilities, followsText: false, fallback: nil)
        }
        if engine == .neural { return try neural(for: book.readingLanguage, in: neuralFolder) }
        return try espeakAuto(for: book)
    }

    /// `.engineMismatch` when the voice `name`, of `engine`, is not of the engine `preference` asks for.
    static func check(
        _ engine: SpeechEngineKind, named name: String, against preference: EnginePreference
    ) throws(LiveConversionError) {
        switch (preference, engine) {
        case (.neural, .espeak):
            throw .engineMismatch("the voice '\(name)' is espeak-ng's, not a neural voice")
        case (.espeak, .neural):
            throw .engineMismatch("the voice '\(name)' is a neural voice, not espeak-ng's")
        default: return
        }
    }

    /// The installed neural voice that reads a book in `language` (`bestNeural`).
    /// - Throws: `.noNeuralVoice` when none speaks it; `.unknownVoice` when the runtime cannot be loaded.
    static func neural(for language: String?, in folder: String) throws(LiveConversionError) -> VoiceChoice {
        guard let language else { throw .noNeuralVoice(language: nil) }
        let installed = VoiceLibrary(folder: folder).voices().voices
        guard let best = bestNeural(speaking: language, among: installed),
            let voice = try LiveVoices.resolveNeural(best.identifier, in: folder)
        else { throw .noNeuralVoice(language: language) }
        return VoiceChoice(voice: voice.info, capabilities: .neural(voice), followsText: false, fallback: nil)
    }

    /// Of `voices`, the one that reads `language` best: a voice of its primary language (`en-GB` for `en`), the
    /// highest quality first, then the one of the very tag (`en-GB` for `en-GB`), then by name; nil when none
    /// speaks it. Pure: the voices folder is read by the caller.
    static func bestNeural(speaking language: String, among voices: [NeuralVoice]) -> NeuralVoice? {
        let speaking = voices.filter { VoiceCapabilities.neural($0).speaks(language) }
        func rank(_ voice: NeuralVoice) -> (Int, Int, String) {
            let exact = voice.language.lowercased() == language.lowercased().replacingOccurrences(of: "_", with: "-")
            return (qualityRank(voice.quality), exact ? 1 : 0, voice.name)
        }
        return speaking.min { a, b in
            let (ra, rb) = (rank(a), rank(b))
            if ra.0 != rb.0 { return ra.0 > rb.0 }
            if ra.1 != rb.1 { return ra.1 > rb.1 }
            return ra.2 < rb.2
        }
    }

    /// Piper's qualities in order (`x_low` < `low` < `medium` < `high`); an unknown one ranks below them all.
    static func qualityRank(_ quality: String) -> Int {
        ["x_low", "low", "medium", "high"].firstIndex(of: quality.lowercased()) ?? -1
    }

    /// `auto` with espeak-ng: the voice of the book's language (`BookLanguage.autoVoice`).
    static func espeakAuto(for book: OpenedBook) throws(LiveConversionError) -> VoiceChoice {
        let installed = ESpeakSpeechEngine.installedVoices()
        let chosen = BookLanguage.autoVoice(for: book.book, textLanguage: book.textLanguage) {
            try? ESpeakSpeechEngine.resolveVoice($0, installed: installed)
        }
        guard let chosen else {
            do {
                let english = try ESpeakSpeechEngine.resolveVoice("en", installed: installed)
                return VoiceChoice(
                    voice: english, capabilities: .espeak(languages: english.languages), followsText: false,
                    fallback: nil)
            } catch {
                throw .unknownVoice("\(error)")
            }
        }
        // Of the language's voices, the one that speaks most of the text (`cmn-Latn-pinyin` over `cmn`).
        let voice = SpeakableText.preferredVoice(
            chosen.voice, for: book.sections, installed: installed, share: LiveVoices.share)
        return VoiceChoice(
            voice: voice, capabilities: .espeak(languages: voice.languages), followsText: chosen.followsText,
            fallback: chosen.fallback)
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
        guard capabilities.engine == .neural else { return Self.speakableText(of: book, voice: voice.identifier) }
        let reading = textLanguage(for: book) ?? book.book.package.metadata.languages.first
        return Self.speakableText(of: book, neural: voice, capabilities: capabilities, reading: reading)
    }

    /// `SpeakableText.assess` of `book` for a neural voice: it speaks the scripts its language writes and no
    /// other (runs of other scripts go to espeak-ng's voices, as with an espeak-ng voice); blocks the markup
    /// gives a language it does not speak are read by espeak-ng's voice of that language
    /// (`SpeakableTextReport.otherLanguages`); `reading` is the language the text is read in.
    static func speakableText(
        of book: OpenedBook, neural voice: VoiceInfo, capabilities: VoiceCapabilities, reading: String?
    ) -> SpeakableTextReport {
        let installed = ESpeakSpeechEngine.installedVoices()
        let language = capabilities.languages.first ?? ""
        var report = SpeakableText.assess(
            book.sections, voice: voice, installed: installed, bookLanguage: book.readingLanguage
        ) { candidate, script in
            guard candidate == voice else { return LiveVoices.share(candidate, script) }
            return script.isWritten(byLanguage: language) ? 1 : 0
        }
        report.otherLanguages = otherLanguages(
            in: book.sections.filter(\.included), capabilities: capabilities, reading: reading, installed: installed)
        return report
    }

    /// The languages blocks of `sections` are marked with (`BookSection.languages`) that a voice of
    /// `capabilities` does not speak, each with the espeak-ng voice that reads them (`LiveSpeechEngine` falls
    /// back to it): the language's own, else the one of the voice's language. Blocks of the language the text
    /// is read in, `reading`, are the voice's whatever their tag says (the chunker gives them no language).
    static func otherLanguages(
        in sections: [BookSection], capabilities: VoiceCapabilities, reading: String?, installed: [VoiceInfo]
    ) -> [String: String] {
        var tags = Set<String>()
        for section in sections { tags.formUnion(section.languages.filter { $0.value > 0 }.keys) }
        if let reading { tags.remove(reading.lowercased()) }
        var readers: [String: String] = [:]
        let own = capabilities.languages.first.flatMap {
            try? ESpeakSpeechEngine.resolveVoice($0, installed: installed)
        }
        for tag in tags where !capabilities.speaks(tag) {
            let reader = (try? ESpeakSpeechEngine.resolveVoice(tag, installed: installed)) ?? own
            readers[tag] = reader.map(SpeakableText.name(of:)) ?? tag
        }
        return readers
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
