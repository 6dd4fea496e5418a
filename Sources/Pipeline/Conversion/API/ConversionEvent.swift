/// Totals of a finished conversion.
public struct ConversionSummary: Hashable, Sendable, Codable {
    /// Sections made in this run.
    public var sectionsDone: Int
    /// Sections that failed in this run.
    public var sectionsFailed: Int
    /// Selected sections left as they were because the manifest showed them done and unchanged.
    public var sectionsSkipped: Int
    /// Total duration of the selected sections' files that exist now (made or skipped).
    public var audioSeconds: Double
    /// Time the run took.
    public var wallSeconds: Double

    /// Totals of a run.
    public init(sectionsDone: Int, sectionsFailed: Int, sectionsSkipped: Int, audioSeconds: Double, wallSeconds: Double)
    {
        self.sectionsDone = sectionsDone
        self.sectionsFailed = sectionsFailed
        self.sectionsSkipped = sectionsSkipped
        self.audioSeconds = audioSeconds
        self.wallSeconds = wallSeconds
    }
}

/// What a conversion reports while it runs, in order; `bookDone` is always last on success.
///
/// Encodes as one flat JSON object with an `event` key (see `jsonLine` and docs/library-api.md).
public enum ConversionEvent: Hashable, Sendable, Codable {
    /// The plan: the book's title, how many sections are selected, their words.
    case bookStarted(title: String, sections: Int, words: Int)
    /// A section is being made.
    case sectionStarted(section: Int, title: String)
    /// Progress inside a section (at most a few per second per section).
    case progress(section: Int, wordsDone: Int, wordsTotal: Int, audioSeconds: Double)
    /// A section's file is complete; `skipped` when it was already done and left as it was.
    case sectionDone(section: Int, file: String, durationSeconds: Double, words: Int, bytes: Int64, skipped: Bool)
    /// Something worth telling that did not stop anything.
    case warning(message: String)
    /// A section failed (the conversion goes on), or, with no section, a problem with the whole run.
    case error(section: Int?, message: String)
    /// The end.
    case bookDone(ConversionSummary)
    /// `--bundle`: ffmpeg has encoded `audioSeconds` of the bundle's `totalSeconds` (from 0 when it
    /// starts; about twice a second). Only after `bookDone`, and only when a bundle is (re)made.
    case bundleProgress(file: String, audioSeconds: Double, totalSeconds: Double)
    /// `--bundle`: the bundle is complete (`rebuilt` false: it was up to date and left alone).
    case bundleDone(file: String, chapters: Int, rebuilt: Bool)

    /// The `event` name in JSON.
    public var name: String {
        switch self {
        case .bookStarted: "book-started"
        case .sectionStarted: "section-started"
        case .progress: "progress"
        case .sectionDone: "section-done"
        case .warning: "warning"
        case .error: "error"
        case .bookDone: "book-done"
        case .bundleProgress: "bundle-progress"
        case .bundleDone: "bundle-done"
        }
    }

    /// One line of JSON (no trailing newline), keys sorted: `{"event":"section-done","section":3,...}`.
    public var jsonLine: String { CanonicalJSON.line(self) }

    private enum CodingKeys: String, CodingKey {
        case event, title, sections, words, section, wordsDone, wordsTotal, audioSeconds, file, durationSeconds
        case bytes, skipped, message, sectionsDone, sectionsFailed, sectionsSkipped, wallSeconds
        case totalSeconds, chapters, rebuilt
    }

