import Contracts

/// One section to make, sent by the coordinator to a worker as one line of JSON.
package struct WorkerJob: Hashable, Sendable, Codable {
    /// The book, so the worker can build (and cache) its section source.
    package var book: BookInput
    /// The section number.
    package var section: Int
    /// Everything that changes the bytes apart from the text.
    package var settings: AudioSettings
    /// The `.part` file to write, inside the output folder.
    package var partPath: String
    /// What the file is tagged with.
    package var tags: AudioTags
    /// The section's spoken text, when the coordinator sends it (it always does): the worker then
    /// speaks exactly these blocks without opening the book. Nil makes the worker read the book.
    package var blocks: [SpokenBlock]?
    /// The cover to embed in the finished file (`cover.jpg` or `cover.png` in the output folder,
    /// made from the source `settings.coverSHA256` names); nil: none.
    package var coverPath: String?
    /// SHA-256 of the bytes at `coverPath` as the coordinator wrote them: the worker embeds the file
    /// only when it still holds them. Nil: not checked.
    package var coverFileSHA256: String?
    /// Set for one part of a long section (`SectionParts`): the worker speaks only the part's chunks
    /// of the whole section's chunk list, as raw PCM into `partPath` (no tags, no encoder); nil for
    /// a whole section.
    package var part: SectionPart?
    /// The chunks to speak, when the coordinator cut them already (it does for a part: the part's
    /// chunks of the whole section's list, so each part's worker neither receives nor re-chunks the
    /// whole section); `blocks` is then not needed and the result's `textSHA256` is empty.
    package var chunks: [SpeechChunk]?
    /// Report when each chunk is heard (`WorkerResult.chunkTimings`), with the engine's marks; nil: no.
    package var keepsTiming: Bool?

    /// A job for section `section` (one part of it when `part` is set).
    package init(
        book: BookInput, section: Int, settings: AudioSettings, partPath: String, tags: AudioTags,
        blocks: [SpokenBlock]? = nil, coverPath: String? = nil, coverFileSHA256: String? = nil,
        part: SectionPart? = nil, chunks: [SpeechChunk]? = nil, keepsTiming: Bool = false
    ) {
        self.book = book
        self.section = section
        self.settings = settings
        self.partPath = partPath
        self.tags = tags
        self.blocks = blocks
        self.coverPath = coverPath
        self.coverFileSHA256 = coverFileSHA256
        self.part = part
        self.chunks = chunks
        self.keepsTiming = keepsTiming ? true : nil
    }
}

