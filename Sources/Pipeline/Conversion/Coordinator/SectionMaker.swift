import Contracts
import Foundation

/// Makes one section, or one part of a long one, on a job slot's executor: reads its text, splits
/// it, runs its worker job (once more when the worker died), and settles the outcome in the folder
/// and the manifest. The one context every slot shares, instead of a store, a folder and an event
/// callback handed from method to method.
final class SectionMaker: Sendable {
    let request: ConversionRequest
    let environment: ConversionEnvironment
    let control: RunControl
    let folder: OutputFolder
    let recorder: SectionRecorder
    let source: any SectionSource

    init(
        request: ConversionRequest, environment: ConversionEnvironment, control: RunControl, folder: OutputFolder,
        recorder: SectionRecorder, source: any SectionSource
    ) {
        self.request = request
        self.environment = environment
        self.control = control
        self.folder = folder
        self.recorder = recorder
        self.source = source
    }

    var isStopping: Bool { control.isStopping }

    func emit(_ event: ConversionEvent) { recorder.emit(event) }

    /// Takes a section from the queue: reads its text, then makes it whole, or, when it is long,
    /// splits it into parts queued for every slot (nil then: it ends with its last part).
    func take(_ task: SectionTask, executor: any SectionExecutor, queue: WorkQueue) -> Bool? {
        var next = task
        // The queue learns once, as soon as it is known, whether the section adds parts.
        var decided = false
        func decide(_ parts: [SlotWork]) {
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
            recorder.fail(next.section.number, message: ConversionPlanner.unreadableText(error))
            return false
        }
        let chunks = WorkerSession.chunks(
            section: next.section.number, blocks: next.job.blocks ?? [], settings: next.job.settings.chunking)
        let parts = SectionParts.split(chunks, partWords: request.partWords)
        guard parts.count > 1 else {
            decide([])
            return makeWhole(next, chunks: chunks, executor: executor)
        }
        return startParts(next, parts: parts, chunks: chunks, queue: decide)
    }

    /// Makes one section (retrying once when its worker died); true when its file is complete.
    private func makeWhole(_ task: SectionTask, chunks: [SpeechChunk], executor: any SectionExecutor) -> Bool {
        // Made whole: parts an earlier run made with other part sizes are of no use.
        for part in task.recordedParts { removePart(part.file) }
        SectionTimingFile.remove(directory: folder.path, section: task.section.number)
        guard recorder.markInProgress(task.section.number, parts: nil) else { return false }
        emit(.sectionStarted(section: task.section.number, title: task.section.title))
        unlink(task.job.partPath)
        let outcome = execute(task, executor: executor)
        if isStopping {
            unlink(task.job.partPath)
            return false
        }
        return settle(outcome, task, chunks: chunks)
    }

    /// Removes a part's PCM file and the timing beside it.
    func removePart(_ file: String) {
        unlink(folder.path(of: file))
        unlink(folder.path(of: SectionParts.timingFileName(ofPart: file)))
    }

    /// Runs the task's job, passing progress on (at most 4 events a second), and once more when
    /// the worker died without an answer.
    private func execute(_ task: SectionTask, executor: any SectionExecutor) -> ExecutionOutcome {
        let number = task.section.number
        var lastEvent = Date.distantPast
        let progress: (WorkerMessage) -> Void = { [recorder] message in
            guard case .progress(_, let wordsDone, let wordsTotal, let frames, let rate) = message else { return }
            let now = Date()
            if now.timeIntervalSince(lastEvent) >= 0.25 || wordsDone == wordsTotal {
                lastEvent = now
                recorder.emit(
                    .progress(
                        section: number, wordsDone: wordsDone, wordsTotal: wordsTotal,
                        audioSeconds: rate > 0 ? Double(frames) / Double(rate) : 0))
            }
            recorder.progress(number, wordsDone: wordsDone)
        }
        return execute(task.job, executor: executor, progress: progress)
    }

    /// Runs `job` on `executor`, and once more when the worker died without an answer.
    func execute(_ job: WorkerJob, executor: any SectionExecutor, progress: (WorkerMessage) -> Void)
        -> ExecutionOutcome
    {
        let shouldStop: @Sendable () -> Bool = { [control] in control.isStopping }
        let outcome = executor.execute(job, shouldStop: shouldStop, progress: progress)
        guard case .died(let reason) = outcome, !isStopping else { return outcome }
        let which = job.part.map { "section \(job.section), part \($0.index + 1)" } ?? "section \(job.section)"
        emit(.warning(message: "\(which): the worker died (\(reason)); trying again"))
        unlink(job.partPath)
        return executor.execute(job, shouldStop: shouldStop, progress: progress)
    }

    /// What an attempt's outcome means for the section and the run; true when the file is complete.
    private func settle(_ outcome: ExecutionOutcome, _ task: SectionTask, chunks: [SpeechChunk]) -> Bool {
        let number = task.section.number
        let part = task.job.partPath
        switch outcome {
        case .done(let result):
            let timing = result.chunkTimings.map {
                SectionTimingBuilder.timing(
                    section: number, sampleRate: result.sampleRate, frames: result.frames,
                    blocks: task.job.blocks ?? [], chunks: chunks, timings: $0)
            }
            return finish(task, result: result, timing: timing)
        case .failed(let kind, let message, let path):
            unlink(part)
            switch kind {
            case .diskFull: control.stopWithFatal(.diskFull(path: path ?? part))
            case .unwritable: control.stopWithFatal(.outputUnwritable(path: path ?? part, reason: message))
            case .cancelled: break
            case .section, .protocolError: recorder.fail(number, message: message)
            }
            return false
        case .died(let reason):
            unlink(part)
            recorder.fail(number, message: ConversionError.workerFailed(section: number, reason: reason).description)
            return false
        }
    }

    /// The section's `.part` file is complete: renamed to its name, with its timing beside it (none
    /// when nil), and recorded done.
    func finish(_ task: SectionTask, result: WorkerResult, timing: SectionTiming?) -> Bool {
        let number = task.section.number
        let finalPath = folder.path(of: task.file)
        do {
            // Before the audio: a section whose audio is in place has its timing (a kill between the
            // two leaves a timing file for a section not done, removed at the next start).
            if let timing { try SectionTimingFile.writeBesideAudio(timing, directory: folder.path) }
            // Durable with the record below, whose journal write syncs the folder first.
            try AtomicFile.renameLeavingSyncToTheJournal(from: task.job.partPath, to: finalPath)
            if let old = task.previousFile, old != task.file {
                // The section's title (so its file name) changed: the old file was ours, remove it.
                unlink(folder.path(of: old))
            }
            let bytes = OutputFolder.fileSize(finalPath) ?? 0
            try recorder.recordDone(
                number, file: task.file, result: result, bytes: bytes, settingsSHA256: task.settingsSHA256,
                track: task.job.tags.trackNumber)
            emit(
                .sectionDone(
                    section: number, file: task.file, durationSeconds: result.durationSeconds,
                    words: task.section.words, bytes: bytes, skipped: false))
            return true
        } catch {
            unlink(task.job.partPath)
            SectionTimingFile.remove(directory: folder.path, section: number)
            control.stopWithFatal(
                PosixFailure.map(error, path: finalPath) ?? .outputUnwritable(path: finalPath, reason: "\(error)"))
            return false
        }
    }
}
