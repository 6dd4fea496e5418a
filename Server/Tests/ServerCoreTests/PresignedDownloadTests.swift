import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// Downloads straight from the bucket: presigned GetObject URLs in the job document and behind
/// `?redirect=1`.
///
/// moto (5.2.1) does not check query-string signatures: with its IAM authentication on (the
/// stand-in of scripts/with-s3.sh) every presigned URL gets a 500 (it reads only the
/// `Authorization` header), and with it off any URL is served. So the URLs are fetched by a plain
/// HTTP client (curl) from the second moto scripts/with-s3.sh starts, without authentication, which
/// shows they name the object and carry a query S3 parses; what they are signed with is checked
/// against botocore's presigner for the same key, credentials and time (and `SigV4Tests` against
/// AWS's published example).
@Suite(
    .serialized,
    .enabled(
        if: S3Stand.openEndpoint != nil,
        "needs moto and botocore: run through scripts/with-s3.sh (make -C Server test does)"))
struct PresignedDownloadTests {
    /// Two outputs: a plain name, and one the bucket keeps under its hex name.
    static let outputs: [(name: String, bytes: Data)] = [
        ("001 - Chapter 1.wav", Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })),
        ("002 - Rock & Roll.wav", Data("the second output".utf8)),
    ]

    @Test func theJobListsURLsAndRedirectsToThemAndTheyGiveTheOutputs() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let endpoint = try #require(S3Stand.openEndpoint)
        do {
            let configuration = try S3Configuration(
                store: "s3://e2a-presign-" + UUID().uuidString.prefix(8).lowercased(), endpoint: endpoint,
                region: "us-east-1", accessKey: "AK", secretKey: "SK")
            let bucket = S3Client(configuration: configuration)
            try await bucket.createBucket()
            var blobs = try S3BlobStore(configuration: configuration, root: folder.path + "/data")
            blobs.presignSeconds = 60
            let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
            try await Self.succeededJob(store: store, bucket: bucket, folder: folder)
            let context = ServiceContext(
                store: store, blobs: blobs,
                worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
            let router = try ServerApplication.router(context: context, limits: .init(), logger: Logger(label: "test"))
            let urls = try await Application(router: router).test(.live) { client -> [String] in
                // The job lists a URL per output.
                let listed = try await client.execute(uri: "/v1/jobs/j", method: .get) { response in
                    #expect(response.status == .ok)
                    let job = try #require(
                        try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                    return try #require(job["outputs"] as? [[String: Any]]).compactMap { $0["url"] as? String }
                }
                #expect(listed.count == Self.outputs.count)
                // redirect=1: 302 to a presigned URL; without it, the bytes as before.
                var located: [String] = []
                for output in Self.outputs {
                    let path =
                        "/v1/jobs/j/outputs/" + output.name.addingPercentEncoding(
                            withAllowedCharacters: .alphanumerics)!
                    located.append(
                        try await client.execute(uri: path + "?redirect=1", method: .get) { response in
                            #expect(response.status == .found)
                            return try #require(response.headers[.location])
                        })
                    try await client.execute(uri: path, method: .get) { response in
                        #expect(response.status == .ok)
                        #expect(Data(buffer: response.body) == output.bytes)
                    }
                }
                return listed + located
            }
            #expect(urls.count == 2 * Self.outputs.count)
            for (index, url) in urls.enumerated() {
                let output = Self.outputs[index % Self.outputs.count]
                #expect(url.hasPrefix(endpoint + "/" + configuration.bucket + "/job.j/out/"))
                #expect(url.contains("&X-Amz-Expires=60&"))
                let (status, bytes) = try Self.fetch(url, folder: folder)
                #expect(status == 200, "\(url): \(String(decoding: bytes.prefix(500), as: UTF8.self))")
                #expect(bytes == output.bytes)
            }
        }
    }

    @Test func theURLsAreTheOnesBotocoreSigns() throws {
        let configuration = try S3Configuration(
            store: "s3://my-bucket", endpoint: "http://127.0.0.1:9000", region: "us-east-1",
            accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
        let client = S3Client(configuration: configuration)
        var cases: [(key: String, expires: Int, epoch: Int)] = []
        for output in Self.outputs {
            let key = try S3BlobStore.outputKey(jobID: "j", name: output.name)
            cases += [(key, 60, 1_369_353_600), (key, 604_800, 1_800_000_123)]
        }
        // One python for every case: importing boto3 is slow.
        let arguments = cases.flatMap { [$0.key, String($0.expires), String($0.epoch)] }
        let theirs = String(
            decoding: try runProcess(
                "/usr/bin/env",
                [
                    "python3", "-c", Self.botocorePresign, configuration.endpoint, configuration.bucket,
                    configuration.accessKey, configuration.secretKey,
                ] + arguments), as: UTF8.self
        ).split(separator: "\n").map(String.init)
        let ours = cases.map {
            client.presignedURL(
                key: $0.key, expires: $0.expires, date: Date(timeIntervalSince1970: TimeInterval($0.epoch)))
        }
        #expect(ours == theirs)
    }

    /// botocore's presigned GetObject URLs (path-style, SigV4), one a line: ENDPOINT BUCKET ACCESS
    /// SECRET, then KEY EXPIRES EPOCH for each, signed at that time.
    static let botocorePresign = """
        import sys, datetime
        import boto3, botocore.auth
        from botocore.config import Config
        endpoint, bucket, access, secret = sys.argv[1:5]
        s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=access, aws_secret_access_key=secret,
            region_name="us-east-1", config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
        rest = sys.argv[5:]
        for key, expires, epoch in zip(rest[0::3], rest[1::3], rest[2::3]):
            fixed = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).replace(tzinfo=None)
            botocore.auth.get_current_datetime = lambda *a, **k: fixed
            print(s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=int(expires)))
        """

    /// The job `j`, succeeded, its outputs in the bucket as its finalisation leaves them.
    static func succeededJob(store: SQLiteJobStore, bucket: S3Client, folder: TemporaryFolder) async throws {
        let book = String(repeating: "ab", count: 32)
        _ = try await store.addBook(sha256: book, size: 1)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: Date())
        var records: [OutputRecord] = []
        for output in outputs {
            let file = folder.path + "/upload"
            try output.bytes.write(to: URL(fileURLWithPath: file))
            try await bucket.put(
                key: try S3BlobStore.outputKey(jobID: "j", name: output.name), file: file,
                sha256: sha256Hex(output.bytes))
            records.append(
                OutputRecord(name: output.name, size: Int64(output.bytes.count), sha256: sha256Hex(output.bytes)))
        }
        try await finish(store, outputs: records)
        #expect(try await store.job(id: "j")?.state == .succeeded)
    }

    /// Takes the job `j` (the only one queued) through its plan, one section and its finalize task,
    /// which lists `outputs`.
    static func finish(_ store: any JobStore, outputs: [OutputRecord]) async throws {
        let plan = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(
            plan, outcome: .planned(JobPlan(voice: "gmw/en", sections: [1], displayTitle: "Book")), now: Date())
        let section = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(
            section,
            outcome: .sectionDone(SectionResult(section: 1, directory: "work/1-1", file: "x.wav", durationSeconds: 1)),
            now: Date())
        let finalize = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(
            finalize, outcome: .finalized(outputs: outputs, audioSeconds: 1, failedSections: 0), now: Date())
        #expect(try await store.job(id: "j")?.state == .succeeded)
    }

    /// `curl URL`: the status and the body, as any client without credentials gets them.
    static func fetch(_ url: String, folder: TemporaryFolder) throws -> (status: Int, body: Data) {
        let file = folder.path + "/fetched"
        try? FileManager.default.removeItem(atPath: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "--globoff", "-o", file, "-w", "%{http_code}", url]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let status = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (Int(status) ?? 0, FileManager.default.contents(atPath: file) ?? Data())
    }
}

