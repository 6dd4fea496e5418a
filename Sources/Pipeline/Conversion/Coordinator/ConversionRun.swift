import Contracts
import Foundation

/// One conversion, run on plain threads (synthesis blocks; it must not sit on Swift's cooperative pool).
///
/// Folder → book → plan (`ConversionPlanner`: what is done, what to make) → manifest → job slots
/// (in-process or worker processes) → playlist. Each concern has an owner: `OutputFolder` (prepare,
/// lock, stale files, playlist), `SectionRecorder` (the manifest and the events of each section),
/// `SlotPool` (threads and the work queue), `SectionMaker` (one section or part on one slot),
/// `RunControl` (cancellation and fatal errors).
///
/// Which "job" is which, from the book to the worker:
/// - `PlannedSection`: a section of the book as its source plans it (number, titles, words).
/// - `ConversionPlan.SectionToMake`: a section this run makes (its file name, parts kept).
/// - `SectionTask`: a section a slot has taken, with the `WorkerJob` made for it then.
/// - `SlotWork`: what a slot takes next: a whole section, or a part of a long one.
/// - `WorkerJob`: the line a worker process receives (the wire format, `WorkerProtocol.swift`).
final class ConversionRun: Sendable {
    let request: ConversionRequest
    let environment: ConversionEnvironment
    private let launcher: (any WorkerLauncher)?
    private let control = RunControl()

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
    func cancel() { control.cancel() }

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

    /// Folder → book → plan → manifest → sections → playlist and summary.
    func run(emit: @escaping @Sendable (ConversionEvent) -> Void) throws -> ConversionSummary {
        let start = Date()
        if control.isCancelled { throw ConversionError.cancelled }
        let folder = try OutputFolder(preparing: request.outputDirectory, allowNonEmpty: request.allowNonEmptyOutput)
        defer { folder.release() }
        let book = try readBook(folder)
        var plan = try makePlan(book, folder)
        folder.remove(plan.unlistedFiles.union(plan.staleParts).union(plan.staleTimings))
        let numbering = TrackNumbering(records: plan.records, selected: book.selected, explicit: request.trackSections)
        renumberKeptFiles(&plan, numbering, folder)
        // Written before any audio, so an unwritable folder stops the run here.
        let recorder = SectionRecorder(
            store: try ManifestStore(
                manifest: manifest(book, plan), directory: folder.path, interval: request.manifestInterval),
            control: control, emit: emit)
        // Stops the writer thread on every way out; the paths below close it first to see its error.
        defer { try? recorder.close() }
        // The store has the records now and changes its own copy: this one would be a third for the whole run.
        plan.records = []
        announce(book, plan, emit: emit)
        if let warning = book.coverWarning { emit(.warning(message: warning)) }
        let coverFile = try writeCover(book, sections: plan.toMake.count, folder)
        let maker = SectionMaker(
            request: request, environment: environment, control: control, folder: folder, recorder: recorder,
            source: book.source)
        let pool = SlotPool(request: request, environment: environment, launcher: launcher, control: control)
        let counts = pool.run(plan.toMake, emit: emit) { [self] work, executor, queue in
            switch work {
            case .section(let next):
                let task = sectionTask(
                    next, book: book, track: numbering.track(next.section.number), folder, coverFile: coverFile)
                return maker.take(task, executor: executor, queue: queue)
            case .part(let parted, let part):
                return maker.makePart(part, of: parted, executor: executor)
            }
        }
        try finish(folder, recorder)
        // Lazily: a filtered copy of every record was a step in the peak at the end of a long book.
        let audio = recorder.manifest.sections.lazy
            .filter { book.selected.contains($0.number) && $0.status == .done }
            .reduce(0.0) { $0 + ($1.durationSeconds ?? 0) }
        let summary = ConversionSummary(
            sectionsDone: counts.done, sectionsFailed: counts.failed + plan.unreadable.count,
            sectionsSkipped: plan.resumed.count, audioSeconds: audio, wallSeconds: Date().timeIntervalSince(start))
        emit(.bookDone(summary))
        return summary
    }

