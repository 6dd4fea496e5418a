import ArgumentParser
import AudioFiles
import BookText
import Contracts
import Conversion
import EPUBReader
import ESpeakEngine
import Foundation

// The flags take the library's own types: an unknown value is a usage error, never a default.
extension SpokenTextOptions.Notes: ExpressibleByArgument {}
extension SpokenTextOptions.Omission: ExpressibleByArgument {}
extension AudioFormat: ExpressibleByArgument {}
extension BitrateMode: ExpressibleByArgument {}
extension BundleFormat: ExpressibleByArgument {}

extension ConvertCommand {
    /// Converts one book (or writes its text with `--text`), then bundles it with `bundler` when
    /// given (`--bundle`); returns its exit status.
    func convertBook(
        _ path: String, options: SectionOptions, selection: ChapterSelection?, batch: BatchFolders?,
        bundler: AudiobookBundler? = nil
    ) async -> Exit {
        let stderrStyle = TerminalStyle.detect(fileDescriptor: 2)
        let loaded: LoadedBook
        if !text { ProcessMemory.handBackFreedPagesAtOnce() }
        do {
            // Reading the book first means a refused book leaves nothing behind, not even a folder.
            loaded = try BookLoader.load(path: path, options: options, chapters: selection)
        } catch {
            let (status, message) = exitStatus(for: error)
            return bookFailed(path, status, message, style: stderrStyle)
        }
        // In a batch each line names its book, as the errors do.
        reportWarnings(loaded.warnings, style: stderrStyle, book: batch == nil ? nil : path)
        reportSkippedText(in: loaded, selection: selection, style: stderrStyle, book: batch == nil ? nil : path)
        let selected = loaded.selectedSections
        if selected.isEmpty {
            let hasWords = loaded.sections.contains { $0.words > 0 }
            let why =
                hasWords
                ? "no section is selected for reading; see --list, then use --chapters or --include"
                : Self.noTextReason(
                    unreadable: loaded.index.unreadableDocuments, documents: loaded.book.package.spine.count)
            return bookFailed(path, .unreadableBook, why, style: stderrStyle)
        }
        if selection == nil && selected.allSatisfy({ $0.words == 0 }) {
            return bookFailed(
                path, .unreadableBook, "the selected sections have no text to read", style: stderrStyle)
        }
        let directory = outputDirectory(for: loaded, batch: batch)
        var request: ConversionRequest
        do {
            request = try conversionRequest(for: loaded, outputDirectory: directory, stderrStyle: stderrStyle)
        } catch {
            let (status, message) = exitStatus(for: error)
            return bookFailed(path, status, message, style: stderrStyle)
        }
        if !text, let refusal = checkSpeakableText(&request, loaded: loaded, style: stderrStyle, book: batch) {
            return bookFailed(path, .unavailable, refusal, style: stderrStyle)
        }
        // The coordinator reuses the book this command already read and indexed.
        let indexed = IndexedBook(
            path: loaded.path, book: loaded.book, sections: loaded.index.sections, options: loaded.options)
        if text { return exportText(request, indexed: indexed, book: path, style: stderrStyle) }
        // Read from the book once: embedded in the section files, written beside them, and bundled.
        let cover = AudiobookCover(
            book: loaded.book, ffmpegPath: bundler?.ffmpegPath ?? AudiobookBundler.locateFFmpeg())
        if !noCoverArt { request.cover = cover }

        let mode: ProgressRenderer.Mode
        switch (quiet, progress) {
        case (_, .json): mode = .json
        case (true, _): mode = .silent
        case (_, .none): mode = .summary
        case (_, .plain): mode = .plain
        case (_, .auto): mode = stderrStyle.isTerminal ? .bar : .plain
        }
        let renderer = ProgressRenderer(mode: mode, style: stderrStyle, authors: loaded.book.package.metadata.authors)
        let converter = Converter(environment: LiveEnvironment.make(reusing: indexed))
        let interruption = InterruptionWatcher()
        let task = Task { try await converter.run(request) { renderer.handle($0) } }
        interruption.onInterrupt { task.cancel() }
        // Nobody reads our output any more (`--progress json | head`): stop as after Ctrl-C.
        BrokenPipe.onBrokenPipe { task.cancel() }
        defer { BrokenPipe.onBrokenPipe(nil) }
        do {
            let summary = try await task.value
            renderer.summary(
                summary, totals: ReadingTotals(sections: loaded.sections), chosen: loaded.chosenByNumber,
                outputDirectory: directory)
            writeCover(cover, to: directory, renderer: renderer)
            if summary.sectionsFailed > 0 {
                interruption.stop()
                return .partialFailure
            }
            guard let bundler else {
                interruption.stop()
                return .success
            }
            // Ctrl-C while ffmpeg runs stops it and removes the partial bundle; the sections stay.
            let narrator = "espeak-ng, voice \(request.voice.voice)"
            let status = await makeBundle(
                bundler, loaded: loaded, cover: cover, directory: directory, narrator: narrator, renderer: renderer,
                interruption: interruption, style: stderrStyle)
            interruption.stop()
            return status
        } catch {
            interruption.stop()
            if case ConversionError.cancelled = error {
                if mode != .json && !BrokenPipe.happened {
                    StandardError.write(
                        "\n" + stderrStyle.yellow("interrupted:") + " finished sections are kept; "
                            + "run the same command again to resume\n")
                } else if mode == .json && !BrokenPipe.happened {
                    emitBookFailed(path, .interrupted, "interrupted; finished sections are kept")
                }
                return .interrupted
            }
            let (status, message) = conversionExitStatus(for: error)
            return bookFailed(path, status, message, style: stderrStyle)
        }
    }

