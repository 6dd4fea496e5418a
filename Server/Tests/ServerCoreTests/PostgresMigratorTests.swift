import Foundation
import Logging
import PostgresNIO
import Testing

@testable import ServerCore

/// Versioned migrations on a real PostgreSQL (scripts/with-postgres.sh): each migration once, in
/// order, in a transaction, whoever starts first; skipped without a server (`PostgresAvailability`
/// says why, and fails in CI).
@Suite(.enabled(if: StoreKind.postgresURL != nil)) struct PostgresMigratorTests {
    let schema = "migrate_" + UUID().uuidString.prefix(12).lowercased().filter { $0 != "-" }
    let logger = Logger(label: "test-migrations")

    typealias Migration = PostgresMigrator.Migration

    /// The rows of `sql`'s first column, as integers.
    static func integers(_ client: PostgresClient, _ sql: String) async throws -> [Int] {
        var values: [Int] = []
        for try await value in try await client.query(PostgresQuery(unsafeSQL: sql)).decode(Int.self) {
            values.append(value)
        }
        return values
    }

    @Test func aFreshSchemaGetsEveryMigrationOnceAndASecondRunDoesNothing() async throws {
        try await PostgresTestClient.with(schema: schema) { client async throws in
            let ids = PostgresMigrator.jobStore.migrations.map(\.id)
            #expect(try await PostgresMigrator.jobStore.migrate(client, schema: schema, logger: logger) == ids)
            #expect(try await PostgresMigrator.jobStore.migrate(client, schema: schema, logger: logger) == [])
            #expect(try await PostgresMigrator.appliedIDs(client, schema: schema, logger: logger) == ids)
        }
        // A store opened on it (twice: a second process) finds it up to date and works.
        let url = try #require(StoreKind.postgresURL)
        let first = try await PostgresJobStore(url: url, schema: schema)
        let second = try await PostgresJobStore(url: url, schema: schema)
        #expect(try await first.addBook(sha256: String(repeating: "ef", count: 32), size: 1))
        #expect(try await second.hasBook(sha256: String(repeating: "ef", count: 32)))
        first.shutdown()
        second.shutdown()
    }

    @Test func aSchemaAtAnEarlierVersionGetsOnlyTheLaterMigrations() async throws {
        // m1 cannot run twice (its table would exist): applying it again would throw.
        let m1 = Migration(id: "m1", statements: ["CREATE TABLE t (a INT)", "INSERT INTO t VALUES (1)"])
        let m2 = Migration(id: "m2", statements: ["ALTER TABLE t ADD COLUMN b INT", "UPDATE t SET b = a + 1"])
        let m3 = Migration(id: "m3", statements: ["INSERT INTO t VALUES (10, 20)"])
        try await PostgresTestClient.with(schema: schema) { client async throws in
            #expect(
                try await PostgresMigrator(migrations: [m1]).migrate(client, schema: schema, logger: logger) == ["m1"])
            #expect(
                try await PostgresMigrator(migrations: [m1, m2, m3]).migrate(client, schema: schema, logger: logger)
                    == ["m2", "m3"])
            #expect(try await Self.integers(client, "SELECT b FROM \(schema).t ORDER BY b") == [2, 20])
            #expect(
                try await PostgresMigrator.appliedIDs(client, schema: schema, logger: logger) == ["m1", "m2", "m3"])
        }
    }

    @Test func migratorsStartingAtOnceApplyEachMigrationOnce() async throws {
        let migrator = PostgresMigrator(migrations: [
            Migration(id: "m1", statements: ["CREATE TABLE t (n INT)"]),
            Migration(id: "m2", statements: ["INSERT INTO t VALUES (1)"]),
            Migration(id: "m3", statements: ["INSERT INTO t VALUES (2)"]),
        ])
        // Four processes on a schema that does not exist yet, each with its own connections.
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await PostgresTestClient.with(schema: schema) { client async throws in
                        try await migrator.migrate(client, schema: schema, logger: logger)
                    }
                }
            }
            var all: [String] = []
            for try await ids in group { all += ids }
            return all
        }
        #expect(applied.sorted() == ["m1", "m2", "m3"])
        try await PostgresTestClient.with(schema: schema) { client async throws in
            #expect(try await Self.integers(client, "SELECT n FROM \(schema).t ORDER BY n") == [1, 2])
        }
    }

    @Test func aFailedMigrationLeavesNothingAndCanBeFixed() async throws {
        let broken = Migration(
            id: "m1",
            statements: ["CREATE TABLE t (n INT)", "INSERT INTO t VALUES (1)", "INSERT INTO missing VALUES (1)"])
        try await PostgresTestClient.with(schema: schema) { client async throws in
            let error = await #expect(throws: PostgresMigrationError.self) {
                try await PostgresMigrator(migrations: [broken]).migrate(client, schema: schema, logger: logger)
            }
            #expect(error?.migration == "m1")
            #expect(error?.description.contains(#"relation "missing" does not exist"#) == true)
            #expect(try await PostgresMigrator.appliedIDs(client, schema: schema, logger: logger) == [])
            #expect(
                try await Self.integers(
                    client, "SELECT COUNT(*)::int8 FROM pg_tables WHERE schemaname = '\(schema)' AND tablename = 't'")
                    == [0])
            let fixed = Migration(id: "m1", statements: ["CREATE TABLE t (n INT)", "INSERT INTO t VALUES (1)"])
            #expect(
                try await PostgresMigrator(migrations: [fixed]).migrate(client, schema: schema, logger: logger) == [
                    "m1"
                ])
        }
    }

    @Test func migrationsANewerServerAppliedAreLeftAlone() async throws {
        try await PostgresTestClient.with(schema: schema) { client async throws in
            try await PostgresMigrator.jobStore.migrate(client, schema: schema, logger: logger)
            try await client.query(
                PostgresQuery(unsafeSQL: "INSERT INTO \(schema).\(PostgresMigrator.table) VALUES ('v99', 0)"))
            #expect(try await PostgresMigrator.jobStore.migrate(client, schema: schema, logger: logger) == [])
            #expect(try await PostgresMigrator.appliedIDs(client, schema: schema, logger: logger).contains("v99"))
        }
    }

    @Test func aSchemaThatIsNotAnIdentifierIsRefused() async throws {
        try await PostgresTestClient.with(schema: schema) { client async throws in
            await #expect(throws: PostgresURLError.self) {
                try await PostgresMigrator.jobStore.migrate(client, schema: "x; DROP TABLE jobs", logger: logger)
            }
        }
    }

    /// A database the store made before its migrations were versioned (the same tables, created when
    /// missing, and no migrations table) adopts them, its jobs and plans as they were.
    @Test func aDatabaseMadeBeforeVersionedMigrationsAdoptsThem() async throws {
        let book = String(repeating: "ab", count: 32)
        let earlierPlan =
            #"{"voice":"roa\/it","sourceOptions":{"language":"it"},"sections":[4],"displayTitle":"Libro"}"#
        try await PostgresTestClient.with(schema: schema) { client async throws in
            var statements = ["CREATE SCHEMA \(schema)", "SET search_path TO \(schema)"]
            statements += PostgresMigrator.jobStore.migrations[0].statements
            statements += [
                "INSERT INTO books VALUES ('\(book)', 1, 0)",
                """
                INSERT INTO jobs (id, book, options, fingerprint, state, plan, created, updated)
                VALUES ('old', '\(book)', '\(JobOptions().canonicalJSON)', 'f', 'running', '\(earlierPlan)', 0, 0)
                """,
                "INSERT INTO tasks (job_id, kind, section, state, attempts, created) VALUES ('old', 'section', 4, 'queued', 0, 0)",
            ]
            try await client.withConnection { connection in
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
        }
        let store = try await PostgresJobStore(url: try #require(StoreKind.postgresURL), schema: schema)
        defer { store.shutdown() }
        try await PostgresTestClient.with(schema: schema) { client async throws in
            #expect(
                try await PostgresMigrator.appliedIDs(client, schema: schema, logger: logger)
                    == PostgresMigrator.jobStore.migrations.map(\.id))
        }
        #expect(try await store.job(id: "old")?.state == .running)
        // Job ids became each owner's own: the job is found by its id among the jobs made without a token.
        #expect(try await store.job(named: "old", owner: nil)?.key == "old")
        let task = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        #expect(task.plan?.sourceOptions.language == "it")
        #expect(task.plan?.sections == [4])
    }
}
