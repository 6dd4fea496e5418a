import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// The S3 stand-in scripts/with-s3.sh starts: moto_server on loopback, checking every request's
/// SigV4 signature against an IAM user's key.
enum S3Stand {
    static func variable(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var endpoint: String? { variable("EPUB2AUDIO_TEST_S3_ENDPOINT") }
    /// The second stand-in, without authentication: what serves presigned URLs (moto does not check
    /// query-string signatures, and with its authentication on it cannot serve them).
    static var openEndpoint: String? { variable("EPUB2AUDIO_TEST_S3_OPEN_ENDPOINT") }
    static var available: Bool {
        endpoint != nil && variable("EPUB2AUDIO_TEST_S3_ACCESS_KEY") != nil
            && variable("EPUB2AUDIO_TEST_S3_SECRET_KEY") != nil
    }

    /// The stand-in's credentials for `bucket`; `secret` replaces the right secret key.
    static func configuration(bucket: String, secret: String? = nil, endpoint: String? = nil) throws
        -> S3Configuration
    {
        try S3Configuration(
            store: "s3://\(bucket)", endpoint: endpoint ?? Self.endpoint, region: "us-east-1",
            accessKey: variable("EPUB2AUDIO_TEST_S3_ACCESS_KEY"),
            secretKey: secret ?? variable("EPUB2AUDIO_TEST_S3_SECRET_KEY"))
    }

    /// A new bucket of the test's own.
    static func bucket() async throws -> S3Client {
        let client = S3Client(
            configuration: try configuration(bucket: "e2a-test-" + UUID().uuidString.prefix(8).lowercased()))
        try await client.createBucket()
        return client
    }

    /// The environment a server or worker process needs for the stand-in.
    static var processEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["AWS_ACCESS_KEY_ID"] = variable("EPUB2AUDIO_TEST_S3_ACCESS_KEY")
        environment["AWS_SECRET_ACCESS_KEY"] = variable("EPUB2AUDIO_TEST_S3_SECRET_KEY")
        environment["AWS_REGION"] = "us-east-1"
        return environment
    }
}

