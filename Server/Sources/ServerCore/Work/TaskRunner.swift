import Crypto
import Foundation
import LiveConversion
import Logging

/// How a worker runs tasks.
package struct WorkerConfiguration: Sendable {
    /// The executable each section is made by, as a fresh worker process (the CLI's `worker` protocol).
    package var executable: String
    package var arguments: [String]
    /// Tasks run at once (sections, each in its own process).
    package var slots: Int
    /// A claimed task is the owner's for this long without a heartbeat.
    package var lease: TimeInterval = 30
    /// How often a running task renews its lease.
    package var heartbeat: TimeInterval = 5
    /// How long an idle slot waits before it looks for work again, unless the store wakes it
    /// sooner (`JobQueue.waitForWork`).
    package var idlePoll: TimeInterval = 0.25

    package init(executable: String, arguments: [String], slots: Int) {
        self.executable = executable
        self.arguments = arguments
        self.slots = max(1, slots)
    }
}

/// Claims tasks from the store and runs them: plans, sections (each in a fresh worker process),
/// finalisation. Also reaps expired leases and expired jobs. Any number of runners may share a store.
package final class TaskRunner: Sendable {
    /// The queue it works from, and the jobs it removes when they expire.
    private let store: any JobQueue & JobRepository
    private let blobs: any BlobStore
    private let configuration: WorkerConfiguration
    private let cache = IndexCache()
    /// The tasks being made now, stopped when a shutdown's grace runs out (`drain`).
    private let inFlight = InFlightWork()
    private let name: String
    private let logger: Logger

    package init(
        store: any JobQueue & JobRepository, blobs: any BlobStore, configuration: WorkerConfiguration, logger: Logger
    ) {
        self.store = store
        self.blobs = blobs
        self.configuration = configuration
        self.logger = logger
        let host = ProcessInfo.processInfo.hostName
        name = "\(host)-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// Runs until the calling task is cancelled; then running tasks finish (they are not cancelled)
    /// and nothing new is claimed.
    package func run() async {
        await withTaskGroup(of: Void.self) { group in
            for slot in 0..<configuration.slots {
                group.addTask { await self.slotLoop(slot) }
            }
            group.addTask { await self.reaperLoop() }
        }
    }

    /// A shutdown began (the caller of `run` is cancelled too, so nothing more is claimed): what is
    /// being made gets `grace` to finish; then it is stopped, and its task given back to the queue
    /// (`JobQueue.release`) for another worker, the attempt not counted.
    package func drain(within grace: Duration) {
        let inFlight = self.inFlight
        Task {
            try? await Task.sleep(for: grace)
            inFlight.release()
        }
    }

    private func slotLoop(_ slot: Int) async {
        let owner = "\(name)-\(slot)"
        while !Task.isCancelled {
            let worked = await runOne(owner: owner)
            if !worked { await store.waitForWork(upTo: configuration.idlePoll) }
        }
    }

    private func reaperLoop() async {
        while !Task.isCancelled {
            do {
                let reaped = try await store.reapExpiredLeases(now: Date())
                if reaped > 0 { logger.warning("requeued \(reaped) task(s) whose lease expired") }
                for job in try await store.expiredJobs(now: Date()) {
                    try await blobs.removeJob(job)
                    _ = try await store.deleteJob(id: job)
                    logger.info("job \(job) expired: removed")
                }
                // Then the books no job names any more and none used within --keep-days: the row
                // first (a job made meanwhile keeps it), then the file.
                for book in try await store.expireBooks(now: Date()) {
                    try await blobs.removeBook(sha256: book)
                    logger.info("book \(book) expired: removed")
                }
            } catch {
                logger.error("reaper: \(error)")
            }
            try? await Task.sleep(for: .seconds(max(1, configuration.lease / 3)))
        }
    }

    /// Claims and runs one task; false when there was none. The task runs to its end even when the
    /// caller is cancelled (graceful shutdown), unless its lease is lost or its job cancelled.
    package func runOne(owner: String) async -> Bool {
        let claimed: ClaimedTask?
        do {
            claimed = try await store.claim(owner: owner, lease: configuration.lease, now: Date())
        } catch {
            logger.error("claim: \(error)")
            return false
        }
        guard let task = claimed else { return false }
        // Unstructured: a shutdown does not cancel a section half-way (until its grace runs out); the
        // heartbeat can.
        let work = Task { await self.execute(task) }
        let id = inFlight.add(work)
        let outcome = await work.value
        inFlight.remove(id)
        guard let outcome else { return true }
        if inFlight.isReleasing, case .failed = outcome {
            // Stopped by the shutdown: the task goes back to the queue for another worker, at once.
            do {
                let store = self.store
                _ = try await Task { try await store.release(task, now: Date()) }.value
                logger.info("\(task.jobID) \(task.kind.rawValue) \(task.section): given back (shutting down)")
            } catch {
                logger.error("release: \(error)")
            }
            return true
        }
        if case .failed(let message, let retry) = outcome {
            // The job's events say it too, but an operator reads the log first.
            let which = "\(task.jobID) \(task.kind.rawValue) \(task.section) attempt \(task.attempt)"
            logger.warning("\(which) failed\(retry ? " (retryable)" : ""): \(message)")
        }
        do {
            // Recorded even during a graceful shutdown (a cancelled caller): the work is done.
            let store = self.store
            let accepted = try await Task { try await store.complete(task, outcome: outcome, now: Date()) }.value
            if !accepted {
                logger.warning("\(task.jobID) \(task.kind.rawValue) \(task.section): result ignored (lease lost)")
            }
        } catch {
            logger.error("complete: \(error)")
        }
        return true
    }

    /// Runs the task with a heartbeat beside it; nil when the lease was lost (nothing to record).
    private func execute(_ task: ClaimedTask) async -> TaskOutcome? {
        let work = Task { try await self.perform(task) }
        let lost = ManagedFlag()
        let beat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(configuration.heartbeat))
                if Task.isCancelled { return }
                if let held = try? await store.heartbeat(task, lease: configuration.lease, now: Date()), !held {
                    lost.set()
                    work.cancel()
                    return
                }
            }
        }
        // A shutdown whose grace ran out cancels this task: the section's worker process is stopped.
        let result = await withTaskCancellationHandler {
            await work.result
        } onCancel: {
            work.cancel()
        }
        beat.cancel()
        if lost.isSet { return nil }
        switch result {
        case .success(let outcome): return outcome
        case .failure(let error): return TaskFailure.outcome(for: error)
        }
    }

    private func perform(_ task: ClaimedTask) async throws -> TaskOutcome {
        let bookPath = try await blobs.localBook(sha256: task.book)
        switch task.kind {
        case .plan:
            do {
                return .planned(
                    try ConversionAdapter.plan(bookPath: bookPath, displayName: task.book, options: task.options))
            } catch let error as ConversionAdapter.Failure {
                throw error
            } catch {
                // The reader refused the book: retrying will not help.
                throw ConversionAdapter.Failure(description: "the book cannot be read: \(error)")
            }
        case .section:
            guard let plan = task.plan else { throw ConversionAdapter.Failure(description: "the job has no plan") }
            let jobDirectory = try blobs.jobDirectory(task.jobID)
            // A folder per attempt: a late writer from an attempt that lost its lease never touches this one's files.
            let relative = "work/\(task.section)-\(task.attempt)"
            let directory = jobDirectory + "/" + relative
            if FileManager.default.fileExists(atPath: directory) {
                try FileManager.default.removeItem(atPath: directory)
            }
            let request = try ConversionAdapter.sectionRequest(
                bookPath: bookPath, outputDirectory: directory, section: task.section, options: task.options,
                plan: plan,
                workerExecutable: configuration.executable, workerArguments: configuration.arguments)
            let converter = Converter(
                environment: try ConversionAdapter.environment(bookPath: bookPath, cache: cache))
            let errors = ManagedMessages()
            let summary = try await converter.run(request) { event in
                if case .error(_, let message) = event { errors.append(message) }
            }
            if summary.sectionsFailed > 0 {
                throw TaskFailure.sectionFailure(
                    section: task.section, message: errors.all.last ?? "section \(task.section) failed")
            }
            guard let record = try Manifest.load(fromDirectory: directory)?.section(task.section),
                record.status == .done, let file = record.file
            else { throw ConversionAdapter.Failure(description: "section \(task.section): no file was made") }
            try await blobs.storeSection(jobID: task.jobID, directory: relative)
            return .sectionDone(
                SectionResult(
                    section: task.section, directory: relative, file: file,
                    durationSeconds: record.durationSeconds ?? 0))
        case .finalize:
            guard let plan = task.plan else { throw ConversionAdapter.Failure(description: "the job has no plan") }
            let jobDirectory = try blobs.jobDirectory(task.jobID)
            let results = try await store.sectionResults(jobID: task.jobID)
            try await blobs.fetchSections(jobID: task.jobID, results: results)
            let output = jobDirectory + "/out"
            let seconds = try await ConversionAdapter.finalize(
                results: results, jobDirectory: jobDirectory, outputDirectory: output, bookPath: bookPath,
                options: task.options, plan: plan)
            let outputs = try Self.describeOutputs(in: output)
            try? FileManager.default.removeItem(atPath: jobDirectory + "/work")
            try await blobs.storeOutputs(jobID: task.jobID, outputs: outputs)
            return .finalized(
                outputs: outputs, audioSeconds: seconds, failedSections: plan.sections.count - results.count)
        }
    }

    /// Every file of the output folder with its size and SHA-256, sorted by name.
    static func describeOutputs(in directory: String) throws -> [OutputRecord] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            .filter { Identifiers.isFileName($0) && !$0.hasSuffix(".part") }
            .map { try describeFile(path: directory + "/" + $0, name: $0) }
    }

    /// A file's size and SHA-256, read in 1 MiB pieces.
    static func describeFile(path: String, name: String) throws -> OutputRecord {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var hasher = Crypto.SHA256()
        var size: Int64 = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            size += Int64(chunk.count)
        }
        let hex = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        return OutputRecord(name: name, size: size, sha256: hex)
    }
}

