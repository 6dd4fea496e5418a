import Foundation
import GRDB
import Logging
import PostgresNIO
import Synchronization
import Testing

@testable import ServerCore

/// The stores' queue semantics: exclusive claims, leases, attempts, late writes, idempotency. Each
/// test runs against SQLite and, when `EPUB2AUDIO_TEST_POSTGRES_URL` names a server
/// (scripts/with-postgres.sh), against PostgreSQL.
@Suite struct JobStoreTests {
    let folder: TemporaryFolder
    let book = String(repeating: "ab", count: 32)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The test's store, with the book stored: three attempts, retried at once unless `retries` says
    /// otherwise.
    func open(_ kind: StoreKind, retries: RetryPolicy = StoreKind.immediateRetries) async throws -> any JobStore {
        let store = try await kind.open(folder: folder, name: "jobs", retries: retries)
        _ = try await store.addBook(sha256: book, size: 10)
        return store
    }

    func plan(_ sections: [Int]) -> JobPlan {
        JobPlan(voice: "gmw/en", sections: sections, displayTitle: "Book")
    }

    @Test(arguments: StoreKind.available) func sameBodyGivesTheSameJobAndAnotherBodyConflicts(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        let first = try await store.createJob(NewJob(id: "job-1", book: book, options: JobOptions()), now: now)
        #expect(first.created)
        #expect(first.job.state == .queued)
        // The defaults filled in: an explicit default is the same body.
        let again = try await store.createJob(
            NewJob(id: "job-1", book: book, options: JobOptions(format: "wav")), now: now)
        #expect(!again.created)
        #expect(again.job.id == "job-1")
        await #expect(throws: JobStoreError.self) {
            _ = try await store.createJob(
                NewJob(id: "job-1", book: book, options: JobOptions(format: "flac")), now: now)
        }
    }

    @Test(arguments: StoreKind.available) func idempotencyKeyNamesOneJob(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        let first = try await store.createJob(
            NewJob(id: "a", book: book, options: JobOptions(), idempotencyKey: "key-1"), now: now)
        let second = try await store.createJob(
            NewJob(id: "b", book: book, options: JobOptions(), idempotencyKey: "key-1"), now: now)
        #expect(first.created && !second.created)
        #expect(second.job.id == "a")
        await #expect(throws: JobStoreError.conflict("the Idempotency-Key was used for a job with another body")) {
            _ = try await store.createJob(
                NewJob(id: "c", book: book, options: JobOptions(rate: 200), idempotencyKey: "key-1"), now: now)
        }
        #expect(try await store.jobs(limit: 10, owner: nil).count == 1)
    }

    @Test(arguments: StoreKind.available) func aJobNeedsAStoredBook(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        await #expect(throws: JobStoreError.bookNotFound(String(repeating: "0", count: 64))) {
            _ = try await store.createJob(
                NewJob(id: "x", book: String(repeating: "0", count: 64), options: JobOptions()), now: now)
        }
    }

    @Test(arguments: StoreKind.available) func twoClaimersNeverGetTheSameTask(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        for index in 0..<10 {
            _ = try await store.createJob(NewJob(id: "job-\(index)", book: book, options: JobOptions()), now: now)
        }
        // 20 claimers race for 10 plan tasks: each task is taken exactly once.
        let claimed = try await withThrowingTaskGroup(of: ClaimedTask?.self) { group in
            for index in 0..<20 {
                group.addTask { try await store.claim(owner: "w\(index)", lease: 30, now: now) }
            }
            var all: [ClaimedTask] = []
            for try await task in group { if let task { all.append(task) } }
            return all
        }
        #expect(claimed.count == 10)
        #expect(Set(claimed.map(\.jobID)).count == 10)
        #expect(try await store.claim(owner: "late", lease: 30, now: now) == nil)
    }

    @Test(arguments: StoreKind.available) func aJobRunsPlanSectionsThenFinalize(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        let planTask = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        #expect(planTask.kind == .plan)
        #expect(try await store.job(id: "j")?.state == .running)
        #expect(try await store.complete(planTask, outcome: .planned(plan([2, 3])), now: now))
        var sections: [ClaimedTask] = []
        for _ in 0..<2 { sections.append(try #require(try await store.claim(owner: "w", lease: 30, now: now))) }
        #expect(sections.map(\.kind) == [.section, .section])
        #expect(sections.map(\.section) == [2, 3])
        #expect(sections.allSatisfy { $0.plan == plan([2, 3]) })
        // No finalize before the last section is done.
        #expect(try await store.claim(owner: "w", lease: 30, now: now) == nil)
        for task in sections {
            let result = SectionResult(
                section: task.section, directory: "work/\(task.section)-1", file: "00\(task.section) - X.wav",
                durationSeconds: 1.5)
            #expect(try await store.complete(task, outcome: .sectionDone(result), now: now))
        }
        #expect(
            try await store.job(id: "j")?.sections == SectionCounts(total: 2, queued: 0, running: 0, done: 2, failed: 0)
        )
        let finalize = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        #expect(finalize.kind == .finalize)
        #expect(try await store.sectionResults(jobID: "j").map(\.section) == [2, 3])
        let outputs = [OutputRecord(name: "002 - X.wav", size: 10, sha256: "00")]
        #expect(
            try await store.complete(
                finalize, outcome: .finalized(outputs: outputs, audioSeconds: 3, failedSections: 0), now: now))
        let job = try #require(try await store.job(id: "j"))
        #expect(job.state == .succeeded)
        #expect(job.outputs == outputs)
        #expect(job.audioSeconds == 3)
        #expect(job.expires != nil)
        let events = try await store.events(jobID: "j", after: 0, limit: 100)
        #expect(events.map(\.type) == ["state", "state", "planned", "section", "section", "state"])
        #expect(events.map(\.id) == events.map(\.id).sorted())
        #expect(try await store.events(jobID: "j", after: events[2].id, limit: 100).count == 3)
    }

    @Test(arguments: StoreKind.available) func sectionsCompletedAtOnceQueueOneFinalize(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        let planTask = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        _ = try await store.complete(planTask, outcome: .planned(plan(Array(1...12))), now: now)
        var sections: [ClaimedTask] = []
        for index in 0..<12 {
            sections.append(try #require(try await store.claim(owner: "w\(index)", lease: 30, now: now)))
        }
        // Every worker finishes at the same moment: the last one to commit still queues the finalize task.
        let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in sections {
                group.addTask {
                    let result = SectionResult(
                        section: task.section, directory: "work/\(task.section)-1", file: "\(task.section).wav",
                        durationSeconds: 1)
                    return try await store.complete(task, outcome: .sectionDone(result), now: now)
                }
            }
            var all: [Bool] = []
            for try await value in group { all.append(value) }
            return all
        }
        #expect(accepted == Array(repeating: true, count: 12))
        #expect(try await store.job(id: "j")?.sections.done == 12)
        let finalize = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        #expect(finalize.kind == .finalize)
        #expect(try await store.claim(owner: "w", lease: 30, now: now) == nil)
        #expect(try await store.sectionResults(jobID: "j").map(\.section) == Array(1...12))
    }

    @Test(arguments: StoreKind.available) func anExpiredLeaseRequeuesTheTaskAndTheLateWriteIsIgnored(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        let first = try #require(try await store.claim(owner: "dead", lease: 10, now: now))
        // Still held: nothing to reap, and nobody else can take it.
        #expect(try await store.reapExpiredLeases(now: now.addingTimeInterval(5)) == 0)
        #expect(try await store.claim(owner: "other", lease: 10, now: now.addingTimeInterval(5)) == nil)
        #expect(try await store.reapExpiredLeases(now: now.addingTimeInterval(11)) == 1)
        let second = try #require(try await store.claim(owner: "alive", lease: 10, now: now.addingTimeInterval(12)))
        #expect(second.attempt == 2)
        // The dead worker wakes up: its heartbeat and its result are refused.
        #expect(!(try await store.heartbeat(first, lease: 10, now: now.addingTimeInterval(13))))
        #expect(!(try await store.complete(first, outcome: .planned(plan([1])), now: now.addingTimeInterval(13))))
        #expect(try await store.heartbeat(second, lease: 10, now: now.addingTimeInterval(13)))
        #expect(try await store.complete(second, outcome: .planned(plan([7])), now: now.addingTimeInterval(14)))
        let section = try #require(try await store.claim(owner: "alive", lease: 10, now: now.addingTimeInterval(15)))
        #expect(section.section == 7)
    }

    /// Job ids are each owner's own: the same id names a job of each token, and one made without a
    /// token, each with its own body, key, tasks and cancellation.
    @Test(arguments: StoreKind.available) func jobIDsAreEachOwnersOwn(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        let alice = Token(name: "alice", maxRunning: 5, maxQueued: 5)
        let bob = Token(name: "bob", maxRunning: 5, maxQueued: 5)
        var keys: [String] = []
        for (owner, format) in [(alice, "wav"), (bob, "flac"), (nil, "ogg")] {
            let options = JobOptions(format: format)
            let (job, created) = try await store.createJob(
                NewJob(id: "x", book: book, options: options, owner: owner), now: now)
            #expect(created && job.id == "x" && job.owner == owner?.name)
            #expect(Identifiers.isJobID(job.key))
            keys.append(job.key)
            // The same body again is the same job; another body is a conflict, within the owner only.
            let again = try await store.createJob(NewJob(id: "x", book: book, options: options, owner: owner), now: now)
            #expect(!again.created && again.job.key == job.key)
            await #expect(throws: JobStoreError.self) {
                _ = try await store.createJob(
                    NewJob(id: "x", book: book, options: JobOptions(format: "mp3"), owner: owner), now: now)
            }
        }
        #expect(Set(keys).count == 3)
        #expect(try await store.job(named: "x", owner: "bob")?.options.format == "flac")
        #expect(try await store.job(named: "x", owner: nil)?.options.format == "ogg")
        #expect(try await store.job(named: "x", owner: "carol") == nil)
        #expect(try await store.jobs(limit: 10, owner: "alice").map(\.key) == [keys[0]])
        _ = try await store.cancelJob(id: keys[1], now: now)
        #expect(try await store.job(named: "x", owner: "bob")?.state == .cancelled)
        #expect(try await store.job(named: "x", owner: "alice")?.state == .queued)
    }

    /// A database an earlier version made (job ids one namespace) reads as it was: each job found by
    /// its id among its owner's.
    @Test func anSQLiteDatabaseOfAnEarlierVersionKeepsItsJobs() async throws {
        defer { folder.remove() }
        let path = folder.path + "/old.sqlite"
        let database = try DatabaseQueue(path: path)
        try await database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1'), ('v2-tokens');
                    CREATE TABLE books (sha256 TEXT PRIMARY KEY, size INTEGER NOT NULL, created REAL NOT NULL);
                    CREATE TABLE jobs (
                        id TEXT PRIMARY KEY, book TEXT NOT NULL, options TEXT NOT NULL, fingerprint TEXT NOT NULL,
                        idempotency_key TEXT UNIQUE, state TEXT NOT NULL, error TEXT, plan TEXT,
                        created REAL NOT NULL, updated REAL NOT NULL, expires REAL,
                        audio_seconds REAL NOT NULL DEFAULT 0, outputs TEXT NOT NULL DEFAULT '[]', owner TEXT);
                    CREATE TABLE tasks (
                        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE, kind TEXT NOT NULL,
                        section INTEGER NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
                        owner TEXT, lease_until REAL, result TEXT, error TEXT, created REAL NOT NULL,
                        PRIMARY KEY (job_id, kind, section));
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
                        type TEXT NOT NULL, data TEXT NOT NULL, created REAL NOT NULL);
                    CREATE TABLE tokens (
                        secret_sha256 TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                        max_running INTEGER NOT NULL, max_queued INTEGER NOT NULL, created REAL NOT NULL);
                    """)
            try db.execute(
                sql: "INSERT INTO books VALUES (?, 1, 0)", arguments: [book])
            try db.execute(
                sql: """
                    INSERT INTO jobs (id, book, options, fingerprint, state, created, updated, owner)
                    VALUES ('old', ?, ?, 'f', 'queued', 0, 0, 'alice')
                    """,
                arguments: [book, JobOptions().canonicalJSON])
        }
        try database.close()
        let store = try SQLiteJobStore(path: path)
        let old = try #require(try await store.job(named: "old", owner: "alice"))
        #expect(old.key == "old" && old.state == .queued)
        #expect(try await store.job(named: "old", owner: nil) == nil)
        // Another token may now use the id: its job gets a key of its own.
        let bob = Token(name: "bob", maxRunning: 1, maxQueued: 1)
        let (job, created) = try await store.createJob(
            NewJob(id: "old", book: book, options: JobOptions(), owner: bob), now: now)
        #expect(created && job.id == "old" && job.key != "old")
    }

    /// A worker that shuts down gives its task back: queued again at once, the attempt not counted,
    /// no retry event; the old attempt's late result is refused.
    @Test(arguments: StoreKind.available) func aReleasedTaskIsQueuedAgainWithoutUsingAnAttempt(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        let plan = try #require(try await store.claim(owner: "w", lease: 10, now: now))
        #expect(try await store.complete(plan, outcome: .planned(self.plan([1])), now: now))
        let first = try #require(try await store.claim(owner: "leaving", lease: 10, now: now))
        #expect(try await store.release(first, now: now.addingTimeInterval(1)))
        #expect(!(try await store.release(first, now: now.addingTimeInterval(1))))
        #expect(try await store.job(id: "j")?.sections.queued == 1)
        let second = try #require(try await store.claim(owner: "staying", lease: 10, now: now.addingTimeInterval(2)))
        #expect(second.section == 1 && second.attempt == 1)
        #expect(!(try await store.complete(first, outcome: .failed(message: "x", retry: false), now: now)))
        let events = try await store.events(jobID: "j", after: 0, limit: 100)
        #expect(!events.contains { $0.type == "retry" })
    }

    @Test(arguments: StoreKind.available) func aTaskFailsForGoodAfterThreeAttempts(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        var time = now
        for attempt in 1...3 {
            let task = try #require(try await store.claim(owner: "w\(attempt)", lease: 1, now: time))
            #expect(task.attempt == attempt)
            time.addTimeInterval(2)
            #expect(try await store.reapExpiredLeases(now: time) == 1)
        }
        #expect(try await store.claim(owner: "w4", lease: 1, now: time) == nil)
        let job = try #require(try await store.job(id: "j"))
        #expect(job.state == .failed)
        #expect(job.error?.contains("lease expired") == true)
    }

    /// A transient failure waits its backoff, whichever worker asks; the job shows the failure and
    /// when the next attempt may start; a permanent one fails at once, listed as final.
    @Test(arguments: StoreKind.available) func aRetryWaitsItsBackoffAndTheJobShowsIt(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        // A wait of 3 s after the first attempt: half of its bound, 6 s.
        let store = try await open(kind, retries: RetryPolicy(maxAttempts: 3, base: 6, cap: 60, jitter: { 0.5 }))
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        let planTask = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        _ = try await store.complete(planTask, outcome: .planned(plan([1, 2])), now: now)
        let first = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        #expect(
            try await store.complete(
                first, outcome: .failed(message: "S3 PUT: connection refused", retry: true), now: now))
        let waiting = try #require(try await store.job(id: "j"))
        #expect(
            waiting.failures == [
                FailedTask(
                    kind: .section, section: first.section, isFinal: false, attempts: 1,
                    error: "S3 PUT: connection refused", retryAt: now.addingTimeInterval(3))
            ])
        // Within the wait, another process's worker takes the other section, not this one.
        let other = try #require(try await store.claim(owner: "x", lease: 30, now: now.addingTimeInterval(2.9)))
        #expect(other.section != first.section)
        #expect(try await store.claim(owner: "x", lease: 30, now: now.addingTimeInterval(2.9)) == nil)
        let second = try #require(try await store.claim(owner: "y", lease: 30, now: now.addingTimeInterval(3)))
        #expect(second.section == first.section && second.attempt == 2)
        // The other section fails for a reason no retry helps: final at once, after one attempt.
        _ = try await store.complete(
            other, outcome: .failed(message: "the engine refused the text", retry: false), now: now)
        let job = try #require(try await store.job(id: "j"))
        #expect(
            job.failures
                == [
                    FailedTask(
                        kind: .section, section: first.section, isFinal: false, attempts: 2,
                        error: "S3 PUT: connection refused", retryAt: nil),
                    FailedTask(
                        kind: .section, section: other.section, isFinal: true, attempts: 1,
                        error: "the engine refused the text", retryAt: nil),
                ].sorted { $0.section < $1.section })
        let events = try await store.events(jobID: "j", after: 0, limit: 100)
        #expect(events.contains { $0.type == "retry" && $0.data.contains(#""delaySeconds":3"#) })
    }

    /// A failed job runs its failed sections again, and only them; the sections made are kept, the
    /// job is put together again and succeeds. A job that is not failed is left alone.
    @Test(arguments: StoreKind.available) func retryingAFailedJobRunsItsFailedSectionsOnly(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        #expect(try await store.retryJob(id: "j", now: now)?.retried == false)
        #expect(try await store.retryJob(id: "none", now: now) == nil)
        let planTask = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        _ = try await store.complete(planTask, outcome: .planned(plan([1, 2, 3])), now: now)
        for _ in 1...3 {
            let task = try #require(try await store.claim(owner: "w", lease: 30, now: now))
            let outcome: TaskOutcome =
                task.section == 2
                ? .failed(message: "refused", retry: false)
                : .sectionDone(
                    SectionResult(
                        section: task.section, directory: "work/\(task.section)-1", file: "f", durationSeconds: 1))
            _ = try await store.complete(task, outcome: outcome, now: now)
        }
        let finalize = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        _ = try await store.complete(
            finalize, outcome: .finalized(outputs: [], audioSeconds: 2, failedSections: 1), now: now)
        let failed = try #require(try await store.job(id: "j"))
        #expect(failed.state == .failed && failed.expires != nil)
        #expect(failed.failures.map(\.section) == [2] && failed.failures.first?.isFinal == true)

        let (retried, ran) = try #require(try await store.retryJob(id: "j", now: now.addingTimeInterval(60)))
        #expect(ran)
        #expect(retried.state == .running && retried.error == nil && retried.expires == nil)
        #expect(retried.sections.done == 2 && retried.sections.queued == 1 && retried.sections.failed == 0)
        // Only section 2, as a first attempt; then the finalize task, once.
        let again = try #require(try await store.claim(owner: "w", lease: 30, now: now.addingTimeInterval(61)))
        #expect(again.kind == .section && again.section == 2 && again.attempt == 1)
        #expect(try await store.claim(owner: "w", lease: 30, now: now.addingTimeInterval(61)) == nil)
        _ = try await store.complete(
            again,
            outcome: .sectionDone(SectionResult(section: 2, directory: "work/2-1", file: "f", durationSeconds: 1)),
            now: now.addingTimeInterval(62))
        let final = try #require(try await store.claim(owner: "w", lease: 30, now: now.addingTimeInterval(62)))
        #expect(final.kind == .finalize && final.attempt == 1)
        #expect(try await store.sectionResults(jobID: "j").map(\.section) == [1, 2, 3])
        _ = try await store.complete(
            final, outcome: .finalized(outputs: [], audioSeconds: 3, failedSections: 0), now: now.addingTimeInterval(63)
        )
        let done = try #require(try await store.job(id: "j"))
        #expect(done.state == .succeeded && done.failures.isEmpty)
        #expect(try await store.retryJob(id: "j", now: now.addingTimeInterval(64))?.retried == false)
    }

    // MARK: Fair scheduling

    /// A job to create and plan: its id, sections, owner and priority.
    typealias PlannedJob = (id: String, sections: [Int], owner: Token?, priority: Int)

    /// Creates the jobs, then claims and completes their plans, giving back any section claimed
    /// meanwhile; all at `time`, so every job was last served then, none before another.
    func planned(_ store: any JobStore, _ jobs: [PlannedJob], time: Date) async throws {
        for job in jobs {
            _ = try await store.createJob(
                NewJob(id: job.id, book: book, options: JobOptions(), owner: job.owner, priority: job.priority),
                now: time)
        }
        var plans = 0
        var held: [ClaimedTask] = []
        while plans < jobs.count {
            let task = try #require(try await store.claim(owner: "planner", lease: 30, now: time))
            guard task.kind == .plan else {
                held.append(task)
                continue
            }
            let job = try #require(jobs.first { $0.id == task.jobID })
            _ = try await store.complete(task, outcome: .planned(self.plan(job.sections)), now: time)
            plans += 1
        }
        for task in held { #expect(try await store.release(task, now: time)) }
    }

    /// What the claims take, in order, each at `time` plus its rank (the tasks stay running).
    func claims(_ store: any JobStore, _ count: Int, from time: Date) async throws -> [String] {
        var taken: [String] = []
        for index in 0..<count {
            let task = try #require(
                try await store.claim(owner: "w\(index)", lease: 300, now: time.addingTimeInterval(Double(index))))
            taken.append("\(task.jobID) \(task.kind == .section ? String(task.section) : task.kind.rawValue)")
        }
        return taken
    }

    /// Jobs take turns: a job submitted while a long one runs gets its plan and its section at the
    /// next claims, not after the long job's sections.
    @Test(arguments: StoreKind.available) func jobsTakeTurns(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        try await planned(store, [("long", Array(1...8), nil, 0)], time: now)
        #expect(try await claims(store, 2, from: now.addingTimeInterval(1)) == ["long 1", "long 2"])
        _ = try await store.createJob(
            NewJob(id: "short", book: book, options: JobOptions()), now: now.addingTimeInterval(5))
        let plan = try #require(try await store.claim(owner: "p", lease: 30, now: now.addingTimeInterval(6)))
        #expect(plan.jobID == "short" && plan.kind == .plan)
        _ = try await store.complete(plan, outcome: .planned(self.plan([1, 2])), now: now.addingTimeInterval(7))
        // The job with fewer sections running goes first: the short job's, until it has as many
        // running as the long one.
        #expect(
            try await claims(store, 4, from: now.addingTimeInterval(8)) == ["short 1", "short 2", "long 3", "long 4"])
    }

    /// Tokens take turns whatever their jobs' sizes and priorities: the token with fewer tasks
    /// running goes first; among one token's jobs, the higher priority.
    @Test(arguments: StoreKind.available) func tokensTakeTurnsAndPriorityOrdersATokensJobs(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        let alice = Token(name: "alice", maxRunning: 10, maxQueued: 10)
        let bob = Token(name: "bob", maxRunning: 10, maxQueued: 10)
        try await planned(
            store,
            [
                ("a-big", Array(1...6), alice, 10), ("a-low", [1, 2], alice, -3), ("a-high", [1, 2], alice, 5),
                ("b-one", [1, 2, 3], bob, 0),
            ], time: now)
        #expect(
            try await claims(store, 8, from: now.addingTimeInterval(10)) == [
                // Alice and Bob alternate (Bob's one job at priority 0 is not behind Alice's 10);
                // Alice's jobs by priority, then in turns among equals.
                "a-big 1", "b-one 1", "a-big 2", "b-one 2", "a-big 3", "b-one 3", "a-big 4", "a-big 5",
            ])
        let high = try #require(try await store.job(named: "a-high", owner: "alice"))
        #expect(high.priority == 5)
    }

    @Test(arguments: StoreKind.available) func aHigherPriorityJobOfTheSameOwnerGoesFirst(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        try await planned(store, [("normal", [1, 2, 3], nil, 0), ("urgent", [1, 2], nil, 3)], time: now)
        #expect(
            try await claims(store, 5, from: now.addingTimeInterval(2)) == [
                "urgent 1", "urgent 2", "normal 1", "normal 2", "normal 3",
            ])
        // The priority is part of the body: the same id with another priority is a conflict.
        await #expect(throws: JobStoreError.self) {
            _ = try await store.createJob(
                NewJob(id: "urgent", book: book, options: JobOptions(), priority: 4), now: now)
        }
        #expect(
            try await !store.createJob(
                NewJob(id: "normal", book: book, options: JobOptions()), now: now
            ).created)
    }

    @Test(arguments: StoreKind.available) func aFailedSectionStillFinalizesAndFailsTheJob(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        let planTask = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        _ = try await store.complete(planTask, outcome: .planned(plan([1])), now: now)
        let section = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        _ = try await store.complete(section, outcome: .failed(message: "the engine refused", retry: false), now: now)
        #expect(try await store.job(id: "j")?.sections.failed == 1)
        let finalize = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        #expect(finalize.kind == .finalize)
        _ = try await store.complete(
            finalize, outcome: .finalized(outputs: [], audioSeconds: 0, failedSections: 1), now: now)
        #expect(try await store.job(id: "j")?.state == .failed)
    }

    @Test(arguments: StoreKind.available) func cancellingStopsQueuedAndRunningTasks(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        let planTask = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        _ = try await store.complete(planTask, outcome: .planned(plan([1, 2])), now: now)
        let running = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        let job = try #require(try await store.cancelJob(id: "j", now: now))
        #expect(job.state == .cancelled)
        #expect(!(try await store.heartbeat(running, lease: 30, now: now)))
        #expect(try await store.claim(owner: "w", lease: 30, now: now) == nil)
        // A cancelled job stays cancelled.
        _ = try await store.complete(running, outcome: .failed(message: "cancelled", retry: true), now: now)
        #expect(try await store.job(id: "j")?.state == .cancelled)
        #expect(try await store.cancelJob(id: "nope", now: now) == nil)
    }

    @Test(arguments: StoreKind.available) func jobsSurviveReopeningTheDatabase(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions(chapters: [3, 1])), now: now)
        let reopened = try await kind.open(folder: folder, name: "jobs")
        let job = try #require(try await reopened.job(id: "j"))
        #expect(job.options.chapters == [1, 3])
        #expect(try await reopened.claim(owner: "w", lease: 30, now: now)?.kind == .plan)
    }

    @Test(arguments: StoreKind.available) func aTokenHasLimitsOnQueuedAndRunningJobs(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        let token = Token(name: "alice", maxRunning: 1, maxQueued: 2)
        try await store.addToken(token, secretSHA256: TokenSecret.sha256("secret"), now: now)
        #expect(try await store.token(secretSHA256: TokenSecret.sha256("secret")) == token)
        #expect(try await store.token(secretSHA256: TokenSecret.sha256("other")) == nil)
        await #expect(throws: JobStoreError.tokenExists("alice")) {
            try await store.addToken(token, secretSHA256: TokenSecret.sha256("again"), now: now)
        }
        _ = try await store.createJob(NewJob(id: "a1", book: book, options: JobOptions(), owner: token), now: now)
        _ = try await store.createJob(NewJob(id: "a2", book: book, options: JobOptions(), owner: token), now: now)
        await #expect(throws: JobStoreError.tooManyQueued(limit: 2)) {
            _ = try await store.createJob(NewJob(id: "a3", book: book, options: JobOptions(), owner: token), now: now)
        }
        // Another owner's queue is its own.
        _ = try await store.createJob(NewJob(id: "b1", book: book, options: JobOptions()), now: now)
        #expect(try await store.jobs(limit: 10, owner: "alice").map(\.id).sorted() == ["a1", "a2"])
        #expect(try await store.jobs(limit: 10, owner: nil).map(\.id) == ["b1"])
        // One running job at a time for alice: her second plan waits, b1's does not.
        let first = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        #expect(first.jobID == "a1")
        let second = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        #expect(second.jobID == "b1")
        #expect(try await store.claim(owner: "w", lease: 30, now: now) == nil)
        // A job started: a third may be queued again.
        _ = try await store.createJob(NewJob(id: "a3", book: book, options: JobOptions(), owner: token), now: now)
        // The same id from another owner (here none) is a job of its own.
        let other = try await store.createJob(NewJob(id: "a1", book: book, options: JobOptions()), now: now)
        #expect(other.created && other.job.key != first.jobID)
    }

    /// Jobs listed a page at a time: newest first (insertion order breaks ties), no job twice or
    /// skipped, a state filter, a job created meanwhile not shifting later pages.
    @Test(arguments: StoreKind.available) func jobsAreListedByPagesWithAStateFilter(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        let alice = Token(name: "alice", maxRunning: 1, maxQueued: 100)
        let times: [TimeInterval] = [0, 1, 1, 1, 2, 3.5]
        for (index, offset) in times.enumerated() {
            _ = try await store.createJob(
                NewJob(id: "j\(index)", book: book, options: JobOptions(), owner: alice),
                now: now.addingTimeInterval(offset))
        }
        _ = try await store.createJob(NewJob(id: "other", book: book, options: JobOptions()), now: now)
        _ = try await store.cancelJob(id: "j2", now: now)
        var seen: [String] = []
        var cursor: JobCursor?
        var pages = 0
        repeat {
            let page = try await store.jobs(owner: "alice", state: nil, after: cursor, limit: 2)
            #expect(page.jobs.count <= 2)
            seen += page.jobs.map(\.id)
            cursor = page.next
            pages += 1
            // A job created after the first page is newer than it: later pages do not move.
            if pages == 1 {
                _ = try await store.createJob(
                    NewJob(id: "late", book: book, options: JobOptions(), owner: alice),
                    now: now.addingTimeInterval(10))
            }
        } while cursor != nil && pages < 10
        #expect(seen == ["j5", "j4", "j3", "j2", "j1", "j0"])
        #expect(pages == 3)
        // Exactly a page's worth: no next.
        let whole = try await store.jobs(owner: "alice", state: nil, after: nil, limit: 7)
        #expect(whole.jobs.count == 7 && whole.next == nil)
        let cancelled = try await store.jobs(owner: "alice", state: .cancelled, after: nil, limit: 10)
        #expect(cancelled.jobs.map(\.id) == ["j2"] && cancelled.next == nil)
        let queued = try await store.jobs(owner: "alice", state: .queued, after: nil, limit: 3)
        #expect(queued.jobs.map(\.id) == ["late", "j5", "j4"])
        let rest = try await store.jobs(owner: "alice", state: .queued, after: queued.next, limit: 3)
        #expect(rest.jobs.map(\.id) == ["j3", "j1", "j0"] && rest.next == nil)
        #expect(try await store.jobs(owner: nil, state: nil, after: nil, limit: 10).jobs.map(\.id) == ["other"])
    }

    /// A book no job names expires `--keep-days` after its last use (an upload, or a job naming it);
    /// one a job names, or used since, is kept, and an expired one is no longer there for a job.
    @Test(arguments: StoreKind.available) func booksNoJobNamesExpireAfterTheirLastUse(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        let day: TimeInterval = 24 * 3600
        let old = now.addingTimeInterval(-8 * day)
        let (unused, named, recent, uploadedAgain, usedByADeletedJob) = (
            String(repeating: "01", count: 32), String(repeating: "02", count: 32), String(repeating: "03", count: 32),
            String(repeating: "04", count: 32), String(repeating: "05", count: 32)
        )
        for sha in [unused, named, uploadedAgain, usedByADeletedJob] {
            #expect(try await store.addBook(sha256: sha, size: 1, now: old))
        }
        #expect(try await store.addBook(sha256: recent, size: 1, now: now.addingTimeInterval(-day)))
        #expect(try await !store.addBook(sha256: uploadedAgain, size: 1, now: now.addingTimeInterval(-day)))
        _ = try await store.createJob(NewJob(id: "named", book: named, options: JobOptions()), now: old)
        _ = try await store.createJob(
            NewJob(id: "gone", book: usedByADeletedJob, options: JobOptions()), now: now.addingTimeInterval(-2 * day))
        #expect(try await store.deleteJob(id: "gone"))

        // (`book`, which `open` stored at the wall clock's time, weeks before `now`, is unused too.)
        #expect(try await store.expireBooks(now: now).sorted() == [book, unused].sorted())
        #expect(try await !store.hasBook(sha256: unused))
        for sha in [named, recent, uploadedAgain, usedByADeletedJob] { #expect(try await store.hasBook(sha256: sha)) }
        await #expect(throws: JobStoreError.bookNotFound(unused)) {
            _ = try await store.createJob(NewJob(id: "late", book: unused, options: JobOptions()), now: now)
        }
        // Once its job is gone and --keep-days have passed, the named book goes too.
        #expect(try await store.deleteJob(id: "named"))
        #expect(try await store.expireBooks(now: now).sorted() == [named])
        #expect(
            try await store.expireBooks(now: now.addingTimeInterval(7 * day)).sorted()
                == [recent, uploadedAgain, usedByADeletedJob].sorted())
    }

    /// `token list`, `revoke` and `rotate`: a revoked token's secret is refused at once, its jobs
    /// and its name kept; a rotated token's old secret is refused, the new one accepted.
    @Test(arguments: StoreKind.available) func tokensAreListedRevokedAndRotated(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        let alice = Token(name: "alice", maxRunning: 1, maxQueued: 3)
        let bob = Token(name: "bob", maxRunning: 2, maxQueued: 20)
        try await store.addToken(bob, secretSHA256: TokenSecret.sha256("bob-1"), now: now)
        try await store.addToken(alice, secretSHA256: TokenSecret.sha256("alice-1"), now: now.addingTimeInterval(1))
        _ = try await store.createJob(NewJob(id: "a1", book: book, options: JobOptions(), owner: alice), now: now)
        #expect(
            try await store.tokens() == [
                TokenEntry(token: alice, created: now.addingTimeInterval(1)), TokenEntry(token: bob, created: now),
            ])

        let later = now.addingTimeInterval(60)
        #expect(try await store.revokeToken(name: "alice", now: later))
        #expect(try await store.token(secretSHA256: TokenSecret.sha256("alice-1")) == nil)
        // Revoking again keeps the first date; an unknown name is said so.
        #expect(try await store.revokeToken(name: "alice", now: later.addingTimeInterval(60)))
        #expect(try await !store.revokeToken(name: "carol", now: later))
        #expect(try await store.tokens().first?.revoked == later)
        // Her jobs are kept, and her name cannot be given to a new token (it would see them).
        #expect(try await store.job(named: "a1", owner: "alice") != nil)
        await #expect(throws: JobStoreError.tokenExists("alice")) {
            try await store.addToken(alice, secretSHA256: TokenSecret.sha256("alice-2"), now: later)
        }
        // A revoked token cannot be given a new secret.
        #expect(try await !store.rotateToken(name: "alice", secretSHA256: TokenSecret.sha256("alice-3")))
        #expect(try await store.token(secretSHA256: TokenSecret.sha256("alice-3")) == nil)

        #expect(try await store.rotateToken(name: "bob", secretSHA256: TokenSecret.sha256("bob-2")))
        #expect(try await store.token(secretSHA256: TokenSecret.sha256("bob-1")) == nil)
        #expect(try await store.token(secretSHA256: TokenSecret.sha256("bob-2")) == bob)
        #expect(try await !store.rotateToken(name: "carol", secretSHA256: TokenSecret.sha256("carol")))
        #expect(try await store.tokens().last == TokenEntry(token: bob, created: now))
    }

    @Test(arguments: StoreKind.available) func aPlanStoredByAnEarlierVersionIsRead(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: now)
        let planTask = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        #expect(try await store.complete(planTask, outcome: .planned(plan([4])), now: now))
        // The row as versions with `sourceOptions: [String: String]` wrote it (JSONEncoder's order).
        let earlier = #"{"voice":"roa\/it","sourceOptions":{"language":"it"},"sections":[4],"displayTitle":"Libro"}"#
        try await kind.execute(folder: folder, name: "jobs", sql: "UPDATE jobs SET plan = '\(earlier)'")
        let section = try #require(try await store.claim(owner: "w", lease: 30, now: now))
        #expect(
            section.plan
                == JobPlan(
                    voice: "roa/it", sourceOptions: JobPlan.SourceOptions(language: "it"), sections: [4],
                    displayTitle: "Libro"))
    }

    @Test(arguments: StoreKind.available) func finishedJobsExpire(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let store = try await kind.open(folder: folder, name: "expiry", outputLifetime: 60)
        _ = try await store.addBook(sha256: book, size: 1)
        _ = try await store.createJob(NewJob(id: "old", book: book, options: JobOptions()), now: now)
        _ = try await store.createJob(NewJob(id: "live", book: book, options: JobOptions()), now: now)
        _ = try await store.cancelJob(id: "old", now: now)
        let job = try #require(try await store.job(id: "old"))
        #expect(job.expires == now.addingTimeInterval(60))
        #expect(try await store.expiredJobs(now: now.addingTimeInterval(59)).isEmpty)
        // A job that has not finished never expires.
        #expect(try await store.expiredJobs(now: now.addingTimeInterval(3600)) == ["old"])
    }
}

/// A job store the tests run against.
enum StoreKind: String, CustomStringConvertible, CaseIterable, Sendable {
    case sqlite, postgres

    /// The server scripts/with-postgres.sh started, if any.
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["EPUB2AUDIO_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// SQLite always; PostgreSQL when a server is there.
    static var available: [StoreKind] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var description: String { rawValue }

    /// Three attempts, the next at once: what the tests of other rules than the backoff use.
    static let immediateRetries = RetryPolicy(maxAttempts: 3, base: 0, cap: 0)

    /// The store `name` of this test: a file in the test's folder, or a schema of the test's own.
    func open(
        folder: TemporaryFolder, name: String, outputLifetime: TimeInterval = 7 * 24 * 3600,
        retries: RetryPolicy = Self.immediateRetries
    ) async throws -> any JobStore {
        switch self {
        case .sqlite:
            return try SQLiteJobStore(
                path: folder.path + "/\(name).sqlite", outputLifetime: outputLifetime, retries: retries)
        case .postgres:
            let url = try #require(Self.postgresURL)
            return try await PostgresJobStore(
                url: url, schema: Self.schema(folder: folder, name: name), outputLifetime: outputLifetime,
                retries: retries)
        }
    }

    /// Runs `sql` on the database of the store `name` of this test, as another program would.
    func execute(folder: TemporaryFolder, name: String, sql: String) async throws {
        switch self {
        case .sqlite:
            let database = try DatabaseQueue(path: folder.path + "/\(name).sqlite")
            try await database.write { try $0.execute(sql: sql) }
        case .postgres:
            try await PostgresTestClient.with(schema: Self.schema(folder: folder, name: name)) { client async throws in
                _ = try await client.query(PostgresQuery(unsafeSQL: sql))
            }
        }
    }

    /// The PostgreSQL schema of the store `name` of a test.
    static func schema(folder: TemporaryFolder, name: String) -> String {
        "test_" + folder.path.split(separator: "-").suffix(5).joined() + "_" + name
    }
}

/// A client of the test's PostgreSQL server (scripts/with-postgres.sh), for what the stores do not
/// offer: rows written as by another version, the migrations table.
enum PostgresTestClient {
    /// Runs `body` with a client whose search path starts with `schema`, then closes it.
    @discardableResult
    static func with<T: Sendable>(schema: String, _ body: (PostgresClient) async throws -> T) async throws -> T {
        let url = try #require(StoreKind.postgresURL)
        let client = PostgresClient(
            configuration: try PostgresJobStore.configuration(url: url, schema: schema),
            backgroundLogger: Logger(label: "test-postgres"))
        let running = Task { await client.run() }
        defer { running.cancel() }
        return try await body(client)
    }
}

/// Says why the PostgreSQL runs are missing; in CI they must not be.
@Suite struct PostgresAvailability {
    @Test func postgresStoreTestsRunInCI() {
        if StoreKind.postgresURL == nil {
            print(
                "JobStoreTests: PostgreSQL store tests skipped: no EPUB2AUDIO_TEST_POSTGRES_URL (make -C Server test sets it)"
            )
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "CI must run the PostgreSQL store tests")
        }
    }

    @Test func aBadURLIsRefused() async {
        await #expect(throws: PostgresURLError.self) {
            _ = try await PostgresJobStore(url: "mysql://localhost/db")
        }
    }
}

/// Idle workers wait in `waitForWork`: PostgreSQL wakes them when a task is queued (LISTEN/NOTIFY),
/// even one queued through another store (another process); SQLite lets them sleep their time.
@Suite struct WakeUpTests {
    @Test(arguments: StoreKind.available) func aQueuedTaskWakesAnIdleWorker(_ kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let waiting = try await kind.open(folder: folder, name: "jobs")
        let writer = try await kind.open(folder: folder, name: "jobs")
        let book = String(repeating: "cd", count: 32)
        _ = try await writer.addBook(sha256: book, size: 1)
        let limit: TimeInterval = kind == .postgres ? 30 : 0.5
        let waiter = Task {
            let start = Date()
            await waiting.waitForWork(upTo: limit)
            return Date().timeIntervalSince(start)
        }
        try await Task.sleep(for: .milliseconds(300))
        _ = try await writer.createJob(NewJob(id: "wake", book: book, options: JobOptions()), now: Date())
        let waited = await waiter.value
        if kind == .postgres {
            #expect(waited < 10, "the notification did not wake the worker (waited \(waited) s)")
        } else {
            #expect(waited >= 0.45)
        }
    }

    @Test func aWaitEndsAtItsLimitOrWhenWoken() async {
        let wakeup = Wakeup()
        let start = Date()
        await wakeup.wait(upTo: 0.05)
        // Generous: on a loaded machine a task may wait seconds for a thread; what matters is that it ends.
        #expect(Date().timeIntervalSince(start) < 20)
        let returned = ReturnedFlag()
        let woken = Task {
            await wakeup.wait(upTo: 60)
            returned.set()
        }
        // The waiter may start waiting only after a first wake-up: wake until it has returned (or 30 s).
        let woke = Date()
        while !returned.isSet, Date().timeIntervalSince(woke) < 30 {
            wakeup.wakeAll()
            try? await Task.sleep(for: .milliseconds(50))
        }
        await woken.value
        #expect(Date().timeIntervalSince(woke) < 30, "a wake-up did not end a 60 s wait")
    }
}

/// Set once by a task, read by the test that waits for it.
private final class ReturnedFlag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}
