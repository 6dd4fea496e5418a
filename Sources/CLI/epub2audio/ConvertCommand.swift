import ArgumentParser
import Foundation
import LiveConversion

/// How progress is reported during a conversion.
enum ProgressMode: String, ExpressibleByArgument, CaseIterable {
    /// A redrawn bar on a terminal, plain lines otherwise.
    case auto
    /// Plain lines, one per finished section.
    case plain
    /// One JSON object per line on standard output (see docs/cli.md).
    case json
    /// Nothing but errors.
    case none
}

/// Converts books (the default subcommand): `epub2audio book.epub --chapters 1-5,8 --voice en`.
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert EPUB books to audio (the default command).",
        discussion: Exit.helpText)

    @Argument(help: "EPUB files, or folders of EPUB files.", completion: .file(extensions: ["epub"]))
    var books: [String] = []

    @OptionGroup(title: "What to do") var action: ActionOptions
    @OptionGroup(title: "Which sections") var choice: SectionChoiceOptions
    @OptionGroup(title: "How the text is read") var reading: ReadingOptions
    @OptionGroup(title: "Voice") var speaking: VoiceOptions
    @OptionGroup(title: "Output") var files: OutputOptions
    @OptionGroup(title: "Subtitles") var captions: SubtitleFlags
    @OptionGroup(title: "Running") var running: RunOptions

    /// The checks that span groups; each group checks its own values.
    func validate() throws {
        if books.isEmpty { throw ValidationError("Give at least one EPUB file or folder.") }
        if action.list || action.text {
            // --list estimates the output's size for the format and bundle asked.
            let encodingFlag = !action.list
            let conversionOnly: [(Bool, String)] = [
                (running.jobs != nil, "--jobs"), (running.force, "--force"),
                (encodingFlag && files.quality != nil, "--quality"),
                (encodingFlag && files.bitrateMode != nil, "--bitrate-mode"),
                (running.progress != .auto, "--progress"), (encodingFlag && (files.format ?? .wav) != .wav, "--format"),
                (encodingFlag && files.bundle != nil, "--bundle"), (running.report != nil, "--report"),
                (captions.subtitles != nil, "--subtitles"),
            ]
            if let used = conversionOnly.first(where: \.0) {
                throw ValidationError("\(used.1) is for conversions, not with --\(action.list ? "list" : "text").")
            }
        }
        if action.list && files.output != nil {
            throw ValidationError("--list prints to the terminal; -o is for conversions.")
        }
    }

    func run() async throws {
        // Past a file-size limit (ulimit -f) a write should fail with EFBIG, not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        BrokenPipe.install()
        let options = try choice.sectionOptions()
        let selection = try choice.selection()
        let stderrStyle = TerminalStyle.detect(fileDescriptor: 2)
        // --bundle needs ffmpeg: without it, stop before any book is read or any section made.
        var bundler: AudiobookBundler?
        if let bundle = files.audiobook {
            guard let ffmpeg = AudiobookBundler.locateFFmpeg() else {
                reportError(
                    "--bundle \(bundle.rawValue) needs ffmpeg, which is not installed (apt-get install ffmpeg)",
                    style: stderrStyle)
                throw ExitCode(Exit.unavailable.rawValue)
            }
            bundler = AudiobookBundler(format: bundle, ffmpegPath: ffmpeg)
        }
        var paths: [String] = []
        var missing: [(argument: String, status: Exit, message: String)] = []
        for argument in books {
            do {
                paths += try BookLoader.expand([argument])
            } catch {
                let (status, message) = exitStatus(for: error)
                reportError(message, style: stderrStyle)
                missing.append((argument, status, message))
            }
        }
        let report = ReportRecorder.shared
        if let path = running.report {
            report.start(path: path, books: paths)
            for (argument, status, message) in missing {
                report.appendRefused(argument, status: status, message: message)
            }
        }
        let batch = paths.count + missing.count > 1
        let folders = batch ? BatchFolders(root: files.output ?? ".") : nil
        var worst: Exit = !missing.isEmpty ? (batch ? .partialFailure : .unreadableBook) : .success
        var failedBooks = missing.count
        // `--list --json` of several books: one JSON array of their listings, written at the end.
        var listings: [String]? = action.list && action.json && batch ? [] : nil
        // `--list` of several books ends with a table of their estimates.
        var estimates: [(title: String, words: Int, estimate: OutputEstimate)] = []
        let converting = !action.list && !action.text
        // SIGINT and SIGTERM stop a conversion at any book of a batch, the same way (exit 130).
        if converting { InterruptionWatcher.shared.install() }
        // Before the first byte: does what the books will write fit on the disk?
        var loaded: OpenedBook?
        if converting {
            let checked = checkFreeSpace(paths: paths, options: options, selection: selection, batch: batch)
            if let refusal = checked.refusal {
                finishReport(exitCode: refusal.rawValue, style: stderrStyle)
                throw ExitCode(refusal.rawValue)
            }
            loaded = checked.loaded
        }
        for (index, path) in paths.enumerated() {
            if converting && InterruptionWatcher.shared.interrupted {
                // The signal came between two books: the next one is not started.
                worst = .interrupted
                interruptedBetweenBooks(before: path, style: stderrStyle)
                break
            }
            let status: Exit
            if action.list {
                status = listBook(
                    path, options: options, selection: selection,
                    emitJSON: { listing in
                        if listings != nil { listings?.append(listing) } else { StandardOutput.write(listing + "\n") }
                    }, estimated: { estimates.append($0) })
            } else {
                report.begin(index)
                status = await convertBook(
                    path, options: options, selection: selection, batch: folders, bundler: bundler,
                    loaded: paths.count == 1 ? loaded : nil)
                recordOutcome(status)
            }
            if status != .success {
                failedBooks += 1
                worst = worse(worst, status, batch: batch)
            }
            if status == .interrupted || BrokenPipe.happened { break }
        }
        if let listings { StandardOutput.write("[\n" + listings.joined(separator: ",\n") + "\n]\n") }
        if action.list && !action.json && batch && !estimates.isEmpty {
            let style = TerminalStyle.detect(fileDescriptor: 1)
            StandardOutput.write("\n" + ListRenderer(style: style, verbose: false).batchTable(estimates))
        }
        // The reader of our output has gone (`| head`): stop quietly, as a Unix tool does.
        if BrokenPipe.happened {
            report.write(exitCode: 128 + SIGPIPE)
            BrokenPipe.exit()
        }
        if batch && !running.quiet && !action.list && running.progress != .json && worst != .interrupted {
            let total = paths.count + missing.count
            let made = total - failedBooks
            let summary =
                "\(plural(total, "book")): \(made) converted" + (failedBooks > 0 ? ", \(failedBooks) failed" : "")
            StandardError.write(stderrStyle.bold(summary) + "\n")
        }
        if finishReport(exitCode: worst.rawValue, style: stderrStyle) && worst == .success {
            throw ExitCode(Exit.outputError.rawValue)
        }
        if worst != .success { throw ExitCode(worst.rawValue) }
    }

    /// Writes `--report` (when given) for a command ending with `exitCode`; false when it could not
    /// be written (said on standard error).
    @discardableResult
    func finishReport(exitCode: Int32, style: TerminalStyle) -> Bool {
        guard let failure = ReportRecorder.shared.write(exitCode: exitCode) else { return false }
        reportError(failure, style: style)
        return true
    }

    /// The current book's status in the report from how its conversion ended (`status`).
    func recordOutcome(_ status: Exit) {
        ReportRecorder.shared.update { book in
            book.exitCode = status.rawValue
            switch status {
            case .success:
                // `.converted` was set by a bundle that was made; sections made say it too.
                book.status = book.status == .converted || (book.sectionsMade ?? 0) > 0 ? .converted : .alreadyDone
                book.message = nil
            case .interrupted:
                book.status = .interrupted
            default:
                // `.failed` was set when the conversion started: before that, the book was refused.
                book.status = book.status == .failed ? .failed : .refused
            }
            if book.status != .refused, let directory = book.outputDirectory {
                book.outputBytes = SpaceCheck.bytesWritten(
                    in: directory, format: files.audioFormat, bundle: files.audiobook)
            }
        }
    }

    /// Says that the batch stopped before the book at `path`, as an interrupted conversion says it:
    /// a line on standard error, or with `--progress json` a `book-failed` event for that book.
    func interruptedBetweenBooks(before path: String, style: TerminalStyle) {
        guard !BrokenPipe.happened else { return }
        if running.progress == .json {
            emitBookFailed(path, .interrupted, "interrupted before this book started")
        } else {
            StandardError.write(
                "\n" + style.yellow("interrupted:") + " \(bookName(path)) and the books after it were not started; "
                    + "run the same command again to go on\n")
        }
    }

    /// In a batch, one failing book makes a partial failure; alone, its own status stands.
    func worse(_ current: Exit, _ new: Exit, batch: Bool) -> Exit {
        if new == .interrupted || current == .interrupted { return .interrupted }
        return batch ? .partialFailure : new
    }

    /// `--list` of one book; with `--json`, `emitJSON` takes its listing.
    func listBook(
        _ path: String, options: SectionOptions, selection: ChapterSelection?, emitJSON: (String) -> Void,
        estimated: ((title: String, words: Int, estimate: OutputEstimate)) -> Void = { _ in }
    ) -> Exit {
        let stderrStyle = TerminalStyle.detect(fileDescriptor: 2)
        do {
            let loaded = try BookLoader.load(path: path, options: options, chapters: selection)
            // What the voice a conversion would use can speak of the text read (espeak-ng is asked).
            let speech = LiveConversion.speakableText(
                of: loaded, voice: speaking.voice, engine: speaking.engine)
            let estimate = estimate(for: loaded)
            estimated((loaded.displayTitle, ReadingTotals(sections: loaded.sections).readWords, estimate))
            if action.json {
                emitJSON(try ListRenderer.json(for: loaded, speech: speech, estimate: estimate))
            } else {
                let renderer = ListRenderer(
                    style: TerminalStyle.detect(fileDescriptor: 1), verbose: action.verbose,
                    wordsPerMinute: speaking.rate)
                StandardOutput.write(renderer.text(for: loaded, estimate: estimate))
                reportWarnings(loaded.warnings, style: stderrStyle)
                reportSkippedText(in: loaded, selection: selection, style: stderrStyle, listing: true)
                if !running.quiet, let speech {
                    for line in [speech.switches, speech.problem].compactMap({ $0 }) {
                        StandardError.write(stderrStyle.yellow("warning:") + " " + oneLine(line) + "\n")
                    }
                }
            }
            return .success
        } catch {
            let (status, message) = exitStatus(for: error)
            reportError("\(bookName(path)): \(message)", style: stderrStyle)
            return status
        }
    }

    /// The book's warnings, a line each; `book` (in a batch) starts each line, as it starts the errors.
    func reportWarnings(_ warnings: [EPUBWarning], style: TerminalStyle, book: String? = nil) {
        for warning in warnings { ReportRecorder.shared.warn(oneLine(warning.description)) }
        guard !running.quiet, !warnings.isEmpty else { return }
        let limit = action.verbose ? warnings.count : 5
        let prefix = book.map { bookName($0) + ": " } ?? ""
        for warning in warnings.prefix(limit) {
            StandardError.write(style.yellow("warning:") + " " + oneLine(prefix + warning.description) + "\n")
        }
        if warnings.count > limit {
            StandardError.write(
                style.yellow("warning:") + " \(warnings.count - limit) more warnings (--verbose shows them all)\n")
        }
    }

    /// Says loudly when a large part of the book is skipped (see `SkippedText`): one line per large
    /// section, or one with the totals. Silent with `--chapters`, where the user chose what to read.
    func reportSkippedText(
        in loaded: OpenedBook, selection: ChapterSelection?, style: TerminalStyle, listing: Bool = false,
        book: String? = nil
    ) {
        guard selection == nil else { return }
        let warnings = SkippedText.warnings(for: loaded.sections)
        for warning in warnings { ReportRecorder.shared.warn(ListRenderer.message(for: warning, listing: false)) }
        guard !running.quiet else { return }
        let limit = action.verbose ? warnings.count : 5
        let prefix = book.map { bookName($0) + ": " } ?? ""
        for warning in warnings.prefix(limit) {
            StandardError.write(
                style.yellow("warning:") + " " + prefix + ListRenderer.message(for: warning, listing: listing) + "\n")
        }
        if warnings.count > limit {
            StandardError.write(
                style.yellow("warning:")
                    + " \(plural(warnings.count - limit, "more large skipped section")) "
                    + "(\(listing ? "the list" : "--list") shows them all)\n"
            )
        }
    }

    func reportError(_ message: String, style: TerminalStyle) {
        StandardError.write(style.red("error:") + " " + oneLine(message) + "\n")
    }

    func bookName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }
}
