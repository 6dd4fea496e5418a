import Contracts
import Foundation
import Synchronization

/// One conversion, run on plain threads (synthesis blocks; it must not sit on Swift's cooperative pool).
///
/// Folder → book → plan (`ConversionPlanner`: what is done, what to make) → manifest → job slots
/// (in-process or worker processes) → playlist.
final class ConversionRun: Sendable {
    let request: ConversionRequest
    let environment: ConversionEnvironment
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

    var isStopping: Bool {
        cancelled.load(ordering: .relaxed) || fatal.withLock { $0 != nil }
    }

    func stopWithFatal(_ error: ConversionError) {
        let first = fatal.withLock { current -> Bool in
            if current == nil {
                current = error
                return true
            }
            return false
        }
        if first { for executor in executors.withLock({ $0 }) { executor.kill() } }
    }

    // MARK: - The run

    /// What the run knows once the book is read: its source, settings, and the folder's manifest.
    private struct Book {
        var source: any SectionSource
        var sha256: String
        var settings: AudioSettings
        /// `settings.fingerprint`.
        var settingsSHA256: String
        var selected: Set<Int>
        /// The manifest found in the folder, whatever book it describes.
        var existing: Manifest?
        /// `existing` when it describes this book.
        var previous: Manifest?
        /// The cover embedded in the section files (`settings.coverSHA256` names its source), if any.
        var cover: AudiobookCover?
        /// Why the request's cover is not embedded, when it is not.
        var coverWarning: String?
    }

    /// A section to make, with the job a worker receives.
    struct PlannedJob: Sendable {
        var section: PlannedSection
        var job: WorkerJob
        /// `job.settings.fingerprint`, computed once per run: it encodes and hashes the settings,
        /// and each section's record keeps it.
        var settingsSHA256: String
        var file: String
        var previousFile: String?
        /// Parts a previous run finished (`ConversionPlan.Job.recordedParts`).
        var recordedParts: [PartRecord] = []
    }

    /// What a job slot takes next: a whole section (split into parts when long), or one part of a
    /// long section.
    ///
    /// A section waits as the plan's compact job; its worker job (paths, tags, settings) is made
    /// when a slot takes it. Made for every section up front, the 10,000 jobs of the 10,000-section
    /// book, in the plan's list and again in the queue, were most of what the coordinator's memory
    /// grew by when converting the whole book.
    enum WorkItem: Sendable {
        case section(ConversionPlan.Job)
        case part(PartedSection, SectionPart)

        /// Longest first: the words of the section (as the book text counts them), for a part too, so
        /// that a long section's parts are taken early and in order (its file is written as they come).
        var words: Int {
            switch self {
            case .section(let planned): planned.section.words
            case .part(let parted, _): parted.planned.section.words
            }
        }

        /// Among equals, book order, then part order.
        var order: (Int, Int) {
            switch self {
            case .section(let planned): (planned.section.number, -1)
            case .part(let parted, let part): (parted.planned.section.number, part.index)
            }
        }

        /// Whether `lhs` is taken after `rhs` (the queue is sorted by this order and popped from the end).
        static func takenAfter(_ lhs: WorkItem, _ rhs: WorkItem) -> Bool {
            (lhs.words, -lhs.order.0, -lhs.order.1) < (rhs.words, -rhs.order.0, -rhs.order.1)
        }
    }