/// Says why the S3 runs are missing; in CI they must not be.
@Suite struct S3Availability {
    @Test func s3StoreTestsRunInCI() {
        if !S3Stand.available {
            print(
                "S3BlobStoreTests: S3 store tests skipped: no EPUB2AUDIO_TEST_S3_ENDPOINT (make -C Server test sets it,"
                    + " through scripts/with-s3.sh and moto_server)")
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "CI must run the S3 store tests")
        }
    }

    @Test(arguments: [
        "s3://ab", "s3://Bucket", "s3://bucket/prefix", "s3://-bucket", "gs://bucket",
        "s3://" + String(repeating: "a", count: 64),
    ])
    func aBadStoreIsRefused(store: String) {
        #expect(throws: S3ConfigurationError.self) {
            _ = try S3Configuration(store: store, endpoint: nil, region: "us-east-1", accessKey: "a", secretKey: "b")
        }
    }

    @Test func theEnvironmentGivesEndpointRegionAndCredentials() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let environment = [
            "AWS_ENDPOINT_URL": "http://127.0.0.1:9000", "AWS_REGION": "eu-west-3", "AWS_ACCESS_KEY_ID": "AK",
            "AWS_SECRET_ACCESS_KEY": "SK", "AWS_SESSION_TOKEN": "TOKEN",
        ]
        let store = try #require(
            try openBlobStore(store: "s3://my-bucket", endpoint: nil, data: folder.path, environment: environment)
                as? S3BlobStore)
        let configuration = store.client.configuration
        #expect(configuration.endpoint == "http://127.0.0.1:9000")
        #expect(configuration.bucket == "my-bucket")
        #expect(configuration.region == "eu-west-3")
        #expect(configuration.sessionToken == "TOKEN")
        // The flag wins over the environment; AWS's endpoint is the default.
        let flagged = try #require(
            try openBlobStore(
                store: "s3://my-bucket", endpoint: "https://s3.example.org", data: folder.path, environment: environment
            )
                as? S3BlobStore)
        #expect(flagged.client.configuration.hostHeader == "s3.example.org")
        let aws = try S3Configuration(
            store: "s3://my-bucket", endpoint: nil, region: "us-east-1", accessKey: "a", secretKey: "b")
        #expect(aws.endpoint == "https://s3.us-east-1.amazonaws.com")
        // No credentials: a clear error, not a request that is refused later.
        #expect(throws: S3ConfigurationError.self) {
            _ = try openBlobStore(
                store: "s3://my-bucket", endpoint: nil, data: folder.path, environment: ["AWS_REGION": "us-east-1"])
        }
        #expect(try openBlobStore(store: nil, endpoint: nil, data: folder.path, environment: [:]) is DiskBlobStore)
    }

    /// The command line refuses what it cannot use with one clear line, before touching anything.
    @Test(arguments: [
        (["--store", "gs://bucket"], "--store takes s3://BUCKET"),
        (["--s3-endpoint", "http://127.0.0.1:9"], "--s3-endpoint needs --store s3://BUCKET"),
        (["--store", "s3://Bad_Bucket"], "is not a bucket name"),
        (["--store", "s3://my-bucket"], "needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"),
        (["--store", "s3://my-bucket", "--s3-endpoint", "ftp://host"], "the S3 endpoint takes http[s]://HOST[:PORT]"),
        (["--presign-seconds", "60"], "--presign-seconds needs --store s3://BUCKET"),
        (["--store", "s3://my-bucket", "--presign-seconds", "0"], "--presign-seconds must be 1 to 604800"),
        (["--store", "s3://my-bucket", "--presign-seconds", "604801"], "--presign-seconds must be 1 to 604800"),
    ])
    func theWorkerCommandRefusesABadStore(arguments: [String], message: String) throws {
        let server = try #require(Paths.serverBinary, "make -C Server test builds epub2audio-server")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: server)
        process.arguments = ["worker", "--data", folder.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("AWS_") }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64, "\(text)")
        #expect(text.contains(message), "\(text)")
        #expect(!text.contains("Fatal error"))
    }

    @Test(arguments: ["work/3-1", "work/12-2"]) func sectionFolders(name: String) {
        #expect(Identifiers.isSectionDirectory(name))
    }

    @Test(arguments: ["work/3", "work/../1-1", "out/1-1", "work/1-1/x", "work/-1", "work/a-1", ""])
    func notSectionFolders(name: String) {
        #expect(!Identifiers.isSectionDirectory(name))
    }
}

/// The S3 blob store against the stand-in, signatures checked: books, jobs, errors.
@Suite(
    .serialized,
    .enabled(
        if: S3Stand.available, "needs the S3 stand-in: run through scripts/with-s3.sh (make -C Server test does)"))
struct S3BlobStoreTests {
    static let sample = APITests.sample
    static var sampleSHA: String { sha256Hex(sample) }

