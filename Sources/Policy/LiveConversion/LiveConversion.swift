import Bundling
import Foundation
import NeuralEngine
import Normalization
import ReadAlong

/// What converting a book means, decided once for every front end: the CLI and the service open the
/// book (`OpenedBook`), fill `ConversionOptions` from their flags or JSON, and call `prepare`; then
/// `run`, `exportText` or `bundle`. They only map their inputs to the options, and the events and
/// errors to their output.
public enum LiveConversion {
    /// Decides what a conversion of `book` into `outputDirectory` is: the voice (`auto` resolved),
    /// the language the text is read in, the scripts other voices read, the cover, and the library
    /// request that carries them.
    ///
    /// Most of the text in scripts no voice speaks does not throw: the caller checks `refusal` after
    /// saying the voice's warnings.
    ///
    /// - Parameters:
    ///   - book: the book, opened once by the caller.
    ///   - options: what the front end was asked (flags or a job's options).
    ///   - outputDirectory: where the section files go.
    ///   - forText: the request is for `exportText` (`--text`): nothing is spoken or written as
    ///     audio, so neither the voice's coverage of the text nor the format is checked.
    /// - Returns: the decisions and the request, ready to run.
    /// - Throws: `LiveConversionError.unknownVoice`; `.formatUnavailable` when libsndfile cannot
    ///   write the format; `.unsupportedSetting` for a pitch other than 50 with a neural voice;
    ///   `.engineMismatch`, `.noNeuralVoice` for what `options.engine` asks (`VoiceChoice.resolve`);
    ///   `.readAlongRefused` when `options.readAlong` and the book or the format cannot give one.
    public static func prepare(
        _ book: OpenedBook, options: ConversionOptions, outputDirectory: String, forText: Bool = false
    ) throws(LiveConversionError) -> PreparedConversion {
        let voice = try VoiceChoice.resolve(options.voice, engine: options.engine, for: book)
        var decisions = ConversionDecisions(
            voice: voice.voice.identifier, textLanguage: voice.textLanguage(for: book), scriptSwitching: nil,
            sections: book.selectedSections.map(\.number), displayTitle: book.displayTitle)
        guard !forText else {
            return PreparedConversion(
                book: book, options: options, voice: voice, decisions: decisions, speech: nil, cover: nil,
                request: request(
                    bookPath: book.path, options: options, decisions: decisions, outputDirectory: outputDirectory))
        }
        if !LiveAudio.canWrite(options.encoding.format) { throw .formatUnavailable(options.encoding.format) }
        if let problem = options.subtitles?.problem { throw .unsupportedSetting(problem) }
        // Refused before any audio is made: the read-along book needs EPUB 3 and a core audio type.
        if options.readAlong {
            do throws(ReadAlongError) {
                try ReadAlongEPUB.check(book.book.package, format: options.encoding.format)
            } catch {
                throw .readAlongRefused(error)
            }
        }
        // Refused here, before any folder is made, rather than by every section's engine.
        if !voice.capabilities.controlsPitch, options.pitch != 50 {
            throw .unsupportedSetting("the neural voice \(decisions.voice) has no pitch control: leave the pitch at 50")
        }
        let speech = voice.speakableText(of: book)
        decisions.scriptSwitching = speech?.switching
        // Read from the book once: embedded in the section files, written beside them, and bundled.
        let cover = book.cover()
        var request = request(
            bookPath: book.path, options: options, decisions: decisions, outputDirectory: outputDirectory)
        if options.embedsCover { request.cover = cover }
        return PreparedConversion(
            book: book, options: options, voice: voice, decisions: decisions, speech: speech, cover: cover,
            request: request)
    }

