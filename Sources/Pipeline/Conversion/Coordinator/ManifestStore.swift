import Foundation
import Synchronization

/// The manifest in memory, shared by the job slots, and its files on disk.
///
/// A job slot changes a record under a lock it holds for microseconds (no I/O, no encoding), queues
/// the record and goes on. A writer thread appends what is queued to `manifest.journal` in one write
/// followed by one fsync, at most every `syncInterval` (changes that arrive meanwhile share the next
/// fsync). When the journal holds more lines than the book has sections (and at least
/// `compactionLines`) the writer folds it into a new `manifest.json` and starts a new journal: a
/// change costs O(1) amortised, whatever the size of the book. Rewriting the whole pretty-printed
/// manifest twice per section, inside the lock both slots waited on, made a book O(n²).
///
/// Crash safety: `manifest.json` is replaced atomically, the journal is append-only and its torn last
/// line is ignored, and the folded manifest is the writer's own copy, made of exactly the records it
/// has written. After a kill at any moment, manifest + journal hold every change up to some point, in
/// order; a change still queued when the process died is not recorded, which resume treats as not
/// done (it checks the file, the text and the settings anyway).
final class ManifestStore: Sendable {
    /// Changes queued within this time of the last fsync wait for the next one.
    static let defaultSyncInterval: TimeInterval = 0.02
    /// The journal is folded into the manifest after this many lines, or the book's sections if more.
    static let defaultCompactionLines = 4096

    private struct Shared {
        var manifest: Manifest
        var positions: [Int: Int]
        /// Records changed since the writer last looked, in the order of the changes.
        var queue: [SectionRecord] = []
        var compactionAsked = false
        var closing = false
        /// True when the writer has been signalled and has not yet taken the queue.
        var writerSignalled = false
        /// The first write that failed; every later change throws it.
        var failure: ConversionError?
        /// When each section's progress was last queued.
        var lastProgress: [Int: Date] = [:]
        /// Sections whose progress changed since their record was last queued (queued at close).
        var unqueuedProgress: Set<Int> = []
        /// Callers waiting for the writer to finish what was queued before they asked (`flush()`).
        var flushWaiters: [DispatchSemaphore] = []
    }

    let directory: String
    private let interval: TimeInterval
    private let syncInterval: TimeInterval
    private let state: Mutex<Shared>
    private let wake = DispatchSemaphore(value: 0)
    private let writerFinished = DispatchSemaphore(value: 0)

    /// Writes `manifest` as `manifest.json` with a new, empty journal (before any audio is made, so a
    /// folder that cannot be written stops the run at once), then starts the writer thread.
    init(
        manifest: Manifest, directory: String, interval: TimeInterval,
        syncInterval: TimeInterval = ManifestStore.defaultSyncInterval,
        compactionLines: Int = ManifestStore.defaultCompactionLines
    ) throws {
        self.directory = directory
        self.interval = interval
        self.syncInterval = syncInterval
        let writer = JournalWriter(directory: directory, manifest: manifest, compactionLines: compactionLines)
        try writer.compact(final: false)
        state = Mutex(Shared(manifest: writer.mirror, positions: writer.positions))
        let thread = Thread { [self] in runWriter(writer) }
        thread.name = "manifest writer"
        thread.start()
    }

    /// The manifest as the job slots have changed it (recorded on disk or about to be).
    var manifest: Manifest { state.withLock { $0.manifest } }

    /// Changes section `number` (when present) and queues the record for the journal.
    ///
    /// Throws the error of an earlier write that failed (disk full, folder gone): the run must stop.
    func update(section number: Int, _ change: (inout SectionRecord) -> Void) throws {
        let signal = try state.withLock { state throws(ConversionError) -> Bool in
            if let failure = state.failure { throw failure }
            guard let index = state.positions[number] else { return false }
            change(&state.manifest.sections[index])
            state.lastProgress[number] = nil
            state.unqueuedProgress.remove(number)
            state.queue.append(state.manifest.sections[index])
            return Self.signalWriter(&state)
        }
        if signal { wake.signal() }
    }

    /// Changes the whole manifest (its sections keep their numbers and order), queues the changed
    /// records and asks for the journal to be folded into `manifest.json`.
    func updateAll(_ change: (inout Manifest) -> Void) throws {
        let signal = try state.withLock { state throws(ConversionError) -> Bool in
            if let failure = state.failure { throw failure }
            let before = state.manifest.sections
            change(&state.manifest)
            for (index, record) in state.manifest.sections.enumerated()
            where index >= before.count || before[index] != record {
                state.queue.append(record)
            }
            state.compactionAsked = true
            return Self.signalWriter(&state)
        }
        if signal { wake.signal() }
    }

    /// Records progress; queues the record only when this section's last one is older than the interval.
    func progress(section number: Int, wordsDone: Int) throws {
        let signal = try state.withLock { state throws(ConversionError) -> Bool in
            if let failure = state.failure { throw failure }
            guard let index = state.positions[number] else { return false }
            state.manifest.sections[index].wordsDone = wordsDone
            let now = Date()
            if let last = state.lastProgress[number], now.timeIntervalSince(last) < interval {
                state.unqueuedProgress.insert(number)
                return false
            }
            state.lastProgress[number] = now
            state.unqueuedProgress.remove(number)
            state.queue.append(state.manifest.sections[index])
            return Self.signalWriter(&state)
        }
        if signal { wake.signal() }
    }

