import Contracts
import Foundation
import Synchronization

/// A long section being made in parts (`SectionParts`), shared by the job slots that make them.
final class PartedSection: Sendable {
    let task: SectionTask
    let parts: [SectionPart]
    /// The whole section's chunks: each part's job carries its own.
    let chunks: [SpeechChunk]
    /// SHA-256 of the section's spoken text: every part is made from it, and records it.
    let textSHA256: String

    struct State {
        /// Finished parts by index (recorded in the manifest, or about to be).
        var finished: [Int: PartRecord] = [:]
        /// Words spoken so far by each part in the making.
        var wordsDone: [Int: Int] = [:]
        /// Frames made so far by each part in the making, and their sample rate.
        var framesInProgress: [Int: Int] = [:]
        var sampleRate = 0
        /// Set when a part failed: the section failed, its other parts are not made.
        var failed = false
        /// The next part to append to the section's file (`Join`).
        var joinNext = 0
        var lastEvent = Date.distantPast
    }

    let state: Mutex<State>

    /// The section's file, written while its parts come in: whichever slot finds the next part in
    /// order finished appends it (and any finished after it), so the join overlaps the synthesis of
    /// the parts still in the making instead of following it. One writer pass all the same.
    final class Join: @unchecked Sendable {
        // `@unchecked`: every field is touched only by the slot holding `lock`.
        let lock = NSLock()
        var sink: (any AudioSink)?
        var frames = 0
        var sampleRate = 0
        /// The file is complete, or abandoned (a part failed, the run stopped).
        var ended = false
    }

    let join = Join()
    /// Held while a finished part is recorded (manifest, then state), so that two parts finished at
    /// once never record lists that miss each other.
    let recording = NSLock()

    init(
        task: SectionTask, parts: [SectionPart], chunks: [SpeechChunk], textSHA256: String,
        reused: [PartRecord]
    ) {
        self.task = task
        self.parts = parts
        self.chunks = chunks
        self.textSHA256 = textSHA256
        var state = State()
        for record in reused { state.finished[record.index] = record }
        self.state = Mutex(state)
    }

    var number: Int { task.section.number }

    /// Words of the whole section, as its chunks count them.
    var wordsTotal: Int { parts.reduce(0) { $0 + $1.words } }

    /// Words spoken by the finished parts and the parts in the making.
    static func wordsDone(_ state: State, parts: [SectionPart]) -> Int {
        let finished = state.finished.keys.reduce(0) { $0 + parts[$1].words }
        return finished + state.wordsDone.values.reduce(0, +)
    }
}

/// The job slots' queue: sections, and the parts of long sections once split; longest first.
///
/// A slot that finds the queue empty while another slot is still deciding whether the section it
/// took is split waits for that decision (`sectionTaken(adding:)`) instead of ending: a one-section
/// book has one item until it is split, and every slot must stay for its parts.
final class WorkQueue: @unchecked Sendable {
    // `@unchecked`: `items` and `deciding` are only touched with `condition` locked.
    private let condition = NSCondition()
    /// Sorted so that the next item is the last (`popLast()`; `removeFirst()` moved every item: O(n²)).
    private var items: [SlotWork]
    /// Sections taken whose split is not decided yet.
    private var deciding = 0

    init(_ items: [SlotWork]) {
        self.items = items.sorted(by: SlotWork.takenAfter)
    }

    /// The longest item left; nil when there is none and none can come. A section returned must be
    /// answered by one `sectionTaken(adding:)`.
    func next() -> SlotWork? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let item = items.popLast() {
                if case .section = item { deciding += 1 }
                return item
            }
            if deciding == 0 { return nil }
            condition.wait()
        }
    }

    /// A section taken from `next()` is decided: made whole (nothing added) or split (its parts added
    /// where their length puts them).
    func sectionTaken(adding more: [SlotWork]) {
        condition.lock()
        defer { condition.unlock() }
        deciding -= 1
        // Sorted again only when parts come: a sort per tiny section of a 10,000-section book
        // copied every item each time (O(n² log n); 50 s → 84 s wall for that book).
        if !more.isEmpty {
            items.append(contentsOf: more)
            items.sort(by: SlotWork.takenAfter)
        }
        condition.broadcast()
    }
}