    /// The library request for `decisions` made with `options`: every section of `decisions`, or only
    /// `sections` (the service makes each in a run of its own).
    public static func request(
        bookPath: String, options: ConversionOptions, decisions: ConversionDecisions, outputDirectory: String,
        sections: [Int]? = nil
    ) -> ConversionRequest {
        var text = options.text
        if let language = decisions.textLanguage { text.language = language }
        let bookOptions = BookOptions(
            sections: options.sections, text: text, normalize: options.normalize,
            lexiconPath: options.lexiconPath.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        var request = ConversionRequest(
            bookPath: bookPath, outputDirectory: outputDirectory, selection: .numbers(sections ?? decisions.sections),
            voice: VoiceSettings(
                voice: decisions.voice, rate: options.rate, pitch: options.pitch, volume: options.volume),
            encoding: options.encoding, bookOptions: bookOptions, jobs: options.jobs, force: options.force,
            allowNonEmptyOutput: options.allowNonEmptyOutput)
        request.chunking.scriptSwitching = decisions.scriptSwitching
        request.workerExecutable = options.workers.executable
        if options.workers.executable != nil { request.workerArguments = options.workers.arguments }
        request.workerForksPerJob = options.workers.forksPerJob
        // Subtitles and the read-along book are made from each section's timing file.
        request.keepsTiming = options.subtitles != nil || options.readAlong
        return request
    }

    /// The listing of `book` (`--list --json`, `GET /v1/books/{sha256}`), with what the voice a
    /// conversion with `voice` would use can speak of it (nil when that voice is not installed);
    /// `title`: the book's display title when nil (the service names a book without one by its hash).
    public static func listing(
        _ book: OpenedBook, voice: String, engine: EnginePreference = .auto, title: String? = nil
    ) -> SectionListing {
        var listing = book.listing(title: title, speech: speakableText(of: book, voice: voice, engine: engine))
        listing.estimate = estimate(of: book)
        return listing
    }

    /// What converting the sections `book` reads with `options` writes (`OutputEstimate`): the audio's
    /// length from the text as the conversion would speak it (`SpokenLength`: the same text options,
    /// normalisation and chunking, at `options.rate`), in `options.encoding`, with `options.bundle`,
    /// and with the book's cover embedded in each section file when `options.embedsCover`. The cover
    /// is counted as the book holds it: JPEG and PNG are embedded as they are, other pictures are
    /// converted by ffmpeg to a size of the same order (not worth running ffmpeg for an estimate).
    /// With `options.readAlong`, the read-along book (`--bundle epub`), which holds the section files
    /// and the book. A book whose text cannot be read ahead is estimated from its words.
    public static func estimate(of book: OpenedBook, options: ConversionOptions = ConversionOptions()) -> OutputEstimate
    {
        let cover = options.embedsCover ? (AudiobookCover(book: book.book, ffmpegPath: nil)?.data.count ?? 0) : 0
        let read = book.sections.filter(\.included).map(\.number)
        let estimate: OutputEstimate
        if let lengths = spokenLengths(of: book, sections: read, options: options) {
            estimate = OutputEstimate(
                // In book order: a dictionary's order changes from one process to the next, and so
                // would the last digit of the sum (the CLI's and the service's listings must be equal).
                length: read.compactMap { lengths[$0] }.reduce(SpokenLength(), +), sections: read.count,
                encoding: options.encoding,
                bundle: options.bundle, coverBytes: cover)
        } else {
            estimate = OutputEstimate(
                totals: ReadingTotals(sections: book.sections), wordsPerMinute: options.rate,
                encoding: options.encoding, bundle: options.bundle, coverBytes: cover)
        }
        guard options.readAlong else { return estimate }
        let bookBytes = (try? FileManager.default.attributesOfItem(atPath: book.path)[.size] as? Int) ?? 0
        return estimate.addingReadAlong(bookBytes: Int64(bookBytes))
    }

    /// The audio of each of `sections` (`SpokenLength`), read from the book already opened; nil when
    /// a section's text cannot be read.
    private static func spokenLengths(of book: OpenedBook, sections: [Int], options: ConversionOptions)
        -> [Int: SpokenLength]?
    {
        guard !sections.isEmpty else { return [:] }
        let decisions = ConversionDecisions(
            voice: options.voice, textLanguage: book.textLanguage, scriptSwitching: nil, sections: sections,
            displayTitle: book.displayTitle)
        let request = request(bookPath: book.path, options: options, decisions: decisions, outputDirectory: "")
        return try? SpokenLength.sections(of: request, environment: LiveEnvironment.make(reusing: book.indexed))
    }

    /// Checks a pronunciation lexicon (`--lexicon`) before any book is read.
    /// - Throws: `LexiconError` naming the line that is not `written = spoken`, or the file's error.
    public static func checkLexicon(path: String) throws {
        _ = try Lexicon.load(path: path)
    }

    /// What the voice a conversion with `voice` (a name, a language or `auto`) and `engine` would read
    /// `book` in can speak of it; nil when that voice is not installed.
    public static func speakableText(
        of book: OpenedBook, voice: String, engine: EnginePreference = .auto
    ) -> SpeakableTextReport? {
        (try? VoiceChoice.resolve(voice, engine: engine, for: book))?.speakableText(of: book)
    }

    /// The audiobook of the sections `decisions` made in `directory` (`AudiobookBundler.bundle`):
    /// titled and narrated as the decisions say, in the language the text is read in.
    public static func bundle(
        _ bundler: AudiobookBundler, book: OpenedBook, decisions: ConversionDecisions, directory: String,
        cover: AudiobookCover?, progress: @escaping @Sendable (BundleProgress) -> Void = { _ in }
    ) async throws -> BundleResult {
        try await bundler.bundle(
            directory: directory, numbers: decisions.sections, metadata: metadata(book, decisions), cover: cover,
            progress: progress)
    }

    /// Writes `options`' subtitles beside the audio of each finished section of `sections` in
    /// `directory`, from the timing files there: the sections a run just made and those an earlier
    /// run finished alike. A section without a timing file (made by an older version) gets a warning,
    /// not a file; so does a file that cannot be written: the audio stands whatever happens here.
    public static func subtitles(_ options: SubtitleOptions, sections: [Int], directory: String) -> SubtitleResult {
        do {
            return try SubtitleFiles.write(directory: directory, numbers: sections, options: options)
        } catch {
            return SubtitleResult(warnings: ["the subtitles were not written: \(error)"])
        }
    }

    /// The whole book's subtitles beside its audiobook `bundleFile` (same name, the subtitle
    /// extension), each section at its start in the bundle; warnings as `subtitles`.
    public static func bookSubtitles(
        _ options: SubtitleOptions, bundleFile: String, sections: [Int], directory: String
    ) -> SubtitleResult {
        let name = SubtitleFiles.fileName(replacingExtensionOf: bundleFile, format: options.format)
        do {
            return try SubtitleFiles.writeBook(
                directory: directory, numbers: sections, options: options, fileName: name)
        } catch {
            return SubtitleResult(warnings: ["the book's subtitles were not written: \(error)"])
        }
    }

    /// The read-along book of the sections `decisions` made in `directory` from `book` in `format`
    /// (`ReadAlongEPUB.make`), named after the decided title and the book's authors: what the service
    /// calls once a job's sections are put together (`SectionedOutput.merge`).
    /// - Throws: `ReadAlongError`, `ConversionError` (the folder).
    public static func readAlong(
        book: OpenedBook, decisions: ConversionDecisions, directory: String, format: AudioFormat,
        modified: Date = Date()
    ) throws -> ReadAlongResult {
        try ReadAlongEPUB.make(
            bookPath: book.path, directory: directory, numbers: decisions.sections, title: decisions.displayTitle,
            authors: book.book.package.metadata.authors, format: format, modified: modified)
    }

    /// The audiobook's tags: the decided title, the voice as narrator, the language the text is read in.
    static func metadata(_ book: OpenedBook, _ decisions: ConversionDecisions) -> AudiobookMetadata {
        AudiobookMetadata(
            book: book.book, title: decisions.displayTitle, narrator: LiveVoices.narrator(voice: decisions.voice),
            language: book.textLanguage)
    }
}

/// A conversion decided (`LiveConversion.prepare`), ready to run.
public struct PreparedConversion {
    /// The book, opened and indexed once.
    public let book: OpenedBook
    /// What was asked.
    public let options: ConversionOptions
    /// The voice, and why when `auto` could not follow the book's language.
    public let voice: VoiceChoice
    /// What was decided from the book.
    public let decisions: ConversionDecisions
    /// What the voice can speak of the text (nil for a text export, or when not assessed): runs of
    /// other scripts other voices read (`switches`), the share none speaks (`problem`).
    public let speech: SpeakableTextReport?
    /// The book's cover, embedded when `options.embedsCover` and written beside the section files.
    public let cover: AudiobookCover?
    /// The library request.
    public var request: ConversionRequest

