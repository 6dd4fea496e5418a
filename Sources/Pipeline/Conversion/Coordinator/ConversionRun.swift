import Contracts
import Foundation
import Synchronization

/// One conversion, run on plain threads (synthesis blocks; it must not sit on Swift's cooperative pool).
///
/// Plan → resume check → manifest → job slots (in-process or worker processes) → playlist.
final class ConversionRun: Sendable {
    private let request: ConversionRequest
    private let environment: ConversionEnvironment
    private let launcher: (any WorkerLauncher)?
    private let cancelled = Atomic<Bool>(false)
    private let fatal = Mutex<ConversionError?>(nil)
    private let executors = Mutex<[any SectionExecutor]>([])

    init(request: ConversionRequest, environment: ConversionEnvironment, launcher: (any WorkerLauncher)?) {
        // Absolute paths: workers may not share our idea of the current folder.
        var request = request
        if !request.outputDirectory.isEmpty {
            request.outputDirectory = URL(fileURLWithPath: request.outputDirectory).standardizedFileURL.path
        }
        request.bookPath = URL(fileURLWithPath: request.bookPath).standardizedFileURL.path
        self.request = request
        self.environment = environment
        self.launcher = launcher
    }

    /// Stops the run: synthesis stops at the next buffer, workers are killed.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        for executor in executors.withLock({ $0 }) { executor.kill() }
    }

    private var isStopping: Bool {
        cancelled.load(ordering: .relaxed) || fatal.withLock { $0 != nil }
    }

    private func stopWithFatal(_ error: ConversionError) {
        let first = fatal.withLock { current -> Bool in
            if current == nil {
                current = error
                return true
            }
            return false
        }
        if first { for executor in executors.withLock({ $0 }) { executor.kill() } }
    }

    // MARK: - Planning

    private struct PlannedJob {
        var section: PlannedSection
        var job: WorkerJob
        var file: String
        var previousFile: String?
    }

    func run(emit: @escaping @Sendable (ConversionEvent) -> Void) throws -> ConversionSummary {
        let start = Date()
        if cancelled.load(ordering: .relaxed) { throw ConversionError.cancelled }
        let directory = try prepareDirectory()
        let lock = try FolderLock(directory: directory)
        defer { lock.release() }
        let existing = try Manifest.load(fromDirectory: directory)

        let bookSHA = try SHA256.hex(fileAtPath: request.bookPath)
        let input = request.bookInput
        let source = try environment.source(for: request)
        if let existing, !existing.book.sha256.isEmpty, existing.book.sha256 != bookSHA, !request.force {
            throw ConversionError.bookChanged(
                manifest: OutputPaths.join(directory, Manifest.fileName), recordedSHA256: existing.book.sha256,
                currentSHA256: bookSHA)
        }
        let sameBook = existing?.book.sha256 == bookSHA
        let previous = sameBook ? existing : nil
        // Files any manifest in this folder lists were made by us, whatever book they came from.
        let ownedFiles = Set(existing?.sections.compactMap(\.file) ?? [])

        let settings = AudioSettings(
            voice: request.voice, encoding: request.encoding, chunking: request.chunking, notesMode: request.notesMode,
            normalisationVersion: source.normalisationVersion)
        let fingerprint = settings.fingerprint
        let sections = source.sections
        let selected = try selectedNumbers(sections)
        let names = OutputNaming.fileNames(
            for: sections.map { ($0.number, $0.fileTitle) }, fileExtension: request.encoding.format.fileExtension)
        let book = source.book
        // Track numbers are section numbers (a file's tags do not depend on the selection), out of the last one.
        let lastNumber = sections.map(\.number).max()

        var records: [SectionRecord] = []
        var jobs: [PlannedJob] = []
        var resumed: [SectionRecord] = []
        var blockFailures: [(Int, String)] = []
        var warnings: [String] = []
        // By number, once: looking each section up in the manifest's array made planning O(n²).
        var previousRecords: [Int: SectionRecord] = [:]
        for record in previous?.sections ?? [] where previousRecords[record.number] == nil {
            previousRecords[record.number] = record
        }
        for (index, section) in sections.enumerated() {
            let old = previousRecords[section.number]
            let name = names[index]
            var record =
                old
                ?? SectionRecord(number: section.number, title: section.title, words: section.words)
            record.title = section.title
            record.words = section.words
            guard selected.contains(section.number) else {
                // Not selected: a finished file stays finished; anything else is just skipped.
                if record.status != .done { record.status = .skipped }
                records.append(record)
                continue
            }
            // Each section's text is extracted once: here only when the section may be skipped (the
            // hash of its text decides, and a changed text is then kept for its job); otherwise by the
            // job slot that makes it, one section at a time, so memory does not grow with the book.
            var blocks: [SpokenBlock]?
            if !request.force, let old, old.status == .done, old.file == name, old.settingsSHA256 == fingerprint,
                let bytes = old.bytes, fileSize(OutputPaths.join(directory, name)) == bytes
            {
                do {
                    blocks = try source.blocks(section: section.number)
                } catch {
                    record.status = .failed
                    record.error = Self.unreadableText(error)
                    blockFailures.append((section.number, record.error!))
                    records.append(record)
                    continue
                }
                if old.textSHA256 == SpokenTextFingerprint.sha256(blocks ?? []) {
                    records.append(record)
                    resumed.append(record)
                    continue
                }
            }
            let finalPath = OutputPaths.join(directory, name)
            if FileManager.default.fileExists(atPath: finalPath), !ownedFiles.contains(name) {
                // A file at our name that the manifest does not give to us: never replace it silently.
                guard request.allowNonEmptyOutput else { throw ConversionError.outputNotEmpty(path: finalPath) }
                warnings.append("replacing \(finalPath), which epub2audio did not make")
            }
            record.status = .pending
            record.wordsDone = nil
            record.error = nil
            let previousFile = old?.file != name ? old?.file : nil
            record.file = name
            records.append(record)
            let tags = SectionTags(
                title: section.title, album: book.title, artist: book.authors.joined(separator: ", "),
                trackNumber: section.number, trackTotal: lastNumber)
            let job = WorkerJob(
                book: input, section: section.number, settings: settings,
                partPath: OutputPaths.join(directory, name + ".part"), tags: tags, blocks: blocks)
            jobs.append(PlannedJob(section: section, job: job, file: name, previousFile: previousFile))
        }

        // Files the manifest here listed that no section of this run refers to any more (another book's,
        // after --force; sections renumbered by a new --toc-depth) are ours, and would linger unlisted
        // beside the new ones: remove them. A renamed section's old file goes once its new one is made.
        let referenced = Set(records.compactMap(\.file)).union(jobs.compactMap(\.previousFile))
        for name in ownedFiles.subtracting(referenced) {
            unlink(OutputPaths.join(directory, name))
        }
        removeStaleFiles(in: directory)
        let manifest = Manifest(
            book: BookRecord(identifier: book.identifier, title: book.title, authors: book.authors, sha256: bookSHA),
            settings: settings, created: previous?.created ?? Timestamp.now(), sections: records)
        // Written before any audio, so an unwritable folder stops the run here.
        let store = try ManifestStore(manifest: manifest, directory: directory, interval: request.manifestInterval)
        // Stops the writer thread on every way out; the paths below close it first to see its error.
        defer { try? store.close() }

        let selectedSections = sections.filter { selected.contains($0.number) }
        emit(
            .bookStarted(
                title: book.title, sections: selectedSections.count, words: selectedSections.reduce(0) { $0 + $1.words }
            ))
        for warning in warnings { emit(.warning(message: warning)) }
        for record in resumed {
            emit(
                .sectionDone(
                    section: record.number, file: record.file ?? "", durationSeconds: record.durationSeconds ?? 0,
                    words: record.words, bytes: record.bytes ?? 0, skipped: true))
        }
        for (number, message) in blockFailures { emit(.error(section: number, message: message)) }

        // Longest first, so no core sits idle at the end waiting on one long chapter. Reversed, so that
        // taking the next job is `popLast()` (`removeFirst()` moved every job left: O(n²) per book).
        let queue = Mutex(
            Array(
                jobs.sorted { ($0.section.words, -$0.section.number) > ($1.section.words, -$1.section.number) }
                    .reversed()))
        let counts = Mutex((done: 0, failed: blockFailures.count))
        var slots = min(max(request.jobs, 1), jobs.count)
        if slots > 1 && launcher == nil {
            emit(.warning(message: "no worker executable given: making one section at a time"))
            slots = 1
        }
        // With a worker executable every section is made in a fresh worker process, also with one
        // job: that is what keeps the bytes identical across resumes and job counts (see WorkerExecutor).
        // A fork server gives each section a fresh process of its own: one server per slot.
        let made: [any SectionExecutor] = (0..<slots).map { _ in
            guard let launcher else { return InProcessExecutor(environment: environment) }
            return WorkerExecutor(launcher: launcher, freshWorkerPerJob: !request.workerForksPerJob)
        }
        executors.withLock { $0 = made }
        if cancelled.load(ordering: .relaxed) { for executor in made { executor.kill() } }

        let group = DispatchGroup()
        for executor in made {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                while !isStopping, var next = queue.withLock({ $0.popLast() }) {
                    // The worker gets the section's text with the job, so it never re-reads and
                    // re-indexes the book (a cost that grew with the book, once per section).
                    var ok = false
                    do {
                        if next.job.blocks == nil { next.job.blocks = try source.blocks(section: next.section.number) }
                        ok = runSection(next, executor: executor, store: store, directory: directory, emit: emit)
                    } catch {
                        fail(next.section.number, message: Self.unreadableText(error), store: store, emit: emit)
                    }
                    counts.withLock { counts in
                        if ok { counts.done += 1 } else { counts.failed += 1 }
                    }
                }
                executor.shutdown()
            }
            thread.stackSize = 1 << 22
            thread.start()
        }
        group.wait()

        let stoppedBy: ConversionError? =
            fatal.withLock { $0 } ?? (cancelled.load(ordering: .relaxed) ? .cancelled : nil)
        if let stoppedBy {
            // Leave a consistent folder: nothing in progress, no .part files.
            removeStaleFiles(in: directory)
            try? store.updateAll { manifest in
                for index in manifest.sections.indices where manifest.sections[index].status == .inProgress {
                    manifest.sections[index].status = .pending
                    manifest.sections[index].wordsDone = nil
                }
            }
            try? store.close()
            try? writePlaylist(store.manifest, selected: selected, directory: directory)
            throw stoppedBy
        }
        try store.close()
        let final = store.manifest
        try writePlaylist(final, selected: selected, directory: directory)
        let audio = final.sections.filter { selected.contains($0.number) && $0.status == .done }
            .reduce(0.0) { $0 + ($1.durationSeconds ?? 0) }
        let (done, failed) = counts.withLock { ($0.done, $0.failed) }
        let summary = ConversionSummary(
            sectionsDone: done, sectionsFailed: failed, sectionsSkipped: resumed.count, audioSeconds: audio,
            wallSeconds: Date().timeIntervalSince(start))
        emit(.bookDone(summary))
        return summary
    }

    // MARK: - One section

    /// Makes one section (retrying once when its worker died); true when its file is complete.
    private func runSection(
        _ planned: PlannedJob, executor: any SectionExecutor, store: ManifestStore, directory: String,
        emit: @escaping @Sendable (ConversionEvent) -> Void
    ) -> Bool {
        let number = planned.section.number
        let part = planned.job.partPath
        do {
            try store.update(section: number) {
                $0.status = .inProgress
                $0.started = Timestamp.now()
                $0.finished = nil
                $0.error = nil
                $0.wordsDone = 0
            }
        } catch let error as ConversionError {
            stopWithFatal(error)
            return false
        } catch {
            stopWithFatal(.outputUnwritable(path: directory, reason: "\(error)"))
            return false
        }
        emit(.sectionStarted(section: number, title: planned.section.title))
        unlink(part)

        var lastEvent = Date.distantPast
        let shouldStop: @Sendable () -> Bool = { [self] in isStopping }
        let progress: (WorkerMessage) -> Void = { message in
            guard case .progress(_, let wordsDone, let wordsTotal, let frames, let rate) = message else { return }
            let now = Date()
            if now.timeIntervalSince(lastEvent) >= 0.25 || wordsDone == wordsTotal {
                lastEvent = now
                emit(
                    .progress(
                        section: number, wordsDone: wordsDone, wordsTotal: wordsTotal,
                        audioSeconds: rate > 0 ? Double(frames) / Double(rate) : 0))
            }
            try? store.progress(section: number, wordsDone: wordsDone)
        }
        var outcome = executor.execute(planned.job, shouldStop: shouldStop, progress: progress)
        if case .died(let reason) = outcome, !isStopping {
            emit(.warning(message: "section \(number): the worker died (\(reason)); trying again"))
            unlink(part)
            outcome = executor.execute(planned.job, shouldStop: shouldStop, progress: progress)
        }
        if isStopping {
            unlink(part)
            return false
        }
        switch outcome {
        case .done(let result):
            return finish(planned, result: result, store: store, directory: directory, emit: emit)
        case .failed(let kind, let message, let path):
            unlink(part)
            switch kind {
            case .diskFull:
                stopWithFatal(.diskFull(path: path ?? part))
                return false
            case .unwritable:
                stopWithFatal(.outputUnwritable(path: path ?? part, reason: message))
                return false
            case .cancelled:
                return false
            case .section, .protocolError:
                fail(number, message: message, store: store, emit: emit)
                return false
            }
        case .died(let reason):
            unlink(part)
            fail(
                number, message: ConversionError.workerFailed(section: number, reason: reason).description,
                store: store, emit: emit)
            return false
        }
    }

    private func finish(
        _ planned: PlannedJob, result: WorkerResult, store: ManifestStore, directory: String,
        emit: @escaping @Sendable (ConversionEvent) -> Void
    ) -> Bool {
        let number = planned.section.number
        let finalPath = OutputPaths.join(directory, planned.file)
        do {
            try AtomicFile.rename(from: planned.job.partPath, to: finalPath, in: directory)
            if let old = planned.previousFile, old != planned.file {
                // The section's title (so its file name) changed: the old file was ours, remove it.
                unlink(OutputPaths.join(directory, old))
            }
            let bytes = fileSize(finalPath) ?? 0
            try store.update(section: number) {
                $0.status = .done
                $0.file = planned.file
                $0.durationSeconds = result.durationSeconds
                $0.frames = result.frames
                $0.sampleRate = result.sampleRate
                $0.bytes = bytes
                $0.textSHA256 = result.textSHA256
                $0.settingsSHA256 = planned.job.settings.fingerprint
                $0.finished = Timestamp.now()
                $0.wordsDone = nil
                $0.error = nil
            }
            emit(
                .sectionDone(
                    section: number, file: planned.file, durationSeconds: result.durationSeconds,
                    words: planned.section.words, bytes: bytes, skipped: false))
            return true
        } catch {
            unlink(planned.job.partPath)
            stopWithFatal(
                PosixFailure.map(error, path: finalPath) ?? .outputUnwritable(path: finalPath, reason: "\(error)"))
            return false
        }
    }

    private static func unreadableText(_ error: any Error) -> String {
        "cannot read the section's text: \(error)"
    }

    private func fail(_ number: Int, message: String, store: ManifestStore, emit: @Sendable (ConversionEvent) -> Void) {
        do {
            try store.update(section: number) {
                $0.status = .failed
                $0.error = message
                $0.finished = Timestamp.now()
                $0.wordsDone = nil
            }
        } catch let error as ConversionError {
            stopWithFatal(error)
        } catch {
            stopWithFatal(.outputUnwritable(path: store.directory, reason: "\(error)"))
        }
        emit(.error(section: number, message: message))
    }

    // MARK: - Output folder

    /// Creates the folder when missing; refuses a folder with foreign files and no manifest.
    private func prepareDirectory() throws -> String {
        var directory = request.outputDirectory
        guard !directory.isEmpty else { throw ConversionError.invalidRequest("no output folder given") }
        while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ConversionError.outputUnwritable(path: directory, reason: "it exists and is not a folder")
            }
        } else {
            do {
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw PosixFailure.map(error, path: directory)
                    ?? ConversionError.outputUnwritable(path: directory, reason: "cannot create the folder")
            }
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw ConversionError.outputUnwritable(path: directory, reason: String(cString: strerror(errno)))
        }
        let manifestPath = OutputPaths.join(directory, Manifest.fileName)
        if !manager.fileExists(atPath: manifestPath) && !request.allowNonEmptyOutput {
            let entries = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
            if entries.contains(where: { !$0.hasPrefix(AtomicFile.tempPrefix) }) {
                throw ConversionError.outputNotEmpty(path: directory)
            }
        }
        return directory
    }

    /// Removes `.part` files and manifest temp files left by an interrupted run (only names we make).
    private func removeStaleFiles(in directory: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in entries where Self.isOurPartFile(name) || name.hasPrefix(AtomicFile.tempPrefix) {
            unlink(OutputPaths.join(directory, name))
        }
    }

    /// `NNN - Title.ext.part`: a section file in the making.
    static func isOurPartFile(_ name: String) -> Bool {
        guard name.hasSuffix(".part") else { return false }
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        return digits.count >= 3 && name.dropFirst(digits.count).hasPrefix(" - ")
    }

    private func selectedNumbers(_ sections: [PlannedSection]) throws -> Set<Int> {
        try request.selection.numbers(in: sections)
    }

    private func writePlaylist(_ manifest: Manifest, selected: Set<Int>, directory: String) throws {
        let entries = manifest.sections.filter { selected.contains($0.number) && $0.status == .done && $0.file != nil }
            .map { Playlist.Entry(title: $0.title, file: $0.file!, durationSeconds: $0.durationSeconds ?? 0) }
        try AtomicFile.write(Data(Playlist.text(entries).utf8), named: Playlist.fileName, in: directory)
    }

    private func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}

/// An exclusive `flock` on the output folder itself for the length of a run.
///
/// Two runs into one folder (a command started twice) removed each other's `.part` files and raced
/// on the manifest: one failed with a baffling "No such file or directory", and with different
/// settings the manifest could describe files made with other settings. The lock lives on the
/// folder's descriptor (no lock file to leave behind), opened close-on-exec so workers do not hold
/// it, and the kernel drops it when the process dies, even by `kill -9`.
final class FolderLock: Sendable {
    private let descriptor: Int32

    init(directory: String) throws {
        descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ConversionError.outputUnwritable(path: directory, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason =
                busy
                ? "another epub2audio run is converting into this folder; wait for it to finish"
                : String(cString: strerror(errno))
            close(descriptor)
            throw ConversionError.outputUnwritable(path: directory, reason: reason)
        }
    }

    func release() {
        close(descriptor)
    }
}
