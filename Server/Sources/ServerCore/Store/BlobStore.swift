import Crypto
import Foundation
import Hummingbird
import OpenAPIRuntime

/// Where books and a job's files live, and the local copies a worker needs.
///
/// The store of record is either a folder on the local disk (`DiskBlobStore`, the default) or an
/// S3 bucket (`S3BlobStore`, `--store s3://`); the reader and the section workers always work on
/// local files, so an object store keeps a local working copy under the data folder: books fetched
/// into a bounded cache, a job's folder as a spool for the sections being made.
///
/// Every name a caller passes was validated first (`Identifiers`); the store never joins an
/// unchecked request string to a path or an object key. A store that cannot be reached throws
/// `BlobStoreError.unavailable` (HTTP 503).
package protocol BlobStore: Sendable {
    /// Streams `body` to the book named `sha256`, hashing it on the way; refuses it past `limit`
    /// bytes or when its hash differs. Returns the size; an existing book is kept (idempotent).
    func putBook<Body: AsyncSequence & Sendable>(sha256: String, body: Body, limit: Int64) async throws -> Int64
    where Body.Element: Sequence & Sendable, Body.Element.Element == UInt8
    /// The stored book's size in bytes; nil when there is no such book.
    func bookSize(sha256: String) async throws -> Int64?
    /// A local file of the book for the reader and the workers (with an object store: a copy in the
    /// local cache, fetched when missing and checked against its SHA-256).
    func localBook(sha256: String) async throws -> String
    /// The job's local working folder (created when missing).
    func jobDirectory(_ jobID: String) throws -> String
    /// A section was made into `directory` (relative to the job's folder, `work/<section>-<attempt>`):
    /// keeps its files where the job's finalisation, on any machine, finds them.
    func storeSection(jobID: String, directory: String) async throws
    /// Before finalisation: the folders of `results` are present under the local job folder.
    func fetchSections(jobID: String, results: [SectionResult]) async throws
    /// After finalisation: the outputs in the local `out/` folder, as described, are stored.
    func storeOutputs(jobID: String, outputs: [OutputRecord]) async throws
    /// The size of an output; nil when it is gone.
    func outputSize(jobID: String, name: String) async throws -> Int64?
    /// The bytes of `range` of an output, streamed.
    func outputBody(jobID: String, name: String, range: Range<Int64>) async throws -> HTTPBody
    /// A URL from which any client may fetch the output straight from the store of record, signed
    /// at `now` and valid for a while (the S3 store's presigned URL); nil for a store without one
    /// (the disk).
    /// - Throws: `BlobStoreError.invalidName` for a job id or name that is not valid.
    func outputURL(jobID: String, name: String, now: Date) throws -> String?
    /// Removes everything a job wrote, stored and local.
    func removeJob(_ jobID: String) async throws
    /// Removes a book, stored and local (it expired: no job names it).
    func removeBook(sha256: String) async throws
    /// Nil when books and outputs can be written; else why not, in one sentence.
    func unavailability() async -> String?
}

/// Why a blob could not be stored or read.
package enum BlobStoreError: Error, Equatable, CustomStringConvertible, HTTPResponseConvertible {
    case tooLarge(limit: Int64)
    case hashMismatch(expected: String, actual: String)
    case invalidName(String)
    /// The store of record cannot be reached or refuses the request (credentials, server error).
    case unavailable(String)

    package var description: String {
        switch self {
        case .tooLarge(let limit): return "the body is larger than the limit of \(limit) bytes"
        case .hashMismatch(let expected, let actual):
            return "the body's SHA-256 is \(actual), not \(expected) as the path says"
        case .invalidName(let name): return "invalid name '\(name)'"
        case .unavailable(let message): return message
        }
    }

    /// A handler that lets this error through answers with its status (`JSONErrorMiddleware`).
    package var httpStatus: HTTPResponse.Status {
        switch self {
        case .tooLarge: return .contentTooLarge
        case .hashMismatch: return .unprocessableContent
        case .invalidName: return .badRequest
        case .unavailable: return .serviceUnavailable
        }
    }
}

