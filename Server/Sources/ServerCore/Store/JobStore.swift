import Foundation

/// The job store: every concern at once, what `SQLiteJobStore` (the default) and `PostgresJobStore`
/// (shared by API nodes and workers on several machines) implement and what the composition root
/// hands out. Callers take the narrowest of the protocols it is made of.
///
/// What a job goes through is decided by `JobLifecycle`; a store only reads what it needs under its
/// locks, and applies the lifecycle's transitions in its transactions.
package typealias JobStore = JobQueue & JobRepository & JobEventLog & TokenStore & JobStoreStatus & CallbackQueue

/// The queue of tasks, what workers use.
///
/// Claims are exclusive: a task is held by one owner at a time, under a lease that `heartbeat`
/// renews. `reapExpiredLeases` gives a task whose lease ran out back to the queue (at most
/// `RetryPolicy.maxAttempts` attempts in all; a task failed for a passing reason waits its
/// backoff, `claim` takes it only from its not-before time), and `complete` ignores a result from an owner or
/// attempt that no longer holds the task.
package protocol JobQueue: Sendable {
    /// Takes the oldest runnable task, if any, for `lease` seconds.
    func claim(owner: String, lease: TimeInterval, now: Date) async throws -> ClaimedTask?
    /// Renews the lease; false when the task is no longer this owner's attempt, or its job was cancelled.
    func heartbeat(_ task: ClaimedTask, lease: TimeInterval, now: Date) async throws -> Bool
    /// Records the outcome; false (and nothing changes) when the owner or attempt no longer holds the task.
    func complete(_ task: ClaimedTask, outcome: TaskOutcome, now: Date) async throws -> Bool
    /// Gives back a task the owner holds and will not finish (it shuts down): queued again at once,
    /// the attempt not counted; false (and nothing changes) when the owner or attempt no longer holds it.
    func release(_ task: ClaimedTask, now: Date) async throws -> Bool
    /// Puts tasks whose lease expired back in the queue, or fails them after the last attempt; returns how many.
    func reapExpiredLeases(now: Date) async throws -> Int
    /// Successful section results of a job, in section order: what its finalize task puts together.
    func sectionResults(jobID: String) async throws -> [SectionResult]

    /// Returns once a task may have been queued (another process's too, where the store can tell:
    /// PostgreSQL's LISTEN/NOTIFY), or after `seconds`, or when the calling task is cancelled. An
    /// idle worker waits here between claims; a store that cannot tell just sleeps.
    func waitForWork(upTo seconds: TimeInterval) async
}

/// The uploaded books and the jobs made of them (their options, plans, states and outputs): what
/// the API reads and writes.
package protocol JobRepository: Sendable {
    /// Records an uploaded book, or that it was uploaded again (a use: see `expireBooks`); false when
    /// it was already there.
    func addBook(sha256: String, size: Int64, now: Date) async throws -> Bool
    /// True when the book was uploaded.
    func hasBook(sha256: String) async throws -> Bool

    /// Creates the job, or returns the existing one when the id (among its owner's jobs) or key
    /// already names the same body (`created` false).
    /// - Throws: `JobStoreError.conflict` when it names another body, `.bookNotFound` without its
    ///   book, `.tooManyQueued` when its token has too many jobs waiting.
    func createJob(_ job: NewJob, now: Date) async throws -> (job: JobRecord, created: Bool)
    /// The job whose store key (`JobRecord.key`) is `id`, if there is one.
    func job(id: String) async throws -> JobRecord?
    /// The job `owner` (a token's name; nil: made without a token) created as `name`: job ids are
    /// each owner's own.
    func job(named name: String, owner: String?) async throws -> JobRecord?
    /// Up to `limit` jobs of `owner` (nil: the jobs made without a token), newest first, in `state`
    /// if given, after `cursor` if given; `next` names the page after when there are more.
    func jobs(owner: String?, state: JobState?, after cursor: JobCursor?, limit: Int) async throws -> JobPage
    /// Cancels a job (by its store key) that is not finished; returns it as it is after.
    func cancelJob(id: String, now: Date) async throws -> JobRecord?
    /// Runs the failed job (by its store key) again: its failed tasks only (`JobLifecycle.retried`).
    /// Returns the job as it is after, and whether it runs again (false: it is not failed, or has
    /// no failed task); nil when there is no such job.
    func retryJob(id: String, now: Date) async throws -> (job: JobRecord, retried: Bool)?
    /// Removes the job (by its store key) and its tasks and events; false when there was none.
    func deleteJob(id: String) async throws -> Bool
    /// Finished jobs whose outputs expired before `now`.
    func expiredJobs(now: Date) async throws -> [String]
    /// Forgets the books no job names and none used (uploaded, or named by a new job) within the
    /// output lifetime (`--keep-days`) before `now`; returns them, for their files to be removed.
    func expireBooks(now: Date) async throws -> [String]
}