    /// Folder → book → plan → manifest → sections → playlist and summary.
    func run(emit: @escaping @Sendable (ConversionEvent) -> Void) throws -> ConversionSummary {
        let start = Date()
        if cancelled.load(ordering: .relaxed) { throw ConversionError.cancelled }
        let directory = try prepareDirectory()
        let lock = try FolderLock(directory: directory)
        defer { lock.release() }
        let book = try readBook(directory: directory)
        var plan = try makePlan(book, directory: directory)
        removeUnlistedFiles(plan, directory: directory)
        let numbering = TrackNumbering(records: plan.records, selected: book.selected, explicit: request.trackSections)
        renumberKeptFiles(&plan, numbering, directory: directory)
        // Written before any audio, so an unwritable folder stops the run here.
        let store = try ManifestStore(
            manifest: manifest(book, plan), directory: directory, interval: request.manifestInterval)
        // Stops the writer thread on every way out; the paths below close it first to see its error.
        defer { try? store.close() }
        // The store has the records now and changes its own copy: this one would be a third for the whole run.
        plan.records = []
        announce(book, plan, emit: emit)
        if let warning = book.coverWarning { emit(.warning(message: warning)) }
        let coverFile = try writeCover(book, jobs: plan.jobs.count, directory: directory)
        let makeJob: @Sendable (ConversionPlan.Job) -> PlannedJob = { [self] in
            workerJob(
                $0, book: book, track: numbering.track($0.section.number), directory: directory, coverFile: coverFile)
        }
        let counts = makeSections(
            plan.jobs, makeJob: makeJob, source: book.source, store: store, directory: directory, emit: emit)
        try finishFolder(store, directory: directory)
        // Lazily: a filtered copy of every record was a step in the peak at the end of a long book.
        let audio = store.manifest.sections.lazy.filter { book.selected.contains($0.number) && $0.status == .done }
            .reduce(0.0) { $0 + ($1.durationSeconds ?? 0) }
        let summary = ConversionSummary(
            sectionsDone: counts.done, sectionsFailed: counts.failed + plan.unreadable.count,
            sectionsSkipped: plan.resumed.count, audioSeconds: audio, wallSeconds: Date().timeIntervalSince(start))
        emit(.bookDone(summary))
        return summary
    }

    /// The book's source, hash and settings, and the manifest in the folder; refuses a changed book.
    private func readBook(directory: String) throws -> Book {
        let existing = try Manifest.load(fromDirectory: directory)
        let sha256 = try SHA256.hex(fileAtPath: request.bookPath)
        let source = try environment.source(for: request)
        if let existing, !existing.book.sha256.isEmpty, existing.book.sha256 != sha256, !request.force {
            throw ConversionError.bookChanged(
                manifest: OutputPaths.join(directory, Manifest.fileName), recordedSHA256: existing.book.sha256,
                currentSHA256: sha256)
        }
        var cover = CoverArt.embeds(in: request.encoding.format) ? request.cover : nil
        var coverWarning: String?
        if let size = cover?.data.count, size > CoverArt.maxCoverBytes {
            coverWarning =
                "the cover (\(size / 1_000_000) MB) is larger than \(CoverArt.maxCoverBytes >> 20) MB: "
                + "it is not embedded in the section files"
            cover = nil
        }
        let settings = AudioSettings(
            voice: request.voice, encoding: request.encoding, chunking: request.chunking,
            notes: request.bookOptions.text.notes, normalisationVersion: source.normalisationVersion,
            coverSHA256: cover?.sourceSHA256)
        return Book(
            source: source, sha256: sha256, settings: settings, settingsSHA256: settings.fingerprint,
            selected: try request.selection.numbers(in: source.sections), existing: existing,
            previous: existing?.book.sha256 == sha256 ? existing : nil, cover: cover, coverWarning: coverWarning)
    }

    /// Puts the cover to embed beside the section files (`cover.jpg` or `cover.png`), where the
    /// workers read it; returns its path and the SHA-256 of its bytes. Nothing when there is no cover
    /// or no section to make.
    private func writeCover(_ book: Book, jobs: Int, directory: String) throws -> (path: String, sha256: String)? {
        guard let cover = book.cover, jobs > 0,
            let path = try AudiobookCover.updateFolderCover(cover, in: directory)
        else { return nil }
        return (path, SHA256.hex(cover.data))
    }

    /// What to make and what is done already (`ConversionPlanner`, given the files in the folder).
    private func makePlan(_ book: Book, directory: String) throws -> ConversionPlan {
        let sections = book.source.sections
        let inputs = ConversionPlanner.Inputs(
            sections: sections, selected: book.selected,
            fileNames: OutputNaming.fileNames(
                for: sections.map { ($0.number, $0.fileTitle) }, fileExtension: request.encoding.format.fileExtension),
            previous: book.previous, ownedFiles: Set(book.existing?.sections.compactMap(\.file) ?? []),
            filesOnDisk: filesOnDisk(directory), settingsFingerprint: book.settingsSHA256, force: request.force,
            allowNonEmptyOutput: request.allowNonEmptyOutput, directory: directory)
        return try ConversionPlanner.plan(inputs) { try book.source.blocks(section: $0) }
    }

