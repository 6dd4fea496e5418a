import Foundation
import GRDB

/// The default job store: one SQLite database in WAL mode (GRDB), shared by the API and by any
/// number of worker processes on the same machine. Every change runs in an `IMMEDIATE`
/// transaction, so a claim is exclusive across processes; what a change does to a job is
/// `JobLifecycle`'s.
package final class SQLiteJobStore: JobStore {
    private let pool: DatabasePool
    private let lifecycle: JobLifecycle

    /// Opens (creating and migrating when needed) the database at `path`.
    package init(path: String, outputLifetime: TimeInterval = 7 * 24 * 3600, retries: RetryPolicy = RetryPolicy())
        throws
    {
        var configuration = Configuration()
        // Other processes (workers) write too: wait for their transactions instead of failing at once.
        configuration.busyMode = .timeout(30)
        pool = try DatabasePool(path: path, configuration: configuration)
        lifecycle = JobLifecycle(outputLifetime: outputLifetime, retries: retries)
        try Self.migrator.migrate(pool)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE books (sha256 TEXT PRIMARY KEY, size INTEGER NOT NULL, created REAL NOT NULL);
                    CREATE TABLE jobs (
                        id TEXT PRIMARY KEY, book TEXT NOT NULL, options TEXT NOT NULL, fingerprint TEXT NOT NULL,
                        idempotency_key TEXT UNIQUE, state TEXT NOT NULL, error TEXT, plan TEXT,
                        created REAL NOT NULL, updated REAL NOT NULL, expires REAL,
                        audio_seconds REAL NOT NULL DEFAULT 0, outputs TEXT NOT NULL DEFAULT '[]');
                    CREATE INDEX jobs_created ON jobs(created);
                    CREATE TABLE tasks (
                        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE, kind TEXT NOT NULL,
                        section INTEGER NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
                        owner TEXT, lease_until REAL, result TEXT, error TEXT, created REAL NOT NULL,
                        PRIMARY KEY (job_id, kind, section));
                    CREATE INDEX tasks_queue ON tasks(state, created);
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
                        type TEXT NOT NULL, data TEXT NOT NULL, created REAL NOT NULL);
                    CREATE INDEX events_job ON events(job_id, id);
                    """)
        }
        migrator.registerMigration("v2-tokens") { db in
            try db.execute(
                sql: """
                    CREATE TABLE tokens (
                        secret_sha256 TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                        max_running INTEGER NOT NULL, max_queued INTEGER NOT NULL, created REAL NOT NULL);
                    ALTER TABLE jobs ADD COLUMN owner TEXT;
                    CREATE INDEX jobs_owner ON jobs(owner, state);
                    """)
        }
        // Job ids are each token's own: `id` stays the store's key (tasks, events, the job's folder),
        // `name` is the id the client chose, unique per owner (no owner: '').
        migrator.registerMigration("v3-job-names") { db in
            try db.execute(
                sql: """
                    ALTER TABLE jobs ADD COLUMN name TEXT;
                    UPDATE jobs SET name = id;
                    CREATE UNIQUE INDEX jobs_name ON jobs(IFNULL(owner, ''), name);
                    """)
        }
        // A task failed for a passing reason waits its backoff: not claimed before `not_before`.
        migrator.registerMigration("v4-task-not-before") { db in
            try db.execute(sql: "ALTER TABLE tasks ADD COLUMN not_before REAL")
        }
        // Fair scheduling (`JobPriority`): a job's priority, and when a task of it was last claimed.
        migrator.registerMigration("v5-fair-scheduling") { db in
            try db.execute(
                sql: """
                    ALTER TABLE jobs ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE jobs ADD COLUMN served REAL;
                    """)
        }
        // `token revoke`: a revoked token keeps its row (its name stays taken), its secret refused.
        migrator.registerMigration("v6-token-revocation") { db in
            try db.execute(sql: "ALTER TABLE tokens ADD COLUMN revoked REAL")
        }
        // Book expiry: when a book was last uploaded or named by a new job (`expireBooks`).
        migrator.registerMigration("v7-book-use") { db in
            try db.execute(
                sql: """
                    ALTER TABLE books ADD COLUMN used REAL;
                    UPDATE books SET used = created;
                    """)
        }
        // Callbacks (`CallbackQueue`): one row per job that names one, its delivery state; each token's
        // callback-signing secret.
        migrator.registerMigration("v8-callbacks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE callbacks (
                        job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE, url TEXT NOT NULL,
                        state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, not_before REAL, last_error TEXT,
                        delivered REAL);
                    CREATE INDEX callbacks_due ON callbacks(state, not_before);
                    ALTER TABLE tokens ADD COLUMN callback_secret TEXT;
                    """)
        }
        return migrator
    }

    /// Runs `body` in an IMMEDIATE transaction: the write lock is taken first, so two processes never
    /// both read a task as queued and both take it.
    private func transaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await pool.writeWithoutTransaction { db in
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    // MARK: JobRepository: books

    package func addBook(sha256: String, size: Int64, now: Date) async throws -> Bool {
        try await transaction { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO books (sha256, size, created, used) VALUES (?, ?, ?, ?)",
                arguments: [sha256, size, now.timeIntervalSince1970, now.timeIntervalSince1970])
            let added = db.changesCount > 0
            if !added {
                try db.execute(
                    sql: "UPDATE books SET used = ? WHERE sha256 = ?", arguments: [now.timeIntervalSince1970, sha256])
            }
            return added
        }
    }

    package func expireBooks(now: Date) async throws -> [String] {
        let cutoff = now.timeIntervalSince1970 - lifecycle.outputLifetime
        return try await transaction { db in
            let expired = try String.fetchAll(
                db,
                sql: """
                    SELECT sha256 FROM books WHERE used < ?
                        AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.book = books.sha256)
                    """, arguments: [cutoff])
            for sha256 in expired { try db.execute(sql: "DELETE FROM books WHERE sha256 = ?", arguments: [sha256]) }
            return expired
        }
    }

    package func hasBook(sha256: String) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM books WHERE sha256 = ?", arguments: [sha256]) ?? false
        }
    }

    // MARK: JobRepository: jobs

    package func createJob(_ job: NewJob, now: Date) async throws -> (job: JobRecord, created: Bool) {
        let id = try await transaction { db -> (String, Bool) in
            // A job is a use of its book: it is not expired while the job is made.
            try db.execute(
                sql: "UPDATE books SET used = ? WHERE sha256 = ?", arguments: [now.timeIntervalSince1970, job.book])
            guard db.changesCount > 0 else { throw JobStoreError.bookNotFound(job.book) }
            // An idempotency key is the token's own: two tokens may use the same one.
            let key = job.idempotencyKey.map { (job.owner?.name ?? "") + "\u{0}" + $0 }
            if let key,
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, fingerprint FROM jobs WHERE idempotency_key = ?", arguments: [key])
            {
                guard row["fingerprint"] == job.bodyFingerprint else {
                    throw JobStoreError.conflict("the Idempotency-Key was used for a job with another body")
                }
                return (row["id"], false)
            }
            if let row = try Row.fetchOne(
                db, sql: "SELECT id, fingerprint FROM jobs WHERE name = ? AND owner IS ?",
                arguments: [job.id, job.owner?.name])
            {
                guard row["fingerprint"] == job.bodyFingerprint else {
                    throw JobStoreError.conflict("job \(job.id) exists with another body")
                }
                return (row["id"], false)
            }
            if let owner = job.owner {
                let queued =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM jobs WHERE owner = ? AND state = 'queued'",
                        arguments: [owner.name]) ?? 0
                if queued >= owner.maxQueued { throw JobStoreError.tooManyQueued(limit: owner.maxQueued) }
            }
            let time = now.timeIntervalSince1970
            // The store's key: the id itself unless another owner's job has it (ids are per owner).
            let taken = try Bool.fetchOne(db, sql: "SELECT 1 FROM jobs WHERE id = ?", arguments: [job.id]) ?? false
            let storeKey = taken ? NewJob.generatedKey() : job.id
            try db.execute(
                sql: """
                    INSERT INTO jobs (
                        id, name, book, options, fingerprint, idempotency_key, state, created, updated, owner, priority)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    storeKey, job.id, job.book, job.options.canonicalJSON, job.bodyFingerprint, key,
                    JobLifecycle.initialState.rawValue, time, time, job.owner?.name, job.priority,
                ])
            if let callback = job.callback {
                try db.execute(
                    sql: "INSERT INTO callbacks (job_id, url, state) VALUES (?, ?, ?)",
                    arguments: [storeKey, callback, CallbackState.waiting.rawValue])
            }
            try Self.apply(self.lifecycle.created(), db, jobID: storeKey, task: nil, now: time)
            return (storeKey, true)
        }
        guard let record = try await self.job(id: id.0) else { throw JobStoreError.conflict("job \(id.0) vanished") }
        return (record, id.1)
    }

    package func job(id: String) async throws -> JobRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE id = ?", arguments: [id]).map {
                try Self.record(db, row: $0)
            }
        }
    }

    package func job(named name: String, owner: String?) async throws -> JobRecord? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM jobs WHERE name = ? AND owner IS ?", arguments: [name, owner]).map
            {
                try Self.record(db, row: $0)
            }
        }
    }

    package func jobs(owner: String?, state: JobState?, after cursor: JobCursor?, limit: Int) async throws -> JobPage {
        try await pool.read { db in
            // One more than asked: whether there is a next page.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid AS seq, * FROM jobs
                    WHERE owner IS ? AND (? IS NULL OR state = ?)
                        AND (? IS NULL OR created < ? OR (created = ? AND rowid < ?))
                    ORDER BY created DESC, rowid DESC LIMIT ?
                    """,
                arguments: [
                    owner, state?.rawValue, state?.rawValue, cursor?.created, cursor?.created, cursor?.created,
                    cursor?.sequence, limit + 1,
                ])
            let page = try rows.prefix(limit).map { try Self.record(db, row: $0) }
            guard rows.count > limit, let last = rows.prefix(limit).last else { return JobPage(jobs: page, next: nil) }
            return JobPage(jobs: page, next: JobCursor(created: last["created"], sequence: last["seq"]))
        }
    }

    package func cancelJob(id: String, now: Date) async throws -> JobRecord? {
        let found = try await transaction { db -> Bool in
            guard let state = try Self.jobState(db, id: id) else { return false }
            try Self.apply(
                self.lifecycle.cancelled(jobState: state, now: now), db, jobID: id, task: nil,
                now: now.timeIntervalSince1970)
            return true
        }
        return found ? try await job(id: id) : nil
    }

    package func retryJob(id: String, now: Date) async throws -> (job: JobRecord, retried: Bool)? {
        let retried = try await transaction { db -> Bool? in
            guard let state = try Self.jobState(db, id: id) else { return nil }
            let tasks = try Row.fetchAll(
                db, sql: "SELECT kind, section, state AS task_state, owner, attempts FROM tasks WHERE job_id = ?",
                arguments: [id]
            ).map(Self.storedTask)
            guard let transition = self.lifecycle.retried(jobState: state, tasks: tasks, now: now) else { return false }
            try Self.apply(transition, db, jobID: id, task: nil, now: now.timeIntervalSince1970)
            return true
        }
        guard let retried, let job = try await job(id: id) else { return nil }
        return (job, retried)
    }

    package func deleteJob(id: String) async throws -> Bool {
        try await transaction { db in
            try db.execute(sql: "DELETE FROM jobs WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    package func expiredJobs(now: Date) async throws -> [String] {
        try await pool.read { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM jobs WHERE expires IS NOT NULL AND expires < ?",
                arguments: [now.timeIntervalSince1970])
        }
    }

    // MARK: JobQueue

    package func claim(owner: String, lease: TimeInterval, now: Date) async throws -> ClaimedTask? {
        try await transaction { db -> ClaimedTask? in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT t.job_id, t.kind, t.section, t.state AS task_state, t.owner, t.attempts,
                               j.state AS job_state, j.book, j.options, j.plan
                        FROM tasks t JOIN jobs j ON j.id = t.job_id
                        WHERE t.state = 'queued' AND j.state IN ('queued', 'running')
                          AND (t.not_before IS NULL OR t.not_before <= ?)
                          AND (j.state = 'running' OR j.owner IS NULL
                               OR (SELECT COUNT(*) FROM jobs r WHERE r.owner = j.owner AND r.state = 'running')
                                  < COALESCE((SELECT max_running FROM tokens k WHERE k.name = j.owner), 1000000000))
                        ORDER BY
                            (SELECT COUNT(*) FROM tasks r JOIN jobs rj ON rj.id = r.job_id
                             WHERE r.state = 'running' AND rj.owner IS j.owner),
                            (SELECT COALESCE(MAX(served), 0) FROM jobs oj WHERE oj.owner IS j.owner),
                            j.priority DESC,
                            (SELECT COUNT(*) FROM tasks r WHERE r.job_id = j.id AND r.state = 'running'),
                            COALESCE(j.served, 0), j.created, j.rowid, t.kind = 'section', t.section
                        LIMIT 1
                        """, arguments: [now.timeIntervalSince1970])
            else { return nil }
            let stored = Self.storedTask(row)
            let jobID: String = row["job_id"]
            let transition = self.lifecycle.claimed(
                stored, by: owner, lease: lease, jobState: JobState(rawValue: row["job_state"]) ?? .running, now: now)
            guard case .claimed(_, let attempt, _) = transition.task else { return nil }
            try Self.apply(transition, db, jobID: jobID, task: stored.key, now: now.timeIntervalSince1970)
            let planJSON: String? = row["plan"]
            return ClaimedTask(
                jobID: jobID, kind: stored.key.kind, section: stored.key.section, attempt: attempt,
                owner: owner, book: row["book"], options: try JobOptions.decode(row["options"]),
                plan: try planJSON.map { try JSONDecoder().decode(JobPlan.self, from: Data($0.utf8)) })
        }
    }

    package func heartbeat(_ task: ClaimedTask, lease: TimeInterval, now: Date) async throws -> Bool {
        try await transaction { db in
            try db.execute(
                sql: """
                    UPDATE tasks SET lease_until = ?
                    WHERE job_id = ? AND kind = ? AND section = ? AND state = 'running' AND owner = ? AND attempts = ?
                      AND (SELECT state FROM jobs WHERE id = tasks.job_id) = 'running'
                    """,
                arguments: [
                    now.timeIntervalSince1970 + lease, task.jobID, task.kind.rawValue, task.section, task.owner,
                    task.attempt,
                ])
            return db.changesCount > 0
        }
    }

    /// The row of `task` as stored; nil when the task is gone.
    private static func storedTask(_ db: Database, _ task: ClaimedTask) throws -> StoredTask? {
        try Row.fetchOne(
            db,
            sql: "SELECT kind, section, state AS task_state, owner, attempts FROM tasks \(byKey)",
            arguments: [task.jobID, task.kind.rawValue, task.section]
        ).map(storedTask)
    }

    package func complete(_ task: ClaimedTask, outcome: TaskOutcome, now: Date) async throws -> Bool {
        try await transaction { db -> Bool in
            let stored = try Self.storedTask(db, task)
            guard
                let transition = self.lifecycle.completed(
                    task, outcome: outcome, stored: stored, jobState: try Self.jobState(db, id: task.jobID),
                    openSections: try Self.openSections(db, jobID: task.jobID), now: now)
            else { return false }
            try Self.apply(transition, db, jobID: task.jobID, task: task.key, now: now.timeIntervalSince1970)
            return true
        }
    }

    package func release(_ task: ClaimedTask, now: Date) async throws -> Bool {
        try await transaction { db -> Bool in
            let stored = try Self.storedTask(db, task)
            guard
                let transition = self.lifecycle.released(
                    task, stored: stored, jobState: try Self.jobState(db, id: task.jobID))
            else { return false }
            try Self.apply(transition, db, jobID: task.jobID, task: task.key, now: now.timeIntervalSince1970)
            return true
        }
    }

    package func reapExpiredLeases(now: Date) async throws -> Int {
        try await transaction { db -> Int in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT job_id, kind, section, state AS task_state, owner, attempts FROM tasks
                    WHERE state = 'running' AND lease_until < ?
                    """,
                arguments: [now.timeIntervalSince1970])
            for row in rows {
                let jobID: String = row["job_id"]
                let stored = Self.storedTask(row)
                let transition = self.lifecycle.leaseExpired(
                    stored, jobState: try Self.jobState(db, id: jobID),
                    openSections: try Self.openSections(db, jobID: jobID), now: now)
                try Self.apply(transition, db, jobID: jobID, task: stored.key, now: now.timeIntervalSince1970)
            }
            return rows.count
        }
    }

    package func sectionResults(jobID: String) async throws -> [SectionResult] {
        try await pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT result FROM tasks WHERE job_id = ? AND kind = 'section' AND state = 'done'
                    ORDER BY section
                    """,
                arguments: [jobID]
            ).map { try JSONDecoder().decode(SectionResult.self, from: Data($0.utf8)) }
        }
    }

    /// SQLite has no notifications across processes: idle workers poll.
    package func waitForWork(upTo seconds: TimeInterval) async {
        try? await Task.sleep(for: .seconds(seconds))
    }

    // MARK: JobEventLog

    package func events(jobID: String, after: Int64, limit: Int) async throws -> [JobEvent] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, type, data FROM events WHERE job_id = ? AND id > ? ORDER BY id LIMIT ?",
                arguments: [jobID, after, limit]
            ).map { JobEvent(id: $0["id"], jobID: jobID, type: $0["type"], data: $0["data"]) }
        }
    }

    // MARK: TokenStore

    package func addToken(_ token: Token, secretSHA256: String, now: Date) async throws {
        try await transaction { db in
            guard
                try Bool.fetchOne(db, sql: "SELECT 1 FROM tokens WHERE name = ?", arguments: [token.name]) == nil
            else { throw JobStoreError.tokenExists(token.name) }
            try db.execute(
                sql: """
                    INSERT INTO tokens (secret_sha256, name, max_running, max_queued, created, callback_secret)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    secretSHA256, token.name, token.maxRunning, token.maxQueued, now.timeIntervalSince1970,
                    token.callbackSecret,
                ])
        }
    }

    package func token(secretSHA256: String) async throws -> Token? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT name, max_running, max_queued, callback_secret FROM tokens
                    WHERE secret_sha256 = ? AND revoked IS NULL
                    """,
                arguments: [secretSHA256]
            ).map {
                Token(
                    name: $0["name"], maxRunning: $0["max_running"], maxQueued: $0["max_queued"],
                    callbackSecret: $0["callback_secret"])
            }
        }
    }

    // MARK: CallbackQueue

    package func claimCallback(lease: TimeInterval, now: Date) async throws -> CallbackDelivery? {
        let time = now.timeIntervalSince1970
        // Senders look every second: a read first, so that an idle look never takes the write lock.
        let due = try await pool.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM callbacks WHERE state = 'pending' AND not_before <= ? LIMIT 1",
                arguments: [time]) ?? false
        }
        guard due else { return nil }
        return try await transaction { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT c.job_id, c.url, c.attempts, j.owner, k.callback_secret FROM callbacks c
                        JOIN jobs j ON j.id = c.job_id LEFT JOIN tokens k ON k.name = j.owner
                        WHERE c.state = 'pending' AND c.not_before <= ? ORDER BY c.not_before LIMIT 1
                        """, arguments: [time])
            else { return nil }
            let delivery = CallbackDelivery(
                jobID: row["job_id"], url: row["url"], attempt: (row["attempts"] as Int) + 1, owner: row["owner"],
                tokenSecret: row["callback_secret"])
            try db.execute(
                sql: "UPDATE callbacks SET attempts = ?, not_before = ? WHERE job_id = ?",
                arguments: [delivery.attempt, time + lease, delivery.jobID])
            return delivery
        }
    }

    package func settleCallback(_ delivery: CallbackDelivery, outcome: CallbackOutcome, now: Date) async throws {
        let change = CallbackChange(outcome, now: now)
        try await transaction { db in
            try db.execute(
                sql: """
                    UPDATE callbacks SET state = ?, not_before = ?, last_error = COALESCE(?, last_error), delivered = ?
                    WHERE job_id = ? AND attempts = ? AND state = 'pending'
                    """,
                arguments: [
                    change.state.rawValue, change.notBefore, change.error, change.delivered, delivery.jobID,
                    delivery.attempt,
                ])
        }
    }

    package func tokens() async throws -> [TokenEntry] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT name, max_running, max_queued, created, revoked FROM tokens ORDER BY name"
            ).map { row in
                TokenEntry(
                    token: Token(name: row["name"], maxRunning: row["max_running"], maxQueued: row["max_queued"]),
                    created: Date(timeIntervalSince1970: row["created"]),
                    revoked: (row["revoked"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    package func revokeToken(name: String, now: Date) async throws -> Bool {
        try await transaction { db in
            try db.execute(
                sql: "UPDATE tokens SET revoked = COALESCE(revoked, ?) WHERE name = ?",
                arguments: [now.timeIntervalSince1970, name])
            return db.changesCount > 0
        }
    }

    package func rotateToken(name: String, secretSHA256: String) async throws -> Bool {
        try await transaction { db in
            try db.execute(
                sql: "UPDATE tokens SET secret_sha256 = ? WHERE name = ? AND revoked IS NULL",
                arguments: [secretSHA256, name])
            return db.changesCount > 0
        }
    }

    // MARK: JobStoreStatus

    package func counts() async throws -> (jobs: [String: Int], tasks: [String: Int]) {
        try await pool.read { db in
            var jobs: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT state, COUNT(*) AS n FROM jobs GROUP BY state") {
                jobs[row["state"]] = row["n"]
            }
            var tasks: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT kind, state, COUNT(*) AS n FROM tasks GROUP BY kind, state") {
                tasks[(row["kind"] as String) + "/" + (row["state"] as String)] = row["n"]
            }
            return (jobs, tasks)
        }
    }

    package func isReady() async -> Bool {
        (try? await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }

    // MARK: Reading for the lifecycle, applying its transitions (inside a transaction)

    /// The condition naming one task: its job, kind and section.
    private static let byKey = "WHERE job_id = ? AND kind = ? AND section = ?"

    private static func storedTask(_ row: Row) -> StoredTask {
        StoredTask(
            key: TaskKey(kind: TaskKind(rawValue: row["kind"]) ?? .plan, section: row["section"]),
            state: TaskState(rawValue: row["task_state"]) ?? .failed, owner: row["owner"], attempts: row["attempts"])
    }

    /// The job's state; nil when there is no such job.
    private static func jobState(_ db: Database, id: String) throws -> JobState? {
        try String.fetchOne(db, sql: "SELECT state FROM jobs WHERE id = ?", arguments: [id]).map {
            JobState(rawValue: $0) ?? .failed
        }
    }

    /// How many of the job's section tasks are queued or running.
    private static func openSections(_ db: Database, jobID: String) throws -> Int {
        try Int.fetchOne(
            db,
            sql: "SELECT COUNT(*) FROM tasks WHERE job_id = ? AND kind = 'section' AND state IN ('queued', 'running')",
            arguments: [jobID]) ?? 0
    }

    /// Writes what the lifecycle decided for the job `jobID` (and its task `task`).
    private static func apply(
        _ transition: JobLifecycle.Transition, _ db: Database, jobID: String, task: TaskKey?, now: Double
    ) throws {
        if let change = transition.task, let task {
            let (kind, section) = (task.kind.rawValue, task.section)
            switch change {
            case .claimed(let owner, let attempt, let leaseUntil):
                try db.execute(
                    sql: "UPDATE tasks SET state = 'running', owner = ?, attempts = ?, lease_until = ? \(byKey)",
                    arguments: [owner, attempt, leaseUntil, jobID, kind, section])
                // Jobs take turns (`JobPriority`): this one was served now.
                try db.execute(sql: "UPDATE jobs SET served = ? WHERE id = ?", arguments: [now, jobID])
            case .settled(let state, let result, let error):
                let resultJSON = try result.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                try db.execute(
                    sql: "UPDATE tasks SET state = ?, result = ?, error = ?, lease_until = NULL \(byKey)",
                    arguments: [state.rawValue, resultJSON, error, jobID, kind, section])
            case .requeued(let error, let notBefore):
                try db.execute(
                    sql: """
                        UPDATE tasks SET state = 'queued', owner = NULL, lease_until = NULL, error = ?, not_before = ?
                        \(byKey)
                        """,
                    arguments: [error, notBefore, jobID, kind, section])
            case .released(let attempts):
                try db.execute(
                    sql: """
                        UPDATE tasks SET state = 'queued', owner = NULL, lease_until = NULL, attempts = ?, not_before = NULL
                        \(byKey)
                        """,
                    arguments: [attempts, jobID, kind, section])
            }
        }
        if let change = transition.job {
            try updateJob(db, id: jobID, change)
        }
        if transition.callsBack {
            try db.execute(
                sql: """
                    UPDATE callbacks SET state = 'pending', attempts = 0, not_before = ?, delivered = NULL
                    WHERE job_id = ?
                    """,
                arguments: [now, jobID])
        }
        if transition.cancelsQueuedTasks {
            try db.execute(
                sql: "UPDATE tasks SET state = 'cancelled', owner = NULL WHERE job_id = ? AND state = 'queued'",
                arguments: [jobID])
        }
        for key in transition.dropsTasks {
            try db.execute(sql: "DELETE FROM tasks \(byKey)", arguments: [jobID, key.kind.rawValue, key.section])
        }
        for key in transition.resetTasks {
            try db.execute(
                sql: """
                    UPDATE tasks SET state = 'queued', owner = NULL, lease_until = NULL, attempts = 0, not_before = NULL,
                        result = NULL
                    \(byKey)
                    """,
                arguments: [jobID, key.kind.rawValue, key.section])
        }
        for key in transition.newTasks {
            try db.execute(
                sql:
                    "INSERT OR IGNORE INTO tasks (job_id, kind, section, state, created) VALUES (?, ?, ?, 'queued', ?)",
                arguments: [jobID, key.kind.rawValue, key.section, now])
        }
        for event in transition.events {
            try db.execute(
                sql: "INSERT INTO events (job_id, type, data, created) VALUES (?, ?, ?, ?)",
                arguments: [jobID, event.type, try event.json(), now])
        }
    }

    /// One statement for every change: a nil value keeps the column (`error` goes with `state`).
    private static func updateJob(_ db: Database, id: String, _ change: JobLifecycle.JobChange) throws {
        let plan = try change.plan.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        let outputs = try change.outputs.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try db.execute(
            sql: """
                UPDATE jobs SET updated = ?, state = COALESCE(?, state),
                    error = CASE WHEN ? IS NULL THEN error ELSE ? END, plan = COALESCE(?, plan),
                    outputs = COALESCE(?, outputs), audio_seconds = COALESCE(?, audio_seconds),
                    expires = CASE WHEN ? THEN NULL ELSE COALESCE(?, expires) END
                WHERE id = ?
                """,
            arguments: [
                change.updated, change.state?.rawValue, change.state?.rawValue, change.error, plan, outputs,
                change.audioSeconds, change.clearsExpiry, change.expires, id,
            ])
    }

    private static func record(_ db: Database, row: Row) throws -> JobRecord {
        let id: String = row["id"]
        var counts = SectionCounts()
        for count in try Row.fetchAll(
            db, sql: "SELECT state, COUNT(*) AS n FROM tasks WHERE job_id = ? AND kind = 'section' GROUP BY state",
            arguments: [id])
        {
            let n: Int = count["n"]
            counts.total += n
            switch count["state"] as String {
            case "queued": counts.queued += n
            case "running": counts.running += n
            case "done": counts.done += n
            case "failed": counts.failed += n
            default: break
            }
        }
        let failures = try Row.fetchAll(
            db,
            sql: """
                SELECT kind, section, state, attempts, error, not_before FROM tasks
                WHERE job_id = ? AND error IS NOT NULL AND state IN ('queued', 'running', 'failed')
                """,
            arguments: [id]
        ).map { task -> FailedTask in
            let state: String = task["state"]
            let notBefore: Double? = task["not_before"]
            return FailedTask(
                kind: TaskKind(rawValue: task["kind"]) ?? .section, section: task["section"],
                isFinal: state == "failed",
                attempts: task["attempts"], error: task["error"],
                retryAt: state == "queued" ? notBefore.map(Date.init(timeIntervalSince1970:)) : nil)
        }
        let callback = try Row.fetchOne(
            db, sql: "SELECT url, state, attempts, not_before, last_error, delivered FROM callbacks WHERE job_id = ?",
            arguments: [id]
        ).map {
            CallbackChange.record(
                url: $0["url"], state: $0["state"], attempts: $0["attempts"], notBefore: $0["not_before"],
                lastError: $0["last_error"], delivered: $0["delivered"])
        }
        let outputs: String = row["outputs"]
        let expires: Double? = row["expires"]
        return JobRecord(
            id: row["name"] ?? id, key: id, owner: row["owner"], book: row["book"],
            options: try JobOptions.decode(row["options"]),
            state: JobState(rawValue: row["state"]) ?? .failed, error: row["error"],
            created: Date(timeIntervalSince1970: row["created"]), updated: Date(timeIntervalSince1970: row["updated"]),
            expires: expires.map(Date.init(timeIntervalSince1970:)), audioSeconds: row["audio_seconds"],
            priority: row["priority"], sections: counts,
            outputs: try JSONDecoder().decode([OutputRecord].self, from: Data(outputs.utf8)),
            failures: FailedTask.ordered(failures), callback: callback)
    }
}