/// The tasks a runner is making, so that a shutdown can stop them.
final class InFlightWork: @unchecked Sendable {
    // @unchecked Sendable: `tasks` and `releasing` are only touched under `lock`.
    private let lock = NSLock()
    private var tasks: [UUID: Task<TaskOutcome?, Never>] = [:]
    private var releasing = false

    /// Registers a task being made; one registered after `release` is stopped at once.
    func add(_ task: Task<TaskOutcome?, Never>) -> UUID {
        let id = UUID()
        let stop = lock.withLock {
            tasks[id] = task
            return releasing
        }
        if stop { task.cancel() }
        return id
    }

    func remove(_ id: UUID) { _ = lock.withLock { tasks.removeValue(forKey: id) } }

    /// Stops every task being made: their tasks are to be given back.
    func release() {
        let all = lock.withLock {
            releasing = true
            return Array(tasks.values)
        }
        for task in all { task.cancel() }
    }

    /// True once `release` was called.
    var isReleasing: Bool { lock.withLock { releasing } }
}

/// A flag set once from one task and read from another.
package final class ManagedFlag: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false
    package init() {}
    /// Sets the flag (for good).
    package func set() { lock.withLock { value = true } }
    /// True once `set` was called.
    package var isSet: Bool { lock.withLock { value } }
}