extension SectionMaker {
    /// Starts a long section in parts: keeps the parts an earlier run finished that still fit, records
    /// the section in progress and queues its other parts for every slot through `queue` (nil: the
    /// section goes on in parts); joins at once when every part is finished already.
    func startParts(
        _ task: SectionTask, parts: [SectionPart], chunks: [SpeechChunk], queue: (_ parts: [SlotWork]) -> Void
    ) -> Bool? {
        let number = task.section.number
        let textSHA256 = SpokenTextFingerprint.sha256(task.job.blocks ?? [])
        let reused = SectionParts.reusable(
            task.recordedParts, parts: parts, textSHA256: textSHA256,
            settingsSHA256: task.settingsSHA256)
        let reusedFiles = Set(reused.map(\.file))
        for part in task.recordedParts where !reusedFiles.contains(part.file) {
            removePart(part.file)
        }
        SectionTimingFile.remove(directory: folder.path, section: number)
        guard
            recorder.markInProgress(number, parts: reused.isEmpty ? nil : reused.sorted { $0.index < $1.index })
        else { return false }
        emit(.sectionStarted(section: number, title: task.section.title))
        let parted = PartedSection(
            task: task, parts: parts, chunks: chunks, textSHA256: textSHA256, reused: reused)
        let reusedIndexes = Set(reused.map(\.index))
        let remaining = parts.filter { !reusedIndexes.contains($0.index) }
        reportProgress(parted, force: true)
        queue(remaining.map { SlotWork.part(parted, $0) })
        // Parts kept from an earlier run start the section's file at once.
        return advanceJoin(parted)
    }

    /// Makes one part into its PCM file and records it; the slot that finishes the last part joins
    /// them. Nil while the section goes on; true or false when this ended it (joined or failed).
    func makePart(_ part: SectionPart, of parted: PartedSection, executor: any SectionExecutor) -> Bool? {
        guard !parted.state.withLock({ $0.failed }) else { return nil }
        var job = parted.task.job
        job.part = part
        job.chunks = Array(parted.chunks[part.chunks])
        job.blocks = nil
        job.partPath = folder.path(of: SectionParts.tempFileName(section: parted.number, index: part.index))
        unlink(job.partPath)
        let outcome = execute(job, executor: executor) { message in
            guard case .progress(_, let wordsDone, _, let frames, let rate) = message else { return }
            parted.state.withLock {
                $0.wordsDone[part.index] = wordsDone
                $0.framesInProgress[part.index] = frames
                $0.sampleRate = rate
            }
            reportProgress(parted, force: false)
        }
        if isStopping {
            unlink(job.partPath)
            abandonJoin(parted, partPath: parted.task.job.partPath)
            return nil
        }
        switch outcome {
        case .done(let result):
            return record(part, of: parted, result: result, temp: job.partPath)
        case .failed(let kind, let message, let path):
            unlink(job.partPath)
            switch kind {
            case .diskFull:
                control.stopWithFatal(.diskFull(path: path ?? job.partPath))
                return nil
            case .unwritable:
                control.stopWithFatal(.outputUnwritable(path: path ?? job.partPath, reason: message))
                return nil
            case .cancelled: return nil
            case .section, .protocolError:
                return failParts(parted, message: message)
            }
        case .died(let reason):
            unlink(job.partPath)
            let message = ConversionError.workerFailed(section: parted.number, reason: reason).description
            return failParts(parted, message: message)
        }
    }

    /// Gives a finished part its name, records it, and appends it to the section's file when its turn
    /// has come.
    private func record(_ part: SectionPart, of parted: PartedSection, result: WorkerResult, temp: String) -> Bool? {
        let name = SectionParts.fileName(section: parted.number, index: part.index)
        let path = folder.path(of: name)
        let settings = parted.task.settingsSHA256
        do {
            // Before the part: a part in place has its timing (the folder's sync below covers both).
            if let timings = result.chunkTimings {
                try AtomicFile.writeLeavingSyncToTheJournal(
                    CanonicalJSON.encode(timings), named: SectionParts.timingFileName(ofPart: name), in: folder.path)
            }
            try AtomicFile.rename(from: temp, to: path, in: folder.path)
            var info = stat()
            guard stat(path, &info) == 0 else { throw PosixFailure.error(errno, path: path) }
            let record = PartRecord(
                index: part.index, firstChunk: part.firstChunk, endChunk: part.endChunk, file: name,
                frames: result.frames, sampleRate: result.sampleRate, bytes: Int64(info.st_size),
                textSHA256: parted.textSHA256, settingsSHA256: settings)
            // Recorded in the manifest before the state says it is finished, so it is never appended
            // (and, once the section is done, removed) before the journal names it.
            parted.recording.lock()
            defer { parted.recording.unlock() }
            let (records, wordsDone) = parted.state.withLock { state in
                var finished = state.finished
                finished[part.index] = record
                return (
                    finished.values.sorted { $0.index < $1.index },
                    PartedSection.wordsDone(state, parts: parted.parts) + part.words
                        - (state.wordsDone[part.index] ?? 0)
                )
            }
            try recorder.recordParts(parted.number, parts: records, wordsDone: wordsDone)
            parted.state.withLock { state in
                state.finished[part.index] = record
                state.wordsDone[part.index] = nil
                state.framesInProgress[part.index] = nil
            }
        } catch {
            unlink(temp)
            control.stopWithFatal(
                PosixFailure.map(error, path: path) ?? .outputUnwritable(path: path, reason: "\(error)"))
            return nil
        }
        reportProgress(parted, force: false)
        return advanceJoin(parted)
    }

