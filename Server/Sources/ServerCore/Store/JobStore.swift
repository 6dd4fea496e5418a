import Foundation

/// The states a job goes through: queued → running → succeeded | failed | cancelled.
package enum JobState: String, Sendable, Codable, CaseIterable {
    case queued, running, succeeded, failed, cancelled

    /// True once nothing more happens to the job.
    package var isTerminal: Bool { self == .succeeded || self == .failed || self == .cancelled }
}

/// The three kinds of task a job is cut into: planned once, one task per section, finalised once.
package enum TaskKind: String, Sendable, Codable {
    case plan, section, finalize
}

/// A job as the store keeps it.
package struct JobRecord: Sendable, Equatable {
    package var id: String
    /// The name of the token that made the job; nil without `--auth`.
    package var owner: String?
    package var book: String
    /// The job's options as canonical JSON (`JobOptions`).
    package var options: JobOptions
    package var state: JobState
    package var error: String?
    package var created: Date
    package var updated: Date
    package var expires: Date?
    package var audioSeconds: Double
    package var sections: SectionCounts
    package var outputs: [OutputRecord]
}

/// How many of a job's sections are where.
package struct SectionCounts: Sendable, Equatable {
    package var total = 0
    package var queued = 0
    package var running = 0
    package var done = 0
    package var failed = 0
}

/// A file a finished job offers for download.
package struct OutputRecord: Sendable, Equatable, Codable {
    package var name: String
    package var size: Int64
    package var sha256: String

    package init(name: String, size: Int64, sha256: String) {
        self.name = name
        self.size = size
        self.sha256 = sha256
    }
}

/// A job to create: its id (client-chosen or generated), the book, the options, and the idempotency key.
package struct NewJob: Sendable {
    package var id: String
    package var book: String
    package var options: JobOptions
    package var idempotencyKey: String?
    /// The token that makes it (its limits apply); nil without `--auth`.
    package var owner: Token?

    package init(id: String, book: String, options: JobOptions, idempotencyKey: String? = nil, owner: Token? = nil) {
        self.id = id
        self.book = book
        self.options = options
        self.idempotencyKey = idempotencyKey
        self.owner = owner
    }

    /// What "the same body" means: the book and the options with their defaults filled in.
    package var bodyFingerprint: String { book + " " + options.canonicalJSON }
}

/// A bearer token: the store keeps only the SHA-256 of its secret.
package struct Token: Sendable, Equatable {
    package var name: String
    /// Jobs of this token whose sections may run at once; the others wait in the queue.
    package var maxRunning: Int
    /// Jobs of this token that may wait in the queue; one more is refused with 429.
    package var maxQueued: Int

    package init(name: String, maxRunning: Int, maxQueued: Int) {
        self.name = name
        self.maxRunning = maxRunning
        self.maxQueued = maxQueued
    }
}

/// A task a worker holds: it must heartbeat before `leaseUntil`, and complete with the same owner
/// and attempt, or its result is ignored.
package struct ClaimedTask: Sendable, Equatable {
    package var jobID: String
    package var kind: TaskKind
    /// The section number; 0 for the plan and finalize tasks.
    package var section: Int
    /// 1 for the first attempt.
    package var attempt: Int
    package var owner: String
    package var book: String
    package var options: JobOptions
    /// What the plan decided (voice, source options, sections), for section and finalize tasks.
    package var plan: JobPlan?
}

/// What a task ended with.
package enum TaskOutcome: Sendable {
    /// The plan: the sections to make, and the resolved settings.
    case planned(JobPlan)
    /// A section's audio is made, in `directory` (a folder of this attempt's own).
    case sectionDone(SectionResult)
    /// The outputs are in place.
    case finalized(outputs: [OutputRecord], audioSeconds: Double, failedSections: Int)
    /// The task failed; `retry` puts it back in the queue while attempts remain.
    case failed(message: String, retry: Bool)
}

/// A finished section, as its attempt made it.
package struct SectionResult: Sendable, Equatable, Codable {
    package var section: Int
    /// The folder of the attempt that made it (relative to the job's folder).
    package var directory: String
    package var file: String
    package var durationSeconds: Double
}

/// A job's stored progress event; ids increase across the store.
package struct JobEvent: Sendable, Equatable {
    package var id: Int64
    package var jobID: String
    package var type: String
    /// The event's JSON object, with sorted keys.
    package var data: String
}

