import AudioFiles
import ESpeakEngine
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The composition root: the parts a conversion runs with. EPUB books are read by the library's
/// EPUB source; espeak-ng speaks, or a neural voice when the request names one (in process, one engine
/// per process, `LiveSpeechEngine`); libsndfile writes the files.
///
/// The coordinator, the worker processes and the fork server all use it, so that a section comes
/// out the same whichever process makes it.
public enum LiveEnvironment {
    /// The live parts, reusing `indexed` (a book the caller already read) for the coordinator.
    public static func make(reusing indexed: IndexedBook? = nil) -> ConversionEnvironment {
        .epub(
            reusing: indexed, makeEngine: { try LiveSpeechEngine() },
            makeSink: { request in
                try AudioFileWriter(
                    path: request.path, encoding: request.encoding, sampleRate: request.sampleRate,
                    tags: request.tags)
            })
    }
}

/// What the live audio files can be.
enum LiveAudio {
    /// Whether the installed libsndfile writes `format`.
    static func canWrite(_ format: AudioFormat) -> Bool { AudioFileWriter.canWrite(format) }
}

/// The worker processes of a conversion (`WorkerProcesses`): a front end's hidden subcommand calls
/// one of these and exits with its status.
public enum LiveWorker {
    /// The only argument of an executable run as a fork server (`WorkerProcesses.forkServer`).
    public static let forkServerArgument = "fork-server"

    /// A worker process: jobs as JSON lines on standard input, messages as JSON lines on standard
    /// output (docs/library-api.md), until standard input ends. Returns the process's exit status.
    public static func run() -> Int32 {
        ignoreSignals()
        return WorkerMain.run(
            input: FileHandle.standardInput, output: FileHandle.standardOutput, environment: LiveEnvironment.make()
        ).rawValue
    }

    /// A fork server (`WorkerMain.runForkServer`): call it from the main thread before anything starts
    /// another thread (before Swift's concurrency machinery), and exit with its status.
    public static func runForkServer() -> Int32 {
        ignoreSignals()
        return WorkerMain.runForkServer(environment: LiveEnvironment.make()).rawValue
    }

    /// Ctrl-C reaches the whole process group: the coordinator decides what happens (it cancels and
    /// kills its workers), so a worker does not die half-way through a write; past a file-size limit
    /// (`ulimit -f`) a write fails with EFBIG instead of killing the process.
    private static func ignoreSignals() {
        signal(SIGINT, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }
}
