import Foundation

/// The states a job goes through: queued → running → succeeded | failed | cancelled.
package enum JobState: String, Sendable, Codable, CaseIterable {
    case queued, running, succeeded, failed, cancelled

    /// True once nothing more happens to the job.
    package var isTerminal: Bool { self == .succeeded || self == .failed || self == .cancelled }
}

/// The three kinds of task a job is cut into: planned once, one task per section, finalised once
/// (`JobLifecycle`).
package enum TaskKind: String, Sendable, Codable {
    case plan, section, finalize
}

/// A job as the store keeps it.
package struct JobRecord: Sendable, Equatable {
    /// The id the client chose (or the server generated): unique among its owner's jobs only.
    package var id: String
    /// The job's key in the store, unique across owners: what its tasks, events and files are filed
    /// under (`ClaimedTask.jobID`, `BlobStore.jobDirectory`). The id itself, unless another owner's
    /// job had it first.
    package var key: String
    /// The name of the token that made the job; nil without `--auth`.
    package var owner: String?
    package var book: String
    /// The job's options, the CLI's defaults filled in (stored as `JobOptions.canonicalJSON`).
    package var options: JobOptions
    package var state: JobState
    package var error: String?
    package var created: Date
    package var updated: Date
    package var expires: Date?
    package var audioSeconds: Double
    /// Among its owner's jobs, a job of higher priority is served first (`JobPriority`).
    package var priority: Int = 0
    package var sections: SectionCounts
    package var outputs: [OutputRecord]
    /// The tasks that failed, for good or for now (to be tried again), with their last error: at
    /// most `FailedTask.listed`, plan first, then sections in order.
    package var failures: [FailedTask] = []
    /// The URL the job calls back when it finishes, and how its delivery goes; nil when it names none.
    package var callback: CallbackRecord?
}