    /// `LiveConversionError.unspeakable` when most of the text is in scripts no installed voice
    /// speaks and `options.force` is not set: the conversion must not run.
    public var refusal: LiveConversionError? {
        guard let speech, speech.refuses, !options.force, let problem = speech.problem else { return nil }
        return .unspeakable(problem: problem, suggestedVoice: speech.suggestedVoice)
    }

    /// What the conversion's tasks take with them: everything but the book, which stays with the caller.
    public var runnable: RunnableConversion {
        RunnableConversion(
            request: request, indexed: book.indexed, cover: cover,
            metadata: LiveConversion.metadata(book, decisions), sections: decisions.sections,
            subtitles: options.subtitles)
    }
}

/// A prepared conversion's request and what its run, its text export and its bundle need, free to
/// cross into a task (`PreparedConversion.runnable`).
public struct RunnableConversion: Sendable {
    /// The library request.
    public let request: ConversionRequest
    /// The book the coordinator reuses instead of indexing it again.
    let indexed: IndexedBook
    /// The book's cover, written beside the section files (and embedded when the request says so).
    public let cover: AudiobookCover?
    /// The audiobook's tags.
    let metadata: AudiobookMetadata
    /// The sections an audiobook of this conversion holds.
    let sections: [Int]
    /// The subtitles asked for; nil: none.
    public let subtitles: SubtitleOptions?

