import ArgumentParser
import LiveConversion

// The convert command's flags by concern, each group checking its own values (`validate`), and
// turning them into the library's types; checks that span groups stay in `ConvertCommand.validate`.

/// What the command does with the books: convert them (the default), list them, or write their text.
struct ActionOptions: ParsableArguments {
    @Flag(help: "Print the book's metadata and numbered sections with the decisions; convert nothing.")
    var list = false

    @Flag(help: "With --list: print JSON (a stable contract: fields are added, never renamed).")
    var json = false

    @Flag(name: [.short, .long], help: "With --list: show the reasons behind each decision.")
    var verbose = false

    @Flag(help: "Write the exact text that would be spoken, one .txt per section, without synthesizing.")
    var text = false

    func validate() throws {
        if json && !list { throw ValidationError("--json goes with --list (use --progress json for conversions).") }
        if verbose && !list { throw ValidationError("--verbose goes with --list.") }
        if list && text { throw ValidationError("Choose one of --list and --text.") }
    }
}

/// Which sections are read: by number, by kind, by the table of contents' level.
struct SectionChoiceOptions: ParsableArguments {
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

    func validate() throws {
        if let tocDepth, tocDepth < 1 { throw ValidationError("--toc-depth must be 1 or more.") }
        _ = try selection()
        _ = try sectionOptions()
    }

    /// `--chapters` parsed; nil without it (the book's own choice).
    func selection() throws -> ChapterSelection? {
        guard let chapters else { return nil }
        do {
            return try ChapterSelection(parsing: chapters)
        } catch {
            throw ValidationError("--chapters: \(error)")
        }
    }

    /// How the book is cut into sections and which kinds are read (`--toc-depth`, `--include`).
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
}

/// How a section's text is read: notes, tables, code, images, equations, numbers, a lexicon.
struct ReadingOptions: ParsableArguments {
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

    @Option(
        help: ArgumentHelp(
            "Pronunciation lexicon: lines of 'written = spoken' (see docs/normalization.md).", valueName: "FILE"))
    var lexicon: String?

    @Flag(help: "Speak numbers, years and abbreviations exactly as written (no text normalisation).")
    var noNormalize = false

    func validate() throws {
        if let lexicon {
            do { try LiveConversion.checkLexicon(path: lexicon) } catch { throw ValidationError("--lexicon: \(error)") }
        }
    }

    /// The library's reading options from these flags.
    var spokenText: SpokenTextOptions {
        SpokenTextOptions(notes: notes, tables: tables, code: code, images: images, math: math)
    }
}

/// The voice and how it speaks.
struct VoiceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Voice name or language (en, en-gb, fr, de...), or auto for the book's language.", valueName: "VOICE"))
    var voice: String = "auto"

    @Option(
        help: ArgumentHelp(
            "Speech engine: auto (espeak-ng unless --voice names a neural voice), espeak, or neural (with --voice auto: the installed neural voice of the book's language).",
            valueName: "ENGINE"))
    var engine: EnginePreference = .auto

    @Option(help: ArgumentHelp("Speaking rate in words per minute (80-450).", valueName: "WPM"))
    var rate: Int = 175

    @Option(help: ArgumentHelp("Pitch, 0-100 (50 is the voice's normal pitch).", valueName: "N"))
    var pitch: Int = 50

    @Option(help: ArgumentHelp("Volume, 0-200 (100 is normal).", valueName: "N"))
    var volume: Int = 100

    func validate() throws {
        if !LiveVoices.rateRange.contains(rate) {
            throw ValidationError("--rate must be within \(LiveVoices.rateRange) words per minute.")
        }
        if !LiveVoices.pitchRange.contains(pitch) {
            throw ValidationError("--pitch must be within \(LiveVoices.pitchRange).")
        }
        if !LiveVoices.volumeRange.contains(volume) {
            throw ValidationError("--volume must be within \(LiveVoices.volumeRange).")
        }
    }
}

