internal import CEspeakNG
import Contracts
import Foundation

/// Text to speech with libespeak-ng, in process, as 16-bit mono PCM at 22,050 Hz.
///
/// espeak-ng keeps its state in process-global variables and is not thread-safe at all, so:
/// - at most one engine is alive per process (a second `init` throws `SpeechError.engineInUse`
///   until the first is deallocated); parallelism means several processes;
/// - every call into the library, from the engine or from the static helpers, holds one
///   process-wide lock. Do not call back into this type from the `output` closure of
///   `synthesize` on another thread while it runs (same thread is fine: the lock is recursive).
///
/// Text is always plain text (`espeakCHARS_UTF8`, never `espeakSSML` or `espeakPHONEMES`), so book
/// text cannot become markup; a URI callback that refuses every URI is installed anyway.
///
/// Determinism: two fresh processes speaking the same text with the same settings give bit-identical
/// samples; one engine speaking it again after other text does not, even after `reset()` (see there).
/// Callers that need identical audio make each unit of work in a fresh process.
public final class ESpeakSpeechEngine: SpeechEngine {
    /// Words per minute espeak-ng accepts (`espeakRATE_MINIMUM...espeakRATE_MAXIMUM`).
    public static let rateRange = 80...450
    /// Base pitch; 50 is normal.
    public static let pitchRange = 0...100
    /// Volume; 100 is normal.
    public static let volumeRange = 0...200

    /// Samples per second, as reported by espeak-ng after initialisation (22,050).
    public private(set) var sampleRate: Int
    /// The settings of the last successful `configure` (or `init`).
    public private(set) var settings: VoiceSettings
    /// The installed voice the settings resolved to.
    public private(set) var voice: VoiceInfo
    /// The voice that spoke the last `synthesize` call: the configured one, or the voice of the
    /// chunk's language when the engine switched for it (what tests and diagnostics look at).
    public private(set) var lastVoice: VoiceInfo
    /// Installed voices, read once at initialisation.
    public let voices: [VoiceInfo]
    /// Installed voice variants (`f3`, `m2`, `klatt`...), usable as `voice+variant`.
    public let variants: [String]

    /// Initialises espeak-ng and selects `settings`.
    ///
    /// - Throws: `SpeechError.engineInUse` when another engine is alive, `.espeak` when the library
    ///   or its data cannot be initialised, and the errors of `configure(_:)`.
    public init(settings: VoiceSettings = VoiceSettings(voice: "en")) throws {
        ESpeakProcess.lock.lock()
        defer { ESpeakProcess.lock.unlock() }
        guard !ESpeakProcess.engineAlive else { throw SpeechError.engineInUse }
        let rate = try ESpeakProcess.initializeOnce()
        let voices = Self.listVoices()
        let variants = Self.listVariants()
        let voice = try Self.resolveVoice(settings.voice, installed: voices, variants: variants)
        try Self.validate(settings)
        try Self.apply(voice: voice, settings: settings)
        self.sampleRate = rate
        self.settings = settings
        self.voice = voice
        self.lastVoice = voice
        self.voices = voices
        self.variants = variants
        ESpeakProcess.engineAlive = true
    }

    deinit {
        ESpeakProcess.lock.lock()
        defer { ESpeakProcess.lock.unlock() }
        ESpeakProcess.appliedVoice = nil
        // No espeak_ng_Terminate: in 1.51, initialising again after it hangs the next terminate
        // (its background thread is not restarted), so the library stays initialised for the process.
        ESpeakProcess.engineAlive = false
    }

    /// The voices espeak-ng has installed (MBROLA voices excluded: they need separate data).
    ///
    /// Works whether or not an engine is alive.
    public static func installedVoices() -> [VoiceInfo] {
        ESpeakProcess.lock.lock()
        defer { ESpeakProcess.lock.unlock() }
        if !ESpeakProcess.engineAlive { espeak_ng_InitializePath(nil) }
        return listVoices()
    }