    /// What appending the finished parts came to.
    private enum JoinStep {
        /// The next part in order is not finished yet.
        case waiting
        /// Every part is in the file, which is closed.
        case complete(frames: Int, sampleRate: Int)
        /// The file was abandoned (by this call or before it).
        case ended
        /// Appending failed; the file was abandoned.
        case failed(any Error)
    }

    /// Appends the finished parts whose turn has come to the section's file, in order, in one writer
    /// pass across calls (one encoder for lossy formats); once the last is in, records the section
    /// done as a whole section would be and removes the parts. Nil while the section goes on (or
    /// another slot is appending, and will look again); true or false when this call ended it.
    private func advanceJoin(_ parted: PartedSection) -> Bool? {
        let join = parted.join
        while join.lock.try() {
            let step = appendFinishedParts(parted)
            join.lock.unlock()
            switch step {
            case .waiting:
                // A part finished while this slot held the lock may have found it taken: look again.
                let ready = parted.state.withLock { !$0.failed && $0.finished[$0.joinNext] != nil }
                if !ready { return nil }
            case .ended:
                return nil
            case .complete(let frames, let sampleRate):
                return finishJoined(parted, frames: frames, sampleRate: sampleRate)
            case .failed(let error):
                let partPath = parted.task.job.partPath
                if isStopping { return nil }
                // Failed once: a part may have failed the section meanwhile (`failParts`).
                let first = parted.state.withLock { state -> Bool in
                    defer { state.failed = true }
                    return !state.failed
                }
                guard first else { return nil }
                if let failure = PosixFailure.map(error, path: partPath), case .sectionFailed = failure {
                    recorder.fail(parted.number, message: failure.description)
                } else if let failure = PosixFailure.map(error, path: partPath) {
                    control.stopWithFatal(failure)
                } else {
                    recorder.fail(parted.number, message: "cannot join its parts: \(error)")
                }
                return false
            }
        }
        return nil
    }

    /// Appends what can be appended; called with `parted.join.lock` held.
    private func appendFinishedParts(_ parted: PartedSection) -> JoinStep {
        let join = parted.join
        let partPath = parted.task.job.partPath
        guard !join.ended else { return .ended }
        do {
            while true {
                let (next, record, failed) = parted.state.withLock {
                    ($0.joinNext, $0.finished[$0.joinNext], $0.failed)
                }
                if failed || isStopping {
                    abandon(join, partPath: partPath)
                    return .ended
                }
                guard let record else { return .waiting }
                if join.sink == nil {
                    unlink(partPath)
                    join.sampleRate = record.sampleRate
                    join.sink = try environment.makeSink(
                        SinkRequest(
                            path: partPath, encoding: parted.task.job.settings.encoding,
                            tags: parted.task.job.tags, sampleRate: record.sampleRate))
                }
                guard let sink = join.sink else { return .ended }
                guard record.sampleRate == join.sampleRate else {
                    throw ConversionError.sectionFailed(
                        section: parted.number, reason: "its parts were made at different sample rates")
                }
                join.frames += try PCMPartJoiner.copy(
                    [folder.path(of: record.file)], into: sink, shouldStop: { [self] in isStopping })
                if isStopping {
                    abandon(join, partPath: partPath)
                    return .ended
                }
                parted.state.withLock { $0.joinNext = next + 1 }
                if next + 1 == parted.parts.count {
                    join.sink = nil
                    join.ended = true
                    try sink.close()
                    try parted.task.job.completeTags()
                    return .complete(frames: join.frames, sampleRate: join.sampleRate)
                }
            }
        } catch {
            abandon(join, partPath: partPath)
            return .failed(error)
        }
    }