    /// Waits until everything changed before the call is written to the journal (tests, mostly);
    /// returns at once after `close()`, which has written everything.
    func flush() {
        let done = DispatchSemaphore(value: 0)
        let (queued, signal) = state.withLock { state -> (Bool, Bool) in
            guard !state.closing else { return (false, false) }
            state.flushWaiters.append(done)
            return (true, Self.signalWriter(&state))
        }
        if signal { wake.signal() }
        if queued { done.wait() }
    }

    /// Writes what is queued, folds the journal into `manifest.json` and removes it, and stops the
    /// writer. Throws the first write error of the run. Later calls only report that error again.
    func close() throws {
        let first = state.withLock { state -> Bool in
            defer { state.closing = true }
            for number in state.unqueuedProgress.sorted() {
                if let index = state.positions[number] { state.queue.append(state.manifest.sections[index]) }
            }
            state.unqueuedProgress = []
            return !state.closing
        }
        if first {
            wake.signal()
            writerFinished.wait()
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    /// True when the writer must be signalled (it has not been since it last took the queue).
    private static func signalWriter(_ state: inout Shared) -> Bool {
        defer { state.writerSignalled = true }
        return !state.writerSignalled
    }

    private func runWriter(_ writer: JournalWriter) {
        var lastSync = Date.distantPast
        while true {
            wake.wait()
            // Group fsyncs: what the slots queue while we wait goes in the same write.
            let wait = syncInterval - Date().timeIntervalSince(lastSync)
            if wait > 0, !state.withLock({ $0.closing }) { usleep(UInt32(wait * 1_000_000)) }
            let (records, compact, closing, waiters, failed) = state.withLock { state in
                defer {
                    state.queue = []
                    state.compactionAsked = false
                    state.writerSignalled = false
                    state.flushWaiters = []
                }
                return (state.queue, state.compactionAsked, state.closing, state.flushWaiters, state.failure != nil)
            }
            do {
                // After a failed write the journal may end in a torn line: append nothing more to it;
                // the final fold (at close) writes the manifest whole, if the disk lets it.
                writer.apply(records)
                if !failed {
                    if !records.isEmpty {
                        try writer.append(records)
                        lastSync = Date()
                    }
                    if compact || writer.isDueForCompaction { try writer.compact(final: false) }
                }
                if closing { try writer.compact(final: true) }
            } catch {
                let failure =
                    PosixFailure.map(error, path: directory)
                    ?? .outputUnwritable(path: directory, reason: "\(error)")
                state.withLock { state in
                    if state.failure == nil { state.failure = failure }
                }
            }
            for waiter in waiters { waiter.signal() }
            if closing { break }
        }
        writerFinished.signal()
    }
}

/// The writer thread's side of the store: the journal's descriptor and the manifest made of exactly
/// what has been written. `@unchecked Sendable`: made by `ManifestStore.init`, then used by the writer
/// thread alone.
private final class JournalWriter: @unchecked Sendable {
    let directory: String
    /// The compacted manifest plus every record written to the journal since.
    private(set) var mirror: Manifest
    private(set) var positions: [Int: Int] = [:]
    private let compactionLines: Int
    private var descriptor: Int32 = -1
    private var lines = 0

    init(directory: String, manifest: Manifest, compactionLines: Int) {
        self.directory = directory
        mirror = manifest
        self.compactionLines = compactionLines
        for (index, section) in manifest.sections.enumerated() where positions[section.number] == nil {
            positions[section.number] = index
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    var isDueForCompaction: Bool { lines >= max(compactionLines, mirror.sections.count) }

    private var journalPath: String { OutputPaths.join(directory, ManifestJournal.fileName) }

    /// Applies records to the mirror (what the next fold writes).
    func apply(_ records: [SectionRecord]) {
        for record in records {
            if let index = positions[record.number] { mirror.sections[index] = record }
        }
    }

    /// Appends records to the journal in one write, then fsyncs it. The folder is synced first: the
    /// renames of the files these records name (`AtomicFile.renameLeavingSyncToTheJournal`) become
    /// durable before the records do.
    func append(_ records: [SectionRecord]) throws {
        guard descriptor >= 0 else { return }
        AtomicFile.syncDirectory(directory)
        var data = Data()
        for record in records { data.append(ManifestJournal.line(record)) }
        try AtomicFile.writeAll(data, to: descriptor, path: journalPath)
        guard fsync(descriptor) == 0 else { throw PosixFailure.error(errno, path: journalPath) }
        lines += records.count
    }

    /// Writes the mirror as `manifest.json`, then a new journal that it names (or, when `final`, none).
    ///
    /// The order matters: a kill between the two leaves the new manifest beside the old journal, whose
    /// identifier it no longer names, so the old journal (already folded in) is ignored.
    func compact(final: Bool) throws {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        let id = final ? nil : ManifestJournal.newIdentifier()
        mirror.journal = id
        mirror.updated = Timestamp.now()
        mirror.toolVersion = Converter.toolVersion
        try mirror.write(toDirectory: directory)
        lines = 0
        guard let id else {
            unlink(journalPath)
            return
        }
        try AtomicFile.write(ManifestJournal.header(id: id), named: ManifestJournal.fileName, in: directory)
        descriptor = open(journalPath, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw PosixFailure.error(errno, path: journalPath) }
    }
}