    /// The installed voice variants (`f3`, `m2`, `whisper`...), which `VoiceSettings.voice` can
    /// append to a voice or language tag: `en-us+f3`. Works whether or not an engine is alive.
    public static func installedVariants() -> [String] {
        ESpeakProcess.lock.lock()
        defer { ESpeakProcess.lock.unlock() }
        if !ESpeakProcess.engineAlive { espeak_ng_InitializePath(nil) }
        return listVariants()
    }

    /// Validates rate, pitch and volume and selects the voice (see `resolveVoice(_:installed:)`).
    public func configure(_ settings: VoiceSettings) throws {
        try Self.validate(settings)
        let voice = try Self.resolveVoice(settings.voice, installed: voices, variants: variants)
        try locked { try Self.apply(voice: voice, settings: settings) }
        self.settings = settings
        self.voice = voice
    }

    /// Speaks plain `text`, handing PCM to `output` as espeak-ng produces it.
    ///
    /// When `language` names another primary language than the current voice's and a voice for it
    /// is installed, that voice speaks the text and the configured voice is restored afterwards;
    /// otherwise the configured voice speaks it. Returning `false` from `output` stops synthesis
    /// (not an error); an error thrown by `output` stops it and is rethrown.
    public func synthesize(
        _ text: String, language: String?, output: (UnsafeBufferPointer<Int16>) throws -> Bool
    ) throws {
        try speak(text, language: language, marks: { _ in }, reportingMarks: false, output: output)
    }

    /// Speaks plain `text` as `synthesize(_:language:output:)` does, reporting where espeak-ng starts
    /// each sentence (`espeakEVENT_SENTENCE`) and word (`espeakEVENT_WORD`): the event's sample,
    /// counted from the first sample of this call, and its text position, which espeak-ng counts in
    /// Unicode scalars of the text it was given from 1 (mapped back to UTF-16 offsets of `text`).
    /// Reading the events changes nothing in the samples.
    public func synthesize(
        _ text: String, language: String?, marks: (SpeechMark) -> Void,
        output: (UnsafeBufferPointer<Int16>) throws -> Bool
    ) throws {
        try speak(text, language: language, marks: marks, reportingMarks: true, output: output)
    }

    /// Both `synthesize` calls: `marks` is called only when `reportingMarks`.
    private func speak(
        _ text: String, language: String?, marks: (SpeechMark) -> Void, reportingMarks: Bool,
        output: (UnsafeBufferPointer<Int16>) throws -> Bool
    ) throws {
        let bytes = Self.speakableBytes(text)
        let offsets = reportingMarks ? Self.utf16Offsets(ofScalarsGiven: text) : nil
        try locked {
            let switchTo = language.flatMap { otherVoice(for: $0) }
            if let switchTo { try Self.apply(voice: switchTo, settings: settings) }
            lastVoice = switchTo ?? voice
            defer {
                // Restoring the configured voice cannot reasonably fail: it was set before.
                if switchTo != nil { try? Self.apply(voice: voice, settings: settings) }
            }
            try withoutActuallyEscaping(output) { output in
                let context = SynthesisContext(output: output)
                try withoutActuallyEscaping(marks) { marks in
                    if let offsets { context.marks = (marks, offsets) }
                    // The context must not keep the closure past this scope.
                    defer { context.marks = nil }
                    try speak(bytes, context: context)
                }
            }
        }
    }

    /// One `espeak_ng_Synthesize` call over `bytes` (the lock is held), its samples and events going
    /// to `context`.
    private func speak(_ bytes: [UInt8], context: SynthesisContext) throws {
        try withExtendedLifetime(context) {
            let status = bytes.withUnsafeBytes { buffer in
                espeak_ng_Synthesize(
                    buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0,
                    UInt32(espeakCHARS_UTF8 | espeakENDPAUSE), nil,
                    Unmanaged.passUnretained(context).toOpaque())
            }
            if let error = context.error { throw error }
            if context.stopped, status == ENS_SPEECH_STOPPED { return }
            try Self.check(status, "espeak_ng_Synthesize")
        }
    }

