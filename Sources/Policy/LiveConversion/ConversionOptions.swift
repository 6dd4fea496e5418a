import Bundling
import Foundation
import ReadAlong
import Subtitles

/// What a conversion is asked for, whichever front end asks: the CLI fills it from its flags, the
/// service from a job's JSON. A new option is added here once, and reaches the request through
/// `LiveConversion.request`.
public struct ConversionOptions: Sendable {
    /// Table-of-contents depth and the section kinds read besides the body (`--toc-depth`, `--include`).
    public var sections: SectionOptions
    /// The sections to convert by number (`--chapters`, `chapters`); nil: the classifier's choice.
    public var chapters: ChapterSelection?
    /// Notes, tables, code, images, equations (`--notes`...).
    public var text: SpokenTextOptions
    /// Whether numbers, years and abbreviations are spoken as words (`--no-normalize` turns it off).
    public var normalize: Bool
    /// A pronunciation lexicon (`--lexicon`).
    public var lexiconPath: String?
    /// A voice name or language, or `auto` for the book's language.
    public var voice: String
    /// The engine asked for (`--engine`, a job's `engine`): with `auto`, `neural` picks the installed neural
    /// voice of the book's language; a named voice must be of the engine asked for.
    public var engine: EnginePreference
    /// Words per minute, pitch, volume (`LiveVoices.rateRange`...).
    public var rate: Int
    /// See `rate`.
    public var pitch: Int
    /// See `rate`.
    public var volume: Int
    /// Format and encoder settings of the section files.
    public var encoding: AudioEncoding
    /// One audiobook file of the sections, made once they are all converted (needs ffmpeg).
    public var bundle: BundleFormat?
    /// Subtitles beside each section's audio, and with `bundle` one for the whole book beside it
    /// (`--subtitles`, `--subtitles-words`); nil: none.
    public var subtitles: SubtitleOptions?
    /// A read-along copy of the book (`--bundle epub`, `ReadAlongEPUB`): its sentences highlighted
    /// as the sections' audio says them, made once the sections are converted. Needs an EPUB 3 or 2 book
    /// (whose copy is made EPUB 3) and sections in MP3 or Opus (`LiveConversion.prepare` refuses others before any audio is made).
    public var readAlong: Bool
    /// Whether the book's cover is embedded in the section files (`cover.jpg` beside them is written
    /// either way).
    public var embedsCover: Bool
    /// Sections made at once.
    public var jobs: Int
    /// Redo every section; convert text the voice cannot speak (`SpeakableText`) instead of refusing.
    public var force: Bool
    /// Allow an output folder that holds other files, replacing any at our file names.
    public var allowNonEmptyOutput: Bool
    /// The processes that make the sections.
    public var workers: WorkerProcesses

    /// Options with the CLI's defaults: the classifier's sections, `auto` voice at 175 words per
    /// minute, WAV, the cover embedded, one job per core, sections made in children of a fork server
    /// started from `workers`.
    public init(
        sections: SectionOptions = SectionOptions(tocDepth: nil), chapters: ChapterSelection? = nil,
        text: SpokenTextOptions = SpokenTextOptions(), normalize: Bool = true, lexiconPath: String? = nil,
        voice: String = "auto", engine: EnginePreference = .auto, rate: Int = 175, pitch: Int = 50, volume: Int = 100,
        encoding: AudioEncoding = AudioEncoding(), bundle: BundleFormat? = nil, subtitles: SubtitleOptions? = nil,
        readAlong: Bool = false,
        embedsCover: Bool = true,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, force: Bool = false,
        allowNonEmptyOutput: Bool = false, workers: WorkerProcesses = .inProcess
    ) {
        self.sections = sections
        self.chapters = chapters
        self.text = text
        self.normalize = normalize
        self.lexiconPath = lexiconPath
        self.voice = voice
        self.engine = engine
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.encoding = encoding
        self.bundle = bundle
        self.subtitles = subtitles
        self.readAlong = readAlong
        self.embedsCover = embedsCover
        self.jobs = jobs
        self.force = force
        self.allowNonEmptyOutput = allowNonEmptyOutput
        self.workers = workers
    }
}