/// What a finished section measured.
package struct WorkerResult: Hashable, Sendable, Codable {
    /// The section number.
    package var section: Int
    /// PCM frames written, silences included.
    package var frames: Int
    /// Sample rate of the file's PCM as the engine made it.
    package var sampleRate: Int
    /// SHA-256 of the spoken text the worker read (`SpokenTextFingerprint`); empty when the job
    /// gave its chunks.
    package var textSHA256: String
    /// Words spoken (the part's, for a part).
    package var words: Int
    /// When each chunk spoken is heard in the file (the part's PCM, for a part), in order; what the
    /// section's timing (`SectionTiming`) is made from. Nil unless the job asked for it (`keepsTiming`).
    package var chunkTimings: [SpokenChunkTiming]?

    /// A result.
    package init(
        section: Int, frames: Int, sampleRate: Int, textSHA256: String, words: Int,
        chunkTimings: [SpokenChunkTiming]? = nil
    ) {
        self.section = section
        self.frames = frames
        self.sampleRate = sampleRate
        self.textSHA256 = textSHA256
        self.words = words
        self.chunkTimings = chunkTimings
    }

    /// Duration in seconds.
    package var durationSeconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

/// When one chunk's speech is heard in the audio a worker made, and what the engine said of it.
package struct SpokenChunkTiming: Hashable, Sendable, Codable {
    /// The first frame the engine made for the chunk (after its pause before).
    package var startFrame: Int
    /// The first frame louder than silence, at or after `startFrame` (`endFrame` when none is).
    package var soundStartFrame: Int
    /// The frame after the last frame louder than silence (`startFrame` when none is): the chunk's
    /// speech ends there, before the engine's own trailing silence and the pause after.
    package var endFrame: Int
    /// The engine's marks, their frames counted from `startFrame`.
    package var marks: [SpeechMark]

    /// A chunk heard from `startFrame` to `endFrame`.
    package init(startFrame: Int, soundStartFrame: Int, endFrame: Int, marks: [SpeechMark]) {
        self.startFrame = startFrame
        self.soundStartFrame = soundStartFrame
        self.endFrame = endFrame
        self.marks = marks
    }

    /// The same timing `frames` later (a part's chunks in the joined section).
    package func shifted(by frames: Int) -> SpokenChunkTiming {
        SpokenChunkTiming(
            startFrame: startFrame + frames, soundStartFrame: soundStartFrame + frames, endFrame: endFrame + frames,
            marks: marks)
    }
}

/// Why a worker could not make a section.
package enum WorkerFailureKind: String, Hashable, Sendable, Codable {
    /// The section itself failed (its text, the engine, the writer); retrying will not help.
    case section
    /// The disk is full: the whole conversion stops.
    case diskFull = "disk-full"
    /// The output cannot be written: the whole conversion stops.
    case unwritable
    /// The worker was asked to stop.
    case cancelled
    /// The job line could not be read.
    case protocolError = "protocol"
}

/// A line a worker writes on its standard output (JSON, one per line, `type` says which).
///
/// `{"type":"progress","section":3,"wordsDone":120,"wordsTotal":900,"frames":220500,"sampleRate":22050}`,
/// `{"type":"done","result":{...}}`, `{"type":"failed","section":3,"kind":"section","message":"...","path":null}`.
package enum WorkerMessage: Hashable, Sendable, Codable {
    case progress(section: Int, wordsDone: Int, wordsTotal: Int, frames: Int, sampleRate: Int)
    case done(WorkerResult)
    case failed(section: Int, kind: WorkerFailureKind, message: String, path: String?)

    private enum CodingKeys: String, CodingKey {
        case type, section, wordsDone, wordsTotal, frames, sampleRate, result, kind, message, path
    }

    /// Decodes a message line; throws on an unknown `type`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "progress":
            self = .progress(
                section: try container.decode(Int.self, forKey: .section),
                wordsDone: try container.decode(Int.self, forKey: .wordsDone),
                wordsTotal: try container.decode(Int.self, forKey: .wordsTotal),
                frames: try container.decode(Int.self, forKey: .frames),
                sampleRate: try container.decode(Int.self, forKey: .sampleRate))
        case "done":
            self = .done(try container.decode(WorkerResult.self, forKey: .result))
        case "failed":
            self = .failed(
                section: try container.decode(Int.self, forKey: .section),
                kind: (try? container.decode(WorkerFailureKind.self, forKey: .kind)) ?? .section,
                message: try container.decodeIfPresent(String.self, forKey: .message) ?? "",
                path: try container.decodeIfPresent(String.self, forKey: .path))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown type \(other)")
        }
    }

    /// Encodes the message as its line's object; `type` says which message it is.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .progress(let section, let wordsDone, let wordsTotal, let frames, let sampleRate):
            try container.encode("progress", forKey: .type)
            try container.encode(section, forKey: .section)
            try container.encode(wordsDone, forKey: .wordsDone)
            try container.encode(wordsTotal, forKey: .wordsTotal)
            try container.encode(frames, forKey: .frames)
            try container.encode(sampleRate, forKey: .sampleRate)
        case .done(let result):
            try container.encode("done", forKey: .type)
            try container.encode(result, forKey: .result)
        case .failed(let section, let kind, let message, let path):
            try container.encode("failed", forKey: .type)
            try container.encode(section, forKey: .section)
            try container.encode(kind, forKey: .kind)
            try container.encode(message, forKey: .message)
            try container.encode(path, forKey: .path)
        }
    }
}
