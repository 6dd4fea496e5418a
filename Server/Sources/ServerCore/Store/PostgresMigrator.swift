import Foundation
import Logging
import PostgresNIO

/// Versioned schema migrations for PostgreSQL, as GRDB's `DatabaseMigrator` gives the SQLite store:
/// each migration has an id, is applied once, in order, in a transaction of its own that records
/// its id in the schema's `schema_migrations` table, so a failed migration leaves nothing half done.
/// Processes that start at once (API nodes, workers) take an advisory lock per schema and look again
/// under it, so each migration runs once whichever starts first. Ids the code does not know (a
/// newer server migrated the database) are left alone, as GRDB does.
package struct PostgresMigrator: Sendable {
    /// One step of the schema.
    package struct Migration: Sendable {
        /// Recorded once applied; never change a migration that has shipped, add one.
        package var id: String
        /// Run in order, in the migration's transaction.
        package var statements: [String]

        package init(id: String, statements: [String]) {
            self.id = id
            self.statements = statements
        }
    }

    /// The migrations, oldest first.
    package var migrations: [Migration]

    package init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// The table of applied ids, in the migrated schema.
    package static let table = "schema_migrations"

    /// True for a schema name that may be written in SQL as it is: ASCII letters, digits and `_`.
    package static func isIdentifier(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// Creates `schema` when missing and applies the migrations it lacks; returns the ids applied
    /// now (none when it was up to date).
    /// - Throws: `PostgresURLError` for a schema that is not a plain identifier (`isIdentifier`);
    ///   `PostgresMigrationError` for a statement of a migration that fails (nothing of that migration
    ///   is kept, and the later ones do not run); the server's error when it cannot be reached.
    @discardableResult
    package func migrate(_ client: PostgresClient, schema: String, logger: Logger) async throws -> [String] {
        guard Self.isIdentifier(schema) else { throw PostgresURLError(url: "schema \(schema)") }
        let lock = PostgresQuery(
            unsafeSQL: "SELECT pg_advisory_xact_lock(hashtext($1))",
            binds: Self.binds("epub2audio-migrations:" + schema))
        return try await client.withConnection { connection in
            let known = try await Self.inTransaction(connection, logger: logger) {
                try await connection.query(lock, logger: logger)
                // Two processes creating the same schema at once would clash: the lock orders them.
                try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE TABLE IF NOT EXISTS \(schema).\(Self.table) (
                                id TEXT PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)
                            """), logger: logger)
                return try await Self.appliedIDs(connection, schema: schema, logger: logger)
            }
            var applied: [String] = []
            for migration in migrations where !known.contains(migration.id) {
                let ran = try await Self.inTransaction(connection, logger: logger) {
                    try await connection.query(lock, logger: logger)
                    // Under the lock: another process may have applied it since we looked.
                    guard !(try await Self.isApplied(migration.id, connection, schema: schema, logger: logger)) else {
                        return false
                    }
                    // The migration's statements name their tables alone: they land in `schema`.
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "SET LOCAL search_path TO \(schema)"), logger: logger)
                    for statement in migration.statements {
                        do {
                            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                        } catch let error as PSQLError {
                            throw PostgresMigrationError(schema: schema, migration: migration.id, error: error)
                        }
                    }
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: "INSERT INTO \(schema).\(Self.table) (id, applied) VALUES ($1, $2)",
                            binds: Self.binds(migration.id, Date().timeIntervalSince1970)), logger: logger)
                    return true
                }
                if ran {
                    applied.append(migration.id)
                    logger.info("PostgreSQL schema \(schema): migration \(migration.id) applied")
                }
            }
            return applied
        }
    }

    /// The ids recorded in `schema`, in the order they were applied.
    package static func appliedIDs(_ client: PostgresClient, schema: String, logger: Logger) async throws -> [String] {
        try await client.withConnection { try await appliedIDs($0, schema: schema, logger: logger) }
    }

    private static func appliedIDs(_ connection: PostgresConnection, schema: String, logger: Logger) async throws
        -> [String]
    {
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT id FROM \(schema).\(table) ORDER BY applied, id"), logger: logger)
        var ids: [String] = []
        for try await id in rows.decode(String.self) { ids.append(id) }
        return ids
    }

    private static func isApplied(_ id: String, _ connection: PostgresConnection, schema: String, logger: Logger)
        async throws -> Bool
    {
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT 1 FROM \(schema).\(table) WHERE id = $1", binds: binds(id)),
            logger: logger)
        for try await _ in rows.decode(Int32.self) { return true }
        return false
    }

    private static func binds(_ id: String, _ time: Double? = nil) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(id)
        if let time { binds.append(time) }
        return binds
    }

    /// Runs `body` between BEGIN and COMMIT, or ROLLBACK when it throws.
    private static func inTransaction<T: Sendable>(
        _ connection: PostgresConnection, logger: Logger, _ body: () async throws -> T
    ) async throws -> T {
        try await connection.query("BEGIN", logger: logger)
        do {
            let value = try await body()
            try await connection.query("COMMIT", logger: logger)
            return value
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }
}

extension PostgresMigrator {
    /// The job store's schema. Ids are never reused; a change is a new migration at the end.
    ///
    /// `v1` is the schema as the store created it before its migrations were versioned (tables
    /// created when missing at every start): its `IF NOT EXISTS` lets a database made then adopt the
    /// migrations without change.
    package static let jobStore = PostgresMigrator(migrations: [
        Migration(
            id: "v1",
            statements: [
                """
                CREATE TABLE IF NOT EXISTS books (
                    sha256 TEXT PRIMARY KEY, size BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS jobs (
                    seq BIGSERIAL UNIQUE, id TEXT PRIMARY KEY, book TEXT NOT NULL, options TEXT NOT NULL,
                    fingerprint TEXT NOT NULL, idempotency_key TEXT UNIQUE, state TEXT NOT NULL, error TEXT, plan TEXT,
                    created DOUBLE PRECISION NOT NULL, updated DOUBLE PRECISION NOT NULL, expires DOUBLE PRECISION,
                    audio_seconds DOUBLE PRECISION NOT NULL DEFAULT 0, outputs TEXT NOT NULL DEFAULT '[]', owner TEXT)
                """,
                "CREATE INDEX IF NOT EXISTS jobs_created ON jobs(created)",
                "CREATE INDEX IF NOT EXISTS jobs_owner ON jobs(owner, state)",
                """
                CREATE TABLE IF NOT EXISTS tasks (
                    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE, kind TEXT NOT NULL,
                    section BIGINT NOT NULL, state TEXT NOT NULL, attempts BIGINT NOT NULL DEFAULT 0,
                    owner TEXT, lease_until DOUBLE PRECISION, result TEXT, error TEXT, created DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (job_id, kind, section))
                """,
                "CREATE INDEX IF NOT EXISTS tasks_queue ON tasks(state, created)",
                """
                CREATE TABLE IF NOT EXISTS events (
                    id BIGSERIAL PRIMARY KEY, job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
                    type TEXT NOT NULL, data TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS events_job ON events(job_id, id)",
                """
                CREATE TABLE IF NOT EXISTS tokens (
                    secret_sha256 TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE,
                    max_running BIGINT NOT NULL, max_queued BIGINT NOT NULL, created DOUBLE PRECISION NOT NULL)
                """,
            ]),
        // Job ids are each token's own: `id` stays the store's key (tasks, events, the job's folder),
        // `name` is the id the client chose, unique per owner (no owner: '').
        Migration(
            id: "v2-job-names",
            statements: [
                "ALTER TABLE jobs ADD COLUMN name TEXT",
                "UPDATE jobs SET name = id",
                "ALTER TABLE jobs ALTER COLUMN name SET NOT NULL",
                "CREATE UNIQUE INDEX jobs_name ON jobs ((COALESCE(owner, '')), name)",
            ]),
        // A task failed for a passing reason waits its backoff: not claimed before `not_before`.
        Migration(id: "v3-task-not-before", statements: ["ALTER TABLE tasks ADD COLUMN not_before DOUBLE PRECISION"]),
        // Fair scheduling (`JobPriority`): a job's priority, and when a task of it was last claimed.
        Migration(
            id: "v4-fair-scheduling",
            statements: [
                "ALTER TABLE jobs ADD COLUMN priority BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE jobs ADD COLUMN served DOUBLE PRECISION",
            ]),
        // `token revoke`: a revoked token keeps its row (its name stays taken), its secret refused.
        Migration(
            id: "v5-token-revocation", statements: ["ALTER TABLE tokens ADD COLUMN revoked DOUBLE PRECISION"]),
        // Book expiry: when a book was last uploaded or named by a new job (`expireBooks`).
        Migration(
            id: "v6-book-use",
            statements: ["ALTER TABLE books ADD COLUMN used DOUBLE PRECISION", "UPDATE books SET used = created"]),
        // Callbacks (`CallbackQueue`): one row per job that names one, its delivery state; each token's
        // callback-signing secret.
        Migration(
            id: "v7-callbacks",
            statements: [
                """
                CREATE TABLE callbacks (
                    job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE, url TEXT NOT NULL,
                    state TEXT NOT NULL, attempts BIGINT NOT NULL DEFAULT 0, not_before DOUBLE PRECISION,
                    last_error TEXT, delivered DOUBLE PRECISION)
                """,
                "CREATE INDEX callbacks_due ON callbacks(state, not_before)",
                "ALTER TABLE tokens ADD COLUMN callback_secret TEXT",
            ]),
    ])
}

/// A migration's statement that PostgreSQL refused: the store does not open.
package struct PostgresMigrationError: Error, CustomStringConvertible {
    package var schema: String
    package var migration: String
    /// PostgreSQL's own message (postgres-nio's description of its errors hides it).
    package var message: String

    init(schema: String, migration: String, error: PSQLError) {
        self.schema = schema
        self.migration = migration
        message = error.serverInfo?[.message] ?? String(reflecting: error)
    }

    package var description: String {
        "PostgreSQL schema \(schema): migration \(migration) failed, nothing of it was kept: \(message)"
    }
}
