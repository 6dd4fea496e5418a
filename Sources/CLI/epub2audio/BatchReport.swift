import Foundation
import LiveConversion
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `--report FILE`: what a command did with each of its books, as one JSON document a script reads
/// instead of the `--progress json` events (docs/cli.md, "The report").
///
/// Versioned as the manifest is: `version` says the schema, fields may be added, never removed or
/// renamed. Written atomically (temp file, fsync, rename) when the command ends, also after an
/// interrupt (and at a second Ctrl-C, before exiting at once).
struct BatchReport: Encodable, Sendable {
    /// The schema's version.
    static let version = 1

    /// What happened to one book.
    enum Status: String, Encodable, Sendable {
        /// Sections were made (or a bundle was), and everything asked for is done.
        case converted
        /// Everything asked for was done by an earlier run: nothing was made.
        case alreadyDone = "already-done"
        /// The conversion started and ended with an error (`exitCode`, `message`).
        case failed
        /// Refused before anything was written: unreadable, protected, nothing to read, voice or
        /// format not installed, text the voice cannot speak.
        case refused
        /// Stopped by SIGINT or SIGTERM; a re-run resumes it.
        case interrupted
        /// Not started: the command stopped before it (an interrupt, a disk too small).
        case notStarted = "not-started"
    }

    /// One book's line of the report.
    struct Book: Encodable, Sendable {
        /// The book's path as given (or found in a folder given).
        var file: String
        var status: Status = .notStarted
        /// The exit status the book alone would have had (0 when converted or already done).
        var exitCode: Int32?
        /// Why it failed or was refused.
        var message: String?
        /// The folder its files are in; absent when it was refused before one was chosen.
        var outputDirectory: String?
        var title: String?
        var sectionsRead: Int?
        var wordsRead: Int?
        var sectionsSkipped: Int?
        var wordsSkipped: Int?
        /// What was worked around or left out: the book's warnings, large skipped text, text the
        /// voice cannot speak, and the conversion's own warnings; each once, in order.
        var warnings: [String] = []
        /// Sections made by this run, and kept from earlier runs.
        var sectionsMade: Int?
        var sectionsKept: Int?
        var sectionsFailed: Int?
        /// Seconds of audio of the selected sections done.
        var audioSeconds: Double?
        /// Bytes of the audio files in `outputDirectory` (sections and bundle) after the run.
        var outputBytes: Int64?
        /// The one-file audiobook (`--bundle`), when it is made.
        var bundle: String?
    }

    /// Counts over the books, and their sums.
    struct Totals: Encodable, Sendable {
        var books = 0
        var converted = 0
        var alreadyDone = 0
        var failed = 0
        var refused = 0
        var interrupted = 0
        var notStarted = 0
        var wordsRead = 0
        var audioSeconds = 0.0
        var outputBytes: Int64 = 0
    }

    var version = BatchReport.version
    /// The tool that wrote it (`epub2audio 0.1.0`).
    var tool = "epub2audio \(Converter.toolVersion)"
    /// The command's exit status.
    var exitCode: Int32 = 0
    var books: [Book] = []
    var totals = Totals()

    /// The totals of `books`.
    static func totals(of books: [Book]) -> Totals {
        var totals = Totals()
        totals.books = books.count
        for book in books {
            switch book.status {
            case .converted: totals.converted += 1
            case .alreadyDone: totals.alreadyDone += 1
            case .failed: totals.failed += 1
            case .refused: totals.refused += 1
            case .interrupted: totals.interrupted += 1
            case .notStarted: totals.notStarted += 1
            }
            totals.wordsRead += book.wordsRead ?? 0
            totals.audioSeconds += book.audioSeconds ?? 0
            totals.outputBytes += book.outputBytes ?? 0
        }
        return totals
    }

    /// The document: pretty-printed, keys sorted, slashes as written, a final newline.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }
}

/// The report being made while the command runs: the books in order, the current one filled as it
/// goes. `shared`, because the errors and warnings are said from many places (and the second
/// Ctrl-C writes it from the signal queue).
final class ReportRecorder: Sendable {
    static let shared = ReportRecorder()

    private struct State {
        var path: String?
        var books: [BatchReport.Book] = []
        var current: Int?
    }

    private let state = Mutex(State())

    private init() {}

    /// Starts a report to be written at `path`, listing `books` (not started yet).
    func start(path: String, books: [String]) {
        state.withLock { state in
            state.path = path
            state.books = books.map { BatchReport.Book(file: $0) }
        }
    }

    /// Whether `--report` was given.
    var isRecording: Bool { state.withLock { $0.path != nil } }

    /// Makes the book at `index` of the list the current one (the one `update` changes).
    func begin(_ index: Int) {
        state.withLock { $0.current = $0.books.indices.contains(index) ? index : nil }
    }

    /// Changes the current book's line.
    func update(_ change: (inout BatchReport.Book) -> Void) {
        state.withLock { state in
            guard let current = state.current else { return }
            change(&state.books[current])
        }
    }

    /// Adds `message` to the current book's warnings, unless it is there already.
    func warn(_ message: String) {
        update { if !$0.warnings.contains(message) { $0.warnings.append(message) } }
    }

    /// Adds a book that is in the report but not in the list (an argument that does not exist).
    func appendRefused(_ file: String, status: Exit, message: String) {
        state.withLock { state in
            state.books.append(
                BatchReport.Book(file: file, status: .refused, exitCode: status.rawValue, message: message))
        }
    }

    /// Writes the report, the command ending with `exitCode`; nothing without `--report`. A failure
    /// to write it is said on standard error and returned (the command then exits 5).
    @discardableResult
    func write(exitCode: Int32) -> String? {
        let (path, books) = state.withLock { ($0.path, $0.books) }
        guard let path else { return nil }
        let report = BatchReport(exitCode: exitCode, books: books, totals: BatchReport.totals(of: books))
        do {
            try Self.writeAtomically(try report.json(), to: path)
            return nil
        } catch {
            return "the report \(path) could not be written: \(error)"
        }
    }

    /// Temp file beside `path`, fsync, rename: a reader sees the old report or the new one, whole.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temp = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temp, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temp)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
    }
}