    /// Encodes the event as its JSON line's object (`event` names it; see docs/library-api.md).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .event)
        switch self {
        case .bookStarted(let title, let sections, let words):
            try container.encode(title, forKey: .title)
            try container.encode(sections, forKey: .sections)
            try container.encode(words, forKey: .words)
        case .sectionStarted(let section, let title):
            try container.encode(section, forKey: .section)
            try container.encode(title, forKey: .title)
        case .progress(let section, let wordsDone, let wordsTotal, let audioSeconds):
            try container.encode(section, forKey: .section)
            try container.encode(wordsDone, forKey: .wordsDone)
            try container.encode(wordsTotal, forKey: .wordsTotal)
            try container.encode(audioSeconds, forKey: .audioSeconds)
        case .sectionDone(let section, let file, let durationSeconds, let words, let bytes, let skipped):
            try container.encode(section, forKey: .section)
            try container.encode(file, forKey: .file)
            try container.encode(durationSeconds, forKey: .durationSeconds)
            try container.encode(words, forKey: .words)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(skipped, forKey: .skipped)
        case .warning(let message):
            try container.encode(message, forKey: .message)
        case .error(let section, let message):
            try container.encode(section, forKey: .section)
            try container.encode(message, forKey: .message)
        case .bookDone(let summary):
            try container.encode(summary.sectionsDone, forKey: .sectionsDone)
            try container.encode(summary.sectionsFailed, forKey: .sectionsFailed)
            try container.encode(summary.sectionsSkipped, forKey: .sectionsSkipped)
            try container.encode(summary.audioSeconds, forKey: .audioSeconds)
            try container.encode(summary.wallSeconds, forKey: .wallSeconds)
        case .bundleProgress(let file, let audioSeconds, let totalSeconds):
            try container.encode(file, forKey: .file)
            try container.encode(audioSeconds, forKey: .audioSeconds)
            try container.encode(totalSeconds, forKey: .totalSeconds)
        case .bundleDone(let file, let chapters, let rebuilt):
            try container.encode(file, forKey: .file)
            try container.encode(chapters, forKey: .chapters)
            try container.encode(rebuilt, forKey: .rebuilt)
        }
    }

    /// Decodes an event from its JSON line; throws on an unknown `event`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .event) {
        case "book-started":
            self = .bookStarted(
                title: try container.decode(String.self, forKey: .title),
                sections: try container.decode(Int.self, forKey: .sections),
                words: try container.decode(Int.self, forKey: .words))
        case "section-started":
            self = .sectionStarted(
                section: try container.decode(Int.self, forKey: .section),
                title: try container.decode(String.self, forKey: .title))
        case "progress":
            self = .progress(
                section: try container.decode(Int.self, forKey: .section),
                wordsDone: try container.decode(Int.self, forKey: .wordsDone),
                wordsTotal: try container.decode(Int.self, forKey: .wordsTotal),
                audioSeconds: try container.decode(Double.self, forKey: .audioSeconds))
        case "section-done":
            self = .sectionDone(
                section: try container.decode(Int.self, forKey: .section),
                file: try container.decode(String.self, forKey: .file),
                durationSeconds: try container.decode(Double.self, forKey: .durationSeconds),
                words: try container.decode(Int.self, forKey: .words),
                bytes: try container.decode(Int64.self, forKey: .bytes),
                skipped: try container.decodeIfPresent(Bool.self, forKey: .skipped) ?? false)
        case "warning":
            self = .warning(message: try container.decode(String.self, forKey: .message))
        case "error":
            self = .error(
                section: try container.decodeIfPresent(Int.self, forKey: .section),
                message: try container.decode(String.self, forKey: .message))
        case "book-done":
            self = .bookDone(
                ConversionSummary(
                    sectionsDone: try container.decode(Int.self, forKey: .sectionsDone),
                    sectionsFailed: try container.decode(Int.self, forKey: .sectionsFailed),
                    sectionsSkipped: try container.decode(Int.self, forKey: .sectionsSkipped),
                    audioSeconds: try container.decode(Double.self, forKey: .audioSeconds),
                    wallSeconds: try container.decode(Double.self, forKey: .wallSeconds)))
        case "bundle-progress":
            self = .bundleProgress(
                file: try container.decode(String.self, forKey: .file),
                audioSeconds: try container.decode(Double.self, forKey: .audioSeconds),
                totalSeconds: try container.decode(Double.self, forKey: .totalSeconds))
        case "bundle-done":
            self = .bundleDone(
                file: try container.decode(String.self, forKey: .file),
                chapters: try container.decode(Int.self, forKey: .chapters),
                rebuilt: try container.decode(Bool.self, forKey: .rebuilt))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .event, in: container, debugDescription: "unknown event \(other)")
        }
    }
}