extension JobRepository {
    /// Records an uploaded book now.
    package func addBook(sha256: String, size: Int64) async throws -> Bool {
        try await addBook(sha256: sha256, size: size, now: Date())
    }

    /// The newest jobs of `owner` (nil: the jobs made without a token).
    package func jobs(limit: Int, owner: String?) async throws -> [JobRecord] {
        try await jobs(owner: owner, state: nil, after: nil, limit: limit).jobs
    }
}

/// Each job's progress events, oldest first: what event streams read. The store appends them
/// itself, as `JobLifecycle` says, in the transaction that moves the job.
package protocol JobEventLog: Sendable {
    /// A job's events after `after` (an event id; ids increase across the store), oldest first.
    func events(jobID: String, after: Int64, limit: Int) async throws -> [JobEvent]
}

/// The bearer tokens of `--auth`: the store keeps only the SHA-256 of their secrets.
package protocol TokenStore: Sendable {
    /// Stores a token under the SHA-256 of its secret, with its callback-signing secret (kept as it
    /// is: the server signs with it; `Token.callbackSecret`).
    /// - Throws: `JobStoreError.tokenExists` when a token has this name.
    func addToken(_ token: Token, secretSHA256: String, now: Date) async throws
    /// The token whose secret hashes to `secretSHA256`, unless it was revoked.
    func token(secretSHA256: String) async throws -> Token?
    /// Every token, revoked ones too, by name (never a secret nor its hash): what `token list` prints.
    func tokens() async throws -> [TokenEntry]
    /// Revokes the token: its secret is refused from now on (its jobs are kept, and its name stays
    /// taken, so that no new token inherits them). False when no token has this name; a revoked
    /// token stays revoked from its first revocation.
    func revokeToken(name: String, now: Date) async throws -> Bool
    /// Gives the token a new secret; the old one is refused from now on. False when no token that
    /// is not revoked has this name.
    func rotateToken(name: String, secretSHA256: String) async throws -> Bool
}

/// What readiness checks and metrics ask of the store.
package protocol JobStoreStatus: Sendable {
    /// How many jobs are in each state, and tasks in each (kind, state): what `/metrics` shows.
    func counts() async throws -> (jobs: [String: Int], tasks: [String: Int])
    /// True when the store answers.
    func isReady() async -> Bool
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
    /// The store cannot be reached (PostgreSQL down, or not answering within its deadlines): HTTP 503.
    case unavailable(String)

    package var description: String {
        switch self {
        case .tooManyQueued(let limit):
            return "this token has \(limit) queued jobs, its limit; try again when one has started"
        case .tokenExists(let name): return "a token named \(name) exists"
        case .conflict(let message): return message
        case .unavailable(let message): return message
        case .bookNotFound(let sha): return "no book \(sha) is stored; upload it with PUT /v1/books/\(sha) first"
        }
    }
}
