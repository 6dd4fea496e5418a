import ArgumentParser
import Foundation
import LiveConversion

// The flags take the library's own types: an unknown value is a usage error, never a default.
extension SpokenTextOptions.Notes: ExpressibleByArgument {}
extension SpokenTextOptions.Omission: ExpressibleByArgument {}
extension AudioFormat: ExpressibleByArgument {}
extension BitrateMode: ExpressibleByArgument {}
extension BundleFormat: ExpressibleByArgument {}
extension EnginePreference: ExpressibleByArgument {}
extension SubtitleFormat: ExpressibleByArgument {}

extension ConvertCommand {
    /// Converts one book (or writes its text with `--text`), then bundles it with `bundler` when
    /// given (`--bundle`); returns its exit status. `loaded`: the book, already read (by the
    /// free-space check).
    func convertBook(
        _ path: String, options: SectionOptions, selection: ChapterSelection?, batch: BatchFolders?,
        bundler: AudiobookBundler? = nil, loaded: OpenedBook? = nil
    ) async -> Exit {
        let stderrStyle = TerminalStyle.detect(fileDescriptor: 2)
        let book: OpenedBook
        if !action.text { ProcessMemory.handBackFreedPagesAtOnce() }
        do {
            // Reading the book first means a refused book leaves nothing behind, not even a folder.
            book = try loaded ?? BookLoader.load(path: path, options: options, chapters: selection)
        } catch {
            let (status, message) = exitStatus(for: error)
            return bookFailed(path, status, message, style: stderrStyle)
        }
        // In a batch each line names its book, as the errors do.
        reportWarnings(book.warnings, style: stderrStyle, book: batch == nil ? nil : path)
        reportSkippedText(in: book, selection: selection, style: stderrStyle, book: batch == nil ? nil : path)
        let totals = ReadingTotals(sections: book.sections)
        ReportRecorder.shared.update {
            $0.title = book.displayTitle
            $0.sectionsRead = totals.readSections
            $0.wordsRead = totals.readWords
            $0.sectionsSkipped = totals.skippedSections
            $0.wordsSkipped = totals.skippedWords
        }
        if let nothing = book.nothingToRead {
            let why =
                nothing == .noneSelected
                ? nothing.description + "; see --list, then use --chapters or --include" : nothing.description
            return bookFailed(path, .unreadableBook, why, style: stderrStyle)
        }
        let prepared: PreparedConversion
        let directory = outputDirectory(for: book, batch: batch)
        ReportRecorder.shared.update { $0.outputDirectory = directory }
        do {
            prepared = try LiveConversion.prepare(
                book, options: conversionOptions(for: book, selection: selection), outputDirectory: directory,
                forText: action.text)
        } catch {
            let (status, message) = preparationExitStatus(for: error)
            return bookFailed(path, status, message, style: stderrStyle)
        }
        if let fallback = prepared.voice.fallback { ReportRecorder.shared.warn(fallback.description) }
        if let fallback = prepared.voice.fallback, !running.quiet {
            StandardError.write(
                stderrStyle.yellow("warning:") + " " + oneLine("\(fallback.description) (--voice chooses)") + "\n")
        }
        if let refusal = prepared.refusal {
            let (status, message) = preparationExitStatus(for: refusal)
            return bookFailed(path, status, message, style: stderrStyle)
        }
        reportSpeechWarnings(prepared.speech, style: stderrStyle, book: batch == nil ? nil : path)
        if action.text { return exportText(prepared, book: path, style: stderrStyle) }
        return await convert(prepared, bundler: bundler, style: stderrStyle)
    }

