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

    // MARK: What to do

    @Flag(help: "Print the book's metadata and numbered sections with the decisions; convert nothing.")
    var list = false

    @Flag(help: "With --list: print JSON (a stable contract: fields are added, never renamed).")
    var json = false

    @Flag(name: [.short, .long], help: "With --list: show the reasons behind each decision.")
    var verbose = false

    @Flag(help: "Write the exact text that would be spoken, one .txt per section, without synthesizing.")
    var text = false

    // MARK: Which sections

    // Unconditional: "--chapters -3" reaches the list's own parser, which says what is wrong with
    // it, instead of "missing value".
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Sections to convert, by their --list number: 1-5,8,12-.", valueName: "LIST"))
    var chapters: String?

    @Option(
        help: ArgumentHelp(
            "Also read these skipped kinds (preface,introduction,appendix,notes,...) or 'all'.", valueName: "KINDS"))
    var include: String?

    @Option(
        help: ArgumentHelp(
            "Table-of-contents level that makes sections, 1 for the top (default: the level of the book's chapters).",
            valueName: "N"))
    var tocDepth: Int?

    @Option(help: "Notes: skip (default), or end to read a section's notes at its end.")
    var notes: SpokenTextOptions.Notes = .skip

    @Option(help: "Tables of figures: notice (default: \"Table omitted.\"), read (row by row) or skip.")
    var tables: SpokenTextOptions.Omission = .notice

    @Option(help: "Code listings: notice (default: \"Code example omitted.\"), read (line by line) or skip.")
    var code: SpokenTextOptions.Omission = .notice

    @Option(help: "Images: read their descriptions (alt text; notice and read are the same), or skip them.")
    var images: SpokenTextOptions.Omission = .notice

    @Option(help: "Equations: read their alt text or simple markup (notice and read are the same), or skip them.")
    var math: SpokenTextOptions.Omission = .notice

    // MARK: Voice

    @Option(
        help: ArgumentHelp(
            "Voice name or language (en, en-gb, fr, de...), or auto for the book's language.", valueName: "VOICE"))
    var voice: String = "auto"

    @Option(help: ArgumentHelp("Speaking rate in words per minute (80-450).", valueName: "WPM"))
    var rate: Int = 175

    @Option(help: ArgumentHelp("Pitch, 0-100 (50 is the voice's normal pitch).", valueName: "N"))
    var pitch: Int = 50

    @Option(help: ArgumentHelp("Volume, 0-200 (100 is normal).", valueName: "N"))
    var volume: Int = 100

    @Option(
        help: ArgumentHelp(
            "Pronunciation lexicon: lines of 'written = spoken' (see docs/normalization.md).", valueName: "FILE"))
    var lexicon: String?

    @Flag(help: "Speak numbers, years and abbreviations exactly as written (no text normalisation).")
    var noNormalize = false

    // MARK: Output

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Output folder (default: a folder named after the book).", valueName: "DIR"))
    var output: String?

    @Option(help: "Audio format: wav (default), flac, ogg, opus, mp3.")
    var format: AudioFormat = .wav

    @Option(
        help: ArgumentHelp(
            "Encoder quality from 0 (best, largest) to 1 (smallest); FLAC: compression effort.", valueName: "Q"))
    var quality: Double?

    @Option(help: ArgumentHelp("MP3 bitrate mode: constant, average or variable.", valueName: "MODE"))
    var bitrateMode: BitrateMode?

    @Option(
        help: ArgumentHelp(
            "Also make one audiobook file with chapters, tags and cover: m4b, mp3, opus, ogg or flac (needs ffmpeg).",
            valueName: "FORMAT"))
    var bundle: BundleFormat?

    @Flag(help: "Do not embed the book's cover in the section files (cover.jpg beside them is still written).")
    var noCoverArt = false

    @Option(help: ArgumentHelp("Sections converted at once, each in its own process (default: cores).", valueName: "N"))
    var jobs: Int?

    @Flag(help: "Redo every section, even those already converted; convert text the voice cannot speak.")
    var force = false

    /// Hidden: a new worker process for every section instead of a child forked from a prepared one
    /// (the two must give the same bytes; tests compare them, and it is a way out should forking fail).
    @Flag(help: .hidden)
    var freshWorkers = false

    @Flag(help: "Allow an output folder that holds other files, replacing any at our file names.")
    var overwrite = false

    @Option(help: "Progress report: auto, plain, json, or none (the summary and warnings only).")
    var progress: ProgressMode = .auto

    @Flag(name: [.short, .long], help: "No progress and no summary; errors only.")
    var quiet = false

    mutating func validate() throws {
        if books.isEmpty { throw ValidationError("Give at least one EPUB file or folder.") }
        if json && !list { throw ValidationError("--json goes with --list (use --progress json for conversions).") }
        if verbose && !list { throw ValidationError("--verbose goes with --list.") }
        if list && text { throw ValidationError("Choose one of --list and --text.") }
        if let tocDepth, tocDepth < 1 { throw ValidationError("--toc-depth must be 1 or more.") }
        if list || text {
            let conversionOnly: [(Bool, String)] = [
                (jobs != nil, "--jobs"), (force, "--force"), (quality != nil, "--quality"),
                (bitrateMode != nil, "--bitrate-mode"), (progress != .auto, "--progress"), (format != .wav, "--format"),
                (bundle != nil, "--bundle"),
            ]
            if let used = conversionOnly.first(where: \.0) {
                throw ValidationError("\(used.1) is for conversions, not with --\(list ? "list" : "text").")
            }
        }
        if list && output != nil { throw ValidationError("--list prints to the terminal; -o is for conversions.") }
        if !LiveVoices.rateRange.contains(rate) {
            throw ValidationError("--rate must be within \(LiveVoices.rateRange) words per minute.")
        }
        if !LiveVoices.pitchRange.contains(pitch) {
            throw ValidationError("--pitch must be within \(LiveVoices.pitchRange).")
        }
        if !LiveVoices.volumeRange.contains(volume) {
            throw ValidationError("--volume must be within \(LiveVoices.volumeRange).")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more.") }
        if let quality, !(0...1).contains(quality) { throw ValidationError("--quality must be between 0 and 1.") }
        if bitrateMode != nil && format != .mp3 { throw ValidationError("--bitrate-mode is for --format mp3.") }
        if quality != nil && format == .wav { throw ValidationError("--quality does not apply to WAV.") }
        if let lexicon {
            do { try LiveConversion.checkLexicon(path: lexicon) } catch { throw ValidationError("--lexicon: \(error)") }
        }
        if let chapters {
            do { _ = try ChapterSelection(parsing: chapters) } catch {
                throw ValidationError("--chapters: \(error)")
            }
        }
        _ = try sectionOptions()
    }

    func sectionOptions() throws -> SectionOptions {
        var options = SectionOptions(tocDepth: tocDepth)
        guard let include else { return options }
        for name in include.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
            if name == "all" {
                options.includeAll = true
            } else if let kind = SectionKind(rawValue: name) {
                options.include.insert(kind)
            } else {
                let known = SectionKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--include: unknown kind \"\(name)\"; known kinds: all, \(known).")
            }
        }
        return options
    }

    func run() async throws {
        // Past a file-size limit (ulimit -f) a write should fail with EFBIG, not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        BrokenPipe.install()
        let options = try sectionOptions()
        let selection = try chapters.map { try ChapterSelection(parsing: $0) }
        let stderrStyle = TerminalStyle.detect(fileDescriptor: 2)
        // --bundle needs ffmpeg: without it, stop before any book is read or any section made.
        var bundler: AudiobookBundler?
        if let bundle {
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
        let folders = batch ? BatchFolders(root: output ?? ".") : nil
        var worst: Exit = missing > 0 ? (batch ? .partialFailure : .unreadableBook) : .success
        var failedBooks = missing
        // `--list --json` of several books: one JSON array of their listings, written at the end.
        var listings: [String]? = list && json && batch ? [] : nil
        for path in paths {
            let status: Exit
            if list {
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
        if batch && !quiet && !list && progress != .json && worst != .interrupted {
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
            let speech = LiveConversion.speakableText(of: loaded, voice: voice)
            if json {
                emitJSON(try ListRenderer.json(for: loaded, speech: speech))
            } else {
                let renderer = ListRenderer(
                    style: TerminalStyle.detect(fileDescriptor: 1), verbose: verbose, wordsPerMinute: rate)
                StandardOutput.write(renderer.text(for: loaded))
                reportWarnings(loaded.warnings, style: stderrStyle)
                reportSkippedText(in: loaded, selection: selection, style: stderrStyle, listing: true)
                if !quiet, let speech {
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
        guard !quiet, !warnings.isEmpty else { return }
        let limit = verbose ? warnings.count : 5
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
        guard !quiet, selection == nil else { return }
        let warnings = SkippedText.warnings(for: loaded.sections)
        let limit = verbose ? warnings.count : 5
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
