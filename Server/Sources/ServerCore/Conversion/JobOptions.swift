import Foundation
import LiveConversion

/// A job's conversion options, with the CLI's defaults filled in: the same body means the same job.
///
/// The names and defaults are the CLI's flags (`--chapters`, `--voice`, `--rate`, `--pitch`, `--volume`,
/// `--format`, `--notes`, `--bundle`, `--subtitles`, `--subtitles-words`); `ConversionAdapter` turns them into the
/// library's request.
package struct JobOptions: Sendable, Equatable, Codable {
    /// Section numbers as `--list` shows them; nil: the sections the book text includes.
    package var chapters: [Int]?
    package var voice: String = "auto"
    /// `--engine` (`auto`, `espeak`, `neural`); nil: `auto` (left out of the JSON, so that jobs from before
    /// it existed keep their canonical form).
    package var engine: String?
    package var rate: Int = 175
    package var pitch: Int = 50
    package var volume: Int = 100
    package var format: String = "wav"
    package var notes: String = "skip"
    package var bundle: String?
    /// `--subtitles` (`srt`, `vtt`); nil: none. Left out of the JSON when nil, as `engine`.
    package var subtitles: String?
    /// `--subtitles-words`; nil: false (left out of the JSON, as `engine`).
    package var subtitlesWords: Bool?

    package init(
        chapters: [Int]? = nil, voice: String = "auto", engine: String? = nil, rate: Int = 175, pitch: Int = 50,
        volume: Int = 100,
        format: String = "wav", notes: String = "skip", bundle: String? = nil, subtitles: String? = nil,
        subtitlesWords: Bool? = nil
    ) {
        self.chapters = chapters
        self.voice = voice
        self.engine = engine
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.format = format
        self.notes = notes
        self.bundle = bundle
        self.subtitles = subtitles
        self.subtitlesWords = subtitlesWords == true ? true : nil
    }

    /// Sorted-keys JSON: what the store keeps and compares.
    package var canonicalJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var normalised = self
        normalised.chapters = chapters.map { Array(Set($0)).sorted() }
        if subtitlesWords != true { normalised.subtitlesWords = nil }
        // Encoding plain values cannot fail.
        return String(decoding: (try? encoder.encode(normalised)) ?? Data(), as: UTF8.self)
    }

    /// Decodes what `canonicalJSON` wrote.
    package static func decode(_ json: String) throws -> JobOptions {
        try JSONDecoder().decode(JobOptions.self, from: Data(json.utf8))
    }
}

/// What planning decided for a job, once, from the book: every task then uses it. Stored as JSON in
/// the job's row.
package struct JobPlan: Sendable, Equatable, Codable {
    /// The engine voice, resolved (never `auto`).
    package var voice: String
    /// How the book's text is read, where planning departs from the defaults.
    package var sourceOptions: SourceOptions
    /// The sections to make, in book order.
    package var sections: [Int]
    /// The title the CLI shows and bundles under.
    package var displayTitle: String
    /// Runs of scripts the voice cannot speak, read by other voices (`SpeakableText`); nil: none.
    package var scriptSwitching: ScriptSwitching?

    package init(
        voice: String, sourceOptions: SourceOptions = SourceOptions(), sections: [Int], displayTitle: String,
        scriptSwitching: ScriptSwitching? = nil
    ) {
        self.voice = voice
        self.sourceOptions = sourceOptions
        self.sections = sections
        self.displayTitle = displayTitle
        self.scriptSwitching = scriptSwitching
    }

    /// The text options planning decides for every section of the job, as the CLI decides them for a
    /// run (the library's `SpokenTextOptions`).
    ///
    /// Its JSON is the object the plans of earlier versions stored as a `[String: String]`
    /// (`{}` or `{"language": "it"}`): their rows read as they are, and theirs read ours.
    package struct SourceOptions: Sendable, Equatable, Codable {
        /// The language the text is read in (a primary subtag, "it"), when not the book's
        /// `dc:language`: the book's documents contradict it, or the voice was chosen from the text
        /// for want of one for the book's language. Nil: the book's own.
        package var language: String?

        package init(language: String? = nil) {
            self.language = language
        }
    }
}
