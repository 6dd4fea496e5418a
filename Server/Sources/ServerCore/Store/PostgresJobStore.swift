import Foundation
import Logging
import PostgresNIO

/// The shared job store (`--db postgres://…`): one PostgreSQL database that API nodes and workers on
/// several machines use as one queue. What a change does to a job is `JobLifecycle`'s, as in
/// `SQLiteJobStore`; this store does the locking: a claim takes a task with
/// `SELECT … FOR UPDATE SKIP LOCKED`, so two claimers never get the same one; `complete` locks the
/// job's row first, checks the owner and attempt, and ignores a late write; the reaper runs only where
/// `pg_try_advisory_xact_lock` is won, so one machine reaps at a time. A transaction that queues a
/// task sends `NOTIFY epub2audio_tasks`; each store keeps one connection that LISTENs and wakes its
/// idle workers (`waitForWork`), which otherwise look again only every `idlePoll`. Event streams poll.
/// The schema is versioned (`PostgresMigrator.jobStore`), migrated at start.
package final class PostgresJobStore: JobStore {
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger
    private let lifecycle: JobLifecycle
    /// The key of the reaper's advisory lock: one per schema.
    private let reaperLockKey: String
    /// Idle workers waiting for a notification.
    private let wakeup = Wakeup()
    /// How long an operation may wait before the store is said to be unavailable.
    private let deadlines: PostgresDeadlines
    /// Asks the server for a connection of its own when an operation waits.
    private let probe: PostgresProbe
    private let listener: Task<Void, Never>
    /// The channel of the notifications: one for every schema (a notification from another schema
    /// only makes idle workers look once more).
    static let channel = "epub2audio_tasks"

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`) and migrates the
    /// schema; `schema` (created when missing) keeps the tables apart from other users of the
    /// database.
    package init(
        url: String, schema: String = "public", outputLifetime: TimeInterval = 7 * 24 * 3600,
        retries: RetryPolicy = RetryPolicy(), deadlines: PostgresDeadlines = PostgresDeadlines(),
        logger: Logger = Logger(label: "epub2audio-postgres")
    ) async throws {
        let configuration = try Self.configuration(url: url, schema: schema)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.deadlines = deadlines
        probe = PostgresProbe(
            configuration: try Self.connectionConfiguration(url: url), deadlines: deadlines, logger: logger)
        self.logger = logger
        lifecycle = JobLifecycle(outputLifetime: outputLifetime, retries: retries)
        self.reaperLockKey = "epub2audio-reaper:" + schema
        runner = Task { await client.run() }
        let wakeup = self.wakeup
        let listening = ManagedFlag()
        listener = Task {
            // One connection for LISTEN; after an error (a lost connection) it listens again.
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            listening.set()
                            wakeup.wakeAll()
                            for try await _ in notifications { wakeup.wakeAll() }
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                    logger.warning("LISTEN \(Self.channel): \(error); listening again in a second")
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        do {
            try await PostgresMigrator.jobStore.migrate(client, schema: schema, logger: logger)
            // Workers started now must not miss the first notification: wait (a little) for LISTEN.
            for _ in 0..<100 where !listening.isSet { try await Task.sleep(for: .milliseconds(50)) }
        } catch {
            listener.cancel()
            runner.cancel()
            throw error
        }
    }

    deinit {
        listener.cancel()
        runner.cancel()
    }

    /// The connections' configuration: `url`'s server, user and database, `schema` first in the
    /// search path.
    /// - Throws: `PostgresURLError` for a URL that is not `postgres://…` or a schema that is not a
    ///   plain identifier (letters, digits, `_`).
    package static func configuration(url: String, schema: String) throws -> PostgresClient.Configuration {
        let server = try Server(url: url)
        guard PostgresMigrator.isIdentifier(schema) else { throw PostgresURLError(url: "schema \(schema)") }
        var configuration = PostgresClient.Configuration(
            host: server.host, port: server.port, username: server.user, password: server.password,
            database: server.database, tls: .disable)
        configuration.options.additionalStartupParameters = [("search_path", schema)]
        configuration.options.maximumConnections = 8
        // Bounded: a server that does not take the connection is an outage (503), not a wait.
        configuration.options.connectTimeout = .seconds(3)
        return configuration
    }

    /// One connection of its own to `url`'s server (what the outage probe makes).
    static func connectionConfiguration(url: String) throws -> PostgresConnection.Configuration {
        let server = try Server(url: url)
        return PostgresConnection.Configuration(
            host: server.host, port: server.port, username: server.user, password: server.password,
            database: server.database, tls: .disable)
    }

    /// What a `postgres://user[:password]@host[:port]/database` URL names.
    struct Server {
        var host: String
        var port: Int
        var user: String
        var password: String?
        var database: String?

        init(url: String) throws {
            guard let components = URLComponents(string: url),
                components.scheme == "postgres" || components.scheme == "postgresql",
                let host = components.host, !host.isEmpty
            else { throw PostgresURLError(url: url) }
            let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
            self.host = host
            port = components.port ?? 5432
            user = components.user ?? "postgres"
            password = components.password
            self.database = database.isEmpty ? nil : database
        }
    }

    /// Closes the connections.
    package func shutdown() {
        listener.cancel()
        runner.cancel()
    }

    /// `NOTIFY epub2audio_tasks` inside the caller's transaction: sent when it commits, once however
    /// many tasks it queued.
    private static func notifyQueued(_ db: PostgresConnection, logger: Logger) async throws {
        try await db.query("SELECT pg_notify(\(channel), '')", logger: logger)
    }

    /// Runs `body` in a transaction; retried when PostgreSQL broke a deadlock or a serialisation
    /// conflict by aborting it. The body's own errors come out as they are.
    private func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        var attempt = 0
        while true {
            attempt += 1
            do {
                let logger = self.logger
                return try await connection { connection in
                    try await connection.query("BEGIN", logger: logger)
                    do {
                        let value = try await body(connection)
                        try await connection.query("COMMIT", logger: logger)
                        return value
                    } catch {
                        _ = try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                }
            } catch let error as PSQLError where attempt < 5 {
                let code = error.serverInfo?[.sqlState]
                guard code == "40P01" || code == "40001" else { throw error }
            }
        }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws
        -> T
    {
        try await connection(body)
    }

    /// Runs `body` on a pooled connection, within the store's deadlines: a server that cannot be
    /// reached is `JobStoreError.unavailable` at once (`PostgresOutage`).
    private func connection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        let client = self.client
        return try await PostgresOutage.run(deadlines: deadlines, probe: probe) {
            try await client.withConnection { connection in try await body(connection) }
        }
    }

    // MARK: JobRepository: books

    package func addBook(sha256: String, size: Int64, now: Date) async throws -> Bool {
        let time = now.timeIntervalSince1970
        return try await transaction { db in
            // `xmax = 0`: the row was inserted, not updated.
            let rows = try await db.query(
                """
                INSERT INTO books (sha256, size, created, used) VALUES (\(sha256), \(Int(size)), \(time), \(time))
                ON CONFLICT (sha256) DO UPDATE SET used = EXCLUDED.used RETURNING (xmax = 0)
                """, logger: self.logger)
            return try await Self.first(rows, as: Bool.self) == true
        }
    }

    package func expireBooks(now: Date) async throws -> [String] {
        let cutoff = now.timeIntervalSince1970 - lifecycle.outputLifetime
        return try await transaction { db in
            // A job being made locks its book's row (`createJob` updates `used`): this waits for it,
            // then sees the new `used` and keeps the book.
            let rows = try await db.query(
                """
                DELETE FROM books WHERE used < \(cutoff)
                    AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.book = books.sha256)
                RETURNING sha256
                """, logger: self.logger)
            var expired: [String] = []
            for try await sha256 in rows.decode(String.self) { expired.append(sha256) }
            return expired
        }
    }

    package func hasBook(sha256: String) async throws -> Bool {
        try await read { db in
            try await Self.first(
                db.query("SELECT 1 FROM books WHERE sha256 = \(sha256)", logger: self.logger), as: Int32.self) != nil
        }
    }

    // MARK: JobRepository: jobs

    package func createJob(_ job: NewJob, now: Date) async throws -> (job: JobRecord, created: Bool) {
        let id = try await transaction { db -> (String, Bool) in
            // One creation at a time: the per-token queue limit and the id checks see each other.
            try await db.query("SELECT pg_advisory_xact_lock(hashtext('epub2audio-create'))", logger: self.logger)
            guard
                try await Self.first(
                    db.query(
                        // A job is a use of its book; the row lock keeps `expireBooks` off it meanwhile.
                        "UPDATE books SET used = \(now.timeIntervalSince1970) WHERE sha256 = \(job.book) RETURNING 1",
                        logger: self.logger), as: Int32.self) != nil
            else { throw JobStoreError.bookNotFound(job.book) }
            let key = job.idempotencyKey.map { (job.owner?.name ?? "") + "\u{1}" + $0 }
            if let key,
                let row = try await Self.first(
                    db.query("SELECT id, fingerprint FROM jobs WHERE idempotency_key = \(key)", logger: self.logger),
                    as: (String, String).self)
            {
                guard row.1 == job.bodyFingerprint else {
                    throw JobStoreError.conflict("the Idempotency-Key was used for a job with another body")
                }
                return (row.0, false)
            }
            if let row = try await Self.first(
                db.query(
                    """
                    SELECT id, fingerprint FROM jobs
                    WHERE name = \(job.id) AND owner IS NOT DISTINCT FROM \(job.owner?.name)::text
                    """, logger: self.logger),
                as: (String, String).self)
            {
                guard row.1 == job.bodyFingerprint else {
                    throw JobStoreError.conflict("job \(job.id) exists with another body")
                }
                return (row.0, false)
            }
            if let owner = job.owner {
                let queued =
                    try await Self.first(
                        db.query(
                            "SELECT COUNT(*) FROM jobs WHERE owner = \(owner.name) AND state = 'queued'",
                            logger: self.logger), as: Int.self) ?? 0
                if queued >= owner.maxQueued { throw JobStoreError.tooManyQueued(limit: owner.maxQueued) }
            }
            let time = now.timeIntervalSince1970
            // The store's key: the id itself unless another owner's job has it (ids are per owner).
            let taken =
                try await Self.first(
                    db.query("SELECT 1 FROM jobs WHERE id = \(job.id)", logger: self.logger), as: Int32.self) != nil
            let storeKey = taken ? NewJob.generatedKey() : job.id
            try await db.query(
                """
                INSERT INTO jobs (
                    id, name, book, options, fingerprint, idempotency_key, state, created, updated, owner, priority)
                VALUES (\(storeKey), \(job.id), \(job.book), \(job.options.canonicalJSON), \(job.bodyFingerprint),
                        \(key), \(JobLifecycle.initialState.rawValue), \(time), \(time), \(job.owner?.name),
                        \(job.priority))
                """, logger: self.logger)
            if let callback = job.callback {
                try await db.query(
                    """
                    INSERT INTO callbacks (job_id, url, state)
                    VALUES (\(storeKey), \(callback), \(CallbackState.waiting.rawValue))
                    """, logger: self.logger)
            }
            try await self.apply(self.lifecycle.created(), db, jobID: storeKey, task: nil, now: time)
            return (storeKey, true)
        }
        guard let record = try await self.job(id: id.0) else { throw JobStoreError.conflict("job \(id.0) vanished") }
        return (record, id.1)
    }

    private static let jobColumns =
        "id, owner, book, options, state, error, created, updated, expires, audio_seconds, outputs, name, priority"
    private typealias JobRow = (
        String, String?, String, String, String, String?, Double, Double, Double?, Double, String, String, Int
    )

    package func job(named name: String, owner: String?) async throws -> JobRecord? {
        try await read { db in
            var binds = PostgresBindings()
            binds.append(name)
            binds.append(owner)
            guard
                let row = try await Self.first(
                    db.query(
                        PostgresQuery(
                            unsafeSQL: """
                                SELECT \(Self.jobColumns) FROM jobs
                                WHERE name = $1 AND owner IS NOT DISTINCT FROM $2::text
                                """,
                            binds: binds), logger: self.logger), as: JobRow.self)
            else { return nil }
            return try await Self.record(db, row: row, logger: self.logger)
        }
    }

    package func job(id: String) async throws -> JobRecord? {
        try await read { db in
            guard
                let row = try await Self.first(
                    db.query(
                        PostgresQuery(
                            unsafeSQL: "SELECT \(Self.jobColumns) FROM jobs WHERE id = $1",
                            binds: Self.binds(id)), logger: self.logger), as: JobRow.self)
            else { return nil }
            return try await Self.record(db, row: row, logger: self.logger)
        }
    }

    package func jobs(owner: String?, state: JobState?, after cursor: JobCursor?, limit: Int) async throws -> JobPage {
        try await read { db in
            var binds = PostgresBindings()
            binds.append(owner)
            binds.append(state?.rawValue)
            binds.append(cursor?.created)
            binds.append(cursor?.sequence)
            // One more than asked: whether there is a next page.
            binds.append(limit + 1)
            let rows = try await db.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT \(Self.jobColumns) FROM jobs WHERE owner IS NOT DISTINCT FROM $1::text
                            AND ($2::text IS NULL OR state = $2::text)
                            AND ($3::float8 IS NULL OR created < $3::float8
                                OR (created = $3::float8 AND seq < $4::bigint))
                        ORDER BY created DESC, seq DESC LIMIT $5
                        """, binds: binds), logger: self.logger)
            var found: [JobRow] = []
            for try await row in rows.decode(JobRow.self) { found.append(row) }
            var records: [JobRecord] = []
            for row in found.prefix(limit) { records.append(try await Self.record(db, row: row, logger: self.logger)) }
            guard found.count > limit, let last = found.prefix(limit).last else {
                return JobPage(jobs: records, next: nil)
            }
            // The last job's place: its time as stored, and its sequence number.
            let sequence = try await Self.first(
                db.query("SELECT seq FROM jobs WHERE id = \(last.0)", logger: self.logger), as: Int64.self)
            return JobPage(jobs: records, next: sequence.map { JobCursor(created: last.6, sequence: $0) })
        }
    }

    package func cancelJob(id: String, now: Date) async throws -> JobRecord? {
        let found = try await transaction { db -> Bool in
            guard let state = try await self.jobState(db, id: id, lock: true) else { return false }
            try await self.apply(
                self.lifecycle.cancelled(jobState: state, now: now), db, jobID: id, task: nil,
                now: now.timeIntervalSince1970)
            return true
        }
        return found ? try await job(id: id) : nil
    }

    package func retryJob(id: String, now: Date) async throws -> (job: JobRecord, retried: Bool)? {
        let retried = try await transaction { db -> Bool? in
            guard let state = try await self.jobState(db, id: id, lock: true) else { return nil }
            let rows = try await db.query(
                "SELECT kind, section, state, owner, attempts FROM tasks WHERE job_id = \(id) FOR UPDATE",
                logger: self.logger)
            var tasks: [StoredTask] = []
            for try await row in rows.decode((String, Int, String, String?, Int).self) {
                tasks.append(Self.storedTask(kind: row.0, section: row.1, state: row.2, owner: row.3, attempts: row.4))
            }
            guard let transition = self.lifecycle.retried(jobState: state, tasks: tasks, now: now) else { return false }
            try await self.apply(transition, db, jobID: id, task: nil, now: now.timeIntervalSince1970)
            return true
        }
        guard let retried, let job = try await job(id: id) else { return nil }
        return (job, retried)
    }

    package func deleteJob(id: String) async throws -> Bool {
        try await transaction { db in
            try await Self.first(
                db.query("DELETE FROM jobs WHERE id = \(id) RETURNING 1", logger: self.logger), as: Int32.self) != nil
        }
    }

    package func expiredJobs(now: Date) async throws -> [String] {
        try await read { db in
            let rows = try await db.query(
                "SELECT id FROM jobs WHERE expires IS NOT NULL AND expires < \(now.timeIntervalSince1970)",
                logger: self.logger)
            var ids: [String] = []
            for try await id in rows.decode(String.self) { ids.append(id) }
            return ids
        }
    }

    // MARK: JobQueue

    package func claim(owner: String, lease: TimeInterval, now: Date) async throws -> ClaimedTask? {
        try await transaction { db -> ClaimedTask? in
            // The job's state read here is current: a queued job's one task (its plan) is the row this
            // claim locks, and a cancel that would change the job waits for that lock.
            guard
                let row = try await Self.first(
                    db.query(
                        """
                        SELECT t.job_id, t.kind, t.section, t.state, t.owner, t.attempts, j.state, j.book, j.options,
                               j.plan
                        FROM tasks t JOIN jobs j ON j.id = t.job_id
                        WHERE t.state = 'queued' AND j.state IN ('queued', 'running')
                          AND (t.not_before IS NULL OR t.not_before <= \(now.timeIntervalSince1970))
                          AND (j.state = 'running' OR j.owner IS NULL
                               OR (SELECT COUNT(*) FROM jobs r WHERE r.owner = j.owner AND r.state = 'running')
                                  < COALESCE((SELECT max_running FROM tokens k WHERE k.name = j.owner), 1000000000))
                        ORDER BY
                            (SELECT COUNT(*) FROM tasks r JOIN jobs rj ON rj.id = r.job_id
                             WHERE r.state = 'running' AND rj.owner IS NOT DISTINCT FROM j.owner),
                            (SELECT COALESCE(MAX(served), 0) FROM jobs oj WHERE oj.owner IS NOT DISTINCT FROM j.owner),
                            j.priority DESC,
                            (SELECT COUNT(*) FROM tasks r WHERE r.job_id = j.id AND r.state = 'running'),
                            COALESCE(j.served, 0), j.created, j.seq, t.kind = 'section', t.section
                        LIMIT 1
                        FOR UPDATE OF t SKIP LOCKED
                        """, logger: self.logger),
                    as: (String, String, Int, String, String?, Int, String, String, String, String?).self)
            else { return nil }
            let jobID = row.0
            let stored = Self.storedTask(kind: row.1, section: row.2, state: row.3, owner: row.4, attempts: row.5)
            let transition = self.lifecycle.claimed(
                stored, by: owner, lease: lease, jobState: JobState(rawValue: row.6) ?? .running, now: now)
            guard case .claimed(_, let attempt, _) = transition.task else { return nil }
            try await self.apply(transition, db, jobID: jobID, task: stored.key, now: now.timeIntervalSince1970)
            return ClaimedTask(
                jobID: jobID, kind: stored.key.kind, section: stored.key.section, attempt: attempt, owner: owner,
                book: row.7, options: try JobOptions.decode(row.8),
                plan: try row.9.map { try JSONDecoder().decode(JobPlan.self, from: Data($0.utf8)) })
        }
    }

    package func heartbeat(_ task: ClaimedTask, lease: TimeInterval, now: Date) async throws -> Bool {
        try await transaction { db in
            try await Self.first(
                db.query(
                    """
                    UPDATE tasks SET lease_until = \(now.timeIntervalSince1970 + lease)
                    WHERE job_id = \(task.jobID) AND kind = \(task.kind.rawValue) AND section = \(task.section)
                      AND state = 'running' AND owner = \(task.owner) AND attempts = \(task.attempt)
                      AND (SELECT state FROM jobs WHERE id = tasks.job_id) = 'running'
                    RETURNING 1
                    """, logger: self.logger), as: Int32.self) != nil
        }
    }

    /// The row of `task` as stored, locked for this transaction; nil when the task is gone.
    private func lockedTask(_ db: PostgresConnection, _ task: ClaimedTask) async throws -> StoredTask? {
        try await Self.first(
            db.query(
                """
                SELECT kind, section, state, owner, attempts FROM tasks
                WHERE job_id = \(task.jobID) AND kind = \(task.kind.rawValue) AND section = \(task.section)
                FOR UPDATE
                """, logger: logger), as: (String, Int, String, String?, Int).self
        ).map { Self.storedTask(kind: $0.0, section: $0.1, state: $0.2, owner: $0.3, attempts: $0.4) }
    }

    package func release(_ task: ClaimedTask, now: Date) async throws -> Bool {
        try await transaction { db -> Bool in
            let jobState = try await self.jobState(db, id: task.jobID, lock: true)
            let stored = try await self.lockedTask(db, task)
            guard let transition = self.lifecycle.released(task, stored: stored, jobState: jobState) else {
                return false
            }
            try await self.apply(transition, db, jobID: task.jobID, task: task.key, now: now.timeIntervalSince1970)
            return true
        }
    }

    package func complete(_ task: ClaimedTask, outcome: TaskOutcome, now: Date) async throws -> Bool {
        try await transaction { db -> Bool in
            // The job's row first: completions of one job run one at a time, so the last section's
            // sees the others done and queues the finalize task.
            let jobState = try await self.jobState(db, id: task.jobID, lock: true)
            let stored = try await self.lockedTask(db, task)
            guard
                let transition = self.lifecycle.completed(
                    task, outcome: outcome, stored: stored, jobState: jobState,
                    openSections: try await self.openSections(db, jobID: task.jobID), now: now)
            else { return false }
            try await self.apply(transition, db, jobID: task.jobID, task: task.key, now: now.timeIntervalSince1970)
            return true
        }
    }

    package func reapExpiredLeases(now: Date) async throws -> Int {
        try await transaction { db -> Int in
            // One reaper at a time across machines: the others find the lock taken and do nothing.
            guard
                try await Self.first(
                    db.query("SELECT pg_try_advisory_xact_lock(hashtext(\(self.reaperLockKey)))", logger: self.logger),
                    as: Bool.self) == true
            else { return 0 }
            let rows = try await db.query(
                """
                SELECT t.job_id, t.kind, t.section, t.state, t.owner, t.attempts FROM tasks t
                JOIN jobs j ON j.id = t.job_id
                WHERE t.state = 'running' AND t.lease_until < \(now.timeIntervalSince1970)
                ORDER BY t.job_id
                FOR UPDATE OF j, t
                """, logger: self.logger)
            var expired: [(jobID: String, task: StoredTask)] = []
            for try await row in rows.decode((String, String, Int, String, String?, Int).self) {
                expired.append(
                    (row.0, Self.storedTask(kind: row.1, section: row.2, state: row.3, owner: row.4, attempts: row.5)))
            }
            for (jobID, stored) in expired {
                let transition = self.lifecycle.leaseExpired(
                    stored, jobState: try await self.jobState(db, id: jobID, lock: false),
                    openSections: try await self.openSections(db, jobID: jobID), now: now)
                try await self.apply(transition, db, jobID: jobID, task: stored.key, now: now.timeIntervalSince1970)
            }
            return expired.count
        }
    }

    package func sectionResults(jobID: String) async throws -> [SectionResult] {
        try await read { db in
            let rows = try await db.query(
                """
                SELECT result FROM tasks WHERE job_id = \(jobID) AND kind = 'section' AND state = 'done'
                ORDER BY section
                """, logger: self.logger)
            var results: [SectionResult] = []
            for try await json in rows.decode(String.self) {
                results.append(try JSONDecoder().decode(SectionResult.self, from: Data(json.utf8)))
            }
            return results
        }
    }

    package func waitForWork(upTo seconds: TimeInterval) async {
        await wakeup.wait(upTo: seconds)
    }

    // MARK: JobEventLog

    package func events(jobID: String, after: Int64, limit: Int) async throws -> [JobEvent] {
        try await read { db in
            let rows = try await db.query(
                "SELECT id, type, data FROM events WHERE job_id = \(jobID) AND id > \(Int(after)) ORDER BY id LIMIT \(limit)",
                logger: self.logger)
            var events: [JobEvent] = []
            for try await (id, type, data) in rows.decode((Int, String, String).self) {
                events.append(JobEvent(id: Int64(id), jobID: jobID, type: type, data: data))
            }
            return events
        }
    }

    // MARK: TokenStore

    package func addToken(_ token: Token, secretSHA256: String, now: Date) async throws {
        try await transaction { db in
            try await db.query("SELECT pg_advisory_xact_lock(hashtext('epub2audio-token'))", logger: self.logger)
            guard
                try await Self.first(
                    db.query("SELECT 1 FROM tokens WHERE name = \(token.name)", logger: self.logger), as: Int32.self)
                    == nil
            else { throw JobStoreError.tokenExists(token.name) }
            try await db.query(
                """
                INSERT INTO tokens (secret_sha256, name, max_running, max_queued, created, callback_secret)
                VALUES (\(secretSHA256), \(token.name), \(token.maxRunning), \(token.maxQueued),
                        \(now.timeIntervalSince1970), \(token.callbackSecret))
                """, logger: self.logger)
        }
    }

    package func token(secretSHA256: String) async throws -> Token? {
        try await read { db in
            try await Self.first(
                db.query(
                    """
                    SELECT name, max_running, max_queued, callback_secret FROM tokens
                    WHERE secret_sha256 = \(secretSHA256) AND revoked IS NULL
                    """, logger: self.logger), as: (String, Int, Int, String?).self
            ).map { Token(name: $0.0, maxRunning: $0.1, maxQueued: $0.2, callbackSecret: $0.3) }
        }
    }

    // MARK: CallbackQueue

    package func claimCallback(lease: TimeInterval, now: Date) async throws -> CallbackDelivery? {
        let time = now.timeIntervalSince1970
        return try await transaction { db in
            // SKIP LOCKED: two senders never take the same callback.
            guard
                let row = try await Self.first(
                    db.query(
                        """
                        SELECT c.job_id, c.url, c.attempts, j.owner, k.callback_secret FROM callbacks c
                        JOIN jobs j ON j.id = c.job_id LEFT JOIN tokens k ON k.name = j.owner
                        WHERE c.state = 'pending' AND c.not_before <= \(time) ORDER BY c.not_before LIMIT 1
                        FOR UPDATE OF c SKIP LOCKED
                        """, logger: self.logger), as: (String, String, Int, String?, String?).self)
            else { return nil }
            let delivery = CallbackDelivery(
                jobID: row.0, url: row.1, attempt: row.2 + 1, owner: row.3, tokenSecret: row.4)
            try await db.query(
                """
                UPDATE callbacks SET attempts = \(delivery.attempt), not_before = \(time + lease)
                WHERE job_id = \(delivery.jobID)
                """, logger: self.logger)
            return delivery
        }
    }

    package func settleCallback(_ delivery: CallbackDelivery, outcome: CallbackOutcome, now: Date) async throws {
        let change = CallbackChange(outcome, now: now)
        _ = try await transaction { db in
            try await db.query(
                """
                UPDATE callbacks SET state = \(change.state.rawValue), not_before = \(change.notBefore),
                    last_error = COALESCE(\(change.error)::text, last_error), delivered = \(change.delivered)
                WHERE job_id = \(delivery.jobID) AND attempts = \(delivery.attempt) AND state = 'pending'
                """, logger: self.logger)
        }
    }

    package func tokens() async throws -> [TokenEntry] {
        try await read { db in
            let rows = try await db.query(
                "SELECT name, max_running, max_queued, created, revoked FROM tokens ORDER BY name",
                logger: self.logger)
            var entries: [TokenEntry] = []
            for try await (name, running, queued, created, revoked) in rows.decode(
                (String, Int, Int, Double, Double?).self)
            {
                entries.append(
                    TokenEntry(
                        token: Token(name: name, maxRunning: running, maxQueued: queued),
                        created: Date(timeIntervalSince1970: created),
                        revoked: revoked.map(Date.init(timeIntervalSince1970:))))
            }
            return entries
        }
    }

    package func revokeToken(name: String, now: Date) async throws -> Bool {
        try await transaction { db in
            try await Self.first(
                db.query(
                    """
                    UPDATE tokens SET revoked = COALESCE(revoked, \(now.timeIntervalSince1970))
                    WHERE name = \(name) RETURNING 1
                    """, logger: self.logger), as: Int32.self) != nil
        }
    }

    package func rotateToken(name: String, secretSHA256: String) async throws -> Bool {
        try await transaction { db in
            try await Self.first(
                db.query(
                    """
                    UPDATE tokens SET secret_sha256 = \(secretSHA256)
                    WHERE name = \(name) AND revoked IS NULL RETURNING 1
                    """, logger: self.logger), as: Int32.self) != nil
        }
    }

    // MARK: JobStoreStatus

    package func counts() async throws -> (jobs: [String: Int], tasks: [String: Int]) {
        try await read { db in
            var jobs: [String: Int] = [:]
            for try await (state, n) in try await db.query(
                "SELECT state, COUNT(*) FROM jobs GROUP BY state", logger: self.logger
            ).decode((String, Int).self) {
                jobs[state] = n
            }
            var tasks: [String: Int] = [:]
            for try await (kind, state, n) in try await db.query(
                "SELECT kind, state, COUNT(*) FROM tasks GROUP BY kind, state", logger: self.logger
            ).decode((String, String, Int).self) {
                tasks[kind + "/" + state] = n
            }
            return (jobs, tasks)
        }
    }

    package func isReady() async -> Bool {
        (try? await read { db in try await Self.first(db.query("SELECT 1", logger: self.logger), as: Int32.self) })
            == 1
    }

    // MARK: Reading for the lifecycle, applying its transitions (inside a transaction)

    private static func first<T: PostgresDecodable & Sendable>(_ rows: PostgresRowSequence, as type: T.Type)
        async throws -> T?
    {
        for try await value in rows.decode(T.self) { return value }
        return nil
    }

    private static func first<each T: PostgresDecodable & Sendable>(
        _ rows: PostgresRowSequence, as type: (repeat each T).Type
    ) async throws -> (repeat each T)? {
        for try await value in rows.decode((repeat each T).self) { return value }
        return nil
    }

    private static func binds(_ value: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }

    private static func storedTask(kind: String, section: Int, state: String, owner: String?, attempts: Int)
        -> StoredTask
    {
        StoredTask(
            key: TaskKey(kind: TaskKind(rawValue: kind) ?? .plan, section: section),
            state: TaskState(rawValue: state) ?? .failed, owner: owner, attempts: attempts)
    }

    /// The job's state, its row locked when `lock`; nil when there is no such job.
    private func jobState(_ db: PostgresConnection, id: String, lock: Bool) async throws -> JobState? {
        let sql = "SELECT state FROM jobs WHERE id = $1" + (lock ? " FOR UPDATE" : "")
        return try await Self.first(
            db.query(PostgresQuery(unsafeSQL: sql, binds: Self.binds(id)), logger: logger), as: String.self
        ).map { JobState(rawValue: $0) ?? .failed }
    }

    /// How many of the job's section tasks are queued or running (the caller holds the job's row).
    private func openSections(_ db: PostgresConnection, jobID: String) async throws -> Int {
        try await Self.first(
            db.query(
                """
                SELECT COUNT(*) FROM tasks WHERE job_id = \(jobID) AND kind = 'section'
                  AND state IN ('queued', 'running')
                """, logger: logger), as: Int.self) ?? 0
    }

    /// Writes what the lifecycle decided for the job `jobID` (and its task `task`); a transition that
    /// queues a task notifies idle workers.
    private func apply(
        _ transition: JobLifecycle.Transition, _ db: PostgresConnection, jobID: String, task: TaskKey?, now: Double
    ) async throws {
        if let change = transition.task, let task {
            let (kind, section) = (task.kind.rawValue, task.section)
            switch change {
            case .claimed(let owner, let attempt, let leaseUntil):
                try await db.query(
                    """
                    UPDATE tasks SET state = 'running', owner = \(owner), attempts = \(attempt), lease_until = \(leaseUntil)
                    WHERE job_id = \(jobID) AND kind = \(kind) AND section = \(section)
                    """, logger: logger)
                // Jobs take turns (`JobPriority`): this one was served now. Not when another transaction
                // holds the job's row (a cancel, which then waits for this task's row): a turn not
                // recorded is better than a deadlock.
                try await db.query(
                    """
                    UPDATE jobs SET served = \(now)
                    WHERE id IN (SELECT id FROM jobs WHERE id = \(jobID) FOR UPDATE SKIP LOCKED)
                    """, logger: logger)
            case .settled(let state, let result, let error):
                let resultJSON = try result.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
                try await db.query(
                    """
                    UPDATE tasks SET state = \(state.rawValue), result = \(resultJSON), error = \(error), lease_until = NULL
                    WHERE job_id = \(jobID) AND kind = \(kind) AND section = \(section)
                    """, logger: logger)
            case .requeued(let error, let notBefore):
                try await db.query(
                    """
                    UPDATE tasks SET state = 'queued', owner = NULL, lease_until = NULL, error = \(error),
                        not_before = \(notBefore)
                    WHERE job_id = \(jobID) AND kind = \(kind) AND section = \(section)
                    """, logger: logger)
            case .released(let attempts):
                try await db.query(
                    """
                    UPDATE tasks SET state = 'queued', owner = NULL, lease_until = NULL, attempts = \(attempts),
                        not_before = NULL
                    WHERE job_id = \(jobID) AND kind = \(kind) AND section = \(section)
                    """, logger: logger)
            }
        }
        if let change = transition.job {
            try await updateJob(db, id: jobID, change)
        }
        if transition.callsBack {
            try await db.query(
                """
                UPDATE callbacks SET state = 'pending', attempts = 0, not_before = \(now), delivered = NULL
                WHERE job_id = \(jobID)
                """, logger: logger)
        }
        if transition.cancelsQueuedTasks {
            try await db.query(
                "UPDATE tasks SET state = 'cancelled', owner = NULL WHERE job_id = \(jobID) AND state = 'queued'",
                logger: logger)
        }
        for key in transition.dropsTasks {
            try await db.query(
                "DELETE FROM tasks WHERE job_id = \(jobID) AND kind = \(key.kind.rawValue) AND section = \(key.section)",
                logger: logger)
        }
        for key in transition.resetTasks {
            try await db.query(
                """
                UPDATE tasks SET state = 'queued', owner = NULL, lease_until = NULL, attempts = 0, not_before = NULL,
                    result = NULL
                WHERE job_id = \(jobID) AND kind = \(key.kind.rawValue) AND section = \(key.section)
                """, logger: logger)
        }
        for key in transition.newTasks {
            try await db.query(
                """
                INSERT INTO tasks (job_id, kind, section, state, created)
                VALUES (\(jobID), \(key.kind.rawValue), \(key.section), 'queued', \(now))
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        for event in transition.events {
            try await db.query(
                """
                INSERT INTO events (job_id, type, data, created)
                VALUES (\(jobID), \(event.type), \(try event.json()), \(now))
                """, logger: logger)
        }
        if transition.queuesWork { try await Self.notifyQueued(db, logger: logger) }
    }

    /// One statement for every change: a nil value keeps the column (`error` goes with `state`).
    private func updateJob(_ db: PostgresConnection, id: String, _ change: JobLifecycle.JobChange) async throws {
        let plan = try change.plan.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        let outputs = try change.outputs.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        let state = change.state?.rawValue
        try await db.query(
            """
            UPDATE jobs SET updated = \(change.updated), state = COALESCE(\(state)::text, state),
                error = CASE WHEN \(state)::text IS NULL THEN error ELSE \(change.error)::text END,
                plan = COALESCE(\(plan)::text, plan), outputs = COALESCE(\(outputs)::text, outputs),
                audio_seconds = COALESCE(\(change.audioSeconds)::double precision, audio_seconds),
                expires = CASE WHEN \(change.clearsExpiry) THEN NULL
                    ELSE COALESCE(\(change.expires)::double precision, expires) END
            WHERE id = \(id)
            """, logger: logger)
    }

    private static func record(_ db: PostgresConnection, row: JobRow, logger: Logger) async throws -> JobRecord {
        let id = row.0
        var counts = SectionCounts()
        let rows = try await db.query(
            "SELECT state, COUNT(*) FROM tasks WHERE job_id = \(id) AND kind = 'section' GROUP BY state",
            logger: logger)
        for try await (state, n) in rows.decode((String, Int).self) {
            counts.total += n
            switch state {
            case "queued": counts.queued += n
            case "running": counts.running += n
            case "done": counts.done += n
            case "failed": counts.failed += n
            default: break
            }
        }
        let failedRows = try await db.query(
            """
            SELECT kind, section, state, attempts, error, not_before FROM tasks
            WHERE job_id = \(id) AND error IS NOT NULL AND state IN ('queued', 'running', 'failed')
            """, logger: logger)
        var failures: [FailedTask] = []
        for try await task in failedRows.decode((String, Int, String, Int, String, Double?).self) {
            failures.append(
                FailedTask(
                    kind: TaskKind(rawValue: task.0) ?? .section, section: task.1, isFinal: task.2 == "failed",
                    attempts: task.3, error: task.4,
                    retryAt: task.2 == "queued" ? task.5.map(Date.init(timeIntervalSince1970:)) : nil))
        }
        let callback = try await first(
            db.query(
                "SELECT url, state, attempts, not_before, last_error, delivered FROM callbacks WHERE job_id = \(id)",
                logger: logger), as: (String, String, Int, Double?, String?, Double?).self
        ).map {
            CallbackChange.record(
                url: $0.0, state: $0.1, attempts: $0.2, notBefore: $0.3, lastError: $0.4, delivered: $0.5)
        }
        return JobRecord(
            id: row.11, key: id, owner: row.1, book: row.2, options: try JobOptions.decode(row.3),
            state: JobState(rawValue: row.4) ?? .failed, error: row.5,
            created: Date(timeIntervalSince1970: row.6), updated: Date(timeIntervalSince1970: row.7),
            expires: row.8.map(Date.init(timeIntervalSince1970:)), audioSeconds: row.9, priority: row.12,
            sections: counts, outputs: try JSONDecoder().decode([OutputRecord].self, from: Data(row.10.utf8)),
            failures: FailedTask.ordered(failures), callback: callback)
    }
}

/// A `--db` that is not a `postgres://` URL.
package struct PostgresURLError: Error, CustomStringConvertible {
    package var url: String
    package var description: String {
        "not a PostgreSQL URL: \(url) (expected postgres://user[:password]@host[:port]/database)"
    }
}