    /// The UTF-16 offset in `text` of each Unicode scalar espeak-ng is given (`speakableBytes`), and
    /// `text`'s UTF-16 length after the last: espeak-ng's text positions count those scalars.
    static func utf16Offsets(ofScalarsGiven text: String) -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(text.utf16.count + 1)
        var offset = 0
        var run = 0
        for scalar in text.unicodeScalars {
            run = scalar.properties.canonicalCombiningClass == .notReordered ? 0 : run + 1
            if run <= longestMarkRun { offsets.append(offset) }
            offset += scalar.utf16.count
        }
        offsets.append(offset)
        return offsets
    }

    /// Brings espeak-ng as close to a fresh state as its API allows: the configured voice and its
    /// parameters are selected again, which also clears the echo buffer and the voice's pitch and
    /// formant state.
    ///
    /// Limitation (libespeak-ng 1.51, measured): the same text still does not give bit-identical
    /// samples after other text in the same process (lengths differ by a few samples). The
    /// remaining state lives in function-static variables of espeak-ng's wave generator (the pitch
    /// flutter index, the roughness cycle counter, the gain control) that no API resets, not even
    /// `espeak_ng_Terminate` + `espeak_ng_Initialize` (which, besides, hangs in the next terminate
    /// on 1.51). Output that must be byte-identical (resume versus a clean run) has to come from a
    /// fresh process per unit of work: two fresh processes give bit-identical audio.
    public func reset() throws {
        try locked { try Self.apply(voice: voice, settings: settings) }
    }

    /// The name of the voice espeak-ng has selected right now (for tests of the language switch).
    ///
    /// Its languages are the installed voice's of that name: espeak-ng 1.51 does not end the language
    /// list of its current voice when a voice with a shorter list replaces a longer one (English
    /// after `cmn-Latn-pinyin` lists "en-gb", "en", then the rest of "pinyin"...).
    func currentLibraryVoice() -> (name: String?, languages: [String]) {
        locked {
            guard let current = espeak_GetCurrentVoice() else { return (nil, []) }
            let name = current.pointee.name.map { String(cString: $0) }
            let installed = voices.first { $0.name == name }?.languages
            return (name, installed ?? Self.languages(current.pointee.languages))
        }
    }

    // MARK: - Library calls (the lock is held by the caller)

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        ESpeakProcess.lock.lock()
        defer { ESpeakProcess.lock.unlock() }
        return try body()
    }

    /// A voice for `language` when its primary language differs from the current voice's: the
    /// language's voice, else the voice whose file is named so (a run of another script names the
    /// voice that reads it, `cmn-Latn-pinyin`, `yue-Latn-jyutping`: `ScriptSwitching`).
    private func otherVoice(for language: String) -> VoiceInfo? {
        let primary = Self.primaryLanguage(language)
        guard !primary.isEmpty, !voice.languages.contains(where: { Self.primaryLanguage($0) == primary }) else {
            return nil
        }
        let key = Self.normalized(language)
        return Self.voice(forLanguage: language, installed: voices)
            ?? voices.first { Self.normalized(Self.fileName($0.identifier)) == key }
    }

    /// Combining marks in a row that espeak-ng is given at most: Unicode's stream-safe limit (UAX #15).
    static let longestMarkRun = 30

    /// `text` as espeak-ng is given it: UTF-8 ending in a NUL, a NUL inside turned into a space (it
    /// would end the C string early), and no run of more than `longestMarkRun` combining marks (the
    /// rest of the run is dropped): espeak-ng takes time quadratic in such a run (10,000 marks on one
    /// letter took 3 s, 100,000 minutes), and the marks past any real letter's few add no sound.
    static func speakableBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8]
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            bytes = text.utf8.map { $0 == 0 ? UInt8(ascii: " ") : $0 }
        } else {
            var kept = String.UnicodeScalarView()
            var run = 0
            for scalar in text.unicodeScalars {
                run = scalar.properties.canonicalCombiningClass == .notReordered ? 0 : run + 1
                if run <= longestMarkRun { kept.append(scalar == "\0" ? " " : scalar) }
            }
            bytes = Array(String(kept).utf8)
        }
        bytes.append(0)
        return bytes
    }

    /// Initialises espeak-ng for synchronous output to our callback; returns the sample rate.
    fileprivate static func initializeLibrary() throws -> Int {
        espeak_ng_InitializePath(nil)
        var context: espeak_ng_ERROR_CONTEXT? = nil
        let status = espeak_ng_Initialize(&context)
        espeak_ng_ClearErrorContext(&context)
        try check(status, "espeak_ng_Initialize")
        try check(espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil), "espeak_ng_InitializeOutput")
        espeak_SetSynthCallback { samples, count, events in
            guard let events, let pointer = events.pointee.user_data else { return 0 }
            let context = Unmanaged<SynthesisContext>.fromOpaque(pointer).takeUnretainedValue()
            if context.marks != nil {
                var event = events
                while event.pointee.type != espeakEVENT_LIST_TERMINATED {
                    context.receive(event.pointee)
                    event += 1
                }
            }
            return context.receive(samples, count: Int(count)) ? 0 : 1
        }
        // Book text is never SSML, so <audio> cannot occur; refuse every URI in case it ever does.
        espeak_SetUriCallback { _, _, _ in
            ESpeakProcess.refusedURIs += 1
            return 1
        }
        return Int(espeak_ng_GetSampleRate())
    }

    /// Selects `voice` with `settings` (the lock is held), and remembers them while an engine is
    /// alive so that a probe of another voice (`share(of:spokenBy:)`) can select them again.
    static func apply(voice: VoiceInfo, settings: VoiceSettings) throws {
        ESpeakProcess.appliedVoice = nil
        try voice.name.withCString {
            try check(espeak_ng_SetVoiceByName($0), "espeak_ng_SetVoiceByName(\(voice.name))")
        }
        try check(espeak_ng_SetParameter(espeakRATE, Int32(settings.rate), 0), "espeak_ng_SetParameter(rate)")
        try check(espeak_ng_SetParameter(espeakPITCH, Int32(settings.pitch), 0), "espeak_ng_SetParameter(pitch)")
        try check(espeak_ng_SetParameter(espeakVOLUME, Int32(settings.volume), 0), "espeak_ng_SetParameter(volume)")
        ESpeakProcess.appliedVoice = (voice, settings)
    }

    static func validate(_ settings: VoiceSettings) throws {
        guard rateRange.contains(settings.rate) else {
            throw SpeechError.invalidRate(settings.rate, allowed: rateRange)
        }
        guard pitchRange.contains(settings.pitch) else {
            throw SpeechError.invalidPitch(settings.pitch, allowed: pitchRange)
        }
        guard volumeRange.contains(settings.volume) else {
            throw SpeechError.invalidVolume(settings.volume, allowed: volumeRange)
        }
    }

    private static func listVoices() -> [VoiceInfo] {
        guard let list = espeak_ListVoices(nil) else { return [] }
        var result: [VoiceInfo] = []
        var index = 0
        while let entry = list[index] {
            index += 1
            let voice = entry.pointee
            guard let name = voice.name, let identifier = voice.identifier else { continue }
            let id = String(cString: identifier)
            // MBROLA voices are listed whenever their voice files exist, but need the mbrola program and data.
            guard !id.hasPrefix("mb/") else { continue }
            result.append(VoiceInfo(name: String(cString: name), languages: languages(voice.languages), identifier: id))
        }
        return result
    }

    /// Variant names (`f3`, `klatt`, `Alex`...), from the voices espeak-ng lists for the pseudo
    /// language `variant`.
    private static func listVariants() -> [String] {
        var spec = espeak_VOICE()
        let list = "variant".withCString { language -> UnsafeMutablePointer<UnsafePointer<espeak_VOICE>?>? in
            spec.languages = language
            return espeak_ListVoices(&spec)
        }
        guard let list else { return [] }
        var result: [String] = []
        var index = 0
        while let entry = list[index] {
            index += 1
            guard let identifier = entry.pointee.identifier else { continue }
            let id = String(cString: identifier)
            if let name = id.split(separator: "/").last, id.hasPrefix("!v/") { result.append(String(name)) }
        }
        return result
    }

    /// Decodes espeak's language list: (priority byte, NUL-terminated tag)*, then a NUL.
    private static func languages(_ list: UnsafePointer<CChar>?) -> [String] {
        guard var pointer = list else { return [] }
        var result: [String] = []
        while pointer.pointee != 0 {
            let tag = String(cString: pointer + 1)
            result.append(tag)
            pointer += 1 + tag.utf8.count + 1
        }
        return result
    }

    /// The one place that turns an espeak-ng status into a Swift error.
    static func check(_ status: espeak_ng_STATUS, _ operation: String) throws {
        guard status != ENS_OK else { return }
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw SpeechError.espeak(operation: operation, status: status.rawValue, message: message)
    }
}

