import Contracts
import Foundation

/// Makes sections one after another with one engine: the code a worker process (or a fork server's
/// child) runs, and the code the coordinator runs in-process when it has no worker executable.
///
/// The same code, but not always the same bytes: a fresh process per section gives bit-identical
/// audio; in one process the engine is only `reset()` between sections, which is best effort.
final class WorkerSession {
    private let environment: ConversionEnvironment
    private var sources: [BookInput: any SectionSource] = [:]
    private var engine: (any SpeechEngine)?
    /// The voice the engine was last configured for by this session (nil: as the engine started).
    private var configuredVoice: VoiceSettings?
    /// Whether the engine has spoken in this process since it was configured: only then is a
    /// `reset()` needed (a fork server's child inherits an engine that never spoke).
    private var engineSpoke = false

    init(environment: ConversionEnvironment) {
        self.environment = environment
    }

    private struct Stopped: Error {}

    /// Makes the engine now rather than at the first section (the fork server's children share it).
    func prepareEngine() throws {
        if engine == nil { engine = try environment.makeEngine() }
    }

    /// Configures the engine for `voice` now, so that children forked next inherit it ready to speak
    /// (the fork server calls this before each fork; it does something only when the voice changes).
    /// A child then starts from the state a fresh process reaches for the same job: the engine made,
    /// then configured for the job's voice, and nothing spoken.
    func prepareEngine(for voice: VoiceSettings) throws {
        _ = try preparedEngine(voice)
    }

    /// Runs, once, what every section does apart from speaking and writing (chunking, hashing,
    /// encoding messages), so that the Swift runtime's caches (type metadata, protocol conformances)
    /// are filled in the fork server and inherited by its children, instead of being rebuilt in each
    /// one: measured at about a tenth of a short section's CPU. Touches neither the engine, whose
    /// state must stay as initialisation left it, nor any file.
    static func warmUp() {
        let blocks = [
            SpokenBlock(kind: .title, text: "Warm up", source: SourcePosition(spineIndex: 0, blockIndex: -1)),
            SpokenBlock(
                kind: .paragraph, text: "One. Two, three.", source: SourcePosition(spineIndex: 0, blockIndex: 0)),
        ]
        let words = chunks(section: 0, blocks: blocks, settings: ChunkerOptions()).reduce(0) { $0 + wordCount($1.text) }
        let messages: [WorkerMessage] = [
            .progress(section: 0, wordsDone: words, wordsTotal: words, frames: 1, sampleRate: 1),
            .done(
                WorkerResult(
                    section: 0, frames: 1, sampleRate: 1, textSHA256: SpokenTextFingerprint.sha256(blocks),
                    words: words)),
            .failed(section: 0, kind: .section, message: "", path: nil),
        ]
        for message in messages { _ = CanonicalJSON.encode(message) }
    }

    /// Makes one section into `job.partPath`; every outcome is reported through `send`, which may throw
    /// to abandon the job (the coordinator is gone).
    func perform(_ job: WorkerJob, shouldStop: () -> Bool, send: (WorkerMessage) throws -> Void) throws {
        let message: WorkerMessage
        do {
            message = .done(try render(job, shouldStop: shouldStop, send: send))
        } catch is Stopped {
            message = .failed(section: job.section, kind: .cancelled, message: "cancelled", path: nil)
        } catch let error as SendFailure {
            throw error.underlying
        } catch let error as ConversionError {
            message = Self.failure(error, section: job.section)
        } catch {
            message = .failed(section: job.section, kind: .section, message: "\(error)", path: nil)
        }
        try send(message)
    }

    private struct SendFailure: Error { var underlying: any Error }

    private static func failure(_ error: ConversionError, section: Int) -> WorkerMessage {
        switch error {
        case .diskFull(let path): .failed(section: section, kind: .diskFull, message: error.description, path: path)
        case .outputUnwritable(let path, let reason):
            // The coordinator rebuilds the error from path and reason: send the reason alone.
            .failed(section: section, kind: .unwritable, message: reason, path: path)
        case .cancelled: .failed(section: section, kind: .cancelled, message: "cancelled", path: nil)
        case .sectionFailed(_, let reason): .failed(section: section, kind: .section, message: reason, path: nil)
        default: .failed(section: section, kind: .section, message: error.description, path: nil)
        }
    }