    static func chunks(_ data: Data, size: Int = 4096) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            var offset = 0
            while offset < data.count {
                continuation.yield(Array(data[offset..<min(offset + size, data.count)]))
                offset += size
            }
            continuation.finish()
        }
    }

    @Test func aBookMakesTheRoundTripCheckedByItsHash() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let client = try await S3Stand.bucket()
        let store = try S3BlobStore(configuration: client.configuration, root: folder.path)
        let sha = Self.sampleSHA
        #expect(try await store.bookSize(sha256: sha) == nil)
        let size = try await store.putBook(sha256: sha, body: Self.chunks(Self.sample), limit: 1 << 20)
        #expect(size == Int64(Self.sample.count))
        #expect(try await client.size(key: "books/\(sha).epub") == size)
        #expect(try await store.bookSize(sha256: sha) == size)

        // Another machine (an empty cache) fetches it and checks it.
        let other = try TemporaryFolder()
        defer { other.remove() }
        let second = try S3BlobStore(configuration: client.configuration, root: other.path)
        let path = try await second.localBook(sha256: sha)
        #expect(path.hasPrefix(other.path + "/books/"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.sample)

        // An expired book is removed from the bucket and the cache.
        try await second.removeBook(sha256: sha)
        #expect(try await client.size(key: "books/\(sha).epub") == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        _ = try await store.putBook(sha256: sha, body: Self.chunks(Self.sample), limit: 1 << 20)

        // Bytes that do not hash to the name never reach the bucket.
        let wrong = String(repeating: "0", count: 64)
        await #expect(throws: BlobStoreError.self) {
            _ = try await store.putBook(sha256: wrong, body: Self.chunks(Self.sample), limit: 1 << 20)
        }
        #expect(try await client.size(key: "books/\(wrong).epub") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/uploads").isEmpty)

        // A bucket object whose bytes are not the book's is refused when fetched.
        let forged = folder.path + "/forged"
        try Data("not the book".utf8).write(to: URL(fileURLWithPath: forged))
        let fake = String(repeating: "ab", count: 32)
        try await client.put(key: "books/\(fake).epub", file: forged, sha256: sha256Hex(Data("not the book".utf8)))
        await #expect(throws: BlobStoreError.self) { _ = try await second.localBook(sha256: fake) }
        #expect(!FileManager.default.fileExists(atPath: other.path + "/books/\(fake).epub"))
    }

    @Test(arguments: [
        ("001 - Chapter 1.wav", "001 - Chapter 1.wav"), ("manifest.json", "manifest.json"),
        ("a_b-c.m4b", "a_b-c.m4b"), ("R&R.wav", ".5226522e776176"), ("é", ".c3a9"),
    ])
    func namesOutsideTheSafeLettersAreHex(name: String, key: String) {
        #expect(S3BlobStore.objectName(name) == key)
    }

    @Test func listingFollowsPagesAndDeletingTakesOnlyTheJobs() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let client = try await S3Stand.bucket()
        let file = folder.path + "/x"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let hash = sha256Hex(Data("x".utf8))
        // Names with spaces, an ampersand, an apostrophe and non-ASCII letters, as chapter titles give.
        let names = ["001 - Chapter 1.wav", "002 - Rock & Roll.wav", "003 - L'été.wav"]
        for name in names {
            try await client.put(key: try S3BlobStore.outputKey(jobID: "j1", name: name), file: file, sha256: hash)
        }
        try await client.put(key: "job.j1/work/1-1/manifest.json", file: file, sha256: hash)
        try await client.put(key: try S3BlobStore.outputKey(jobID: "j10", name: "a.wav"), file: file, sha256: hash)
        // Two keys a page: the listing follows the continuation tokens.
        #expect(try await client.keys(prefix: "job.j1", pageSize: 2).count == 5)
        let store = try S3BlobStore(configuration: client.configuration, root: folder.path)
        #expect(Set(try await store.jobKeys("j1")).count == 4)
        #expect(try await store.jobKeys("j1", under: "work/") == ["job.j1/work/1-1/manifest.json"])
        #expect(try await store.outputSize(jobID: "j1", name: names[2]) == 1)
        try await store.removeJob("j1")
        #expect(try await store.jobKeys("j1").isEmpty)
        #expect(try await client.keys(prefix: "job.j10") == ["job.j10/out/a.wav"])
    }

    @Test func wrongCredentialsOrNoServerAreA503NotACrash() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let client = try await S3Stand.bucket()
        let bucket = client.configuration.bucket
        let closedPort = try await Self.closedPort()
        let cases: [(S3Configuration, String)] = [
            (try S3Stand.configuration(bucket: bucket, secret: "not-the-secret"), "403"),
            (try S3Stand.configuration(bucket: bucket, endpoint: "http://127.0.0.1:\(closedPort)"), "cannot reach"),
        ]
        for (configuration, expected) in cases {
            let store = try S3BlobStore(configuration: configuration, root: folder.path)
            let problem = try #require(await store.unavailability())
            #expect(problem.contains(expected), "\(problem)")
            await #expect(throws: BlobStoreError.self) { _ = try await store.bookSize(sha256: Self.sampleSHA) }
            let context = ServiceContext(
                store: try SQLiteJobStore(path: folder.path + "/jobs.sqlite"), blobs: store,
                worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
            let router = try ServerApplication.router(
                context: context, limits: ServiceLimits(), logger: Logger(label: "test"))
            try await Application(router: router).test(.live) { client in
                try await client.execute(uri: "/readyz", method: .get) { response async throws in
                    #expect(response.status == .serviceUnavailable)
                    let body = try APITests.json(response.body)
                    #expect(body["error"] as? String == "unavailable")
                    #expect((body["message"] as? String)?.contains(expected) == true)
                }
                try await client.execute(
                    uri: "/v1/books/\(Self.sampleSHA)", method: .put, headers: [.contentType: "application/epub+zip"],
                    body: ByteBuffer(data: Self.sample)
                ) { response async throws in
                    #expect(response.status == .serviceUnavailable)
                    let body = try APITests.json(response.body)
                    #expect(body["error"] as? String == "unavailable")
                    let message = body["message"] as? String ?? ""
                    #expect(message.contains(expected), "\(message)")
                    #expect(!message.contains("\n"))
                }
                try await client.execute(uri: "/v1/books/\(Self.sampleSHA)", method: .get) { response async throws in
                    #expect(response.status == .serviceUnavailable)
                }
                // A job whose files cannot be removed stays, so that DELETE can be tried again.
                let id = "keep-\(expected.utf8.count)"
                _ = try await context.store.addBook(sha256: Self.sampleSHA, size: 1)
                _ = try await context.store.createJob(
                    NewJob(id: id, book: Self.sampleSHA, options: JobOptions()), now: Date())
                try await client.execute(uri: "/v1/jobs/\(id)", method: .delete) { response async throws in
                    #expect(response.status == .serviceUnavailable)
                }
                #expect(try await context.store.job(id: id) != nil)
            }
        }
        // The right key still works: the refusal was the signature's.
        let right = try S3BlobStore(configuration: client.configuration, root: folder.path)
        #expect(await right.unavailability() == nil)
    }

    /// A loopback port nothing listens on.
    static func closedPort() async throws -> Int {
        let output = try runProcess(
            "/usr/bin/env",
            ["python3", "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        let text = String(decoding: output, as: UTF8.self)
        return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}

/// A real job with `--store s3://`: a worker process of its own (the CLI's flags), with an empty
/// local cache, converts the sample; the outputs are in the bucket, downloadable (ranges too), the
/// same bytes as the disk store's, and deleting the job removes its objects.
@Suite(
    .serialized,
    .enabled(
        if: S3Stand.available, "needs the S3 stand-in: run through scripts/with-s3.sh (make -C Server test does)"))
struct S3ConversionTests {
    /// With subtitles and the read-along book: they are made from the sections' timing files, which
    /// must travel through the bucket.
    static let options = #""options":{"chapters":[3,4],"format":"opus","subtitles":"srt","bundle":"epub"}"#

    /// Runs the job `id` through `client`'s server until it ends; its JSON.
    static func runJob(_ client: any TestClientProtocol, id: String) async throws -> [String: Any] {
        let sha = try await ConversionTests.upload(client)
        try await client.execute(
            uri: "/v1/jobs/\(id)", method: .put, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"book":"\#(sha)",\#(options)}"#)
        ) { #expect($0.status == .created) }
        let job = try await ConversionTests.waitForJob(client, id: id, seconds: 300)
        #expect(job["state"] as? String == "succeeded", "\(job)")
        return job
    }

    static func download(_ client: any TestClientProtocol, id: String, name: String, range: String? = nil)
        async throws -> (HTTPResponse.Status, HTTPFields, Data)
    {
        let escaped = name.addingPercentEncoding(
            withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/")))!
        var headers = HTTPFields()
        if let range { headers[.range] = range }
        return try await client.execute(uri: "/v1/jobs/\(id)/outputs/\(escaped)", method: .get, headers: headers) {
            ($0.status, $0.headers, Data(buffer: $0.body))
        }
    }

    static func outputs(_ job: [String: Any]) throws -> [String: String] {
        let list = try #require(job["outputs"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: list.compactMap { output in
                (output["name"] as? String).map { ($0, output["sha256"] as? String ?? "") }
            })
    }

    /// The two EPUBs have the same entries, each the same bytes but the package's `dcterms:modified`.
    static func expectSameEntries(_ made: Data, _ expected: Data, in folder: String) throws {
        try made.write(to: URL(fileURLWithPath: folder + "/made.epub"))
        try expected.write(to: URL(fileURLWithPath: folder + "/expected.epub"))
        let mine = try ConversionTests.entries(of: folder + "/made.epub")
        let theirs = try ConversionTests.entries(of: folder + "/expected.epub")
        #expect(mine.map(\.name) == theirs.map(\.name))
        #expect(theirs.contains { $0.name.hasSuffix(".smil") })
        for (entry, reference) in zip(mine, theirs) where entry.name == reference.name {
            #expect(entry.data == reference.data, "\(entry.name) differs from the disk store's")
        }
    }

    @Test func aJobOnS3MakesTheDiskStoresFilesAndDeleteRemovesThem() async throws {
        // The disk store's run, the reference.
        let disk = try ConversionTests.setup(slots: 2)
        defer { disk.folder.remove() }
        let diskApp = try ServerApplication.build(
            context: disk.context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        let reference = try await diskApp.test(.live) { client -> [String: Data] in
            let job = try await Self.runJob(client, id: "on-disk")
            var files: [String: Data] = [:]
            for name in try Self.outputs(job).keys {
                files[name] = try await Self.download(client, id: "on-disk", name: name).2
            }
            return files
        }
        #expect(reference.keys.contains { $0.hasSuffix(".opus") })
        #expect(reference.keys.filter { $0.hasSuffix(".srt") }.count == 2)
        #expect(reference.keys.filter { $0.hasSuffix("(read-along).epub") }.count == 1)

        // The same job with the S3 store: the API here (its own local copy), the work in a worker
        // process started with --store s3:// on another local folder (an empty book cache).
        let bucket = try await S3Stand.bucket()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blobs = try S3BlobStore(configuration: bucket.configuration, root: folder.path + "/api")
        let context = ServiceContext(
            store: try SQLiteJobStore(path: folder.path + "/jobs.sqlite"), blobs: blobs,
            worker: disk.context.worker, runsWorkers: false)
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: disk.server)
        worker.arguments = [
            "worker", "--data", folder.path, "--slots", "2", "--store", "s3://\(bucket.configuration.bucket)",
            "--s3-endpoint", try #require(S3Stand.endpoint),
        ]
        worker.environment = S3Stand.processEnvironment
        let log = folder.path + "/worker.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        worker.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try worker.run()
        defer {
            if worker.isRunning {
                worker.terminate()
                worker.waitUntilExit()
            }
        }
        let app = try ServerApplication.build(
            context: context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        try await app.test(.live) { client in
            let job = try await Self.runJob(client, id: "on-s3")
            let outputs = try Self.outputs(job)
            #expect(Set(outputs.keys) == Set(reference.keys))
            // In the bucket: the outputs, and nothing left of the sections' files.
            let keys = try await blobs.jobKeys("on-s3")
            #expect(Set(keys) == Set(try outputs.keys.map { try S3BlobStore.outputKey(jobID: "on-s3", name: $0) }))
            // The worker's local spool is emptied; the book came from the bucket into its cache.
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/jobs/on-s3"))
            let sha = sha256Hex(APITests.sample)
            #expect(FileManager.default.fileExists(atPath: folder.path + "/books/\(sha).epub"))
            for (name, expected) in reference.sorted(by: { $0.key < $1.key }) {
                let (status, _, data) = try await Self.download(client, id: "on-s3", name: name)
                #expect(status == .ok)
                #expect(sha256Hex(data) == outputs[name])
                // The manifest and the read-along book record when they were written; everything else
                // is byte for byte the disk's, and so is every entry of the book but that date.
                if name.hasSuffix(".epub") {
                    try Self.expectSameEntries(data, expected, in: folder.path)
                } else if name != "manifest.json" {
                    #expect(data == expected, "\(name) differs from the disk store's")
                }
            }
            // Ranges are streamed from the bucket.
            let audio = try #require(reference.keys.sorted().first { $0.hasSuffix(".opus") })
            let whole = try #require(reference[audio])
            let (status, headers, part) = try await Self.download(
                client, id: "on-s3", name: audio, range: "bytes=10-99")
            #expect(status == .partialContent)
            #expect(headers[.contentRange] == "bytes 10-99/\(whole.count)")
            #expect(part == whole[10..<100])
            let tail = try await Self.download(client, id: "on-s3", name: audio, range: "bytes=-7")
            #expect(tail.0 == .partialContent)
            #expect(tail.2 == whole.suffix(7))
            // Deleting the job removes its objects; the book stays.
            try await client.execute(uri: "/v1/jobs/on-s3", method: .delete) { #expect($0.status == .noContent) }
            #expect(try await blobs.jobKeys("on-s3").isEmpty)
            #expect(try await bucket.size(key: "books/\(sha).epub") == Int64(APITests.sample.count))
        }
        worker.terminate()
        worker.waitUntilExit()
        let messages = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(!messages.contains("Fatal"), "\(messages)")
    }
}
