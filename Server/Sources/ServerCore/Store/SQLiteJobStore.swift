import Foundation
import GRDB

/// The default job store: one SQLite database in WAL mode (GRDB), shared by the API and by any
/// number of worker processes on the same machine. Every change runs in an `IMMEDIATE`
/// transaction, so a claim is exclusive across processes.
package final class SQLiteJobStore: JobStore {
    private let pool: DatabasePool
    /// How long a finished job's outputs are kept, in seconds.
    private let outputLifetime: TimeInterval

    /// Opens (creating and migrating when needed) the database at `path`.
    package init(path: String, outputLifetime: TimeInterval = 7 * 24 * 3600) throws {
        var configuration = Configuration()
        // Other processes (workers) write too: wait for their transactions instead of failing at once.
        configuration.busyMode = .timeout(30)
        pool = try DatabasePool(path: path, configuration: configuration)
        self.outputLifetime = outputLifetime
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

    // MARK: Books

    package func addBook(sha256: String, size: Int64) async throws -> Bool {
        try await transaction { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO books (sha256, size, created) VALUES (?, ?, ?)",
                arguments: [sha256, size, Date().timeIntervalSince1970])
            return db.changesCount > 0
        }
    }

    package func hasBook(sha256: String) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM books WHERE sha256 = ?", arguments: [sha256]) ?? false
        }
    }

    // MARK: Jobs

    package func createJob(_ job: NewJob, now: Date) async throws -> (job: JobRecord, created: Bool) {
        let id = try await transaction { db -> (String, Bool) in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM books WHERE sha256 = ?", arguments: [job.book]) ?? false
            else { throw JobStoreError.bookNotFound(job.book) }
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
                db, sql: "SELECT fingerprint, owner FROM jobs WHERE id = ?", arguments: [job.id])
            {
                guard row["fingerprint"] == job.bodyFingerprint, row["owner"] as String? == job.owner?.name else {
                    throw JobStoreError.conflict("job \(job.id) exists with another body")
                }
                return (job.id, false)
            }
            if let owner = job.owner {
                let queued =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM jobs WHERE owner = ? AND state = 'queued'",
                        arguments: [owner.name]) ?? 0
                if queued >= owner.maxQueued { throw JobStoreError.tooManyQueued(limit: owner.maxQueued) }
            }
            let time = now.timeIntervalSince1970
            try db.execute(
                sql: """
                    INSERT INTO jobs (id, book, options, fingerprint, idempotency_key, state, created, updated, owner)
                    VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?)
                    """,
                arguments: [
                    job.id, job.book, job.options.canonicalJSON, job.bodyFingerprint, key, time, time, job.owner?.name,
                ])
            try Self.insertTask(db, jobID: job.id, kind: .plan, section: 0, now: time)
            try Self.event(db, jobID: job.id, type: "state", data: ["state": JobState.queued.rawValue], now: time)
            return (job.id, true)
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

    package func jobs(limit: Int, owner: String?) async throws -> [JobRecord] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM jobs WHERE (? IS NULL OR owner = ?) ORDER BY created DESC, rowid DESC LIMIT ?
                    """,
                arguments: [owner, owner, limit]
            ).map { try Self.record(db, row: $0) }
        }
    }

    package func addToken(_ token: Token, secretSHA256: String, now: Date) async throws {
        try await transaction { db in
            guard
                try Bool.fetchOne(db, sql: "SELECT 1 FROM tokens WHERE name = ?", arguments: [token.name]) == nil
            else { throw JobStoreError.tokenExists(token.name) }
            try db.execute(
                sql: """
                    INSERT INTO tokens (secret_sha256, name, max_running, max_queued, created) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [secretSHA256, token.name, token.maxRunning, token.maxQueued, now.timeIntervalSince1970])
        }
    }

    package func token(secretSHA256: String) async throws -> Token? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT name, max_running, max_queued FROM tokens WHERE secret_sha256 = ?",
                arguments: [secretSHA256]
            ).map { Token(name: $0["name"], maxRunning: $0["max_running"], maxQueued: $0["max_queued"]) }
        }
    }

    package func cancelJob(id: String, now: Date) async throws -> JobRecord? {
        let found = try await transaction { db -> Bool in
            guard let state = try String.fetchOne(db, sql: "SELECT state FROM jobs WHERE id = ?", arguments: [id])
            else { return false }
            if JobState(rawValue: state)?.isTerminal == true { return true }
            let time = now.timeIntervalSince1970
            try db.execute(
                sql: "UPDATE jobs SET state = 'cancelled', updated = ?, expires = ? WHERE id = ?",
                arguments: [time, time + self.outputLifetime, id])
            // Running tasks stop at their next heartbeat, which sees the job cancelled.
            try db.execute(
                sql: "UPDATE tasks SET state = 'cancelled', owner = NULL WHERE job_id = ? AND state = 'queued'",
                arguments: [id])
            try Self.event(db, jobID: id, type: "state", data: ["state": JobState.cancelled.rawValue], now: time)
            return true
        }
        return found ? try await job(id: id) : nil
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

    // MARK: Tasks

    package func claim(owner: String, lease: TimeInterval, now: Date) async throws -> ClaimedTask? {
        try await transaction { db -> ClaimedTask? in
            let time = now.timeIntervalSince1970
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT t.job_id, t.kind, t.section, t.attempts, j.book, j.options, j.plan
                        FROM tasks t JOIN jobs j ON j.id = t.job_id
                        WHERE t.state = 'queued' AND j.state IN ('queued', 'running')
                          AND (j.state = 'running' OR j.owner IS NULL
                               OR (SELECT COUNT(*) FROM jobs r WHERE r.owner = j.owner AND r.state = 'running')
                                  < COALESCE((SELECT max_running FROM tokens k WHERE k.name = j.owner), 1000000000))
                        ORDER BY t.created, j.created, t.kind = 'section', t.section LIMIT 1
                        """)
            else { return nil }
            let jobID: String = row["job_id"]
            let kind: String = row["kind"]
            let section: Int = row["section"]
            let attempt: Int = row["attempts"] + 1
            try db.execute(
                sql: """
                    UPDATE tasks SET state = 'running', owner = ?, attempts = ?, lease_until = ?
                    WHERE job_id = ? AND kind = ? AND section = ?
                    """,
                arguments: [owner, attempt, time + lease, jobID, kind, section])
            try db.execute(
                sql: "UPDATE jobs SET state = 'running', updated = ? WHERE id = ? AND state = 'queued'",
                arguments: [time, jobID])
            if db.changesCount > 0 {
                try Self.event(db, jobID: jobID, type: "state", data: ["state": JobState.running.rawValue], now: time)
            }
            let planJSON: String? = row["plan"]
            return ClaimedTask(
                jobID: jobID, kind: TaskKind(rawValue: kind) ?? .plan, section: section, attempt: attempt,
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

    package func complete(_ task: ClaimedTask, outcome: TaskOutcome, now: Date) async throws -> Bool {
        try await transaction { db -> Bool in
            let time = now.timeIntervalSince1970
            // Only the owner of the current attempt may finish the task: a worker that lost its lease
            // (and whose task was given to another) writes nothing.
            guard
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT 1 FROM tasks WHERE job_id = ? AND kind = ? AND section = ? AND state = 'running'
                          AND owner = ? AND attempts = ?
                        """,
                    arguments: [task.jobID, task.kind.rawValue, task.section, task.owner, task.attempt]) ?? false
            else { return false }
            let jobState = try String.fetchOne(db, sql: "SELECT state FROM jobs WHERE id = ?", arguments: [task.jobID])
            if jobState != JobState.running.rawValue {
                // Cancelled meanwhile: the result is not wanted.
                try Self.setTask(db, task, state: "cancelled", result: nil, error: nil)
                return true
            }
            switch outcome {
            case .planned(let plan):
                try Self.setTask(db, task, state: "done", result: nil, error: nil)
                let planJSON = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
                try db.execute(
                    sql: "UPDATE jobs SET plan = ?, updated = ? WHERE id = ?", arguments: [planJSON, time, task.jobID])
                for section in plan.sections {
                    try Self.insertTask(db, jobID: task.jobID, kind: .section, section: section, now: time)
                }
                try Self.event(db, jobID: task.jobID, type: "planned", data: ["sections": plan.sections], now: time)
            case .sectionDone(let result):
                let resultJSON = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
                try Self.setTask(db, task, state: "done", result: resultJSON, error: nil)
                try Self.event(
                    db, jobID: task.jobID, type: "section",
                    data: [
                        "section": task.section, "state": "done", "file": result.file,
                        "durationSeconds": result.durationSeconds,
                    ], now: time)
                try Self.finalizeWhenReady(db, jobID: task.jobID, now: time)
            case .finalized(let outputs, let audioSeconds, let failedSections):
                try Self.setTask(db, task, state: "done", result: nil, error: nil)
                let outputsJSON = String(decoding: try JSONEncoder().encode(outputs), as: UTF8.self)
                let state: JobState = failedSections > 0 ? .failed : .succeeded
                let error = failedSections > 0 ? "\(failedSections) section(s) failed" : nil
                try db.execute(
                    sql: """
                        UPDATE jobs SET state = ?, error = ?, outputs = ?, audio_seconds = ?, updated = ?, expires = ?
                        WHERE id = ?
                        """,
                    arguments: [
                        state.rawValue, error, outputsJSON, audioSeconds, time, time + self.outputLifetime, task.jobID,
                    ])
                var data: [String: any Sendable] = ["state": state.rawValue, "audioSeconds": audioSeconds]
                if let error { data["error"] = error }
                try Self.event(db, jobID: task.jobID, type: "state", data: data, now: time)
            case .failed(let message, let retry):
                try Self.fail(db, task: task, message: message, retry: retry, now: time, lifetime: self.outputLifetime)
            }
            return true
        }
    }

    package func reapExpiredLeases(now: Date) async throws -> Int {
        try await transaction { db -> Int in
            let time = now.timeIntervalSince1970
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT t.job_id, t.kind, t.section, t.attempts, t.owner FROM tasks t
                    WHERE t.state = 'running' AND t.lease_until < ?
                    """,
                arguments: [time])
            for row in rows {
                let task = ClaimedTask(
                    jobID: row["job_id"], kind: TaskKind(rawValue: row["kind"]) ?? .plan, section: row["section"],
                    attempt: row["attempts"], owner: row["owner"] ?? "", book: "", options: JobOptions(), plan: nil)
                let jobState = try String.fetchOne(
                    db, sql: "SELECT state FROM jobs WHERE id = ?", arguments: [task.jobID])
                if jobState != JobState.running.rawValue {
                    try Self.setTask(db, task, state: "cancelled", result: nil, error: nil)
                } else {
                    try Self.fail(
                        db, task: task, message: "the worker stopped answering (lease expired)", retry: true, now: time,
                        lifetime: self.outputLifetime)
                }
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

    // MARK: Events

    package func events(jobID: String, after: Int64, limit: Int) async throws -> [JobEvent] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, type, data FROM events WHERE job_id = ? AND id > ? ORDER BY id LIMIT ?",
                arguments: [jobID, after, limit]
            ).map { JobEvent(id: $0["id"], jobID: jobID, type: $0["type"], data: $0["data"]) }
        }
    }

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

    /// SQLite has no notifications across processes: idle workers poll.
    package func waitForWork(upTo seconds: TimeInterval) async {
        try? await Task.sleep(for: .seconds(seconds))
    }

    // MARK: Helpers (inside a transaction)

    private static func insertTask(_ db: Database, jobID: String, kind: TaskKind, section: Int, now: Double) throws {
        try db.execute(
            sql: "INSERT INTO tasks (job_id, kind, section, state, created) VALUES (?, ?, ?, 'queued', ?)",
            arguments: [jobID, kind.rawValue, section, now])
    }

    private static func setTask(_ db: Database, _ task: ClaimedTask, state: String, result: String?, error: String?)
        throws
    {
        try db.execute(
            sql: """
                UPDATE tasks SET state = ?, result = ?, error = ?, lease_until = NULL
                WHERE job_id = ? AND kind = ? AND section = ?
                """,
            arguments: [state, result, error, task.jobID, task.kind.rawValue, task.section])
    }

    /// A failed attempt: back to the queue while attempts remain and a retry may help; else failed
    /// for good (a plan or finalize task that fails fails the job).
    private static func fail(
        _ db: Database, task: ClaimedTask, message: String, retry: Bool, now: Double, lifetime: TimeInterval
    ) throws {
        if retry && task.attempt < maxAttempts {
            try db.execute(
                sql: """
                    UPDATE tasks SET state = 'queued', owner = NULL, lease_until = NULL, error = ?
                    WHERE job_id = ? AND kind = ? AND section = ?
                    """,
                arguments: [message, task.jobID, task.kind.rawValue, task.section])
            try event(
                db, jobID: task.jobID, type: "retry",
                data: [
                    "task": task.kind.rawValue, "section": task.section, "attempt": task.attempt, "message": message,
                ],
                now: now)
            return
        }
        try setTask(db, task, state: "failed", result: nil, error: message)
        switch task.kind {
        case .section:
            try event(
                db, jobID: task.jobID, type: "section",
                data: ["section": task.section, "state": "failed", "message": message], now: now)
            try finalizeWhenReady(db, jobID: task.jobID, now: now)
        case .plan, .finalize:
            try db.execute(
                sql: "UPDATE jobs SET state = 'failed', error = ?, updated = ?, expires = ? WHERE id = ?",
                arguments: [message, now, now + lifetime, task.jobID])
            try event(
                db, jobID: task.jobID, type: "state", data: ["state": JobState.failed.rawValue, "error": message],
                now: now)
        }
    }

    /// Queues the finalize task once no section task is left to run.
    private static func finalizeWhenReady(_ db: Database, jobID: String, now: Double) throws {
        let open =
            try Int.fetchOne(
                db,
                sql:
                    "SELECT COUNT(*) FROM tasks WHERE job_id = ? AND kind = 'section' AND state IN ('queued', 'running')",
                arguments: [jobID]) ?? 0
        guard open == 0 else { return }
        try db.execute(
            sql:
                "INSERT OR IGNORE INTO tasks (job_id, kind, section, state, created) VALUES (?, 'finalize', 0, 'queued', ?)",
            arguments: [jobID, now])
    }

    private static func event(_ db: Database, jobID: String, type: String, data: [String: any Sendable], now: Double)
        throws
    {
        let json = try JSONSerialization.data(withJSONObject: data, options: [.sortedKeys, .withoutEscapingSlashes])
        try db.execute(
            sql: "INSERT INTO events (job_id, type, data, created) VALUES (?, ?, ?, ?)",
            arguments: [jobID, type, String(decoding: json, as: UTF8.self), now])
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
        let outputs: String = row["outputs"]
        let expires: Double? = row["expires"]
        return JobRecord(
            id: id, owner: row["owner"], book: row["book"], options: try JobOptions.decode(row["options"]),
            state: JobState(rawValue: row["state"]) ?? .failed, error: row["error"],
            created: Date(timeIntervalSince1970: row["created"]), updated: Date(timeIntervalSince1970: row["updated"]),
            expires: expires.map(Date.init(timeIntervalSince1970:)), audioSeconds: row["audio_seconds"],
            sections: counts, outputs: try JSONDecoder().decode([OutputRecord].self, from: Data(outputs.utf8)))
    }
}
