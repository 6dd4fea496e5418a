/// Voice settings that change the audio; part of what the progress manifest compares on resume.
public struct VoiceSettings: Hashable, Sendable, Codable {
    /// A voice name or a language tag as the engine understands it (resolved, never "auto").
    public var voice: String
    /// Words per minute.
    public var rate: Int
    /// 0...100, 50 is the engine's normal pitch.
    public var pitch: Int
    /// 0...200, 100 is the engine's normal volume.
    public var volume: Int

    /// Settings with espeak-ng's normal rate, pitch and volume unless told otherwise.
    public init(voice: String, rate: Int = 175, pitch: Int = 50, volume: Int = 100) {
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
    }
}

/// An installed voice.
public struct VoiceInfo: Hashable, Sendable, Codable {
    /// The voice's name as the engine lists it.
    public var name: String
    /// Language tags the voice speaks, most preferred first.
    public var languages: [String]
    /// What to pass as `VoiceSettings.voice` to select this voice.
    public var identifier: String

    /// A voice as the engine lists it.
    public init(name: String, languages: [String], identifier: String) {
        self.name = name
        self.languages = languages
        self.identifier = identifier
    }
}

/// A text-to-speech engine that turns plain text into 16-bit mono PCM.
///
/// Engines are not required to be thread-safe: one owner drives an engine, and parallelism is
/// across processes. The pipeline only knows engines through this protocol, so it is tested with
/// a fake one.
public protocol SpeechEngine: AnyObject {
    /// Samples per second of the PCM this engine produces.
    var sampleRate: Int { get }

    /// Selects the voice and prosody for the following calls. Throws when the voice is unknown.
    func configure(_ settings: VoiceSettings) throws

    /// Speaks `text` (plain text, never markup) and hands the PCM to `output` as it is produced.
    ///
    /// `output` returns `false` to stop synthesis early (cancellation). `language`, when given,
    /// speaks this text with a voice for that language if one is installed.
    func synthesize(_ text: String, language: String?, output: (UnsafeBufferPointer<Int16>) throws -> Bool) throws

    /// Speaks `text` as `synthesize(_:language:output:)` does (the same samples), and reports to `marks`
    /// where sentences and words of `text` start in them, in order, as the engine knows it.
    ///
    /// An engine that knows nothing of it reports nothing (the default implementation); the pipeline
    /// then places sentences in proportion to their length. The read-along outputs are made from these.
    func synthesize(
        _ text: String, language: String?, marks: (SpeechMark) -> Void,
        output: (UnsafeBufferPointer<Int16>) throws -> Bool) throws

    /// Brings the engine back as close to a freshly initialised one as it can, before each section.
    ///
    /// Best effort: an engine may keep state its API cannot reset (espeak-ng does: the same text after
    /// other text differs by a few samples even after `reset()`). Byte-identical audio whatever was
    /// spoken before comes from a fresh process per section (the conversion's worker processes), not
    /// from this call.
    func reset() throws
}

extension SpeechEngine {
    /// Reports no marks: the engine knows no more than the samples it makes.
    public func synthesize(
        _ text: String, language: String?, marks: (SpeechMark) -> Void,
        output: (UnsafeBufferPointer<Int16>) throws -> Bool
    ) throws {
        try synthesize(text, language: language, output: output)
    }
}

/// Where a sentence or a word of a text starts in the audio one `SpeechEngine.synthesize` call made of it.
public struct SpeechMark: Hashable, Sendable, Codable {
    /// What starts there.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A sentence (or, for espeak-ng, a clause it speaks as one).
        case sentence
        /// A word.
        case word
    }

    /// What starts there.
    public var kind: Kind
    /// Where it is in the text passed to `synthesize`, as UTF-16 offsets (as `SpeechChunk.textRange`);
    /// empty (`offset..<offset`) when the engine does not say how long it is.
    public var textRange: Range<Int>
    /// Its first frame, counted from the first sample this `synthesize` call produced.
    public var frame: Int

    /// A mark of `kind` for `textRange` at `frame`.
    public init(kind: Kind, textRange: Range<Int>, frame: Int) {
        self.kind = kind
        self.textRange = textRange
        self.frame = frame
    }
}

/// Where PCM goes: an audio file, or memory in tests.
public protocol AudioSink: AnyObject {
    /// Appends samples (16-bit mono at the sink's sample rate).
    func write(_ samples: UnsafeBufferPointer<Int16>) throws
    /// Appends `frames` frames of silence.
    func writeSilence(frames: Int) throws
    /// Finishes the file; after this the sink accepts nothing. Throws when data could not be saved.
    func close() throws
}