/// The process-wide guard around espeak-ng.
enum ESpeakProcess {
    /// Held around every call into espeak-ng. Recursive so an `output` closure may call `installedVoices()`.
    static let lock = NSRecursiveLock()
    /// Whether an engine is alive; read and written only with `lock` held.
    nonisolated(unsafe) static var engineAlive = false
    /// How many URIs the URI callback refused (for tests); only changes during synthesis, with `lock` held.
    nonisolated(unsafe) static var refusedURIs = 0
    /// The voice and settings the last `apply` selected (nil after a failed one, and when no engine is
    /// alive); read and written only with `lock` held.
    nonisolated(unsafe) static var appliedVoice: (voice: VoiceInfo, settings: VoiceSettings)?
    /// `ESpeakSpeechEngine.share(of:spokenBy:)` by `identifier|script`; read and written only with `lock` held.
    nonisolated(unsafe) static var scriptShares: [String: Double] = [:]
    /// The sample rate once espeak-ng is initialised; read and written only with `lock` held.
    nonisolated(unsafe) private static var initializedSampleRate: Int?

    /// Initialises espeak-ng the first time it is called in the process; returns the sample rate.
    static func initializeOnce() throws -> Int {
        if let rate = initializedSampleRate { return rate }
        let rate = try ESpeakSpeechEngine.initializeLibrary()
        initializedSampleRate = rate
        return rate
    }
}

