internal import AudioFiles
internal import CSherpaOnnx
import Contracts
import Foundation

/// Text to speech with a neural (Piper) voice through sherpa-onnx's C API, loaded at run time.
///
/// One engine holds one loaded model (about 65 MB of weights for a medium voice, loaded once: make one engine
/// per worker process and keep it). It speaks a chunk sentence by sentence (`SentenceSegmenter`), each
/// sentence in its own call into the model, so sentence boundaries in the output are exact
/// (`lastSentenceFrames`), and with `NeuralEngineOptions.Sampling.reproducible` each sentence's samples
/// depend on that sentence alone: the same text gives the same bytes whatever was spoken before and in
/// whichever process, so `reset()` has nothing to do.
///
/// sherpa-onnx phonemises with its own copy of espeak-ng, which is process-global: every call into the
/// library holds one process-wide lock, and all engines of a process share one espeak-ng data folder.
///
/// Settings: `rate` (words per minute, 175 normal) scales the voice's speed; `volume` scales the samples;
/// `pitch` other than 50 is refused (a neural voice has no pitch control).
public final class NeuralSpeechEngine: SpeechEngine {
    /// Words per minute accepted (espeak-ng's range, so one `--rate` works for both engines).
    public static let rateRange = 80...450
    /// Volume accepted; 100 is the model's own level.
    public static let volumeRange = 0...200
    /// The rate that means the voice's own speed.
    public static let normalRate = 175
    /// Characters at most given to the model in one call: a longer "sentence" (no punctuation for pages) is
    /// cut at a space first. The model's memory grows with its input, and sherpa-onnx has no limit of its own.
    public static let maximumSentenceCharacters = 600
    /// Samples handed to `output` at most at a time (cancellation is checked between them).
    static let outputSliceFrames = 8_192

    /// The voice.
    public let voice: NeuralVoice
    /// The options it was loaded with.
    public let options: NeuralEngineOptions
    /// Samples per second of the PCM handed to `output` (the options' rate, else the model's).
    public let sampleRate: Int
    /// Samples per second the model produces.
    public let modelSampleRate: Int
    /// The settings of the last `configure` (or the voice's defaults).
    public private(set) var settings: VoiceSettings
    /// Frames (at `sampleRate`) of each sentence of the last `synthesize` call, in order: where its sentence
    /// boundaries fall in the output.
    public private(set) var lastSentenceFrames: [Int] = []
    /// The runtime.
    public let runtime: NeuralRuntime

    private let handle: OpaquePointer

    /// Loads `voice` (checked first: see `VoiceCheck`) into the runtime (`NeuralRuntime.load()` when nil).
    ///
    /// - Throws: `NeuralError` for a missing runtime, a voice whose files cannot be used, espeak-ng data that
    ///   is missing or differs from the one this process already uses, or a model sherpa-onnx refuses.
    public init(voice: NeuralVoice, options: NeuralEngineOptions = NeuralEngineOptions(), runtime: NeuralRuntime? = nil)
        throws
    {
        guard NeuralEngineOptions.threadRange.contains(options.threads) else {
            throw NeuralError.unsupportedSetting(
                "\(options.threads) threads: use \(NeuralEngineOptions.threadRange.lowerBound) to \(NeuralEngineOptions.threadRange.upperBound)"
            )
        }
        if let rate = options.outputSampleRate, !(8_000...192_000).contains(rate) {
            throw NeuralError.unsupportedSetting("an output rate of \(rate) Hz")
        }
        let runtime = try runtime ?? NeuralRuntime.load()
        let files = try VoiceCheck.loadable(voice)
        let handle = try NeuralProcess.create(runtime.library, files: files, voice: voice, options: options)
        self.handle = handle
        self.runtime = runtime
        self.voice = voice
        self.options = options
        self.modelSampleRate = NeuralProcess.locked { Int(runtime.library.sampleRate(handle)) }
        self.sampleRate = options.outputSampleRate ?? modelSampleRate
        self.settings = VoiceSettings(voice: voice.name)
    }

    deinit {
        NeuralProcess.locked { runtime.library.destroyOfflineTts(handle) }
    }