    /// Reports that the book at `path` ends without its audio (`status`, for `message`): one error
    /// line, and with `--progress json` a `book-failed` event too, so that a script reading the
    /// events learns of every book, including the ones refused before any event of their own.
    func bookFailed(_ path: String, _ status: Exit, _ message: String, style: TerminalStyle) -> Exit {
        reportError("\(bookName(path)): \(message)", style: style)
        if progress == .json { emitBookFailed(path, status, message) }
        return status
    }

    /// `{"event":"book-failed","exitCode":N,"file":PATH,"message":TEXT}` on standard output,
    /// encoded as the conversion's own events are (`CanonicalJSON`).
    func emitBookFailed(_ path: String, _ status: Exit, _ message: String) {
        struct BookFailed: Encodable {
            var event = "book-failed"
            var file: String
            var exitCode: Int32
            var message: String
        }
        let event = BookFailed(file: path, exitCode: status.rawValue, message: message)
        StandardOutput.write(CanonicalJSON.line(event) + "\n")
    }

    /// Why a book has no text to read, for its error line: its documents could not be read, or it
    /// is pictures without descriptions.
    static func noTextReason(unreadable: Int, documents: Int) -> String {
        let start = "the book has no text to read"
        switch (unreadable, documents) {
        case (0, _): return start + " (image-only pages?)"
        case (_, 1): return start + ": its only document could not be read (see the warning)"
        case (let u, let d) where u == d: return start + ": none of its \(d) documents could be read (see the warnings)"
        case (let u, let d): return start + ": \(u) of its \(d) documents could not be read, the others hold none"
        }
    }

    /// `--bundle`: one audiobook file of the selected sections, once they are all converted.
    private func makeBundle(
        _ bundler: AudiobookBundler, loaded: LoadedBook, cover: AudiobookCover?, directory: String, narrator: String,
        renderer: ProgressRenderer, interruption: InterruptionWatcher, style: TerminalStyle
    ) async -> Exit {
        let metadata = AudiobookMetadata(
            book: loaded.book, title: loaded.displayTitle, narrator: narrator, language: loaded.textLanguage)
        let file = AudiobookBundler.fileName(for: metadata, format: bundler.format)
        let numbers = loaded.selectedSections.map(\.number)
        let task = Task {
            try await bundler.bundle(directory: directory, numbers: numbers, metadata: metadata, cover: cover) {
                renderer.handle(
                    .bundleProgress(file: file, audioSeconds: $0.audioSeconds, totalSeconds: $0.totalSeconds))
            }
        }
        interruption.onInterrupt { task.cancel() }
        if interruption.interrupted { task.cancel() }
        do {
            let result = try await task.value
            for warning in result.warnings { renderer.handle(.warning(message: warning)) }
            renderer.handle(.bundleDone(file: file, chapters: result.chapters, rebuilt: result.rebuilt))
            if !quiet && progress != .json {
                let verb = result.rebuilt ? "written" : "up to date"
                StandardError.write(
                    "audiobook \(verb): " + style.bold(result.path) + " (\(plural(result.chapters, "chapter")))\n")
            }
            return .success
        } catch {
            // ffmpeg shares our terminal: Ctrl-C reaches it too, and it may stop before we cancel it.
            var cancelled = interruption.interrupted
            if case ConversionError.cancelled = error { cancelled = true }
            guard cancelled else {
                let (status, message) = conversionExitStatus(for: error)
                return bookFailed(loaded.path, status, message, style: style)
            }
            if progress != .json && !BrokenPipe.happened {
                StandardError.write(
                    "\n" + style.yellow("interrupted:") + " the audiobook file was not made; the sections are kept; "
                        + "run the same command again to make it\n")
            }
            return .interrupted
        }
    }