    /// Runs the conversion with the live parts, reusing the book's index; see `Converter.run`.
    public func run(onEvent: @escaping @Sendable (ConversionEvent) -> Void = { _ in }) async throws
        -> ConversionSummary
    {
        try await Converter(environment: LiveEnvironment.make(reusing: indexed)).run(request, onEvent: onEvent)
    }

    /// `--text`: the exact text each selected section would speak, as `.txt` files; their names.
    public func exportText() throws -> [String] {
        try TextExport.run(request, environment: LiveEnvironment.make(reusing: indexed))
    }

    /// Writes `cover.jpg` (or `.png`) beside the section files, or removes a stale one when the book
    /// has none; returns a warning when it cannot (the audio is all there).
    public func updateFolderCover() -> String? {
        do {
            try AudiobookCover.updateFolderCover(cover, in: request.outputDirectory)
            return nil
        } catch {
            return "the cover was not written: \(error)"
        }
    }

    /// Writes the subtitles asked for beside each finished section's audio (`LiveConversion.subtitles`);
    /// nothing without `subtitles`.
    public func writeSubtitles() -> SubtitleResult {
        guard let subtitles else { return SubtitleResult() }
        return LiveConversion.subtitles(subtitles, sections: sections, directory: request.outputDirectory)
    }

    /// The whole book's subtitles beside its audiobook in `format` (`LiveConversion.bookSubtitles`);
    /// nothing without `subtitles`.
    public func writeBookSubtitles(_ format: BundleFormat) -> SubtitleResult {
        guard let subtitles else { return SubtitleResult() }
        return LiveConversion.bookSubtitles(
            subtitles, bundleFile: bundleFileName(format), sections: sections, directory: request.outputDirectory)
    }

    /// The audiobook's file name in the output folder for `format`.
    public func bundleFileName(_ format: BundleFormat) -> String {
        AudiobookBundler.fileName(for: metadata, format: format)
    }

    /// The read-along book's file name in the output folder (`Title - Author (read-along).epub`).
    public var readAlongFileName: String {
        ReadAlongEPUB.fileName(title: metadata.title, authors: metadata.authors)
    }

    /// The read-along book of the converted sections (`--bundle epub`, `ReadAlongEPUB.make`), once
    /// they are all made: a copy of the book with their audio and sentence timing.
    /// - Throws: `ReadAlongError`, `ConversionError` (the folder).
    public func makeReadAlong(modified: Date = Date()) throws -> ReadAlongResult {
        try ReadAlongEPUB.make(
            bookPath: request.bookPath, directory: request.outputDirectory, numbers: sections,
            title: metadata.title, authors: metadata.authors, format: request.encoding.format, modified: modified)
    }

    /// The audiobook of the converted sections (`--bundle`), once they are all made.
    public func bundle(
        _ bundler: AudiobookBundler, progress: @escaping @Sendable (BundleProgress) -> Void = { _ in }
    ) async throws -> BundleResult {
        try await bundler.bundle(
            directory: request.outputDirectory, numbers: sections, metadata: metadata, cover: cover,
            progress: progress)
    }
}
