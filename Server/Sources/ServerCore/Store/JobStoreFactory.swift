import Foundation
import Logging

/// Opens the job store a command line names: PostgreSQL for `--db postgres://…`, else the SQLite
/// database in the data folder.
package func openJobStore(
    db: String?, data: String, outputLifetime: TimeInterval = 7 * 24 * 3600, retries: RetryPolicy = RetryPolicy(),
    logger: Logger
) async throws -> any JobStore {
    if let db {
        return try await PostgresJobStore(url: db, outputLifetime: outputLifetime, retries: retries, logger: logger)
    }
    return try SQLiteJobStore(path: data + "/jobs.sqlite", outputLifetime: outputLifetime, retries: retries)
}

/// Opens the blob store a command line names: the bucket of `--store s3://BUCKET` (endpoint from
/// `endpoint`, else `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`, else AWS's; region from
/// `AWS_REGION` or `AWS_DEFAULT_REGION`, else us-east-1; credentials from `AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY` and the optional `AWS_SESSION_TOKEN`), with its local working copy in
/// `data` and its outputs' presigned URLs valid `presignSeconds`; else the folder `data` itself.
///
/// - Throws: `S3ConfigurationError` for a store, endpoint, region or credentials that cannot be used.
package func openBlobStore(
    store: String?, endpoint: String?, data: String, presignSeconds: Int = S3BlobStore.defaultPresignSeconds,
    environment: [String: String] = ProcessInfo.processInfo.environment
) throws -> any BlobStore {
    guard let store, store != "disk" else { return try DiskBlobStore(root: data) }
    let nonEmpty: (String) -> String? = { environment[$0].flatMap { $0.isEmpty ? nil : $0 } }
    let configuration = try S3Configuration(
        store: store, endpoint: endpoint ?? nonEmpty("AWS_ENDPOINT_URL_S3") ?? nonEmpty("AWS_ENDPOINT_URL"),
        region: nonEmpty("AWS_REGION") ?? nonEmpty("AWS_DEFAULT_REGION") ?? "us-east-1",
        accessKey: nonEmpty("AWS_ACCESS_KEY_ID"), secretKey: nonEmpty("AWS_SECRET_ACCESS_KEY"),
        sessionToken: nonEmpty("AWS_SESSION_TOKEN"))
    var bucket = try S3BlobStore(configuration: configuration, root: data)
    bucket.presignSeconds = presignSeconds
    return bucket
}