/// What the C callback needs during one `espeak_ng_Synthesize` call, passed through `user_data`.
private final class SynthesisContext {
    let output: (UnsafeBufferPointer<Int16>) throws -> Bool
    var stopped = false
    var error: (any Error)?

    /// Where marks go, and the UTF-16 offset of each scalar given (`utf16Offsets(ofScalarsGiven:)`);
    /// nil: events are not read.
    var marks: (report: (SpeechMark) -> Void, offsets: [Int])?

    init(output: @escaping (UnsafeBufferPointer<Int16>) throws -> Bool) {
        self.output = output
    }

    /// A word or sentence event becomes a mark; other events are ignored.
    func receive(_ event: espeak_EVENT) {
        guard !stopped, let marks else { return }
        let kind: SpeechMark.Kind
        switch event.type {
        // A word event of no length (at a pause, after a quotation) names no word: its position is not one.
        case espeakEVENT_WORD where event.length > 0: kind = .word
        case espeakEVENT_SENTENCE: kind = .sentence
        default: return
        }
        // Positions count from 1; 0 is no place in the text.
        guard event.text_position > 0 else { return }
        // 1-based scalar positions; clamped, so a position past the text (its end pause) stays inside.
        let last = marks.offsets.count - 1
        let first = min(max(Int(event.text_position) - 1, 0), last)
        let end = min(first + max(Int(event.length), 0), last)
        let range = marks.offsets[first]..<marks.offsets[end]
        marks.report(SpeechMark(kind: kind, textRange: range, frame: max(Int(event.sample), 0)))
    }

    /// Returns false to make espeak-ng stop.
    func receive(_ samples: UnsafeMutablePointer<Int16>?, count: Int) -> Bool {
        guard !stopped else { return false }
        guard let samples, count > 0 else { return true }
        do {
            if try !output(UnsafeBufferPointer(start: samples, count: count)) { stopped = true }
        } catch {
            self.error = error
            stopped = true
        }
        return !stopped
    }
}