    /// The book's source, hash and settings, and the manifest in the folder; refuses a changed book.
    private func readBook(_ folder: OutputFolder) throws -> Book {
        let existing = try Manifest.load(fromDirectory: folder.path)
        let sha256 = try SHA256.hex(fileAtPath: request.bookPath)
        let source = try environment.source(for: request)
        if let existing, !existing.book.sha256.isEmpty, existing.book.sha256 != sha256, !request.force {
            throw ConversionError.bookChanged(
                manifest: folder.path(of: Manifest.fileName), recordedSHA256: existing.book.sha256,
                currentSHA256: sha256)
        }
        var cover = CoverArt.embeds(in: request.encoding.format) ? request.cover : nil
        var coverWarning: String?
        if let size = cover?.data.count, size > CoverArt.maxCoverBytes {
            coverWarning =
                "the cover (\(size) bytes) is larger than \(CoverArt.maxCoverBytes >> 20) MiB "
                + "(\(CoverArt.maxCoverBytes) bytes): "
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
    private func writeCover(_ book: Book, sections: Int, _ folder: OutputFolder) throws
        -> (path: String, sha256: String)?
    {
        guard let cover = book.cover, sections > 0,
            let path = try AudiobookCover.updateFolderCover(cover, in: folder.path)
        else { return nil }
        return (path, SHA256.hex(cover.data))
    }

    /// What to make and what is done already (`ConversionPlanner`, given the files in the folder).
    private func makePlan(_ book: Book, _ folder: OutputFolder) throws -> ConversionPlan {
        let sections = book.source.sections
        let inputs = ConversionPlanner.Inputs(
            sections: sections, selected: book.selected,
            fileNames: OutputNaming.fileNames(
                for: sections.map { ($0.number, $0.fileTitle) }, fileExtension: request.encoding.format.fileExtension),
            previous: book.previous, ownedFiles: Set(book.existing?.sections.compactMap(\.file) ?? []),
            filesOnDisk: folder.filesOnDisk(), settingsFingerprint: book.settingsSHA256, force: request.force,
            allowNonEmptyOutput: request.allowNonEmptyOutput, directory: folder.path, keepsTiming: request.keepsTiming)
        return try ConversionPlanner.plan(inputs) { try book.source.blocks(section: $0) }
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
    private func renumberKeptFiles(_ plan: inout ConversionPlan, _ numbering: TrackNumbering, _ folder: OutputFolder) {
        let made = Set(plan.toMake.map(\.section.number))
        var renumbered: [Int: SectionRecord] = [:]
        for index in plan.records.indices {
            let record = plan.records[index]
            guard record.status == .done, !made.contains(record.number), let file = record.file,
                let track = numbering.track(record.number), record.track != track,
                let format = AudioFormat(rawValue: (file as NSString).pathExtension)
            else { continue }
            let path = folder.path(of: file)
            guard let size = OutputFolder.fileSize(path), size == record.bytes else { continue }
            do {
                try TrackNumberTag.set(track, format: format, inFileAt: path)
                plan.records[index].track = track
                plan.records[index].bytes = OutputFolder.fileSize(path)
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

    /// The task of a section a slot takes: the section with its worker job (settings, `.part` path,
    /// tags; `track`: its track number, `TrackNumbering`).
    private func sectionTask(
        _ planned: ConversionPlan.SectionToMake, book: Book, track: String?, _ folder: OutputFolder,
        coverFile: (path: String, sha256: String)?
    ) -> SectionTask {
        let description = book.source.book
        let authors = description.authors.joined(separator: ", ")
        let tags = AudioTags(
            title: planned.section.title, album: description.title, artist: authors.isEmpty ? nil : authors,
            trackNumber: track, genre: "Audiobook")
        let job = WorkerJob(
            book: request.bookInput, section: planned.section.number, settings: book.settings,
            partPath: folder.path(of: planned.file + ".part"), tags: tags, blocks: planned.blocks,
            coverPath: coverFile?.path, coverFileSHA256: coverFile?.sha256, keepsTiming: request.keepsTiming)
        return SectionTask(
            section: planned.section, job: job, settingsSHA256: book.settingsSHA256, file: planned.file,
            previousFile: planned.previousFile, recordedParts: planned.recordedParts)
    }

    /// Closes the manifest and writes the playlist; after a stop, first leaves a consistent folder
    /// (nothing in progress, no `.part` files) and throws why the run stopped.
    private func finish(_ folder: OutputFolder, _ recorder: SectionRecorder) throws {
        guard let stoppedBy = control.stoppedBy else {
            try recorder.close()
            try folder.writePlaylist(recorder.manifest)
            return
        }
        folder.removeStaleFiles()
        recorder.settleAfterStop()
        try? recorder.close()
        try? folder.writePlaylist(recorder.manifest)
        throw stoppedBy
    }
}

/// A section a slot has taken: the plan's entry with the worker job made for it then.
struct SectionTask: Sendable {
    var section: PlannedSection
    var job: WorkerJob
    /// `job.settings.fingerprint`, computed once per run: it encodes and hashes the settings,
    /// and each section's record keeps it.
    var settingsSHA256: String
    var file: String
    var previousFile: String?
    /// Parts a previous run finished (`ConversionPlan.SectionToMake.recordedParts`).
    var recordedParts: [PartRecord] = []
}