    private func source(for book: BookInput) throws -> any SectionSource {
        if let source = sources[book] { return source }
        let source = try environment.makeSource(book)
        sources[book] = source
        return source
    }

    private func render(_ job: WorkerJob, shouldStop: () -> Bool, send: (WorkerMessage) throws -> Void) throws
        -> WorkerResult
    {
        if let given = job.chunks {
            return try speak(given, job: job, textSHA256: "", shouldStop: shouldStop, send: send)
        }
        let blocks = try job.blocks ?? source(for: job.book).blocks(section: job.section)
        var chunks = Self.chunks(section: job.section, blocks: blocks, settings: job.settings.chunking)
        if let part = job.part {
            // The part's chunks of the whole section's list: their pauses are the ones the section has there.
            guard part.firstChunk >= 0, part.firstChunk <= part.endChunk, part.endChunk <= chunks.count else {
                throw ConversionError.sectionFailed(
                    section: job.section,
                    reason: "part \(part.index) names chunks \(part.firstChunk)..<\(part.endChunk) of \(chunks.count)")
            }
            chunks = Array(chunks[part.chunks])
        }
        return try speak(
            chunks, job: job, textSHA256: SpokenTextFingerprint.sha256(blocks), shouldStop: shouldStop, send: send)
    }

    /// Speaks `chunks` into the job's file.
    private func speak(
        _ chunks: [SpeechChunk], job: WorkerJob, textSHA256: String, shouldStop: () -> Bool,
        send: (WorkerMessage) throws -> Void
    ) throws -> WorkerResult {
        let engine = try preparedEngine(job.settings.voice)
        let sampleRate = engine.sampleRate
        let wordsTotal = chunks.reduce(0) { $0 + Self.wordCount($1.text) }
        if shouldStop() { throw Stopped() }
        let sink = try openSink(job, sampleRate: sampleRate)
        let (frames, timings) = try speak(
            chunks, engine: engine, sampleRate: sampleRate, into: sink, job: job, wordsTotal: wordsTotal,
            shouldStop: shouldStop, send: send)
        try job.completeTags()
        return WorkerResult(
            section: job.section, frames: frames, sampleRate: sampleRate, textSHA256: textSHA256, words: wordsTotal,
            chunkTimings: timings)
    }

    /// This session's engine (made at the first section), configured for `voice`, and reset when it
    /// has spoken before in this process.
    private func preparedEngine(_ voice: VoiceSettings) throws -> any SpeechEngine {
        let engine = try self.engine ?? environment.makeEngine()
        self.engine = engine
        // Back to the configured voice and as close to a fresh state as the engine allows (best effort:
        // espeak-ng keeps some state no API resets). Byte-identical files across resumes and `jobs`
        // values come from making each section in a fresh process, where nothing has spoken yet and
        // the voice is configured once: the same steps in every process, and no voice lookup to repeat.
        if engineSpoke {
            try engine.reset()
            engineSpoke = false
        }
        if configuredVoice != voice {
            try engine.configure(voice)
            configuredVoice = voice
        }
        return engine
    }

    /// Opens the job's `.part` file; a failure is the section's, or the run's when the disk is full.
    private func openSink(_ job: WorkerJob, sampleRate: Int) throws -> any AudioSink {
        do {
            // A part is raw PCM, joined into the section's file by one writer pass later.
            if job.part != nil { return try PCMPartSink(path: job.partPath) }
            return try environment.makeSink(
                SinkRequest(path: job.partPath, encoding: job.settings.encoding, tags: job.tags, sampleRate: sampleRate)
            )
        } catch {
            throw PosixFailure.map(error, path: job.partPath)
                ?? ConversionError.sectionFailed(
                    section: job.section, reason: "cannot open \(job.partPath): \(error)")
        }
    }

