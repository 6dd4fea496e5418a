import AudioFiles
import BookText
import Contracts
import Conversion
import EPUBReader
import ESpeakEngine
import Foundation

/// The one place the server builds the library's requests from a job's options, as the CLI builds
/// them from its flags (Sources/CLI/epub2audio/ConvertCommand+Run.swift): same voice resolution,
/// same section selection, same source options, so the audio is the CLI's byte for byte.
package enum ConversionAdapter {
    /// Why a job cannot be planned or made.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The `epub2audio BOOK --list --json` document, from the same library calls the CLI makes.
    package static func listing(bookPath: String, displayName: String) throws -> Data {
        let book = try EPUBBook.open(path: bookPath)
        let index = try SectionIndexer.index(book, options: SectionOptions(tocDepth: nil))
        let mismatch = BookLanguage.mismatch(in: book)
        var seen = Set<EPUBWarning>()
        let warnings =
            (book.package.warnings + book.lookupWarnings + index.warnings
            + (mismatch.map { [$0.warning] } ?? [])).filter { seen.insert($0).inserted }
        let textLanguage = BookLanguage.textLanguage(of: index, mismatch: mismatch)
        var listing = SectionListing(
            package: book.package, title: displayTitle(book, name: displayName), sections: index.sections,
            warnings: warnings, textLanguage: textLanguage)
        // What the `auto` voice can speak of the text read, as the CLI's listing says it.
        if let (voice, _) = try? resolvedVoice("auto", book: book, sections: index.sections, textLanguage: textLanguage)
        {
            listing.speech = SpeakableText.assess(
                index.sections, voice: voice, installed: ESpeakSpeechEngine.installedVoices(),
                bookLanguage: textLanguage ?? book.package.metadata.languages.first, share: speechShare)
        }
        return try listing.json()
    }

    /// Reads and indexes the book once, and decides what every task of the job uses.
    /// - Throws: `Failure` for a chapter the book does not have, an unknown voice, nothing to read.
    package static func plan(bookPath: String, displayName: String, options: JobOptions) throws -> JobPlan {
        let book = try EPUBBook.open(path: bookPath)
        let index = try SectionIndexer.index(book, options: SectionOptions(tocDepth: nil))
        var sections = index.sections
        if let chapters = options.chapters {
            let known = Set(sections.map(\.number))
            if let unknown = chapters.first(where: { !known.contains($0) }) {
                throw Failure(description: "the book has no section \(unknown) (it has \(sections.count))")
            }
            let wanted = Set(chapters)
            for position in sections.indices {
                sections[position].included = wanted.contains(sections[position].number)
            }
        }
        let selected = sections.filter(\.included)
        if selected.isEmpty {
            throw Failure(
                description: sections.contains { $0.words > 0 }
                    ? "no section is selected for reading; see GET /v1/books/{sha256}, then set chapters"
                    : "the book has no text to read (image-only pages?)")
        }
        if options.chapters == nil && selected.allSatisfy({ $0.words == 0 }) {
            throw Failure(description: "the selected sections have no text to read")
        }
        let mismatch = BookLanguage.mismatch(in: book)
        let textLanguage = BookLanguage.textLanguage(of: index, mismatch: mismatch)
        let (voice, followsText) = try resolvedVoice(
            options.voice, book: book, sections: sections, textLanguage: textLanguage)
        var source = JobPlan.SourceOptions()
        if mismatch != nil || followsText, let language = voice.languages.first {
            source.language = String(language.prefix { $0 != "-" })
        }
        // What the voice cannot speak, decided as the CLI decides it: runs of other scripts go to the
        // voices that speak them; a book most of whose text no voice speaks is refused (the service
        // has no --force).
        let speakable = SpeakableText.assess(
            sections, voice: voice, installed: ESpeakSpeechEngine.installedVoices(),
            bookLanguage: textLanguage ?? book.package.metadata.languages.first, share: speechShare)
        if speakable.refuses, let problem = speakable.problem {
            throw Failure(description: problem + (speakable.suggestedVoice.map { " (voice \($0))" } ?? ""))
        }
        return JobPlan(
            voice: voice.identifier, sourceOptions: source, sections: selected.map(\.number),
            displayTitle: displayTitle(book, name: displayName), scriptSwitching: speakable.switching)
    }

    /// How well an installed voice speaks a script, asked of espeak-ng (`SpeakableText.Share`).
    private static func speechShare(_ voice: VoiceInfo, _ script: Script) -> Double {
        ESpeakSpeechEngine.share(of: script, spokenBy: voice)
    }

    /// The library request that makes one section of a job into `outputDirectory`, in a fresh worker
    /// process started from `workerExecutable` (the CLI's `worker` protocol).
    package static func sectionRequest(
        bookPath: String, outputDirectory: String, section: Int, options: JobOptions, plan: JobPlan,
        workerExecutable: String, workerArguments: [String]
    ) throws -> ConversionRequest {
        guard let format = AudioFormat(rawValue: options.format) else {
            throw Failure(description: "unknown format \(options.format)")
        }
        guard let notes = SpokenTextOptions.Notes(rawValue: options.notes) else {
            throw Failure(description: "unknown notes mode \(options.notes)")
        }
        // The options the CLI's flags give, with the language the plan chose when dc:language is contradicted.
        var text = SpokenTextOptions(notes: notes)
        text.language = plan.sourceOptions.language
        var request = ConversionRequest(
            bookPath: bookPath, outputDirectory: outputDirectory, selection: .numbers([section]),
            voice: VoiceSettings(voice: plan.voice, rate: options.rate, pitch: options.pitch, volume: options.volume),
            encoding: AudioEncoding(format: format), chunking: ChunkerOptions(scriptSwitching: plan.scriptSwitching),
            bookOptions: BookOptions(sections: SectionOptions(tocDepth: nil), text: text), jobs: 1)
        request.workerExecutable = workerExecutable
        request.workerArguments = workerArguments
        request.workerForksPerJob = false
        // Each section is made in a folder of its own: its track number is its place among the job's.
        request.trackSections = plan.sections
        // The cover in every section file, as the CLI embeds it (the same bytes: JPEG or PNG as it is,
        // another raster converted by ffmpeg when installed). Opening the book reads its package only.
        request.cover = AudiobookCover(
            book: try EPUBBook.open(path: bookPath), ffmpegPath: AudiobookBundler.locateFFmpeg())
        return request
    }

    /// Checks what can be checked without the book: an explicit voice must be installed.
    package static func validate(_ options: JobOptions) throws {
        guard options.voice.lowercased() != "auto" else { return }
        do {
            _ = try ESpeakSpeechEngine.resolveVoice(
                options.voice, installed: ESpeakSpeechEngine.installedVoices(),
                variants: ESpeakSpeechEngine.installedVariants())
        } catch {
            throw Failure(description: "\(error)")
        }
        if options.bundle != nil, AudiobookBundler.locateFFmpeg() == nil {
            throw Failure(description: "bundle needs ffmpeg, which is not installed on the server")
        }
    }

    /// The installed voices, sorted as `epub2audio voices` prints them.
    package static func voices() -> [VoiceInfo] {
        ESpeakSpeechEngine.installedVoices().sorted {
            ($0.languages.first ?? "", $0.name) < ($1.languages.first ?? "", $1.name)
        }
    }

    /// The environment the section runs use: the live one, reusing the book a process already indexed.
    package static func environment(bookPath: String, cache: IndexCache) throws -> ConversionEnvironment {
        liveEnvironment(reusing: try cache.indexed(path: bookPath))
    }

    /// The server's composition root, the CLI's parts: the library's EPUB source, espeak-ng in
    /// process, the libsndfile writer. The section workers use it too, so a section comes out the
    /// same whichever process makes it.
    package static func liveEnvironment(reusing indexed: IndexedBook? = nil) -> ConversionEnvironment {
        .epub(
            reusing: indexed, makeEngine: { try ESpeakSpeechEngine() },
            makeSink: { request in
                try AudioFileWriter(
                    path: request.path, encoding: request.encoding, sampleRate: request.sampleRate,
                    tags: request.tags)
            })
    }

    /// Puts the sections' files together in `outputDirectory`: the files themselves, a manifest, the
    /// playlist, and the bundle when asked for; returns the audio length.
    package static func finalize(
        results: [SectionResult], jobDirectory: String, outputDirectory: String, bookPath: String, options: JobOptions,
        plan: JobPlan
    ) async throws -> Double {
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        var manifest: Manifest?
        var records: [Int: SectionRecord] = [:]
        for result in results {
            let attempt = jobDirectory + "/" + result.directory
            guard let made = try Manifest.load(fromDirectory: attempt),
                let record = made.section(result.section)
            else { throw Failure(description: "section \(result.section): its manifest is missing") }
            if manifest == nil { manifest = made }
            records[result.section] = record
            let target = outputDirectory + "/" + result.file
            if !FileManager.default.fileExists(atPath: target) {
                guard rename(attempt + "/" + result.file, target) == 0 else {
                    throw Failure(description: "section \(result.section): cannot move \(result.file)")
                }
            }
        }
        guard var manifest else { throw Failure(description: "no section was made") }
        manifest.journal = nil
        for index in manifest.sections.indices {
            let number = manifest.sections[index].number
            if let record = records[number] {
                manifest.sections[index] = record
            } else if plan.sections.contains(number) {
                manifest.sections[index].status = .failed
            } else if manifest.sections[index].status != .done {
                manifest.sections[index].status = .skipped
            }
        }
        try manifest.write(toDirectory: outputDirectory)
        let entries = manifest.sections.filter { $0.status == .done && $0.file != nil && records[$0.number] != nil }
            .map { Playlist.Entry(title: $0.title, file: $0.file!, durationSeconds: $0.durationSeconds ?? 0) }
        try Data(Playlist.text(entries).utf8).write(
            to: URL(fileURLWithPath: outputDirectory + "/" + Playlist.fileName), options: .atomic)
        if options.bundle != nil, records.count == plan.sections.count {
            guard let ffmpeg = AudiobookBundler.locateFFmpeg() else {
                throw Failure(description: "bundle needs ffmpeg, which is not installed on the server")
            }
            let book = try EPUBBook.open(path: bookPath)
            _ = try await AudiobookBundler(format: .m4b, ffmpegPath: ffmpeg).bundle(
                directory: outputDirectory, numbers: plan.sections,
                metadata: AudiobookMetadata(
                    book: book, title: plan.displayTitle, narrator: "espeak-ng, voice \(plan.voice)"),
                cover: AudiobookCover(book: book, ffmpegPath: ffmpeg))
        }
        return entries.reduce(0) { $0 + $1.durationSeconds }
    }

    /// `--voice auto` follows `BookLanguage.autoVoice`, as the CLI does; `followsText`: the voice was
    /// chosen from the text, for want of one for the book's language.
    private static func resolvedVoice(
        _ requested: String, book: EPUBBook, sections: [BookSection], textLanguage: String?
    ) throws -> (voice: VoiceInfo, followsText: Bool) {
        let installed = ESpeakSpeechEngine.installedVoices()
        do {
            guard requested.lowercased() == "auto" else {
                let variants = ESpeakSpeechEngine.installedVariants()
                return (try ESpeakSpeechEngine.resolveVoice(requested, installed: installed, variants: variants), false)
            }
            let chosen = BookLanguage.autoVoice(for: book, textLanguage: textLanguage) {
                try? ESpeakSpeechEngine.resolveVoice($0, installed: installed)
            }
            guard let chosen else { return (try ESpeakSpeechEngine.resolveVoice("en", installed: installed), false) }
            // Of the language's voices, the one that speaks most of the text, as the CLI chooses it.
            let voice = SpeakableText.preferredVoice(
                chosen.voice, for: sections, installed: installed, share: speechShare)
            return (voice, chosen.followsText)
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// The title from the metadata; a book without one is named after its file, as the CLI does.
    private static func displayTitle(_ book: EPUBBook, name: String) -> String {
        if let title = book.package.metadata.title, !title.isEmpty { return title }
        return "\(name) (no title in the book)"
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
