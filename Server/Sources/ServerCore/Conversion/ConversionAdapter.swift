import Foundation
import LiveConversion

/// The service's front end of the policy layer (`LiveConversion`): a job's options become the
/// library's `ConversionOptions`, its plan the library's `ConversionDecisions`, and the library
/// decides the rest as it does for the CLI (voice, text language, scripts, cover, title, manifest,
/// playlist, bundle), so the audio is the CLI's byte for byte.
package enum ConversionAdapter {
    /// Why a job cannot be planned or made.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// True when another attempt may succeed (a worker process that died); false for a reason
        /// in the book or the request (`TaskFailure`).
        package var isTransient = false

        package init(description: String, isTransient: Bool = false) {
            self.description = description
            self.isTransient = isTransient
        }
    }

    /// The `epub2audio BOOK --list --json` document, from the same library calls the CLI makes: with
    /// what the `auto` voice can speak of the text read, as the CLI's listing says it.
    package static func listing(bookPath: String, displayName: String) throws -> Data {
        let book = try OpenedBook.open(path: bookPath, options: SectionOptions(tocDepth: nil))
        return try LiveConversion.listing(book, voice: "auto", title: book.displayTitle(fallbackName: displayName))
            .json()
    }

    /// Reads and indexes the book once, and decides what every task of the job uses.
    /// - Throws: `Failure` for a chapter the book does not have, an unknown voice, nothing to read,
    ///   text no voice speaks (the service has no `--force`).
    package static func plan(bookPath: String, displayName: String, options: JobOptions) throws -> JobPlan {
        let book = try OpenedBook.open(path: bookPath, options: SectionOptions(tocDepth: nil))
        var selected = book
        if let chapters = options.chapters {
            let known = Set(book.sections.map(\.number))
            if let unknown = chapters.first(where: { !known.contains($0) }) {
                throw Failure(description: "the book has no section \(unknown) (it has \(book.sections.count))")
            }
            selected = book.choosing(Set(chapters))
        }
        if let nothing = selected.nothingToRead {
            throw Failure(
                description: nothing == .noneSelected
                    ? nothing.description + "; see GET /v1/books/{sha256}, then set chapters" : nothing.description)
        }
        let prepared: PreparedConversion
        do {
            prepared = try LiveConversion.prepare(
                selected, options: try conversionOptions(options, workers: .inProcess), outputDirectory: "")
        } catch let error as LiveConversionError {
            throw Failure(description: error.description)
        }
        if case .unspeakable(let problem, let voice) = prepared.refusal {
            throw Failure(description: problem + (voice.map { " (voice \($0))" } ?? ""))
        }
        let decisions = prepared.decisions
        return JobPlan(
            voice: decisions.voice, sourceOptions: JobPlan.SourceOptions(language: decisions.textLanguage),
            sections: decisions.sections, displayTitle: book.displayTitle(fallbackName: displayName),
            scriptSwitching: decisions.scriptSwitching)
    }

    /// The library request that makes one section of a job into `outputDirectory`, in a fresh worker
    /// process started from `workerExecutable` (the CLI's `worker` protocol).
    package static func sectionRequest(
        bookPath: String, outputDirectory: String, section: Int, options: JobOptions, plan: JobPlan,
        workerExecutable: String, workerArguments: [String]
    ) throws -> ConversionRequest {
        var conversion = try conversionOptions(
            options, workers: .freshProcess(executable: workerExecutable, arguments: workerArguments))
        conversion.jobs = 1
        var request = LiveConversion.request(
            bookPath: bookPath, options: conversion, decisions: decisions(plan), outputDirectory: outputDirectory,
            sections: [section])
        // Each section is made in a folder of its own: its track number is its place among the job's.
        request.trackSections = plan.sections
        // The cover in every section file, as the CLI embeds it. Opening the book reads its package only.
        request.cover = AudiobookCover(
            book: try EPUBBook.open(path: bookPath), ffmpegPath: AudiobookBundler.locateFFmpeg())
        return request
    }

    /// The library's options for a job's: the CLI's defaults for what a job does not set.
    static func conversionOptions(_ options: JobOptions, workers: WorkerProcesses) throws -> ConversionOptions {
        guard let format = AudioFormat(rawValue: options.format) else {
            throw Failure(description: "unknown format \(options.format)")
        }
        guard let notes = SpokenTextOptions.Notes(rawValue: options.notes) else {
            throw Failure(description: "unknown notes mode \(options.notes)")
        }
        guard let engine = EnginePreference(rawValue: options.engine ?? EnginePreference.auto.rawValue) else {
            throw Failure(description: "unknown engine \(options.engine ?? "")")
        }
        return ConversionOptions(
            text: SpokenTextOptions(notes: notes), voice: options.voice, engine: engine, rate: options.rate,
            pitch: options.pitch,
            volume: options.volume, encoding: AudioEncoding(format: format),
            bundle: try audiobookFormat(options), subtitles: try subtitleOptions(options),
            readAlong: options.bundle == readAlongBundle, workers: workers)
    }

    /// `bundle` naming the read-along book (`--bundle epub`) rather than an audiobook file.
    package static let readAlongBundle = "epub"

    /// The audiobook file the job's `bundle` asks for; nil without one or for the read-along book.
    static func audiobookFormat(_ options: JobOptions) throws -> BundleFormat? {
        guard let bundle = options.bundle, bundle != readAlongBundle else { return nil }
        return try bundleFormat(bundle)
    }

    /// The read-along book needs sections in an EPUB core audio type, as the CLI's `--bundle epub`:
    /// `Failure` naming the format otherwise.
    static func checkReadAlongFormat(_ options: JobOptions) throws {
        guard options.bundle == readAlongBundle else { return }
        guard let format = AudioFormat(rawValue: options.format), ReadAlongEPUB.mediaType(for: format) != nil else {
            throw Failure(
                description: "bundle epub needs format mp3 or opus (the EPUB core audio types), not \(options.format)")
        }
    }

    /// The job's subtitles as the library names them; nil without `subtitles`.
    static func subtitleOptions(_ options: JobOptions) throws -> SubtitleOptions? {
        guard let name = options.subtitles else {
            if options.subtitlesWords == true { throw Failure(description: "subtitlesWords needs subtitles vtt") }
            return nil
        }
        guard let format = SubtitleFormat(rawValue: name) else {
            throw Failure(description: "subtitles must be one of srt, vtt")
        }
        let subtitles = SubtitleOptions(format: format, words: options.subtitlesWords == true)
        if let problem = subtitles.problem { throw Failure(description: problem) }
        return subtitles
    }

    /// What the plan decided, as the library names it.
    static func decisions(_ plan: JobPlan) -> ConversionDecisions {
        ConversionDecisions(
            voice: plan.voice, textLanguage: plan.sourceOptions.language, scriptSwitching: plan.scriptSwitching,
            sections: plan.sections, displayTitle: plan.displayTitle)
    }

    /// An audiobook format the CLI's `--bundle` takes.
    static func bundleFormat(_ name: String) throws -> BundleFormat {
        guard let format = BundleFormat(rawValue: name) else {
            let known = (BundleFormat.allCases.map(\.rawValue) + [readAlongBundle]).joined(separator: ", ")
            throw Failure(description: "bundle must be one of \(known)")
        }
        return format
    }

    /// Checks what can be checked without the book: an explicit voice must be installed, an audiobook
    /// bundle needs ffmpeg (`ffmpeg`: where it is, nil when it is not installed), whatever the voice,
    /// and the read-along book MP3 or Opus sections.
    package static func validate(_ options: JobOptions, ffmpeg: String? = AudiobookBundler.locateFFmpeg()) throws {
        if options.voice.lowercased() != "auto" {
            do {
                _ = try LiveVoices.resolve(options.voice)
            } catch {
                throw Failure(description: error.description)
            }
        }
        _ = try subtitleOptions(options)
        try checkReadAlongFormat(options)
        if let format = try audiobookFormat(options) {
            if ffmpeg == nil {
                throw Failure(description: LiveConversionError.ffmpegMissing(format).description + " on the server")
            }
        }
    }

    /// Whether ffmpeg, which bundles need, is installed.
    package static var ffmpegInstalled: Bool { AudiobookBundler.locateFFmpeg() != nil }

    /// The installed voices, sorted as `epub2audio voices` prints them.
    package static func voices() -> [VoiceInfo] { LiveVoices.installed() }

    /// The neural voices of the voices folder (`EPUB2AUDIO_VOICES_DIR`...), by name; folders that are no
    /// readable voice are left out.
    package static func neuralVoices() -> [NeuralVoiceSummary] {
        LiveVoices.neural(in: LiveVoices.neuralFolder()).voices
    }

    /// The environment the section runs use: the live one, reusing the book a process already indexed.
    package static func environment(bookPath: String, cache: IndexCache) throws -> ConversionEnvironment {
        LiveEnvironment.make(reusing: try cache.indexed(path: bookPath))
    }

    /// Puts the sections' files together in `outputDirectory`: the files themselves, a manifest, the
    /// playlist, the subtitles and the bundle when asked for (and the book's subtitles beside it), or
    /// the read-along book; returns the audio length.
    package static func finalize(
        results: [SectionResult], jobDirectory: String, outputDirectory: String, bookPath: String, options: JobOptions,
        plan: JobPlan
    ) async throws -> Double {
        let made = results.map {
            MadeSection(section: $0.section, directory: jobDirectory + "/" + $0.directory, file: $0.file)
        }
        let seconds: Double
        do {
            seconds = try SectionedOutput.merge(made, planned: plan.sections, into: outputDirectory)
        } catch let error as SectionedOutput.MergeError {
            throw Failure(description: error.description)
        }
        let subtitles = try subtitleOptions(options)
        // As the CLI: a section without a timing file gets no subtitles, and the job goes on.
        if let subtitles {
            _ = LiveConversion.subtitles(subtitles, sections: results.map(\.section), directory: outputDirectory)
        }
        // As the CLI: no bundle when a section failed.
        guard results.count == plan.sections.count else { return seconds }
        if options.bundle == readAlongBundle {
            try makeReadAlong(bookPath: bookPath, outputDirectory: outputDirectory, options: options, plan: plan)
        } else if let format = try audiobookFormat(options) {
            guard let ffmpeg = AudiobookBundler.locateFFmpeg() else {
                throw Failure(description: LiveConversionError.ffmpegMissing(format).description + " on the server")
            }
            let book = try OpenedBook.open(path: bookPath, options: SectionOptions(tocDepth: nil))
            let made = try await LiveConversion.bundle(
                AudiobookBundler(format: format, ffmpegPath: ffmpeg), book: book, decisions: decisions(plan),
                directory: outputDirectory, cover: book.cover(ffmpegPath: ffmpeg))
            if let subtitles {
                _ = LiveConversion.bookSubtitles(
                    subtitles, bundleFile: (made.path as NSString).lastPathComponent, sections: plan.sections,
                    directory: outputDirectory)
            }
        }
        return seconds
    }

    /// The read-along book of the job's sections in `outputDirectory` (`LiveConversion.readAlong`, as
    /// `--bundle epub`). Throws `ReadAlongError` (`TaskFailure` classifies it).
    static func makeReadAlong(bookPath: String, outputDirectory: String, options: JobOptions, plan: JobPlan) throws {
        guard let format = AudioFormat(rawValue: options.format) else {
            throw Failure(description: "unknown format \(options.format)")
        }
        let book = try OpenedBook.open(path: bookPath, options: SectionOptions(tocDepth: nil))
        _ = try LiveConversion.readAlong(
            book: book, decisions: decisions(plan), directory: outputDirectory, format: format)
    }
}

/// Books a process has read and indexed, so the sections of a job do not index the book each time.
package final class IndexCache: @unchecked Sendable {
    // @unchecked Sendable: `entries` is only touched under `lock`.
    private let lock = NSLock()
    private var entries: [(path: String, book: IndexedBook)] = []
    private let capacity: Int

    package init(capacity: Int = 4) { self.capacity = capacity }

    /// The book at `path`, indexed with the CLI's default section options.
    package func indexed(path: String) throws -> IndexedBook {
        if let hit = lock.withLock({ entries.first { $0.path == path }?.book }) { return hit }
        let options = SectionOptions(tocDepth: nil)
        let book = try EPUBBook.open(path: path)
        let index = try SectionIndexer.index(book, options: options)
        let indexed = IndexedBook(path: path, book: book, sections: index.sections, options: options)
        lock.withLock {
            entries.insert((path, indexed), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
        return indexed
    }
}