/// A task of a job whose last attempt failed.
package struct FailedTask: Sendable, Equatable {
    package var kind: TaskKind
    /// The section number; 0 for the plan and finalize tasks.
    package var section: Int
    /// True when it failed for good; false when another attempt is queued or running.
    package var isFinal: Bool
    /// Attempts made so far.
    package var attempts: Int
    /// What the last failed attempt said.
    package var error: String
    /// When the next attempt may start (a queued retry); nil otherwise.
    package var retryAt: Date?

    package init(kind: TaskKind, section: Int, isFinal: Bool, attempts: Int, error: String, retryAt: Date?) {
        self.kind = kind
        self.section = section
        self.isFinal = isFinal
        self.attempts = attempts
        self.error = error
        self.retryAt = retryAt
    }

    /// The most a job document lists: a job of thousands of failed sections stays small.
    package static let listed = 100

    /// The order jobs list them in: the plan, the sections by number, the finalize task.
    package static func ordered(_ tasks: [FailedTask]) -> [FailedTask] {
        let rank: [TaskKind: Int] = [.plan: 0, .section: 1, .finalize: 2]
        return Array(
            tasks.sorted { (rank[$0.kind] ?? 0, $0.section) < (rank[$1.kind] ?? 0, $1.section) }.prefix(listed))
    }
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

/// A job to create: its id (client-chosen or generated, unique among its owner's jobs), the book, the
/// options, and the idempotency key.
package struct NewJob: Sendable {
    package var id: String
    package var book: String
    package var options: JobOptions
    package var idempotencyKey: String?
    /// The token that makes it (its limits apply); nil without `--auth`.
    package var owner: Token?
    /// Among its owner's jobs, a job of higher priority is served first (`JobPriority.range`).
    package var priority: Int
    /// The URL to POST the job to when it finishes (`CallbackURL`); nil: none.
    package var callback: String?

    package init(
        id: String, book: String, options: JobOptions, idempotencyKey: String? = nil, owner: Token? = nil,
        priority: Int = 0, callback: String? = nil
    ) {
        self.id = id
        self.book = book
        self.options = options
        self.idempotencyKey = idempotencyKey
        self.owner = owner
        self.priority = priority
        self.callback = callback
    }

    /// A store key for a job whose id another owner's job has as its key: a fresh UUID, a valid
    /// job id (`Identifiers.isJobID`) that no client can be expected to have chosen.
    package static func generatedKey() -> String { UUID().uuidString.lowercased() }

    /// What "the same body" means: the book and the options with their defaults filled in, and the
    /// priority when it is not the default (so the jobs of earlier versions keep their fingerprints).
    package var bodyFingerprint: String {
        book + " " + options.canonicalJSON + (priority == 0 ? "" : " priority=\(priority)")
            + (callback.map { " callback=" + $0 } ?? "")
    }
}

/// A bearer token: the store keeps only the SHA-256 of its secret.
package struct Token: Sendable, Equatable {
    package var name: String
    /// Jobs of this token whose sections may run at once; the others wait in the queue.
    package var maxRunning: Int
    /// Jobs of this token that may wait in the queue; one more is refused with 429.
    package var maxQueued: Int
    /// The key its jobs' callbacks are signed with (`CallbackSignature`), stored as it is in the
    /// tokens table; nil for a token made before callbacks existed (its jobs cannot name one).
    package var callbackSecret: String?

    package init(name: String, maxRunning: Int, maxQueued: Int, callbackSecret: String? = nil) {
        self.name = name
        self.maxRunning = maxRunning
        self.maxQueued = maxQueued
        self.callbackSecret = callbackSecret
    }
}

/// Where a page of jobs ended (`GET /v1/jobs`'s `next`): the last job's creation time and its place
/// in the store's order (SQLite's rowid, PostgreSQL's `seq`), jobs being listed newest first. Clients
/// see it as opaque text; text the server did not make is refused, never taken for a position.
package struct JobCursor: Sendable, Equatable {
    /// The last job's `created`, exactly as stored (seconds since 1970).
    package var created: Double
    /// The last job's place among jobs created at the same time.
    package var sequence: Int64

    package init(created: Double, sequence: Int64) {
        self.created = created
        self.sequence = sequence
    }

    /// `j1.` then the time's 64 bits in hex, `.`, the sequence in decimal.
    package var text: String {
        "j1." + String(created.bitPattern, radix: 16) + "." + String(sequence)
    }

    /// The cursor `text` names; nil for anything else (at most 64 characters are read).
    package init?(text: String) {
        guard text.utf8.count <= 64 else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "j1", let bits = UInt64(parts[1], radix: 16),
            let sequence = Int64(parts[2]), sequence >= 0
        else { return nil }
        let created = Double(bitPattern: bits)
        guard created.isFinite else { return nil }
        self.init(created: created, sequence: sequence)
    }
}

/// A page of jobs, and where the next one starts (nil: this was the last).
package struct JobPage: Sendable {
    package var jobs: [JobRecord]
    package var next: JobCursor?

    package init(jobs: [JobRecord], next: JobCursor?) {
        self.jobs = jobs
        self.next = next
    }
}

/// A token as `token list` shows it: its limits and dates, never its secret.
package struct TokenEntry: Sendable, Equatable {
    package var token: Token
    package var created: Date
    /// When it was revoked (`token revoke`); nil while its secret is accepted.
    package var revoked: Date?

    package init(token: Token, created: Date, revoked: Date? = nil) {
        self.token = token
        self.created = created
        self.revoked = revoked
    }
}

/// A task a worker holds: it must renew its lease (`JobQueue.heartbeat`) before the lease runs out,
/// and complete with the same owner and attempt, or its result is ignored.
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

    /// The task's place in its job.
    package var key: TaskKey { TaskKey(kind: kind, section: section) }
}

/// What a task ended with.
package enum TaskOutcome: Sendable, Equatable {
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

/// A job's priority, and the order in which workers take tasks (both stores' `claim`).
///
/// Fair scheduling: the owner (token) with the fewest tasks running goes first, ties to the one
/// served longest ago, so tokens take turns; among its jobs, the highest priority, then the job
/// with the fewest tasks running, then the one served longest ago (`jobs.served`, the time of its
/// last claim), so jobs take turns and a one-section job does not wait behind a long one; within a
/// job, the plan and finalize tasks first, then the sections in order.
package enum JobPriority {
    /// The priorities a job may have; 0 unless asked.
    package static let range = -10...10
}
