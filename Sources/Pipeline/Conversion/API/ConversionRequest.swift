import Contracts
import Foundation

/// Which sections to convert.
public enum SectionSelection: Hashable, Sendable {
    /// The sections the book text includes by default (front and back matter usually left out).
    case planned
    /// Every section.
    case all
    /// These section numbers (as `--list` shows them), in any order.
    case numbers([Int])

    /// The section numbers this selection picks among `sections`.
    /// - Throws: `ConversionError.unknownSection` for a number the book does not have,
    ///   `.noSections` when nothing is selected.
    public func numbers(in sections: [PlannedSection]) throws -> Set<Int> {
        let numbers: Set<Int>
        switch self {
        case .planned: numbers = Set(sections.filter(\.included).map(\.number))
        case .all: numbers = Set(sections.map(\.number))
        case .numbers(let wanted):
            let known = Set(sections.map(\.number))
            if let unknown = wanted.first(where: { !known.contains($0) }) {
                throw ConversionError.unknownSection(unknown)
            }
            numbers = Set(wanted)
        }
        guard !numbers.isEmpty else { throw ConversionError.noSections }
        return numbers
    }
}

/// Everything a conversion needs to know; the CLI builds one from its flags.
public struct ConversionRequest: Sendable {
    /// Path of the `.epub` file (hashed for the manifest, and handed to workers to read).
    public var bookPath: String
    /// The output folder; created when missing. Nothing is ever written outside it.
    public var outputDirectory: String
    /// Which sections to convert.
    public var selection: SectionSelection
    /// Voice, rate, pitch, volume (the voice resolved, never `auto`).
    public var voice: VoiceSettings
    /// Format and encoder settings of the section files.
    public var encoding: AudioEncoding
    /// Chunk sizes and pauses.
    public var chunking: ChunkerOptions
    /// How the book is read: sections, spoken text (notes...), normalisation.
    public var bookOptions: BookOptions
    /// How many sections are made at once: one job slot each, making its sections in worker
    /// processes when `workerExecutable` is set, else one slot in this process.
    public var jobs: Int
    /// Redo every selected section even when the manifest says it is done.
    public var force: Bool
    /// Allow an output folder that holds files epub2audio did not make, and replacing them.
    public var allowNonEmptyOutput: Bool
    /// The executable started for each worker (the CLI passes its own path); nil runs everything
    /// in this process, one section at a time.
    public var workerExecutable: String?
    /// Arguments for the worker executable (the CLI's hidden subcommand).
    public var workerArguments: [String]
    /// True when the worker executable is a fork server (`LiveWorker.runForkServer`): it makes every
    /// job in a child forked from the same initialised state, so one worker process serves all the
    /// jobs of a slot. False: a new worker process is started for every section.
    public var workerForksPerJob: Bool
    /// Longest time between manifest writes while a section is in progress, in seconds.
    public var manifestInterval: TimeInterval
    /// The picture embedded in every section file (FLAC, MP3, Opus, Vorbis; not WAV), written beside
    /// them as `cover.jpg` or `cover.png` first; nil: the files carry none. The CLI reads it from
    /// the book once (`AudiobookCover(book:ffmpegPath:)`) unless `--no-cover-art` is given. A cover
    /// over 8 MB is not embedded (a warning says so).
    public var cover: AudiobookCover?
    /// The sections whose files make the output folder's audiobook, when the caller knows them
    /// better than the folder does: the service makes each section in a run and folder of its own,
    /// and passes its job's sections. Track numbers are `i/N` among them. Nil (the CLI): the sections
    /// done in the folder already and those this run selects.
    public var trackSections: [Int]?
    /// Words per part of a long section (`SectionParts`): a section with more is made in parts that
    /// share the job slots. `defaultPartWords` unless a test needs small parts; it changes
    /// where parts start (so the bytes of long sections), never what is spoken.
    public var partWords: Int
    /// Keep the timing of each section made beside its audio (`SectionTimingFile`), for the read-along
    /// outputs (subtitles, the read-along EPUB). A section finished by an earlier run without its timing
    /// file is then made again: the audio is the same, and the outputs get every section's timing.
    /// Changes nothing in the audio.
    public var keepsTiming: Bool

    /// A section whose spoken text holds more words than this is made in parts of about this many
    /// words, each in a worker of its own (`partWords`).
    public static let defaultPartWords = 2_000

    /// A request with the defaults the CLI uses: planned sections, English, WAV, one job per core.
    public init(
        bookPath: String, outputDirectory: String, selection: SectionSelection = .planned,
        voice: VoiceSettings = VoiceSettings(voice: "en"), encoding: AudioEncoding = AudioEncoding(),
        chunking: ChunkerOptions = ChunkerOptions(), bookOptions: BookOptions = BookOptions(),
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, force: Bool = false,
        allowNonEmptyOutput: Bool = false, workerExecutable: String? = nil, workerArguments: [String] = ["worker"],
        workerForksPerJob: Bool = false, manifestInterval: TimeInterval = 3, cover: AudiobookCover? = nil,
        partWords: Int = ConversionRequest.defaultPartWords, keepsTiming: Bool = false
    ) {
        self.bookPath = bookPath
        self.outputDirectory = outputDirectory
        self.selection = selection
        self.voice = voice
        self.encoding = encoding
        self.chunking = chunking
        self.bookOptions = bookOptions
        self.jobs = jobs
        self.force = force
        self.allowNonEmptyOutput = allowNonEmptyOutput
        self.workerExecutable = workerExecutable
        self.workerArguments = workerArguments
        self.workerForksPerJob = workerForksPerJob
        self.manifestInterval = manifestInterval
        self.cover = cover
        self.partWords = partWords
        self.keepsTiming = keepsTiming
    }
}
