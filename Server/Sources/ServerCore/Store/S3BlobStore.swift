import Foundation
import LiveConversion
import OpenAPIRuntime

/// Books and a job's files in an S3 bucket (`--store s3://BUCKET`), the store of record that any
/// number of API nodes and workers share; each machine keeps a working copy under its data folder.
///
/// Keys, all built from validated names only: `books/<sha256>.epub`,
/// `job.<id>/work/<section>-<attempt>/<file>` (a section's files until the job is finalised),
/// `job.<id>/out/<file>` (the outputs). Two choices make every key sign alike on any S3-compatible
/// server, including those that canonicalise the decoded URI (moto, the tests' stand-in, as
/// werkzeug gives it): a file whose name has characters beyond letters, digits, space, `.`, `_`
/// and `-` is stored as `.` and the hex of its UTF-8 name (`objectName`); and a job's objects are
/// listed with the prefix `job.<id>` (no `/`, which such servers decode in a query), then kept
/// when they start with `job.<id>/`.
///
/// The local side (`DiskBlobStore` under the data folder): `uploads/` for uploads in flight,
/// `books/` as a cache of the books this machine read (bounded: `cachedBooks`), `jobs/<id>/` as a
/// spool for the sections being made and the job being finalised, emptied once its files are in
/// the bucket.
package struct S3BlobStore: BlobStore {
    package let client: S3Client
    package let local: DiskBlobStore
    /// Books kept in the local cache; older ones are removed once unused for `cacheGrace`.
    package var cachedBooks = 16
    /// A cached book read this recently is kept even past `cachedBooks`: a section worker may be
    /// about to open it.
    package var cacheGrace: TimeInterval = 3600
    /// How long a presigned output URL (`outputURL`) is valid, in seconds (`--presign-seconds`).
    package var presignSeconds = Self.defaultPresignSeconds

    /// `presignSeconds` unless told otherwise: 15 minutes, long enough to start a download.
    package static let defaultPresignSeconds = 900
    /// What SigV4 query signing allows: 1 second to 7 days.
    package static let presignRange = 1...604_800

    package init(configuration: S3Configuration, root: String) throws {
        client = S3Client(configuration: configuration)
        local = try DiskBlobStore(root: root)
    }

    static func bookKey(_ sha256: String) -> String { "books/\(sha256).epub" }

    /// Uploads go to the local cache first (streamed, hashed, size-capped, as on disk), then to the
    /// bucket in one PUT from that file, its SHA-256 as `x-amz-content-sha256` so the bucket checks
    /// the bytes too.
    package func putBook<Body: AsyncSequence & Sendable>(sha256: String, body: Body, limit: Int64) async throws
        -> Int64
    where Body.Element: Sequence & Sendable, Body.Element.Element == UInt8 {
        let size = try await local.putBook(sha256: sha256, body: body, limit: limit)
        try await client.put(key: Self.bookKey(sha256), file: try local.bookPath(sha256: sha256), sha256: sha256)
        pruneCache(keeping: sha256)
        return size
    }

    package func bookSize(sha256: String) async throws -> Int64? {
        guard Identifiers.isSHA256(sha256) else { throw BlobStoreError.invalidName(sha256) }
        return try await client.size(key: Self.bookKey(sha256))
    }

    /// The cached copy, or the book fetched into the cache and checked against its name.
    package func localBook(sha256: String) async throws -> String {
        let path = try local.bookPath(sha256: sha256)
        if DiskBlobStore.fileSize(path) != nil {
            // Marks it used, for the cache's eviction order.
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
            return path
        }
        let temporary = local.root + "/uploads/" + UUID().uuidString.lowercased() + ".part"
        guard let actual = try await client.download(key: Self.bookKey(sha256), to: path, temporary: temporary) else {
            throw ConversionAdapter.Failure(description: "the book \(sha256) is not in the bucket")
        }
        guard actual == sha256 else {
            try? FileManager.default.removeItem(atPath: path)
            throw BlobStoreError.unavailable("the bucket's copy of book \(sha256) hashes to \(actual): refused")
        }
        pruneCache(keeping: sha256)
        return path
    }

    package func jobDirectory(_ jobID: String) throws -> String {
        try local.jobDirectory(jobID)
    }

    /// `job.<id>/`: the start of every key of the job.
    static func jobPrefix(_ jobID: String) -> String { "job.\(jobID)/" }

    /// A file's name in a key: itself when it has only letters, digits, space, `.`, `_` and `-`
    /// (and it never starts with `.`: `Identifiers.isFileName`), else `.` and the hex of its UTF-8
    /// bytes, so a title's `&`, `'` or `é` never reaches a URI.
    static func objectName(_ fileName: String) -> String {
        let plain = fileName.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                || [UInt8(ascii: " "), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")].contains(byte)
        }
        return plain ? fileName : "." + SigV4Signer.hex(Array(fileName.utf8))
    }

    /// Every key of the job under `folder` (ListObjectsV2 by `job.<id>`, kept when under `job.<id>/`).
    func jobKeys(_ jobID: String, under folder: String = "") async throws -> [String] {
        let start = Self.jobPrefix(jobID) + folder
        return try await client.keys(prefix: "job.\(jobID)").filter { $0.hasPrefix(start) }
    }

    /// Uploads the section's files (its audio, its manifest), then removes the local folder.
    package func storeSection(jobID: String, directory: String) async throws {
        guard Identifiers.isSectionDirectory(directory) else { throw BlobStoreError.invalidName(directory) }
        let folder = try local.jobDirectory(jobID) + "/" + directory
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        where (Identifiers.isFileName(name) && !name.hasSuffix(".part")) || Self.isTimingFile(name) {
            let path = folder + "/" + name
            guard DiskBlobStore.fileSize(path) != nil else { continue }
            try await client.put(
                key: Self.jobPrefix(jobID) + directory + "/" + Self.objectName(name), file: path,
                sha256: try Self.sha256(ofFile: path))
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// `.epub2audio-timing-NNN.json`: a section's timing file, which subtitles are made from (hidden,
    /// so not a file name outputs may take, but one a section's folder keeps).
    static func isTimingFile(_ name: String) -> Bool {
        name.hasPrefix(".epub2audio-timing-") && name.hasSuffix(".json") && !name.contains("/")
    }

    /// Fetches each section's files (its audio, its manifest, any journal and timing file beside it)
    /// unless they are already local.
    package func fetchSections(jobID: String, results: [SectionResult]) async throws {
        let jobFolder = try local.jobDirectory(jobID)
        for result in results {
            guard Identifiers.isSectionDirectory(result.directory), Identifiers.isFileName(result.file) else {
                throw BlobStoreError.invalidName(result.directory + "/" + result.file)
            }
            let folder = jobFolder + "/" + result.directory
            if DiskBlobStore.fileSize(folder + "/" + result.file) != nil { continue }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let timing = SectionTiming.fileName(section: result.section)
            for name in [result.file, "manifest.json", "manifest.journal", timing] {
                let key = Self.jobPrefix(jobID) + result.directory + "/" + Self.objectName(name)
                let temporary = folder + "/." + UUID().uuidString.lowercased() + ".part"
                let found = try await client.download(key: key, to: folder + "/" + name, temporary: temporary)
                // A journal is there only sometimes; a timing file not from a version that wrote none.
                if found == nil, name != "manifest.journal", name != timing {
                    throw ConversionAdapter.Failure(
                        description: "section \(result.section): \(name) is not in the bucket")
                }
            }
        }
    }

    /// Uploads the outputs, then drops the sections' objects and the local spool of the job.
    package func storeOutputs(jobID: String, outputs: [OutputRecord]) async throws {
        let folder = try local.jobDirectory(jobID) + "/out"
        for output in outputs {
            try await client.put(
                key: try Self.outputKey(jobID: jobID, name: output.name), file: folder + "/" + output.name,
                sha256: output.sha256)
        }
        for key in try await jobKeys(jobID, under: "work/") {
            try await client.delete(key: key)
        }
        try local.removeLocalJob(jobID)
    }

    package func outputSize(jobID: String, name: String) async throws -> Int64? {
        try await client.size(key: try Self.outputKey(jobID: jobID, name: name))
    }

    /// Streams the range from the bucket (a `Range` header on the GetObject).
    package func outputBody(jobID: String, name: String, range: Range<Int64>) async throws -> HTTPBody {
        let stream = try await client.stream(key: try Self.outputKey(jobID: jobID, name: name), range: range)
        return HTTPBody(stream, length: .known(range.upperBound - range.lowerBound), iterationBehavior: .single)
    }

    /// A presigned GetObject URL of the output, valid `presignSeconds` from `now`.
    package func outputURL(jobID: String, name: String, now: Date) throws -> String? {
        client.presignedURL(key: try Self.outputKey(jobID: jobID, name: name), expires: presignSeconds, date: now)
    }

    /// Every object under `job.<id>/` (ListObjectsV2, then DeleteObject each), and the local spool.
    package func removeJob(_ jobID: String) async throws {
        guard Identifiers.isJobID(jobID) else { throw BlobStoreError.invalidName(jobID) }
        for key in try await jobKeys(jobID) {
            try await client.delete(key: key)
        }
        try local.removeLocalJob(jobID)
    }

    /// The object (DeleteObject), then the local cache's copy.
    package func removeBook(sha256: String) async throws {
        guard Identifiers.isSHA256(sha256) else { throw BlobStoreError.invalidName(sha256) }
        try await client.delete(key: Self.bookKey(sha256))
        try await local.removeBook(sha256: sha256)
    }

    /// The local folder must be writable, and the bucket must answer (HeadBucket).
    package func unavailability() async -> String? {
        if let problem = await local.unavailability() { return problem }
        return await client.bucketUnavailability()
    }

    static func outputKey(jobID: String, name: String) throws -> String {
        guard Identifiers.isJobID(jobID) else { throw BlobStoreError.invalidName(jobID) }
        guard Identifiers.isFileName(name) else { throw BlobStoreError.invalidName(name) }
        return jobPrefix(jobID) + "out/" + objectName(name)
    }

    /// Removes the least recently used cached books past `cachedBooks`, except `keeping` and those
    /// used within `cacheGrace`.
    func pruneCache(keeping sha256: String) {
        let folder = local.root + "/books"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), names.count > cachedBooks else {
            return
        }
        let dated = names.compactMap { name -> (String, Date)? in
            guard name.hasSuffix(".epub"), name != sha256 + ".epub",
                let modified = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[
                    .modificationDate] as? Date
            else { return nil }
            return (name, modified)
        }
        .sorted { $0.1 < $1.1 }
        let limit = Date().addingTimeInterval(-cacheGrace)
        for (name, modified) in dated.prefix(names.count - cachedBooks) where modified < limit {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// The SHA-256 (hex) of a file, read in 1 MiB pieces.
    static func sha256(ofFile path: String) throws -> String {
        try TaskRunner.describeFile(path: path, name: "").sha256
    }
}