    /// Removes the files the plan found unlisted, and what an interrupted run left (`.part`, temp files).
    private func removeUnlistedFiles(_ plan: ConversionPlan, directory: String) {
        for name in plan.unlistedFiles.union(plan.staleParts) { unlink(OutputPaths.join(directory, name)) }
        removeStaleFiles(in: directory)
    }

    /// The manifest this run starts from: the plan's records for this book and settings.
    private func manifest(_ book: Book, _ plan: ConversionPlan) -> Manifest {
        let description = book.source.book
        return Manifest(
            book: BookRecord(
                identifier: description.identifier, title: description.title, authors: description.authors,
                sha256: book.sha256),
            settings: book.settings, created: book.previous?.created ?? Timestamp.now(), sections: plan.records)
    }

    /// Sets the track number of every finished file the run keeps (resumed, or done by an earlier run)
    /// whose number in `numbering` is not the one the manifest records, in the file and in its record
    /// (`TrackNumberTag`: no audio is made again). A file not at its recorded size is left alone; a
    /// file that cannot be edited keeps its number, with a warning (the next run tries again).
    private func renumberKeptFiles(_ plan: inout ConversionPlan, _ numbering: TrackNumbering, directory: String) {
        let made = Set(plan.jobs.map(\.section.number))
        var renumbered: [Int: SectionRecord] = [:]
        for index in plan.records.indices {
            let record = plan.records[index]
            guard record.status == .done, !made.contains(record.number), let file = record.file,
                let track = numbering.track(record.number), record.track != track,
                let format = AudioFormat(rawValue: (file as NSString).pathExtension)
            else { continue }
            let path = OutputPaths.join(directory, file)
            guard let size = fileSize(path), size == record.bytes else { continue }
            do {
                try TrackNumberTag.set(track, format: format, inFileAt: path)
                plan.records[index].track = track
                plan.records[index].bytes = fileSize(path)
                renumbered[record.number] = plan.records[index]
            } catch {
                let reason = (error as? FileFormatError)?.reason ?? "\(error)"
                plan.warnings.append("\(file): its track number stays \(record.track ?? "as it was"): \(reason)")
            }
        }
        for index in plan.resumed.indices {
            if let record = renumbered[plan.resumed[index].number] { plan.resumed[index] = record }
        }
    }

    /// The events before any section is made: the book, warnings, sections already done, unreadable text.
    private func announce(_ book: Book, _ plan: ConversionPlan, emit: @Sendable (ConversionEvent) -> Void) {
        let selected = book.source.sections.filter { book.selected.contains($0.number) }
        emit(
            .bookStarted(
                title: book.source.book.title, sections: selected.count, words: selected.reduce(0) { $0 + $1.words }))
        for warning in plan.warnings { emit(.warning(message: warning)) }
        for record in plan.resumed {
            emit(
                .sectionDone(
                    section: record.number, file: record.file ?? "", durationSeconds: record.durationSeconds ?? 0,
                    words: record.words, bytes: record.bytes ?? 0, skipped: true))
        }
        for (number, message) in plan.unreadable { emit(.error(section: number, message: message)) }
    }

    /// The worker job of a planned section: its settings, `.part` path and tags (`track`: its track
    /// number, `TrackNumbering`).
    private func workerJob(
        _ planned: ConversionPlan.Job, book: Book, track: String?, directory: String,
        coverFile: (path: String, sha256: String)?
    ) -> PlannedJob {
        let description = book.source.book
        let authors = description.authors.joined(separator: ", ")
        let tags = AudioTags(
            title: planned.section.title, album: description.title, artist: authors.isEmpty ? nil : authors,
            trackNumber: track, genre: "Audiobook")
        let job = WorkerJob(
            book: request.bookInput, section: planned.section.number, settings: book.settings,
            partPath: OutputPaths.join(directory, planned.file + ".part"), tags: tags, blocks: planned.blocks,
            coverPath: coverFile?.path, coverFileSHA256: coverFile?.sha256)
        return PlannedJob(
            section: planned.section, job: job, settingsSHA256: book.settingsSHA256, file: planned.file,
            previousFile: planned.previousFile, recordedParts: planned.recordedParts)
    }