/// Books and jobs in a folder: `books/<sha256>.epub`, `jobs/<id>/`.
package struct DiskBlobStore: BlobStore {
    package let root: String

    /// Creates the folders under `root`.
    package init(root: String) throws {
        self.root = URL(fileURLWithPath: root).standardizedFileURL.path
        for folder in ["books", "jobs", "uploads"] {
            try FileManager.default.createDirectory(
                atPath: self.root + "/" + folder, withIntermediateDirectories: true)
        }
        removeStaleUploads(olderThan: 24 * 3600)
    }

    /// Uploads a crash left behind: a live upload writes its file at least every few seconds.
    func removeStaleUploads(olderThan age: TimeInterval) {
        let folder = root + "/uploads"
        let limit = Date().addingTimeInterval(-age)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".part") {
            let path = folder + "/" + name
            if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                modified < limit
            {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }

    package func unavailability() async -> String? {
        let writable =
            FileManager.default.isWritableFile(atPath: root + "/uploads")
            && FileManager.default.isWritableFile(atPath: root + "/jobs")
        return writable ? nil : "the data folder is not writable"
    }

    package func putBook<Body: AsyncSequence & Sendable>(sha256: String, body: Body, limit: Int64) async throws
        -> Int64
    where Body.Element: Sequence & Sendable, Body.Element.Element == UInt8 {
        guard Identifiers.isSHA256(sha256) else { throw BlobStoreError.invalidName(sha256) }
        let final = try bookPath(sha256: sha256)
        // Each upload writes a file of its own, so two uploads of the same book never mix their bytes.
        let temporary = root + "/uploads/" + UUID().uuidString.lowercased() + ".part"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        var renamed = false
        defer { if !renamed { try? FileManager.default.removeItem(atPath: temporary) } }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        var hasher = Crypto.SHA256()
        var size: Int64 = 0
        do {
            var buffer: [UInt8] = []
            for try await chunk in body {
                buffer.removeAll(keepingCapacity: true)
                buffer.append(contentsOf: chunk)
                size += Int64(buffer.count)
                if size > limit { throw BlobStoreError.tooLarge(limit: limit) }
                hasher.update(data: buffer)
                try handle.write(contentsOf: buffer)
            }
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        let actual = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        guard actual == sha256 else { throw BlobStoreError.hashMismatch(expected: sha256, actual: actual) }
        // rename(2) replaces atomically: a concurrent upload of the same book leaves the same bytes.
        guard rename(temporary, final) == 0 else { throw CocoaError(.fileWriteUnknown) }
        renamed = true
        return size
    }

    package func bookPath(sha256: String) throws -> String {
        guard Identifiers.isSHA256(sha256) else { throw BlobStoreError.invalidName(sha256) }
        return root + "/books/" + sha256 + ".epub"
    }

    package func bookSize(sha256: String) async throws -> Int64? {
        Self.fileSize(try bookPath(sha256: sha256))
    }

    package func localBook(sha256: String) async throws -> String {
        try bookPath(sha256: sha256)
    }

    /// The size of a regular file; nil when there is none.
    static func fileSize(_ path: String) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return attributes[.size] as? Int64
    }

    package func jobDirectory(_ jobID: String) throws -> String {
        guard Identifiers.isJobID(jobID) else { throw BlobStoreError.invalidName(jobID) }
        let path = root + "/jobs/" + jobID
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    package func outputPath(jobID: String, name: String) throws -> String {
        guard Identifiers.isJobID(jobID) else { throw BlobStoreError.invalidName(jobID) }
        guard Identifiers.isFileName(name) else { throw BlobStoreError.invalidName(name) }
        return root + "/jobs/" + jobID + "/out/" + name
    }

    // The sections' folders and the outputs are already where finalisation and downloads look.
    package func storeSection(jobID: String, directory: String) async throws {}
    package func fetchSections(jobID: String, results: [SectionResult]) async throws {}
    package func storeOutputs(jobID: String, outputs: [OutputRecord]) async throws {}

    package func outputSize(jobID: String, name: String) async throws -> Int64? {
        Self.fileSize(try outputPath(jobID: jobID, name: name))
    }

    /// None: the files are served by the API only.
    package func outputURL(jobID: String, name: String, now: Date) throws -> String? { nil }

    package func outputBody(jobID: String, name: String, range: Range<Int64>) async throws -> HTTPBody {
        FileBody.body(path: try outputPath(jobID: jobID, name: name), range: range)
    }

    package func removeJob(_ jobID: String) async throws {
        try removeLocalJob(jobID)
    }

    package func removeBook(sha256: String) async throws {
        let path = try bookPath(sha256: sha256)
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    }

    /// Removes the job's local folder.
    func removeLocalJob(_ jobID: String) throws {
        guard Identifiers.isJobID(jobID) else { throw BlobStoreError.invalidName(jobID) }
        let path = root + "/jobs/" + jobID
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    }
}

/// The shapes of the names a request may carry; checked before any use.
package enum Identifiers {
    /// 64 lower-case hex digits.
    package static func isSHA256(_ value: String) -> Bool {
        value.utf8.count == 64 && value.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// `work/<section>-<attempt>`: the folder of a section's attempt, as `TaskRunner` names it.
    package static func isSectionDirectory(_ value: String) -> Bool {
        guard value.hasPrefix("work/") else { return false }
        let parts = value.dropFirst(5).split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { (1...9).contains($0.utf8.count) && $0.utf8.allSatisfy { (48...57).contains($0) } }
    }

    /// `[A-Za-z0-9][A-Za-z0-9_-]{0,63}`: no dot, no slash, so never a path.
    package static func isJobID(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (1...64).contains(bytes.count), isAlphanumeric(bytes[0]) else { return false }
        return bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
    }

    /// A single file name: no slash, no NUL, not `.` or `..`, not hidden, at most 255 bytes.
    package static func isFileName(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard (1...255).contains(bytes.count), bytes[0] != UInt8(ascii: ".") else { return false }
        return !bytes.contains(UInt8(ascii: "/")) && !bytes.contains(0)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }
}