    /// Runs a prepared conversion with its progress on the terminal (or as JSON lines), then the bundle.
    private func convert(_ prepared: PreparedConversion, bundler: AudiobookBundler?, style: TerminalStyle) async
        -> Exit
    {
        let book = prepared.book
        let directory = prepared.request.outputDirectory
        let mode: ProgressRenderer.Mode
        switch (running.quiet, running.progress) {
        case (_, .json): mode = .json
        case (true, _): mode = .silent
        case (_, .none): mode = .summary
        case (_, .plain): mode = .plain
        case (_, .auto): mode = style.isTerminal ? .bar : .plain
        }
        let renderer = ProgressRenderer(mode: mode, style: style, authors: book.book.package.metadata.authors)
        let interruption = InterruptionWatcher.shared
        let conversion = prepared.runnable
        // Started: from here an error is a failure of the conversion, not a refusal (`recordOutcome`).
        let report = ReportRecorder.shared
        report.update { $0.status = .failed }
        let task = Task {
            try await conversion.run { event in
                if case .warning(let message) = event { report.warn(message) }
                renderer.handle(event)
            }
        }
        // A signal that came while the book was read cancels the task at once.
        interruption.onInterrupt { task.cancel() }
        defer { interruption.onInterrupt(nil) }
        // Nobody reads our output any more (`--progress json | head`): stop as after Ctrl-C.
        BrokenPipe.onBrokenPipe { task.cancel() }
        defer { BrokenPipe.onBrokenPipe(nil) }
        do {
            let summary = try await task.value
            report.update {
                $0.sectionsMade = summary.sectionsDone
                $0.sectionsKept = summary.sectionsSkipped
                $0.sectionsFailed = summary.sectionsFailed
                $0.audioSeconds = summary.audioSeconds
            }
            renderer.summary(
                summary, totals: ReadingTotals(sections: book.sections), chosen: book.chosenByNumber,
                outputDirectory: directory)
            if let warning = conversion.updateFolderCover() {
                report.warn(warning)
                renderer.handle(.warning(message: warning))
            }
            // The sections that failed have none; those finished, in this run or an earlier one, have theirs.
            say(conversion.writeSubtitles(), renderer: renderer, style: style)
            if summary.sectionsFailed > 0 { return .partialFailure }
            if files.readAlong {
                return makeReadAlong(conversion, book: book.path, renderer: renderer, style: style)
            }
            guard let bundler else { return .success }
            // Ctrl-C while ffmpeg runs stops it and removes the partial bundle; the sections stay.
            let status = await makeBundle(
                bundler, conversion: conversion, book: book.path, renderer: renderer, interruption: interruption,
                style: style)
            return status
        } catch {
            if case ConversionError.cancelled = error {
                report.update { $0.message = "interrupted; finished sections are kept" }
                if mode != .json && !BrokenPipe.happened {
                    StandardError.write(
                        "\n" + style.yellow("interrupted:") + " finished sections are kept; "
                            + "run the same command again to resume\n")
                } else if mode == .json && !BrokenPipe.happened {
                    emitBookFailed(book.path, .interrupted, "interrupted; finished sections are kept")
                }
                return .interrupted
            }
            let (status, message) = conversionExitStatus(for: error)
            return bookFailed(book.path, status, message, style: style)
        }
    }

    /// The library's options from the flags, for `book` (indexed with the section flags already).
    func conversionOptions(for book: OpenedBook, selection: ChapterSelection?) -> ConversionOptions {
        ConversionOptions(
            sections: book.options, chapters: selection,
            text: reading.spokenText, normalize: !reading.noNormalize, lexiconPath: reading.lexicon,
            voice: speaking.voice, engine: speaking.engine, rate: speaking.rate, pitch: speaking.pitch,
            volume: speaking.volume,
            encoding: files.encoding, bundle: files.audiobook, subtitles: captions.options, readAlong: files.readAlong,
            embedsCover: !files.noCoverArt,
            jobs: running.jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            force: running.force, allowNonEmptyOutput: files.overwrite,
            workers: running.freshWorkers
                ? .freshProcess(executable: Self.executablePath, arguments: ["worker"])
                : .forkServer(executable: Self.executablePath))
    }