/// With the disk store there is no URL: the job lists none, and `?redirect=1` serves the bytes.
@Suite struct DiskDownloadTests {
    @Test func theDiskStoreListsNoURLAndServesTheBytes() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blobs = try DiskBlobStore(root: folder.path)
        #expect(try blobs.outputURL(jobID: "j", name: "001 - X.wav", now: Date()) == nil)
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
        let book = String(repeating: "ab", count: 32)
        _ = try await store.addBook(sha256: book, size: 1)
        _ = try await store.createJob(NewJob(id: "j", book: book, options: JobOptions()), now: Date())
        let out = try blobs.jobDirectory("j") + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("bytes".utf8).write(to: URL(fileURLWithPath: out + "/a.wav"))
        try await PresignedDownloadTests.finish(
            store, outputs: [OutputRecord(name: "a.wav", size: 5, sha256: sha256Hex(Data("bytes".utf8)))])
        let context = ServiceContext(
            store: store, blobs: blobs,
            worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
        let router = try ServerApplication.router(context: context, limits: .init(), logger: Logger(label: "test"))
        try await Application(router: router).test(.live) { client in
            try await client.execute(uri: "/v1/jobs/j", method: .get) { response in
                let job = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                let outputs = try #require(job["outputs"] as? [[String: Any]])
                #expect(outputs.count == 1)
                #expect(outputs.first?["url"] == nil)
            }
            try await client.execute(uri: "/v1/jobs/j/outputs/a.wav?redirect=1", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "bytes")
            }
        }
    }
}
