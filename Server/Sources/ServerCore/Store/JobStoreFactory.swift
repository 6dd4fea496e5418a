import Foundation
import Logging

/// Opens the job store a command line names: PostgreSQL for `--db postgres://…`, else the SQLite
/// database in the data folder.
package func openJobStore(
    db: String?, data: String, outputLifetime: TimeInterval = 7 * 24 * 3600, logger: Logger
) async throws -> any JobStore {
    if let db {
        return try await PostgresJobStore(url: db, outputLifetime: outputLifetime, logger: logger)
    }
    return try SQLiteJobStore(path: data + "/jobs.sqlite", outputLifetime: outputLifetime)
}