/// The files written: where, in which format, the bundle, the cover.
struct OutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Output folder (default: a folder named after the book).", valueName: "DIR"))
    var output: String?

    @Option(help: "Audio format: wav (default; mp3 with --bundle epub), flac, ogg, opus, mp3.")
    var format: AudioFormat?

    @Option(
        help: ArgumentHelp(
            "Encoder quality from 0 (best, largest) to 1 (smallest); FLAC: compression effort.", valueName: "Q"))
    var quality: Double?

    @Option(help: ArgumentHelp("MP3 bitrate mode: constant, average or variable.", valueName: "MODE"))
    var bitrateMode: BitrateMode?

    @Option(
        help: ArgumentHelp(
            "Also make one audiobook file with chapters, tags and cover: m4b, mp3, opus, ogg or flac (needs ffmpeg); "
                + "or epub: a read-along copy of the book (EPUB 3 with Media Overlays; --format mp3 or opus).",
            valueName: "FORMAT"))
    var bundle: BundleChoice?

    @Flag(help: "Do not embed the book's cover in the section files (cover.jpg beside them is still written).")
    var noCoverArt = false

    @Flag(help: "Allow an output folder that holds other files, replacing any at our file names.")
    var overwrite = false

    func validate() throws {
        if let quality, !(0...1).contains(quality) { throw ValidationError("--quality must be between 0 and 1.") }
        if bitrateMode != nil && audioFormat != .mp3 { throw ValidationError("--bitrate-mode is for --format mp3.") }
        if quality != nil && audioFormat == .wav { throw ValidationError("--quality does not apply to WAV.") }
        if readAlong, ReadAlongEPUB.mediaType(for: audioFormat) == nil {
            throw ValidationError(
                "--bundle epub needs --format mp3 or opus (the EPUB core audio types), not \(audioFormat.rawValue).")
        }
    }

    /// The section files' format: `--format`, else WAV, or MP3 for a read-along book.
    var audioFormat: AudioFormat { format ?? (readAlong ? .mp3 : .wav) }

    /// The audiobook file `--bundle` asks for, if any.
    var audiobook: BundleFormat? {
        if case .audiobook(let format) = bundle { return format }
        return nil
    }

    /// Whether `--bundle epub` asks for the read-along book.
    var readAlong: Bool { bundle == .readAlong }

    /// The section files' encoding from these flags.
    var encoding: AudioEncoding {
        AudioEncoding(format: audioFormat, compressionLevel: quality, bitrateMode: bitrateMode)
    }
}

/// Subtitles made from the timing of the speech: one file beside each section's audio, and with
/// `--bundle` one for the whole book.
struct SubtitleFlags: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Also write subtitles, srt or vtt: one file beside each section's audio (same name), and with --bundle one for the whole book beside it. Cues are the book's sentences.",
            valueName: "FORMAT"))
    var subtitles: SubtitleFormat?

    @Flag(
        help:
            "With --subtitles vtt: time each word (WebVTT cue timestamps). Word timing comes only from espeak-ng voices; neural voices give sentence timing."
    )
    var subtitlesWords = false

    func validate() throws {
        if subtitlesWords && subtitles == nil {
            throw ValidationError("--subtitles-words goes with --subtitles vtt.")
        }
        if let options, let problem = options.problem { throw ValidationError("--subtitles-words: \(problem).") }
    }

    /// The library's subtitle options from these flags; nil without `--subtitles`.
    var options: SubtitleOptions? {
        subtitles.map { SubtitleOptions(format: $0, words: subtitlesWords) }
    }
}

/// How a conversion runs and what it says while it does.
struct RunOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Sections converted at once, each in its own process (default: cores).", valueName: "N"))
    var jobs: Int?

    @Flag(
        help:
            "Redo every section, even those already converted; convert text the voice cannot speak, or when the disk looks too small."
    )
    var force = false

    /// Hidden: a new worker process for every section instead of a child forked from a prepared one
    /// (the two must give the same bytes; tests compare them, and it is a way out should forking fail).
    @Flag(help: .hidden)
    var freshWorkers = false

    @Option(help: "Progress report: auto, plain, json, or none (the summary and warnings only).")
    var progress: ProgressMode = .auto

    @Flag(name: [.short, .long], help: "No progress and no summary; errors only.")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "Write a JSON report of every book (status, sections, warnings, audio, files) to FILE at the end.",
            valueName: "FILE"))
    var report: String?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more.") }
    }
}

/// What `--bundle` makes once the sections are converted: one audiobook file (`m4b`, `mp3`, `opus`,
/// `ogg`, `flac`, made by ffmpeg) or the read-along copy of the book (`epub`). Two outputs of different
/// kinds behind one flag: the library keeps them apart (`ConversionOptions.bundle`, `.readAlong`).
enum BundleChoice: ExpressibleByArgument, Hashable {
    /// An audiobook file in this format.
    case audiobook(BundleFormat)
    /// The read-along EPUB.
    case readAlong

    init?(argument: String) {
        if argument == "epub" {
            self = .readAlong
        } else if let format = BundleFormat(rawValue: argument) {
            self = .audiobook(format)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { BundleFormat.allCases.map(\.rawValue) + ["epub"] }
}