    /// `cover.jpg` (or `.png`) beside the section files, when the book has a JPEG or PNG cover (none
    /// when it has not); a failure is a warning (the audio is all there).
    private func writeCover(_ cover: AudiobookCover?, to directory: String, renderer: ProgressRenderer) {
        do {
            try AudiobookCover.updateFolderCover(cover, in: directory)
        } catch {
            renderer.handle(.warning(message: "the cover was not written: \(error)"))
        }
    }

    /// `--text`: the exact text each selected section would speak, as `.txt` files.
    private func exportText(_ request: ConversionRequest, indexed: IndexedBook, book: String, style: TerminalStyle)
        -> Exit
    {
        do {
            let files = try TextExport.run(request, environment: LiveEnvironment.make(reusing: indexed))
            if !quiet {
                StandardError.write(
                    "\(plural(files.count, "text file")) written to "
                        + style.bold(request.outputDirectory) + "\n")
            }
            return .success
        } catch {
            let (status, message) = conversionExitStatus(for: error)
            reportError("\(bookName(book)): \(message)", style: style)
            return status
        }
    }

    /// The request for one book: selection, voice, encoding, jobs, and the worker executable (this binary).
    func conversionRequest(for loaded: LoadedBook, outputDirectory: String, stderrStyle: TerminalStyle) throws
        -> ConversionRequest
    {
        let (voice, followsText) = try resolvedVoice(for: loaded, style: stderrStyle)
        let voiceSettings = VoiceSettings(voice: voice.identifier, rate: rate, pitch: pitch, volume: volume)
        // The section options the book was indexed with, so the conversion reuses that index.
        var bookOptions = BookOptions(
            sections: loaded.options,
            text: SpokenTextOptions(notes: notes, tables: tables, code: code, images: images, math: math),
            normalize: !noNormalize,
            lexiconPath: lexicon.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        // dc:language is contradicted by the text, or no voice speaks it and the text chose the voice:
        // the text is read (normalised, and its passages in other languages told apart) in the voice's
        // language, whichever --voice chose.
        if loaded.languageMismatch != nil || followsText, let language = voice.languages.first {
            bookOptions.text.language = String(language.prefix { $0 != "-" })
        }
        var request = ConversionRequest(
            bookPath: loaded.path, outputDirectory: outputDirectory,
            selection: .numbers(loaded.selectedSections.map(\.number)), voice: voiceSettings,
            encoding: AudioEncoding(format: format, compressionLevel: quality, bitrateMode: bitrateMode),
            bookOptions: bookOptions, jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, force: force,
            allowNonEmptyOutput: overwrite)
        // Every section is made by a fresh worker process: espeak-ng's state survives a reset, and
        // only a fresh process makes a section's audio identical whatever ran before (resume, --jobs).
        // By default a child forked from a process that has just initialised espeak-ng (the fork
        // server, one per job slot): the same state as a fresh process, without its start-up cost.
        request.workerExecutable = Self.executablePath
        if freshWorkers {
            request.workerArguments = ["worker"]
        } else {
            request.workerArguments = [Entry.forkServerCommand]
            request.workerForksPerJob = true
        }
        if !text, !AudioFileWriter.canWrite(format) {
            throw CLIError.unavailable("the installed libsndfile cannot write \(format.rawValue) files")
        }
        return request
    }

    /// What the voice cannot speak of the text read (`SpeakableText`): runs of other scripts go to
    /// voices that speak them (`request.chunking.scriptSwitching`, said in a warning), a warning
    /// gives the share that no voice speaks, and the refusal's message is returned when most of the
    /// text cannot be spoken and `--force` is not given.
    private func checkSpeakableText(
        _ request: inout ConversionRequest, loaded: LoadedBook, style: TerminalStyle, book batch: BatchFolders?
    ) -> String? {
        guard let report = Self.speakableText(of: loaded, voice: request.voice.voice) else { return nil }
        request.chunking.scriptSwitching = report.switching
        let suggestion = report.suggestedVoice.map { " (--voice \($0))" } ?? ""
        if report.refuses, !force, let problem = report.problem {
            return problem + suggestion + "; --force converts it anyway"
        }
        guard !quiet else { return nil }
        let prefix = batch == nil ? "" : bookName(loaded.path) + ": "
        for line in [report.switches, report.problem.map { $0 + suggestion }].compactMap({ $0 }) {
            StandardError.write(style.yellow("warning:") + " " + oneLine(prefix + line) + "\n")
        }
        return nil
    }

    /// `SpeakableText.assess` of the sections `loaded` reads, for the installed voice `voice` (an
    /// identifier, a name or a language); nil when no such voice is installed.
    static func speakableText(of loaded: LoadedBook, voice: String) -> SpeakableTextReport? {
        let installed = ESpeakSpeechEngine.installedVoices()
        guard
            let resolved = try? ESpeakSpeechEngine.resolveVoice(
                voice, installed: installed, variants: ESpeakSpeechEngine.installedVariants())
        else { return nil }
        return SpeakableText.assess(
            loaded.sections, voice: resolved, installed: installed,
            bookLanguage: loaded.textLanguage ?? loaded.book.package.metadata.languages.first,
            share: { ESpeakSpeechEngine.share(of: $1, spokenBy: $0) })
    }

    /// The voice a conversion of `loaded` would read in (`--voice`, `auto` resolved), without warnings.
    func conversionVoice(for loaded: LoadedBook) -> VoiceInfo? {
        try? resolvedVoice(for: loaded, style: TerminalStyle.detect(fileDescriptor: 2), warn: false).voice
    }

    /// This very binary, so worker processes run the same code.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// `--voice auto` follows `BookLanguage.autoVoice`, with a warning when no voice speaks the book's
    /// language. `followsText`: the voice was chosen from the text, for want of one for the book's.
    private func resolvedVoice(for loaded: LoadedBook, style: TerminalStyle, warn: Bool = true) throws
        -> (voice: VoiceInfo, followsText: Bool)
    {
        let installed = ESpeakSpeechEngine.installedVoices()
        guard voice.lowercased() == "auto" else {
            do {
                let variants = ESpeakSpeechEngine.installedVariants()
                return (try ESpeakSpeechEngine.resolveVoice(voice, installed: installed, variants: variants), false)
            } catch {
                throw CLIError.unavailable("\(error) (epub2audio voices lists them)")
            }
        }
        let chosen = BookLanguage.autoVoice(for: loaded.book, textLanguage: loaded.textLanguage) {
            try? ESpeakSpeechEngine.resolveVoice($0, installed: installed)
        }
        guard let chosen else { return (try ESpeakSpeechEngine.resolveVoice("en", installed: installed), false) }
        if let fallback = chosen.fallback, !quiet, warn {
            StandardError.write(
                style.yellow("warning:") + " " + oneLine("\(fallback.description) (--voice chooses)") + "\n")
        }
        // Of the language's voices, the one that speaks most of the text (`cmn-Latn-pinyin` over `cmn`).
        let voice = SpeakableText.preferredVoice(
            chosen.voice, for: loaded.sections, installed: installed,
            share: { ESpeakSpeechEngine.share(of: $1, spokenBy: $0) })
        return (voice, chosen.followsText)
    }

    /// `-o DIR` for one book; for several, one folder per book under DIR (`BatchFolders`); else a
    /// folder named after the book.
    func outputDirectory(for loaded: LoadedBook, batch: BatchFolders?) -> String {
        let title =
            loaded.book.package.metadata.title.flatMap { $0.isEmpty ? nil : $0 }
            ?? URL(fileURLWithPath: loaded.path).deletingPathExtension().lastPathComponent
        let folder = OutputNaming.sanitisedTitle(title, number: 0)
        if let batch { return batch.claim(folder, forBookAt: loaded.path) }
        return output ?? folder
    }
}

/// Exit status for errors a conversion ends with.
func conversionExitStatus(for error: any Error) -> (Exit, String) {
    guard let error = error as? ConversionError else { return exitStatus(for: error) }
    switch error {
    case .outputNotEmpty:
        return (.outputError, error.description + " (--overwrite)")
    case .outputUnwritable, .diskFull, .bookChanged, .invalidManifest, .unsupportedManifestVersion:
        return (.outputError, error.description)
    case .unreadableBook: return (.unreadableBook, error.description)
    case .unknownSection, .noSections, .invalidRequest: return (.usage, error.description)
    case .cancelled: return (.interrupted, error.description)
    case .workerFailed, .sectionFailed: return (.partialFailure, error.description)
    case .bundleFailed: return (.outputError, error.description)
    }
}

/// Turns SIGINT and SIGTERM into a cancellation of the running conversion (which then cleans up
/// and exits 130); a second signal exits at once.
final class InterruptionWatcher: @unchecked Sendable {
    // @unchecked Sendable: `sources` is written by the one thread that calls onInterrupt and stop;
    // `fired` and `action` are read and written on `queue` only.
    private var sources: [any DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "epub2audio.signals")
    private var fired = false
    private var action: (@Sendable () -> Void)?

    /// Whether a signal has come.
    var interrupted: Bool { queue.sync { fired } }

    /// What the first signal does; a later call replaces the action (the conversion, then the bundle).
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        queue.sync { self.action = action }
        guard sources.isEmpty else { return }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [unowned self] in
                if self.fired { exit(Exit.interrupted.rawValue) }
                self.fired = true
                self.action?()
            }
            source.resume()
            sources.append(source)
        }
    }

    func stop() {
        for source in sources { source.cancel() }
        sources = []
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