/// The processes that make a conversion's sections.
///
/// Every section is made by a fresh process: espeak-ng's state survives a reset, and only a fresh
/// process makes a section's audio identical whatever ran before (resume, `jobs`). The fork server
/// gives each section a child forked from a process that has just initialised espeak-ng: the same
/// state as a fresh process, without its start-up cost.
public struct WorkerProcesses: Sendable, Hashable {
    /// The executable started for each slot (a front end passes its own binary); nil: this process,
    /// one section at a time.
    public var executable: String?
    /// Its arguments (the front end's hidden subcommand).
    public var arguments: [String]
    /// The executable is a fork server (`LiveWorker.runForkServer`).
    public var forksPerJob: Bool

    /// Sections made in this process, one at a time (tests; a library user without a worker binary).
    public static let inProcess = WorkerProcesses(executable: nil, arguments: [], forksPerJob: false)

    /// A fork server per job slot: `executable` run with `LiveWorker.forkServerArgument` calls
    /// `LiveWorker.runForkServer()` before anything else.
    public static func forkServer(executable: String) -> WorkerProcesses {
        WorkerProcesses(executable: executable, arguments: [LiveWorker.forkServerArgument], forksPerJob: true)
    }

    /// A new process per section: `executable arguments...` runs `LiveWorker.run()`.
    public static func freshProcess(executable: String, arguments: [String]) -> WorkerProcesses {
        WorkerProcesses(executable: executable, arguments: arguments, forksPerJob: false)
    }
}

/// What a conversion decided from the book once, which every later run of it reuses: the service
/// decides when it plans a job and keeps the decisions for the job's section tasks.
public struct ConversionDecisions: Sendable, Hashable {
    /// The voice's identifier, resolved (never `auto`).
    public var voice: String
    /// The language the text is read in when the voice's, not the book's (`VoiceChoice`); nil: the book's.
    public var textLanguage: String?
    /// Runs of scripts the voice cannot speak, read by other voices (`SpeakableText`); nil: none.
    public var scriptSwitching: ScriptSwitching?
    /// The sections to make, in book order.
    public var sections: [Int]
    /// The title shown and bundled under.
    public var displayTitle: String

    /// Decisions as a caller kept them.
    public init(
        voice: String, textLanguage: String?, scriptSwitching: ScriptSwitching?, sections: [Int],
        displayTitle: String
    ) {
        self.voice = voice
        self.textLanguage = textLanguage
        self.scriptSwitching = scriptSwitching
        self.sections = sections
        self.displayTitle = displayTitle
    }
}

/// Why a conversion is refused before it starts; each front end words its own hint (a flag, a field).
public enum LiveConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No installed voice answers to the name (the engine's message).
    case unknownVoice(String)
    /// Most of the text is in scripts no installed voice speaks (`SpeakableTextReport.refuses`), and
    /// `force` is not set; `suggestedVoice` speaks more of it.
    case unspeakable(problem: String, suggestedVoice: String?)
    /// The installed libsndfile cannot write the format.
    case formatUnavailable(AudioFormat)
    /// A bundle needs ffmpeg, which is not installed.
    case ffmpegMissing(BundleFormat)
    /// The chosen voice cannot do what a setting asks (a neural voice has no pitch control).
    case unsupportedSetting(String)
    /// The voice named is not of the engine asked for (`--engine neural` with an espeak-ng voice).
    case engineMismatch(String)
    /// The neural engine was asked for with `auto`, and no installed neural voice speaks the book's
    /// language (a BCP 47 tag; nil when the book names none).
    case noNeuralVoice(language: String?)
    /// A read-along book (`readAlong`) cannot be made of this book or in this format: a book that is
    /// neither EPUB 2 nor EPUB 3, one with Media Overlays of its own, sections in a format that is not an EPUB core media type.
    case readAlongRefused(ReadAlongError)

    /// The reason, without a front end's hint.
    public var description: String {
        switch self {
        case .unknownVoice(let message): message
        case .unspeakable(let problem, _): problem
        case .formatUnavailable(let format): "the installed libsndfile cannot write \(format.rawValue) files"
        case .ffmpegMissing(let format): "bundle \(format.rawValue) needs ffmpeg, which is not installed"
        case .unsupportedSetting(let message), .engineMismatch(let message): message
        case .noNeuralVoice(let language?): "no installed neural voice speaks \(language), the book's language"
        case .noNeuralVoice(nil): "the book names no language, so no neural voice can be chosen for it"
        case .readAlongRefused(let reason): reason.description
        }
    }
}