    /// Makes the sections in job slots (threads, each driving an executor), longest first; returns
    /// how many were made and how many failed.
    /// `makeJob` makes a section's worker job when a slot takes it.
    private func makeSections(
        _ jobs: [ConversionPlan.Job], makeJob: @escaping @Sendable (ConversionPlan.Job) -> PlannedJob,
        source: any SectionSource, store: ManifestStore, directory: String,
        emit: @escaping @Sendable (ConversionEvent) -> Void
    ) -> (done: Int, failed: Int) {
        // Longest first, so no core sits idle at the end waiting on one long chapter. Sorted so that
        // taking the next job is `popLast()` (`removeFirst()` moved every job left: O(n²) per book).
        // A long section's parts join the queue when its slot splits it (`startParts`).
        let queue = WorkQueue(jobs.map { WorkItem.section($0) })
        let counts = Mutex((done: 0, failed: 0))
        // A slot per job up to the work there is: a long section counts as the parts it will make
        // (estimated from its words; the exact split is known once its text is chunked).
        let work = jobs.reduce(0) { $0 + max(1, $1.section.words / max(1, request.partWords)) }
        let made = makeExecutors(count: min(max(request.jobs, 1), work), emit: emit)
        let group = DispatchGroup()
        for executor in made {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                while !isStopping, let item = queue.next() {
                    let ended: Bool?
                    switch item {
                    case .section(let next):
                        ended = takeSection(
                            makeJob(next), source: source, executor: executor, queue: queue, store: store, emit: emit)
                    case .part(let parted, let part):
                        ended = runPart(part, of: parted, executor: executor, store: store, emit: emit)
                    }
                    // nil: the section goes on in parts, and is counted when its last part ends.
                    if let ended {
                        counts.withLock { counts in
                            if ended { counts.done += 1 } else { counts.failed += 1 }
                        }
                    }
                }
                executor.shutdown()
            }
            thread.stackSize = 1 << 22
            thread.start()
        }
        group.wait()
        return counts.withLock { $0 }
    }

    /// One executor per job slot: in this process without a worker executable (one slot then), else
    /// a worker per slot. With a worker executable every section is made in a fresh worker process,
    /// also with one job: that is what keeps the bytes identical across resumes and job counts (see
    /// `WorkerExecutor`); a fork server gives each section a fresh process of its own.
    private func makeExecutors(count: Int, emit: @Sendable (ConversionEvent) -> Void) -> [any SectionExecutor] {
        var slots = count
        if slots > 1 && launcher == nil {
            emit(.warning(message: "no worker executable given: making one section at a time"))
            slots = 1
        }
        let made: [any SectionExecutor] = (0..<slots).map { _ in
            guard let launcher else { return InProcessExecutor(environment: environment) }
            return WorkerExecutor(launcher: launcher, freshWorkerPerJob: !request.workerForksPerJob)
        }
        executors.withLock { $0 = made }
        if cancelled.load(ordering: .relaxed) { for executor in made { executor.kill() } }
        return made
    }

    /// Closes the manifest and writes the playlist; after a stop, first leaves a consistent folder
    /// (nothing in progress, no `.part` files) and throws why the run stopped.
    private func finishFolder(_ store: ManifestStore, directory: String) throws {
        let stoppedBy: ConversionError? =
            fatal.withLock { $0 } ?? (cancelled.load(ordering: .relaxed) ? .cancelled : nil)
        guard let stoppedBy else {
            try store.close()
            try writePlaylist(store.manifest, directory: directory)
            return
        }
        removeStaleFiles(in: directory)
        try? store.updateAll { manifest in
            for index in manifest.sections.indices where manifest.sections[index].status == .inProgress {
                manifest.sections[index].status = .pending
                manifest.sections[index].wordsDone = nil
            }
        }
        try? store.close()
        try? writePlaylist(store.manifest, directory: directory)
        throw stoppedBy
    }

    // MARK: - One section

    /// Takes a section from the queue: reads its text, then makes it whole, or, when it is long,
    /// splits it into parts queued for every slot (nil then: it ends with its last part).
    private func takeSection(
        _ planned: PlannedJob, source: any SectionSource, executor: any SectionExecutor, queue: WorkQueue,
        store: ManifestStore, emit: @escaping @Sendable (ConversionEvent) -> Void
    ) -> Bool? {
        var next = planned
        let directory = store.directory
        // The queue learns once, as soon as it is known, whether the section adds parts.
        var decided = false
        func decide(_ parts: [WorkItem]) {
            guard !decided else { return }
            decided = true
            queue.sectionTaken(adding: parts)
        }
        defer { decide([]) }
        do {
            // The worker gets the section's text with the job, so it never re-reads and
            // re-indexes the book (a cost that grew with the book, once per section).
            if next.job.blocks == nil { next.job.blocks = try source.blocks(section: next.section.number) }
        } catch {
            fail(next.section.number, message: ConversionPlanner.unreadableText(error), store: store, emit: emit)
            return false
        }
        let chunks = WorkerSession.chunks(
            section: next.section.number, blocks: next.job.blocks ?? [], settings: next.job.settings.chunking)
        let parts = SectionParts.split(chunks, partWords: request.partWords)
        guard parts.count > 1 else {
            decide([])
            return runSection(next, executor: executor, store: store, directory: directory, emit: emit)
        }
        return startParts(next, parts: parts, chunks: chunks, queue: decide, store: store, emit: emit)
    }

    /// Makes one section (retrying once when its worker died); true when its file is complete.
    private func runSection(
        _ planned: PlannedJob, executor: any SectionExecutor, store: ManifestStore, directory: String,
        emit: @escaping @Sendable (ConversionEvent) -> Void
    ) -> Bool {
        // Made whole: parts an earlier run made with other part sizes are of no use.
        for part in planned.recordedParts { unlink(OutputPaths.join(directory, part.file)) }
        guard markInProgress(planned.section.number, store: store, directory: directory, parts: nil) else {
            return false
        }
        emit(.sectionStarted(section: planned.section.number, title: planned.section.title))
        unlink(planned.job.partPath)
        let outcome = execute(planned, executor: executor, store: store, emit: emit)
        if isStopping {
            unlink(planned.job.partPath)
            return false
        }
        return settle(outcome, planned, store: store, directory: directory, emit: emit)
    }

    /// Records in the manifest that the section is being made; false (the run stops) when it cannot.
    /// `parts`: the finished parts it keeps (nil: none).
    func markInProgress(_ number: Int, store: ManifestStore, directory: String, parts: [PartRecord]?) -> Bool {
        do {
            try store.update(section: number) {
                $0.status = .inProgress
                $0.started = Timestamp.now()
                $0.finished = nil
                $0.error = nil
                $0.parts = parts
                $0.wordsDone = 0
            }
            return true
        } catch let error as ConversionError {
            stopWithFatal(error)
        } catch {
            stopWithFatal(.outputUnwritable(path: directory, reason: "\(error)"))
        }
        return false
    }

    /// Runs the job on `executor`, passing progress on (at most 4 events a second), and once more when
    /// the worker died without an answer.
    private func execute(
        _ planned: PlannedJob, executor: any SectionExecutor, store: ManifestStore,
        emit: @escaping @Sendable (ConversionEvent) -> Void
    ) -> ExecutionOutcome {
        let number = planned.section.number
        var lastEvent = Date.distantPast
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
        return execute(planned.job, executor: executor, emit: emit, progress: progress)
    }

    /// Runs `job` on `executor`, and once more when the worker died without an answer.
    func execute(
        _ job: WorkerJob, executor: any SectionExecutor, emit: @Sendable (ConversionEvent) -> Void,
        progress: (WorkerMessage) -> Void
    ) -> ExecutionOutcome {
        let shouldStop: @Sendable () -> Bool = { [self] in isStopping }
        let outcome = executor.execute(job, shouldStop: shouldStop, progress: progress)
        guard case .died(let reason) = outcome, !isStopping else { return outcome }
        let which = job.part.map { "section \(job.section), part \($0.index + 1)" } ?? "section \(job.section)"
        emit(.warning(message: "\(which): the worker died (\(reason)); trying again"))
        unlink(job.partPath)
        return executor.execute(job, shouldStop: shouldStop, progress: progress)
    }

    /// What an attempt's outcome means for the section and the run; true when the file is complete.
    private func settle(
        _ outcome: ExecutionOutcome, _ planned: PlannedJob, store: ManifestStore, directory: String,
        emit: @escaping @Sendable (ConversionEvent) -> Void
    ) -> Bool {
        let number = planned.section.number
        let part = planned.job.partPath
        switch outcome {
        case .done(let result):
            return finish(planned, result: result, store: store, directory: directory, emit: emit)
        case .failed(let kind, let message, let path):
            unlink(part)
            switch kind {
            case .diskFull: stopWithFatal(.diskFull(path: path ?? part))
            case .unwritable: stopWithFatal(.outputUnwritable(path: path ?? part, reason: message))
            case .cancelled: break
            case .section, .protocolError: fail(number, message: message, store: store, emit: emit)
            }
            return false
        case .died(let reason):
            unlink(part)
            fail(
                number, message: ConversionError.workerFailed(section: number, reason: reason).description,
                store: store, emit: emit)
            return false
        }
    }

    func finish(
        _ planned: PlannedJob, result: WorkerResult, store: ManifestStore, directory: String,
        emit: @escaping @Sendable (ConversionEvent) -> Void
    ) -> Bool {
        let number = planned.section.number
        let finalPath = OutputPaths.join(directory, planned.file)
        do {
            // Durable with the record below, whose journal write syncs the folder first.
            try AtomicFile.renameLeavingSyncToTheJournal(from: planned.job.partPath, to: finalPath)
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
                $0.settingsSHA256 = planned.settingsSHA256
                $0.finished = Timestamp.now()
                $0.wordsDone = nil
                $0.error = nil
                $0.parts = nil
                $0.track = planned.job.tags.trackNumber
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

    func fail(_ number: Int, message: String, store: ManifestStore, emit: @Sendable (ConversionEvent) -> Void) {
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

    /// Removes `.part` files, temp files and a bundle's working folder left by an interrupted run
    /// (only names we make).
    private func removeStaleFiles(in directory: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in entries where Self.isOurPartFile(name) || name.hasPrefix(AtomicFile.tempPrefix) {
            let path = OutputPaths.join(directory, name)
            if unlink(path) != 0, errno == EISDIR, name.hasPrefix(AtomicFile.tempPrefix) {
                // `AudiobookBundler`'s working folder (removing it removes links, never their targets).
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    /// `NNN - Title.ext.part`: a section file in the making.
    static func isOurPartFile(_ name: String) -> Bool {
        guard name.hasSuffix(".part") else { return false }
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        return digits.count >= 3 && name.dropFirst(digits.count).hasPrefix(" - ")
    }

    /// Every finished section of the book, in book order, this run's and earlier runs' alike: a
    /// run of `--chapters 3` after the whole book no longer leaves a playlist of one chapter.
    private func writePlaylist(_ manifest: Manifest, directory: String) throws {
        let entries = manifest.sections.lazy
            .filter { $0.status == .done && $0.file != nil }
            .map { Playlist.Entry(title: $0.title, file: $0.file!, durationSeconds: $0.durationSeconds ?? 0) }
        try AtomicFile.write(Data(Playlist.text(Array(entries)).utf8), named: Playlist.fileName, in: directory)
    }

    /// Name → size of the files in `directory` (`stat` follows links, as opening them would).
    private func filesOnDisk(_ directory: String) -> [String: Int64] {
        var sizes: [String: Int64] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            if let size = fileSize(OutputPaths.join(directory, name)) { sizes[name] = size }
        }
        return sizes
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
///
/// `release()` unlocks before it closes. A `flock` belongs to the open file description, and a
/// process forked by another thread (a job slot's fork server, ffmpeg, another job of the service)
/// holds a copy of every descriptor until its `exec` closes the close-on-exec ones: closing ours
/// alone left the folder locked for that instant, and a bundle made right after its conversion
/// was refused as "another epub2audio run".
final class FolderLock: Sendable {
    /// The folder's descriptor, holding the lock (internal for the test that copies it as a fork would).
    let descriptor: Int32

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
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