    /// Checks `settings` against this voice: its name (or `piper:NAME`), a rate and volume in range, pitch 50.
    public func configure(_ settings: VoiceSettings) throws {
        guard voice.isNamed(settings.voice) else {
            throw NeuralError.voiceMismatch(loaded: voice.name, requested: settings.voice)
        }
        guard Self.rateRange.contains(settings.rate) else {
            throw NeuralError.unsupportedSetting("a rate of \(settings.rate) words per minute (use \(Self.rateRange))")
        }
        guard Self.volumeRange.contains(settings.volume) else {
            throw NeuralError.unsupportedSetting("a volume of \(settings.volume) (use \(Self.volumeRange))")
        }
        guard settings.pitch == 50 else { throw NeuralError.unsupportedSetting("a pitch other than 50") }
        self.settings = settings
    }

    /// Speaks plain `text` sentence by sentence, handing each sentence's PCM to `output` in slices.
    ///
    /// `language` is not used: the engine has one voice; a caller that wants another language's voice for a
    /// block asks `voice.speaks(_:)` first and uses another engine (phase 2's fallback to espeak-ng).
    /// Returning `false` from `output` stops synthesis (not an error); an error thrown by `output` is rethrown.
    ///
    /// - Throws: `NeuralError.synthesisFailed` when the model returns nothing for a sentence.
    public func synthesize(_ text: String, language: String?, output: (UnsafeBufferPointer<Int16>) throws -> Bool)
        throws
    {
        try synthesize(text, language: language, marks: { _ in }, output: output)
    }

    /// Speaks plain `text` as `synthesize(_:language:output:)` does, reporting where each sentence the model
    /// is given starts (its first frame, and its place in `text`). No word marks: the model gives no word timing.
    public func synthesize(
        _ text: String, language: String?, marks: (SpeechMark) -> Void,
        output: (UnsafeBufferPointer<Int16>) throws -> Bool
    ) throws {
        lastSentenceFrames = []
        var frame = 0
        for sentence in Self.sentencePieces(of: text) {
            let samples = try speak(sentence.text)
            lastSentenceFrames.append(samples.count)
            marks(SpeechMark(kind: .sentence, textRange: sentence.range, frame: frame))
            frame += samples.count
            var offset = 0
            while offset < samples.count {
                let end = min(offset + Self.outputSliceFrames, samples.count)
                let more = try samples[offset..<end].withUnsafeBufferPointer { try output($0) }
                if !more { return }
                offset = end
            }
        }
    }

    /// Nothing to reset: with reproducible sampling a sentence's audio depends on that sentence only.
    public func reset() throws {}

    /// The sentences the model is given: `SentenceSegmenter`'s, each cut at spaces to at most
    /// `maximumSentenceCharacters`, NULs turned into spaces (they would end the C string).
    static func sentences(of text: String) -> [String] {
        sentencePieces(of: text).map(\.text)
    }

    /// `sentences(of:)` with where each is in `text` (UTF-16 offsets).
    static func sentencePieces(of text: String) -> [(text: String, range: Range<Int>)] {
        let utf16 = Array(text.utf16)
        var result: [(text: String, range: Range<Int>)] = []
        for range in SentenceSegmenter.sentenceRanges(in: text) {
            let sentence = String(decoding: utf16[range], as: UTF16.self).replacingOccurrences(of: "\0", with: " ")
            // The pieces follow one another in the sentence, spaces between them dropped.
            var searchFrom = sentence.startIndex
            for piece in bounded(sentence) {
                let found = sentence.range(of: piece, range: searchFrom..<sentence.endIndex)
                let lower = found.map { sentence.utf16.distance(from: sentence.startIndex, to: $0.lowerBound) } ?? 0
                searchFrom = found?.upperBound ?? searchFrom
                let start = range.lowerBound + lower
                result.append((piece, start..<(start + piece.utf16.count)))
            }
        }
        return result.filter { $0.text.contains { $0.isLetter || $0.isNumber } }
    }

    /// `sentence` in pieces of at most `maximumSentenceCharacters`, cut at the last space before the limit
    /// (inside a word only when one word alone is longer).
    static func bounded(_ sentence: String) -> [String] {
        var pieces: [String] = []
        var rest = Substring(sentence)
        while rest.count > maximumSentenceCharacters {
            let limit = rest.index(rest.startIndex, offsetBy: maximumSentenceCharacters)
            let cut = rest[..<limit].lastIndex(where: { $0 == " " }) ?? limit
            pieces.append(String(rest[..<cut]))
            rest = rest[cut...].drop(while: { $0 == " " })
        }
        if !rest.isEmpty { pieces.append(String(rest)) }
        return pieces
    }