/// Errors a store reports to the API.
package enum JobStoreError: Error, Equatable, CustomStringConvertible {
    /// The id or idempotency key names a job made with another body.
    case conflict(String)
    case bookNotFound(String)
    /// The token has `limit` queued jobs already.
    case tooManyQueued(limit: Int)
    /// A token with this name exists.
    case tokenExists(String)

    package var description: String {
        switch self {
        case .tooManyQueued(let limit):
            return "this token has \(limit) queued jobs, its limit; try again when one has started"
        case .tokenExists(let name): return "a token named \(name) exists"
        case .conflict(let message): return message
        case .bookNotFound(let sha): return "no book \(sha) is stored; upload it with PUT /v1/books/\(sha) first"
        }
    }
}

/// The job store and queue. The default is SQLite (`SQLiteJobStore`); a shared store (PostgreSQL) lets
/// API nodes and workers on several machines share one queue.
///
/// Claims are exclusive: a task is held by one owner at a time, under a lease that `heartbeat`
/// renews. `reapExpiredLeases` gives a task whose lease ran out back to the queue (at most
/// `maxAttempts` attempts in all), and `complete` ignores a result from an owner or attempt that no
/// longer holds the task.
package protocol JobStore: Sendable {
    /// Records an uploaded book; false when it was already there.
    func addBook(sha256: String, size: Int64) async throws -> Bool
    func hasBook(sha256: String) async throws -> Bool

    /// Creates the job, or returns the existing one when the id or key already names the same body
    /// (`created` false). - Throws: `JobStoreError.conflict` when it names another body.
    func createJob(_ job: NewJob, now: Date) async throws -> (job: JobRecord, created: Bool)
    func job(id: String) async throws -> JobRecord?
    /// The newest jobs; only `owner`'s when given.
    func jobs(limit: Int, owner: String?) async throws -> [JobRecord]
    /// Cancels a job that is not finished; returns it as it is after.
    func cancelJob(id: String, now: Date) async throws -> JobRecord?
    /// Removes the job and its tasks and events; false when there was none.
    func deleteJob(id: String) async throws -> Bool
    /// Finished jobs whose outputs expired before `now`.
    func expiredJobs(now: Date) async throws -> [String]

    /// Takes the oldest runnable task, if any, for `lease` seconds.
    func claim(owner: String, lease: TimeInterval, now: Date) async throws -> ClaimedTask?
    /// Renews the lease; false when the task is no longer this owner's attempt, or its job was cancelled.
    func heartbeat(_ task: ClaimedTask, lease: TimeInterval, now: Date) async throws -> Bool
    /// Records the outcome; false (and nothing changes) when the owner or attempt no longer holds the task.
    func complete(_ task: ClaimedTask, outcome: TaskOutcome, now: Date) async throws -> Bool
    /// Puts tasks whose lease expired back in the queue, or fails them after `maxAttempts`; returns how many.
    func reapExpiredLeases(now: Date) async throws -> Int
    /// Successful section results of a job, in section order.
    func sectionResults(jobID: String) async throws -> [SectionResult]

    /// Appends a progress event to a job.
    func appendEvent(jobID: String, type: String, data: String, now: Date) async throws
    /// A job's events after `after` (an event id), oldest first.
    func events(jobID: String, after: Int64, limit: Int) async throws -> [JobEvent]
    /// Stores a token under the SHA-256 of its secret.
    func addToken(_ token: Token, secretSHA256: String, now: Date) async throws
    /// The token whose secret hashes to `secretSHA256`.
    func token(secretSHA256: String) async throws -> Token?

    /// How many jobs are in each state, and tasks in each (kind, state): what `/metrics` shows.
    func counts() async throws -> (jobs: [String: Int], tasks: [String: Int])

    /// True when the store answers.
    func isReady() async -> Bool

    /// Returns once a task may have been queued (another process's too, where the store can tell:
    /// PostgreSQL's LISTEN/NOTIFY), or after `seconds`, or when the calling task is cancelled. An
    /// idle worker waits here between claims; a store that cannot tell just sleeps.
    func waitForWork(upTo seconds: TimeInterval) async
}

/// How many attempts a task gets before it fails for good.
package let maxAttempts = 3