/// Messages collected from the library's event callback (any thread).
final class ManagedMessages: @unchecked Sendable {
    // @unchecked Sendable: `messages` is only touched under `lock`.
    private let lock = NSLock()
    private var messages: [String] = []
    func append(_ message: String) { lock.withLock { messages.append(message) } }
    var all: [String] { lock.withLock { messages } }
}

/// Tasks waiting for a wake-up, each until `wakeAll()` or its own time limit, whichever is first.
final class Wakeup: @unchecked Sendable {
    // @unchecked Sendable: the three collections are only touched under `lock`.
    private let lock = NSLock()
    /// Registered waits not woken yet.
    private var waiting: [UUID: CheckedContinuation<Void, Never>] = [:]
    /// Every registered wait until its `wait` returns (woken or not).
    private var registered: Set<UUID> = []
    /// Waits whose time ran out before they were registered: registering them resumes at once.
    private var done: Set<UUID> = []

    /// Returns after `wakeAll()`, after `seconds`, or when the calling task is cancelled.
    func wait(upTo seconds: TimeInterval) async {
        let id = UUID()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await withCheckedContinuation { self.register(id, $0) } }
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            await group.next()
            group.cancelAll()
            finish(id)
        }
    }

    func wakeAll() {
        let all = lock.withLock {
            let all = waiting
            waiting = [:]
            return all
        }
        for continuation in all.values { continuation.resume() }
    }

    private func register(_ id: UUID, _ continuation: CheckedContinuation<Void, Never>) {
        let finished = lock.withLock {
            if done.remove(id) != nil { return true }
            registered.insert(id)
            waiting[id] = continuation
            return false
        }
        if finished { continuation.resume() }
    }

    /// The wait is over: a registered continuation still waiting is resumed; one not registered yet
    /// will be resumed as it registers.
    private func finish(_ id: UUID) {
        let continuation = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard registered.remove(id) != nil else {
                done.insert(id)
                return nil
            }
            return waiting.removeValue(forKey: id)
        }
        continuation?.resume()
    }
}