    /// One sentence through the model, as 16-bit samples at `sampleRate` with the volume applied.
    private func speak(_ sentence: String) throws -> [Int16] {
        var config = SherpaOnnxGenerationConfig()
        config.sid = 0
        // sherpa-onnx replaces the model's length scale by 1/speed (when speed is not 1): the voice's own length
        // scale goes into the speed too.
        config.speed = Float(Double(settings.rate) / Double(Self.normalRate) / voice.lengthScale)
        config.silence_scale = 0.2
        let library = runtime.library
        let samples: [Int16]? = NeuralProcess.locked {
            guard let audio = library.generate(handle, sentence, &config, nil, nil) else { return nil }
            defer { library.destroyGeneratedAudio(audio) }
            let count = Int(audio.pointee.n)
            guard count > 0, let floats = audio.pointee.samples else { return [] }
            return Self.pcm(UnsafeBufferPointer(start: floats, count: count), gain: Float(settings.volume) / 100)
        }
        guard let samples else { throw NeuralError.synthesisFailed(voice: voice.name, sentence: sentence) }
        guard sampleRate != modelSampleRate, !samples.isEmpty else { return samples }
        return try Self.resample(samples, from: modelSampleRate, to: sampleRate)
    }

    /// Floats in [-1, 1] to 16-bit samples, rounded to nearest, clipped; NaN becomes silence.
    static func pcm(_ floats: UnsafeBufferPointer<Float>, gain: Float) -> [Int16] {
        floats.map { value in
            let scaled = value * gain * 32_767
            guard scaled.isFinite else { return 0 }
            return Int16(max(-32_768, min(32_767, scaled.rounded())))
        }
    }

    /// `samples` resampled on their own (a fresh resampler without dither, flushed), so the result depends on
    /// them alone.
    static func resample(_ samples: [Int16], from input: Int, to output: Int) throws -> [Int16] {
        let resampler = try Resampler(from: input, to: output, dither: false)
        var result: [Int16] = []
        result.reserveCapacity(samples.count * output / input + 64)
        try samples.withUnsafeBufferPointer { buffer in
            try resampler.process(buffer) { result.append(contentsOf: $0) }
        }
        try resampler.flush { result.append(contentsOf: $0) }
        return result
    }
}

/// What is process-wide in sherpa-onnx: its espeak-ng (one data folder, initialised once) and the lock every
/// call into the library holds.
enum NeuralProcess {
    private static let lock = NSRecursiveLock()
    /// The espeak-ng data folder of the first model loaded; read and written with `lock` held.
    nonisolated(unsafe) private static var espeakData: String?

    static func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Creates the model (the lock held), refusing a second espeak-ng data folder in the process: sherpa-onnx
    /// initialises espeak-ng once and would silently phonemise with the first.
    static func create(
        _ library: SherpaOnnxLibrary, files: VoiceCheck.Loadable, voice: NeuralVoice, options: NeuralEngineOptions
    ) throws -> OpaquePointer {
        let noise: (Float, Float)
        switch options.sampling {
        case .reproducible:
            noise = (NeuralEngineOptions.reproducibleNoiseScale, NeuralEngineOptions.reproducibleNoiseScale)
        case .voiceDefaults:
            noise = (Float(voice.noiseScale), Float(voice.noiseWidth))
        }
        let data = (files.espeakData as NSString).standardizingPath
        return try locked {
            if let loaded = espeakData, loaded != data {
                throw NeuralError.espeakDataConflict(loaded: loaded, requested: data)
            }
            let created = files.model.withCString { model in
                files.tokens.withCString { tokens in
                    data.withCString { dataDir in
                        "cpu".withCString { provider in
                            var config = SherpaOnnxOfflineTtsConfig()
                            config.model.vits.model = model
                            config.model.vits.tokens = tokens
                            config.model.vits.data_dir = dataDir
                            config.model.vits.noise_scale = noise.0
                            config.model.vits.noise_scale_w = noise.1
                            config.model.vits.length_scale = 1
                            config.model.num_threads = Int32(options.threads)
                            config.model.provider = provider
                            config.max_num_sentences = 1
                            return library.createOfflineTts(&config)
                        }
                    }
                }
            }
            guard let created else { throw NeuralError.modelLoadFailed(voice: voice.name, path: files.model) }
            espeakData = data
            return created
        }
    }
}
