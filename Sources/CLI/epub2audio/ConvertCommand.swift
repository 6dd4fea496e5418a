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
    @OptionGroup(title: "Running") var running: RunOptions

    /// The checks that span groups; each group checks its own values.
    func validate() throws {
        if books.isEmpty { throw ValidationError("Give at least one EPUB file or folder.") }
        if action.list || action.text {
            let conversionOnly: [(Bool, String)] = [
                (running.jobs != nil, "--jobs"), (running.force, "--force"), (files.quality != nil, "--quality"),
                (files.bitrateMode != nil, "--bitrate-mode"), (running.progress != .auto, "--progress"),
                (files.format != .wav, "--format"), (files.bundle != nil, "--bundle"),
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
        if let bundle = files.bundle {
            guard let ffmpeg = AudiobookBundler.locateFFmpeg() else {
                reportError(
                    "--bundle \(bundle.rawValue) needs ffmpeg, which is not installed (apt-get install ffmpeg)",
                    style: stderrStyle)
                throw ExitCode(Exit.unavailable.rawValue)
            }
            bundler = AudiobookBundler(format: bundle, ffmpegPath: ffmpeg)
        }
        var paths: [String] = []
        var missing = 0
        for argument in books {
            do {
                paths += try BookLoader.expand([argument])
            } catch {
                let (_, message) = exitStatus(for: error)
                reportError(message, style: stderrStyle)
                missing += 1
            }
        }
        let batch = paths.count + missing > 1
        let folders = batch ? BatchFolders(root: files.output ?? ".") : nil
        var worst: Exit = missing > 0 ? (batch ? .partialFailure : .unreadableBook) : .success
        var failedBooks = missing
        // `--list --json` of several books: one JSON array of their listings, written at the end.
        var listings: [String]? = action.list && action.json && batch ? [] : nil
        for path in paths {
            let status: Exit
            if action.list {
                status = listBook(path, options: options, selection: selection) { listing in
                    if listings != nil { listings?.append(listing) } else { StandardOutput.write(listing + "\n") }
                }
            } else {
                status = await convertBook(
                    path, options: options, selection: selection, batch: folders, bundler: bundler)
            }
            if status != .success {
                failedBooks += 1
                worst = worse(worst, status, batch: batch)
            }
            if status == .interrupted || BrokenPipe.happened { break }
        }
        if let listings { StandardOutput.write("[\n" + listings.joined(separator: ",\n") + "\n]\n") }
        // The reader of our output has gone (`| head`): stop quietly, as a Unix tool does.
        if BrokenPipe.happened { BrokenPipe.exit() }
        if batch && !running.quiet && !action.list && running.progress != .json && worst != .interrupted {
            let total = paths.count + missing
            let made = total - failedBooks
            let summary =
                "\(plural(total, "book")): \(made) converted" + (failedBooks > 0 ? ", \(failedBooks) failed" : "")
            StandardError.write(stderrStyle.bold(summary) + "\n")
        }
        if worst != .success { throw ExitCode(worst.rawValue) }
    }

    /// In a batch, one failing book makes a partial failure; alone, its own status stands.
    func worse(_ current: Exit, _ new: Exit, batch: Bool) -> Exit {
        if new == .interrupted || current == .interrupted { return .interrupted }
        return batch ? .partialFailure : new
    }

    /// `--list` of one book; with `--json`, `emitJSON` takes its listing.
    func listBook(
        _ path: String, options: SectionOptions, selection: ChapterSelection?, emitJSON: (String) -> Void
    ) -> Exit {
        let stderrStyle = TerminalStyle.detect(fileDescriptor: 2)
        do {
            let loaded = try BookLoader.load(path: path, options: options, chapters: selection)
            // What the voice a conversion would use can speak of the text read (espeak-ng is asked).
            let speech = LiveConversion.speakableText(
                of: loaded, voice: speaking.voice, engine: speaking.engine)
            if action.json {
                emitJSON(try ListRenderer.json(for: loaded, speech: speech))
            } else {
                let renderer = ListRenderer(
                    style: TerminalStyle.detect(fileDescriptor: 1), verbose: action.verbose,
                    wordsPerMinute: speaking.rate)
                StandardOutput.write(renderer.text(for: loaded))
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
        guard !running.quiet, selection == nil else { return }
        let warnings = SkippedText.warnings(for: loaded.sections)
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