    /// What the voice cannot speak of the text read (`SpeakableText`): runs of other scripts that go
    /// to voices that speak them, and the share that no voice speaks.
    func reportSpeechWarnings(_ speech: SpeakableTextReport?, style: TerminalStyle, book: String?) {
        guard let speech else { return }
        let suggestion = speech.suggestedVoice.map { " (--voice \($0))" } ?? ""
        let lines = [speech.switches, speech.languageSwitches, speech.problem.map { $0 + suggestion }].compactMap {
            $0
        }
        for line in lines { ReportRecorder.shared.warn(oneLine(line)) }
        guard !running.quiet else { return }
        let prefix = book.map { bookName($0) + ": " } ?? ""
        for line in lines {
            StandardError.write(style.yellow("warning:") + " " + oneLine(prefix + line) + "\n")
        }
    }

    /// Reports that the book at `path` ends without its audio (`status`, for `message`): one error
    /// line, and with `--progress json` a `book-failed` event too, so that a script reading the
    /// events learns of every book, including the ones refused before any event of their own.
    func bookFailed(_ path: String, _ status: Exit, _ message: String, style: TerminalStyle) -> Exit {
        ReportRecorder.shared.update {
            $0.exitCode = status.rawValue
            $0.message = message
        }
        reportError("\(bookName(path)): \(message)", style: style)
        if running.progress == .json { emitBookFailed(path, status, message) }
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

    /// `--bundle`: one audiobook file of the selected sections, once they are all converted.
    private func makeBundle(
        _ bundler: AudiobookBundler, conversion: RunnableConversion, book: String, renderer: ProgressRenderer,
        interruption: InterruptionWatcher, style: TerminalStyle
    ) async -> Exit {
        let file = conversion.bundleFileName(bundler.format)
        let task = Task {
            try await conversion.bundle(bundler) {
                renderer.handle(
                    .bundleProgress(file: file, audioSeconds: $0.audioSeconds, totalSeconds: $0.totalSeconds))
            }
        }
        interruption.onInterrupt { task.cancel() }
        do {
            let result = try await task.value
            for warning in result.warnings {
                ReportRecorder.shared.warn(warning)
                renderer.handle(.warning(message: warning))
            }
            ReportRecorder.shared.update {
                $0.bundle = result.path
                if result.rebuilt { $0.status = .converted }
            }
            renderer.handle(.bundleDone(file: file, chapters: result.chapters, rebuilt: result.rebuilt))
            if !running.quiet && running.progress != .json {
                let verb = result.rebuilt ? "written" : "up to date"
                StandardError.write(
                    "audiobook \(verb): " + style.bold(result.path) + " (\(plural(result.chapters, "chapter")))\n")
            }
            say(conversion.writeBookSubtitles(bundler.format), renderer: renderer, style: style)
            return .success
        } catch {
            // ffmpeg shares our terminal: Ctrl-C reaches it too, and it may stop before we cancel it.
            var cancelled = interruption.interrupted
            if case ConversionError.cancelled = error { cancelled = true }
            guard cancelled else {
                let (status, message) = conversionExitStatus(for: error)
                return bookFailed(book, status, message, style: style)
            }
            if running.progress != .json && !BrokenPipe.happened {
                StandardError.write(
                    "\n" + style.yellow("interrupted:") + " the audiobook file was not made; the sections are kept; "
                        + "run the same command again to make it\n")
            }
            return .interrupted
        }
    }

    /// What writing subtitles did: its warnings (a section without timing), and a line naming the files.
    private func say(_ subtitles: SubtitleResult, renderer: ProgressRenderer, style: TerminalStyle) {
        for warning in subtitles.warnings {
            ReportRecorder.shared.warn(warning)
            renderer.handle(.warning(message: warning))
        }
        guard !subtitles.files.isEmpty, !running.quiet, running.progress != .json else { return }
        let what = subtitles.files.count == 1 ? style.bold(subtitles.files[0]) : plural(subtitles.files.count, "file")
        StandardError.write("subtitles written: \(what)\n")
    }

    /// `--bundle epub`: the read-along copy of the book, once the sections are all converted.
    private func makeReadAlong(
        _ conversion: RunnableConversion, book: String, renderer: ProgressRenderer, style: TerminalStyle
    ) -> Exit {
        do {
            let result = try conversion.makeReadAlong()
            for warning in result.warnings {
                ReportRecorder.shared.warn(warning)
                renderer.handle(.warning(message: warning))
            }
            ReportRecorder.shared.update { $0.bundle = result.path }
            renderer.handle(
                .bundleDone(file: conversion.readAlongFileName, chapters: result.overlaidDocuments, rebuilt: true))
            if !running.quiet && running.progress != .json {
                StandardError.write(
                    "read-along book written: " + style.bold(result.path) + " (\(result.placedSentences) of "
                        + "\(plural(result.sentences, "sentence")) highlighted, "
                        + "\(plural(result.overlaidDocuments, "document")) with audio)\n")
            }
            return .success
        } catch let error as ReadAlongError {
            return bookFailed(book, readAlongExitStatus(error), error.description, style: style)
        } catch {
            let (status, message) = conversionExitStatus(for: error)
            return bookFailed(book, status, message, style: style)
        }
    }

    /// `--text`: the exact text each selected section would speak, as `.txt` files.
    private func exportText(_ prepared: PreparedConversion, book: String, style: TerminalStyle) -> Exit {
        do {
            let written = try prepared.runnable.exportText()
            if !running.quiet {
                StandardError.write(
                    "\(plural(written.count, "text file")) written to "
                        + style.bold(prepared.request.outputDirectory) + "\n")
            }
            return .success
        } catch {
            let (status, message) = conversionExitStatus(for: error)
            reportError("\(bookName(book)): \(message)", style: style)
            return status
        }
    }

    /// This very binary, so worker processes run the same code.
    static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// `-o DIR` for one book; for several, one folder per book under DIR (`BatchFolders`); else a
    /// folder named after the book.
    func outputDirectory(for book: OpenedBook, batch: BatchFolders?) -> String {
        if let batch { return batch.claim(book.folderName, forBookAt: book.path) }
        return files.output ?? book.folderName
    }
}

/// Exit status and message for a conversion the policy layer refused before it started.
func preparationExitStatus(for error: LiveConversionError) -> (Exit, String) {
    switch error {
    case .unknownVoice(let message): (.unavailable, "\(message) (epub2audio voices lists them)")
    case .unspeakable(let problem, let voice):
        (.unavailable, problem + (voice.map { " (--voice \($0))" } ?? "") + "; --force converts it anyway")
    case .formatUnavailable, .ffmpegMissing: (.unavailable, error.description)
    case .unsupportedSetting(let message): (.usage, message + " (--pitch)")
    case .engineMismatch(let message): (.usage, message + " (--engine, --voice)")
    case .noNeuralVoice: (.unavailable, error.description + "; add one with epub2audio voices add VOICE.onnx")
    case .readAlongRefused(let reason): (readAlongExitStatus(reason), error.description + " (--bundle epub)")
    }
}

/// Exit status for a read-along book that cannot be made: a format that is not an EPUB core audio
/// type is a usage error; a book that cannot give one (Media Overlays of its own, neither EPUB 2 nor 3) is 6.
func readAlongExitStatus(_ error: ReadAlongError) -> Exit {
    switch error {
    case .audioFormat: .usage
    case .notEPUB3, .hasMediaOverlays: .unavailable
    case .noTiming, .unwritable: .outputError
    case .unreadableBook: .unreadableBook
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
    case .bundleFailed, .invalidTimingFile: return (.outputError, error.description)
    }
}