    /// Closes and removes a section file that will not be completed; called with the join's lock held.
    private func abandon(_ join: PartedSection.Join, partPath: String) {
        let sink = join.sink
        join.sink = nil
        join.ended = true
        try? sink?.close()
        unlink(partPath)
    }

    /// Abandons the section's file, waiting for a slot that is appending to it.
    func abandonJoin(_ parted: PartedSection, partPath: String) {
        parted.join.lock.lock()
        defer { parted.join.lock.unlock() }
        abandon(parted.join, partPath: partPath)
    }

    /// Every part is in the section's closed `.part` file: renamed and recorded done like a whole
    /// section's, then the parts are removed.
    private func finishJoined(_ parted: PartedSection, frames: Int, sampleRate: Int) -> Bool {
        if isStopping {
            unlink(parted.task.job.partPath)
            return false
        }
        reportProgress(parted, force: true)
        let result = WorkerResult(
            section: parted.number, frames: frames, sampleRate: sampleRate, textSHA256: parted.textSHA256,
            words: parted.wordsTotal)
        let records = parted.state.withLock { $0.finished.values.sorted { $0.index < $1.index } }
        let timing = joinedTiming(parted, records: records).map {
            SectionTimingBuilder.timing(
                section: parted.number, sampleRate: sampleRate, frames: frames, blocks: parted.task.job.blocks ?? [],
                chunks: parted.chunks, timings: $0)
        }
        guard finish(parted.task, result: result, timing: timing) else {
            return false
        }
        // The section's record no longer names its parts: they go (a kill before this leaves them
        // unnamed, removed at the next start).
        for record in records { removePart(record.file) }
        return true
    }

    /// When each chunk of the joined section is heard: each part's chunk timings (kept beside it),
    /// moved by the frames of the parts before it. Nil when a part has none (made by an epub2audio
    /// that kept no timing) or its timing does not fit it.
    private func joinedTiming(_ parted: PartedSection, records: [PartRecord]) -> [SpokenChunkTiming]? {
        var timings: [SpokenChunkTiming] = []
        var offset = 0
        for (record, part) in zip(records, parted.parts) {
            let path = folder.path(of: SectionParts.timingFileName(ofPart: record.file))
            guard record.index == part.index, let data = FileManager.default.contents(atPath: path),
                let partTimings = try? JSONDecoder().decode([SpokenChunkTiming].self, from: data),
                partTimings.count == part.chunks.count
            else { return nil }
            timings += partTimings.map { $0.shifted(by: offset) }
            offset += record.frames
        }
        return records.count == parted.parts.count ? timings : nil
    }

    /// The section failed in one of its parts: recorded once; its other parts are not made (those
    /// finished stay recorded, for a later run).
    private func failParts(_ parted: PartedSection, message: String) -> Bool? {
        let first = parted.state.withLock { state -> Bool in
            defer { state.failed = true }
            return !state.failed
        }
        guard first else { return nil }
        abandonJoin(parted, partPath: parted.task.job.partPath)
        recorder.fail(parted.number, message: message)
        return false
    }

    /// Passes the section's progress on (the words of its finished parts and of those in the making),
    /// at most 4 events a second unless `force`.
    private func reportProgress(_ parted: PartedSection, force: Bool) {
        let now = Date()
        let (wordsDone, audio) = parted.state.withLock { state -> (Int, Double?) in
            let done = PartedSection.wordsDone(state, parts: parted.parts)
            guard force || now.timeIntervalSince(state.lastEvent) >= 0.25 else { return (done, nil) }
            state.lastEvent = now
            let frames =
                state.finished.values.reduce(0) { $0 + $1.frames } + state.framesInProgress.values.reduce(0, +)
            let rate = state.finished.values.first?.sampleRate ?? state.sampleRate
            return (done, rate > 0 ? Double(frames) / Double(rate) : 0)
        }
        if let audio {
            emit(
                .progress(
                    section: parted.number, wordsDone: wordsDone, wordsTotal: parted.wordsTotal,
                    audioSeconds: audio))
        }
        recorder.progress(parted.number, wordsDone: wordsDone)
    }
}