    /// Speaks `chunks` into `sink` with their pauses, reporting progress after each, and closes the
    /// sink; returns the frames written and when each chunk was heard.
    private func speak(
        _ chunks: [SpeechChunk], engine: any SpeechEngine, sampleRate: Int, into sink: any AudioSink, job: WorkerJob,
        wordsTotal: Int, shouldStop: () -> Bool, send: (WorkerMessage) throws -> Void
    ) throws -> (frames: Int, timings: [SpokenChunkTiming]?) {
        var frames = 0
        let keepsTiming = job.keepsTiming == true
        var timings: [SpokenChunkTiming] = []
        var wordsDone = 0
        var closed = false
        defer {
            if !closed { try? sink.close() }
        }
        func silence(_ milliseconds: Int) throws {
            let count = milliseconds * sampleRate / 1000
            guard count > 0 else { return }
            try sink.writeSilence(frames: count)
            frames += count
        }
        do {
            for chunk in chunks {
                if shouldStop() { throw Stopped() }
                try silence(chunk.pauseBeforeMS)
                engineSpoke = true
                var stopped = false
                var sound = SoundSpan(start: frames)
                let write = { (samples: UnsafeBufferPointer<Int16>) throws -> Bool in
                    if shouldStop() {
                        stopped = true
                        return false
                    }
                    try sink.write(samples)
                    if keepsTiming { sound.add(samples, at: frames) }
                    frames += samples.count
                    return true
                }
                if keepsTiming {
                    try engine.synthesize(
                        chunk.text, language: chunk.language, marks: { sound.marks.append($0) }, output: write)
                } else {
                    try engine.synthesize(chunk.text, language: chunk.language, output: write)
                }
                if stopped || shouldStop() { throw Stopped() }
                if keepsTiming {
                    timings.append(
                        SpokenChunkTiming(
                            startFrame: sound.start, soundStartFrame: sound.firstSound ?? sound.start,
                            endFrame: sound.lastSound ?? sound.start, marks: sound.marks))
                }
                try silence(chunk.pauseAfterMS)
                wordsDone += Self.wordCount(chunk.text)
                do {
                    try send(
                        .progress(
                            section: job.section, wordsDone: wordsDone, wordsTotal: wordsTotal, frames: frames,
                            sampleRate: sampleRate))
                } catch {
                    throw SendFailure(underlying: error)
                }
            }
            closed = true
            try sink.close()
        } catch let error as Stopped {
            throw error
        } catch let error as SendFailure {
            throw error
        } catch {
            throw PosixFailure.map(error, path: job.partPath) ?? error
        }
        return (frames, keepsTiming ? timings : nil)
    }

    /// Where the sound of one chunk's samples starts and ends (the first frame, and the frame after
    /// the last, louder than `threshold`: the engine's own leading and trailing silence left out), and
    /// the engine's marks moved to where their sound starts.
    ///
    /// espeak-ng marks a sentence where its first phoneme starts, which may be a closure or a pause
    /// (measured: about 12 ms before the sound of "The" after another sentence); what is heard, and
    /// what subtitles and a read-along EPUB must follow, starts with the first sound at or after it.
    struct SoundSpan {
        /// Below -60 dBFS: silence to the ear, and above the noise floor of espeak-ng's quiet samples.
        static let threshold: Int16 = 32
        let start: Int
        var firstSound: Int?
        var lastSound: Int?
        /// The engine's marks so far, frames counted from `start`; those before `settled` are moved to
        /// their sound already (the engine reports a mark before the samples it falls in).
        var marks: [SpeechMark] = []
        private var settled = 0

        init(start: Int) { self.start = start }

        private static func isLoud(_ sample: Int16) -> Bool { sample > threshold || sample < -threshold }

        /// Takes in `samples`, the first of which is frame `frame` of the file.
        mutating func add(_ samples: UnsafeBufferPointer<Int16>, at frame: Int) {
            while settled < marks.count, start + marks[settled].frame < frame + samples.count {
                let from = max(start + marks[settled].frame, frame) - frame
                guard let loud = samples[from...].firstIndex(where: Self.isLoud) else { break }
                marks[settled].frame = frame + loud - start
                settled += 1
            }
            guard let last = samples.lastIndex(where: Self.isLoud) else { return }
            if firstSound == nil, let first = samples.firstIndex(where: Self.isLoud) {
                firstSound = frame + first
            }
            lastSound = frame + last + 1
        }
    }

    /// The chunks of a section, from the Contracts chunker.
    static func chunks(section: Int, blocks: [SpokenBlock], settings: ChunkerOptions) -> [SpeechChunk] {
        Chunker(options: settings).chunks(section: section, blocks: blocks)
    }

    static func wordCount(_ text: String) -> Int {
        text.split(whereSeparator: { $0.isWhitespace }).count
    }
}
