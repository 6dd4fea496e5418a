import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// The HTTP API on a real loopback server, without workers: statuses, JSON errors, idempotency,
/// ranges, event replay.
@Suite struct APITests {
    let folder: TemporaryFolder
    let context: ServiceContext

    init() throws {
        folder = try TemporaryFolder()
        context = ServiceContext(
            store: try SQLiteJobStore(path: folder.path + "/jobs.sqlite"), blobs: try DiskBlobStore(root: folder.path),
            worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
    }

    func withServer(maxUpload: Int64 = 1 << 20, _ body: @Sendable (any TestClientProtocol) async throws -> Void)
        async throws
    {
        let router = try ServerApplication.router(
            context: context, limits: ServiceLimits(maxUploadBytes: maxUpload), logger: Logger(label: "test"))
        let app = Application(router: router)
        try await app.test(.live, body)
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: buffer)) as? [String: Any])
    }

    /// The sample book's bytes (empty if the file is missing: every test that uploads it then fails).
    static let sample =
        FileManager.default.contents(atPath: Paths.sample("the-lighthouse-keepers-daughter.epub")) ?? Data()

    @Test func healthAndReadiness() async throws {
        defer { folder.remove() }
        try await withServer { client in
            try await client.execute(uri: "/healthz", method: .get) { response async throws in
                #expect(response.status == .ok)
                #expect(try Self.json(response.body)["status"] as? String == "ok")
            }
            try await client.execute(uri: "/readyz", method: .get) { response async throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/metrics", method: .get) { response async throws in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains("epub2audio_jobs{state=\"queued\"} 0"))
                #expect(text.contains("epub2audio_tasks{kind=\"section\",state=\"running\"} 0"))
                // The requests before this one were counted.
                #expect(text.contains(#"epub2audio_http_requests_total{method="GET",route="/healthz",code="200"} 1"#))
                #expect(text.contains(#"epub2audio_http_requests_total{method="GET",route="/readyz",code="200"} 1"#))
            }
            try await client.execute(uri: "/no/such/route", method: .get) { response async throws in
                #expect(response.status == .notFound)
            }
            try await client.execute(
                uri: "/v1/books/\(String(repeating: "0", count: 64))", method: .put,
                headers: [.contentType: "text/plain"], body: ByteBuffer(string: "x")
            ) { response async throws in
                #expect(response.status == .unsupportedMediaType)
                let error = try Self.json(response.body)
                #expect(error["error"] as? String == "unsupported-media-type")
                #expect((error["message"] as? String)?.contains("content type") == true)
            }
        }
    }

    @Test func uploadIsHashedIdempotentAndCapped() async throws {
        defer { folder.remove() }
        let sha = sha256Hex(Self.sample)
        try await withServer { client in
            let headers: HTTPFields = [.contentType: "application/epub+zip"]
            try await client.execute(
                uri: "/v1/books/\(sha)", method: .put, headers: headers, body: ByteBuffer(data: Self.sample)
            ) { response async throws in
                #expect(response.status == .created)
                let body = try Self.json(response.body)
                #expect(body["sha256"] as? String == sha)
                #expect(body["size"] as? Int == Self.sample.count)
            }
            try await client.execute(
                uri: "/v1/books/\(sha)", method: .put, headers: headers, body: ByteBuffer(data: Self.sample)
            ) { response async throws in
                #expect(response.status == .ok)
            }
            // The bytes do not hash to the name: refused, nothing stored.
            let other = String(repeating: "0", count: 64)
            try await client.execute(
                uri: "/v1/books/\(other)", method: .put, headers: headers, body: ByteBuffer(data: Self.sample)
            ) { response async throws in
                #expect(response.status == .unprocessableContent)
                #expect(try Self.json(response.body)["error"] as? String == "hash-mismatch")
            }
            #expect(try await context.blobs.bookSize(sha256: other) == nil)
            // Other bytes under the name of a stored book: refused as well, and the book is kept.
            var forged = Self.sample
            forged[forged.count - 1] ^= 0xFF
            try await client.execute(
                uri: "/v1/books/\(sha)", method: .put, headers: headers, body: ByteBuffer(data: forged)
            ) { response async throws in
                #expect(response.status == .unprocessableContent)
                #expect(try Self.json(response.body)["error"] as? String == "hash-mismatch")
            }
            #expect(try await context.blobs.bookSize(sha256: sha) == Int64(Self.sample.count))
            // A name that is not a SHA-256 never becomes a path.
            for bad in ["..%2F..%2Fetc%2Fpasswd", String(repeating: "A", count: 64), "abc"] {
                try await client.execute(
                    uri: "/v1/books/\(bad)", method: .put, headers: headers, body: ByteBuffer(string: "x")
                ) { response async throws in
                    #expect(response.status == .badRequest)
                    #expect(try Self.json(response.body)["error"] as? String == "bad-request")
                }
            }
        }
        // Larger than the limit: refused from Content-Length.
        try await withServer(maxUpload: 1000) { client in
            try await client.execute(
                uri: "/v1/books/\(sha)", method: .put, headers: [.contentType: "application/epub+zip"],
                body: ByteBuffer(data: Self.sample)
            ) { response async throws in
                #expect(response.status == .contentTooLarge)
                #expect(try Self.json(response.body)["error"] as? String == "too-large")
            }
        }
    }

    @Test func theStreamingLimitHoldsWithoutContentLength() async throws {
        defer { folder.remove() }
        let chunks = AsyncStream<[UInt8]> { continuation in
            for _ in 0..<10 { continuation.yield([UInt8](repeating: 1, count: 600)) }
            continuation.finish()
        }
        let blobs = try DiskBlobStore(root: folder.path)
        await #expect(throws: BlobStoreError.tooLarge(limit: 1000)) {
            _ = try await blobs.putBook(sha256: String(repeating: "1", count: 64), body: chunks, limit: 1000)
        }
        // The partial upload is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/uploads").isEmpty)
    }

    @Test func staleUploadsAreRemovedAtStart() throws {
        defer { folder.remove() }
        let uploads = folder.path + "/uploads/"
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        for name in ["old.part", "new.part"] {
            _ = FileManager.default.createFile(atPath: uploads + name, contents: Data([1]))
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-2 * 24 * 3600)], ofItemAtPath: uploads + "old.part")
        _ = try DiskBlobStore(root: folder.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads) == ["new.part"])
    }

    @Test func bookListingIsTheCLIContract() async throws {
        defer { folder.remove() }
        let sha = sha256Hex(Self.sample)
        try await withServer { client in
            try await client.execute(uri: "/v1/books/\(sha)", method: .get) { response async throws in
                #expect(response.status == .notFound)
            }
            _ = try await client.execute(
                uri: "/v1/books/\(sha)", method: .put, headers: [.contentType: "application/octet-stream"],
                body: ByteBuffer(data: Self.sample))
            try await client.execute(uri: "/v1/books/\(sha)", method: .get) { response async throws in
                #expect(response.status == .ok)
                let listing = try Self.json(response.body)
                #expect(listing["title"] as? String == "The Lighthouse Keeper\u{2019}s Daughter")
                let sections = try #require(listing["sections"] as? [[String: Any]])
                #expect(!sections.isEmpty)
                // Every key the CLI writes for a section is there (reasons, kind, spine...).
                #expect(sections[0]["reasons"] != nil && sections[0]["kind"] != nil && sections[0]["spine"] != nil)
                if let cli = Paths.cliBinary {
                    let printed = try runProcess(
                        cli, [Paths.sample("the-lighthouse-keepers-daughter.epub"), "--list", "--json"])
                    var expected = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any])
                    // The CLI names the file it was given; an uploaded book has none.
                    #expect(expected.removeValue(forKey: "file") != nil && listing["file"] == nil)
                    #expect(NSDictionary(dictionary: listing) == NSDictionary(dictionary: expected))
                }
            }
        }
    }

    @Test func jobsAreIdempotentAndConflictsAre409() async throws {
        defer { folder.remove() }
        let sha = sha256Hex(Self.sample)
        _ = try await context.store.addBook(sha256: sha, size: 1)
        try await withServer { client in
            let body = ByteBuffer(string: #"{"book":"\#(sha)","options":{"format":"flac","chapters":[2,1]}}"#)
            let json: HTTPFields = [.contentType: "application/json"]
            try await client.execute(uri: "/v1/jobs/my-job", method: .put, headers: json, body: body) {
                response async throws in
                #expect(response.status == .created)
                let job = try Self.json(response.body)
                #expect(job["state"] as? String == "queued")
                #expect(job["priority"] as? Int == 0)
                #expect((job["options"] as? [String: Any])?["chapters"] as? [Int] == [1, 2])
            }
            try await client.execute(uri: "/v1/jobs/my-job", method: .put, headers: json, body: body) {
                response async throws in
                #expect(response.status == .ok)
            }
            let other = ByteBuffer(string: #"{"book":"\#(sha)","options":{"format":"wav"}}"#)
            try await client.execute(uri: "/v1/jobs/my-job", method: .put, headers: json, body: other) {
                response async throws in
                #expect(response.status == .conflict)
                #expect(try Self.json(response.body)["error"] as? String == "conflict")
            }
            var keyed = json
            keyed[.init("Idempotency-Key")!] = "k1"
            var first = ""
            try await client.execute(uri: "/v1/jobs", method: .post, headers: keyed, body: body) {
                response async throws in
                #expect(response.status == .created)
                first = try Self.json(response.body)["id"] as? String ?? ""
            }
            try await client.execute(uri: "/v1/jobs", method: .post, headers: keyed, body: body) {
                response async throws in
                #expect(response.status == .ok)
                #expect(try Self.json(response.body)["id"] as? String == first)
            }
            try await client.execute(uri: "/v1/jobs", method: .post, headers: keyed, body: other) {
                response async throws in
                #expect(response.status == .conflict)
            }
            try await client.execute(uri: "/v1/jobs", method: .get) { response async throws in
                #expect((try Self.json(response.body)["jobs"] as? [Any])?.count == 2)
            }
            try await client.execute(uri: "/v1/jobs/\(first)", method: .get) { response async throws in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/jobs/\(first)/cancel", method: .post) { response async throws in
                #expect(try Self.json(response.body)["state"] as? String == "cancelled")
            }
            try await client.execute(uri: "/v1/jobs/\(first)", method: .delete) { response async throws in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/v1/jobs/\(first)", method: .get) { response async throws in
                #expect(response.status == .notFound)
                #expect(try Self.json(response.body)["error"] as? String == "not-found")
            }
        }
    }

    @Test(arguments: [
        (#"{"book":"nothex"}"#, 400),
        (#"{"book":"0000000000000000000000000000000000000000000000000000000000000000"}"#, 404),
        (#"{"book":"0000000000000000000000000000000000000000000000000000000000000000","options":{"rate":5000}}"#, 400),
        (
            #"{"book":"0000000000000000000000000000000000000000000000000000000000000000","options":{"format":"aiff"}}"#,
            400
        ),
        (
            #"{"book":"0000000000000000000000000000000000000000000000000000000000000000","options":{"voice":"xx-nothing"}}"#,
            400
        ),
        (
            #"{"book":"0000000000000000000000000000000000000000000000000000000000000000","options":{"chapters":[0]}}"#,
            400
        ),
        (
            #"{"book":"0000000000000000000000000000000000000000000000000000000000000000","options":{"bundle":"wav"}}"#,
            400
        ),
        (#"{"book":"0000000000000000000000000000000000000000000000000000000000000000","priority":11}"#, 400),
        (#"{"book":"0000000000000000000000000000000000000000000000000000000000000000","priority":-11}"#, 400),
        (#"{"book":"0000000000000000000000000000000000000000000000000000000000000000","priority":10}"#, 404),
        (#"{"book":"0000000000000000000000000000000000000000000000000000000000000000","priority":"high"}"#, 400),
        (#"{"book": 12}"#, 400),
        (#"not json"#, 400),
        (#"{}"#, 400),
    ])
    func badJobRequestsGetAJSONError(body: String, status: Int) async throws {
        defer { folder.remove() }
        try await withServer { client in
            try await client.execute(
                uri: "/v1/jobs/j1", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: body)
            ) { response async throws in
                #expect(response.status.code == status)
                let error = try Self.json(response.body)
                #expect(error["error"] is String && error["message"] is String)
            }
        }
    }

    /// The read-along book with a format that is not an EPUB core audio type: 400 with the reason, as
    /// the CLI refuses `--bundle epub --format flac` (exit 64).
    @Test func aReadAlongJobInFLACIs400() async throws {
        defer { folder.remove() }
        let book = String(repeating: "0", count: 64)
        try await withServer { client in
            try await client.execute(
                uri: "/v1/jobs/j1", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"book":"\#(book)","options":{"format":"flac","bundle":"epub"}}"#)
            ) { response async throws in
                #expect(response.status == .badRequest)
                let message = try Self.json(response.body)["message"] as? String
                #expect(message?.contains("bundle epub needs format mp3 or opus") == true, "\(message ?? "")")
            }
        }
    }

    /// A JSON body is bounded: a huge one is refused (413) before it is held in memory.
    @Test func aJSONBodyLargerThanTheLimitIs413() async throws {
        defer { folder.remove() }
        let huge =
            #"{"book":"\#(String(repeating: "0", count: 64))","options":{"voice":""#
            + String(repeating: "a", count: ServiceLimits.maxJSONBodyBytes) + #""}}"#
        try await withServer { client in
            for (uri, method) in [("/v1/jobs/j1", HTTPRequest.Method.put), ("/v1/jobs", .post)] {
                try await client.execute(
                    uri: uri, method: method, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: huge)
                ) { response async throws in
                    #expect(response.status == .contentTooLarge)
                    #expect(try Self.json(response.body)["error"] as? String == "too-large")
                }
            }
        }
    }

    /// A body the API cannot decode is said in plain words, naming the field, never with Swift's
    /// `DecodingError` text.
    @Test(arguments: [
        (#"{"book": 12}"#, "book"),
        (#"{}"#, "book"),
        (#"{"book":"\#(String(repeating: "0", count: 64))","options":{"format":"aiff"}}"#, "options.format"),
        (#"{"book":"\#(String(repeating: "0", count: 64))","options":{"chapters":[1,"x"]}}"#, "options.chapters"),
        (#"not json"#, "JSON"),
    ])
    func undecodableBodiesAreSaidInPlainWords(body: String, field: String) async throws {
        defer { folder.remove() }
        try await withServer { client in
            try await client.execute(
                uri: "/v1/jobs/j1", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: body)
            ) { response async throws in
                #expect(response.status == .badRequest)
                let message = try Self.json(response.body)["message"] as? String ?? ""
                #expect(message.contains(field), "\(message)")
                for swift in ["DecodingError", "CodingKeys", "Swift.", "codingPath", "Context("] {
                    #expect(!message.contains(swift), "\(message)")
                }
            }
        }
    }

    /// A method a path does not take is 405 with the methods it takes; an unknown path stays 404.
    @Test(arguments: [
        ("/v1/voices", HTTPRequest.Method.delete, "GET, HEAD"),
        ("/v1/jobs/x", .patch, "DELETE, GET, HEAD, PUT"),
        ("/v1/jobs", .put, "GET, HEAD, POST"),
        ("/v1/jobs/x/outputs/a.wav", .post, "GET, HEAD"),
    ])
    func anUndeclaredMethodIs405WithAllow(uri: String, method: HTTPRequest.Method, allow: String) async throws {
        defer { folder.remove() }
        try await withServer { client in
            try await client.execute(uri: uri, method: method) { response async throws in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == allow)
                #expect(try Self.json(response.body)["error"] as? String == "method-not-allowed")
            }
            try await client.execute(uri: "/v1/nothing", method: method) { response async throws in
                #expect(response.status == .notFound)
            }
        }
    }

    /// A request the HTTP parser refuses (a 100 KB header) still gets a JSON error.
    @Test func aHugeHeaderGetsAJSON400() async throws {
        defer { folder.remove() }
        let app = try ServerApplication.build(
            context: context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        try await app.test(.live) { client in
            try await client.execute(
                uri: "/healthz", method: .get, headers: [.init("X-Big")!: String(repeating: "x", count: 100_000)]
            ) { response async throws in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                #expect(try Self.json(response.body)["error"] as? String == "bad-request")
            }
        }
    }

    /// Every voice `GET /v1/voices` lists is accepted by a job, by its identifier (`gmw/en`) or its
    /// name: only the (missing) book is refused.
    @Test func everyListedVoiceIsAcceptedByAJob() async throws {
        defer { folder.remove() }
        try await withServer { client in
            let voices = try await client.execute(uri: "/v1/voices", method: .get) {
                try #require(try Self.json($0.body)["voices"] as? [[String: Any]])
            }
            #expect(voices.contains { ($0["identifier"] as? String)?.contains("/") == true })
            let names = voices.flatMap { [$0["identifier"] as? String, $0["name"] as? String].compactMap { $0 } }
            for name in names {
                let body = #"{"book":"\#(String(repeating: "0", count: 64))","options":{"voice":"\#(name)"}}"#
                try await client.execute(
                    uri: "/v1/jobs/j1", method: .put, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: body)
                ) { response async throws in
                    #expect(response.status == .notFound, "voice \(name): \(String(buffer: response.body))")
                }
            }
        }
    }

    /// Every format the CLI's `--bundle` takes is a job's `bundle` too, checked as the CLI checks it
    /// (ffmpeg must be installed): the job is accepted, and only the book is missing.
    @Test(arguments: ["m4b", "mp3", "opus", "ogg", "flac"])
    func everyBundleFormatOfTheCLIIsAccepted(format: String) async throws {
        defer { folder.remove() }
        try #require(ConversionAdapter.ffmpegInstalled, "ffmpeg is needed for bundles")
        try await withServer { client in
            try await client.execute(
                uri: "/v1/jobs/j1", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(
                    string: #"{"book":"\#(String(repeating: "0", count: 64))","options":{"bundle":"\#(format)"}}"#)
            ) { response async throws in
                #expect(response.status == .notFound)
                #expect(try Self.json(response.body)["error"] as? String == "not-found")
            }
        }
    }

    @Test(arguments: ["a.b", "-start", String(repeating: "x", count: 65), "%2E%2E"])
    func badJobIDsAre400(id: String) async throws {
        defer { folder.remove() }
        try await withServer { client in
            try await client.execute(uri: "/v1/jobs/\(id)", method: .get) { response async throws in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/v1/jobs/\(id)/outputs/x.wav", method: .get) { response async throws in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func outputsDownloadWithRanges() async throws {
        defer { folder.remove() }
        let sha = String(repeating: "c", count: 64)
        let store = context.store
        _ = try await store.addBook(sha256: sha, size: 1)
        _ = try await store.createJob(NewJob(id: "done", book: sha, options: JobOptions()), now: Date())
        // A finished job, made by hand: plan, no section run, finalize with one output.
        let plan = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(
            plan, outcome: .planned(JobPlan(voice: "en", sections: [1], displayTitle: "T")),
            now: Date())
        let section = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(section, outcome: .failed(message: "x", retry: false), now: Date())
        let finalize = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        let bytes = Data((0..<1000).map { UInt8($0 % 251) })
        let out = try context.blobs.jobDirectory("done") + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try bytes.write(to: URL(fileURLWithPath: out + "/001 - A.wav"))
        _ = try await store.complete(
            finalize,
            outcome: .finalized(
                outputs: [OutputRecord(name: "001 - A.wav", size: 1000, sha256: sha256Hex(bytes))], audioSeconds: 1,
                failedSections: 0), now: Date())
        try await withServer { client in
            let uri = "/v1/jobs/done/outputs/001%20-%20A.wav"
            try await client.execute(uri: uri, method: .get) { response async throws in
                #expect(response.status == .ok)
                #expect(Data(buffer: response.body) == bytes)
                #expect(response.headers[.acceptRanges] == "bytes")
            }
            // HEAD: the size, no body.
            try await client.execute(uri: uri, method: .head) { response async throws in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == "1000")
                #expect(response.headers[.acceptRanges] == "bytes")
                #expect(response.body.readableBytes == 0)
            }
            for other in ["/v1/jobs/done", "/v1/jobs", "/healthz", "/v1/voices"] {
                try await client.execute(uri: other, method: .head) { response async throws in
                    #expect(response.status == .ok, "HEAD \(other)")
                    #expect(response.body.readableBytes == 0)
                }
            }
            try await client.execute(uri: "/v1/jobs/none", method: .head) { #expect($0.status == .notFound) }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=10-19"]) {
                response async throws in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 10-19/1000")
                #expect(Data(buffer: response.body) == bytes[10..<20])
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=-5"]) { response async throws in
                #expect(Data(buffer: response.body) == bytes[995..<1000])
            }
            try await client.execute(uri: uri, method: .get, headers: [.range: "bytes=5000-"]) {
                response async throws in
                #expect(response.status == .rangeNotSatisfiable)
                #expect(response.headers[.contentRange] == "bytes */1000")
            }
            // A name the job does not list never reaches the disk, whatever it holds.
            for name in ["..%2F..%2Fjobs.sqlite", "manifest.json", "%2Fetc%2Fpasswd"] {
                try await client.execute(uri: "/v1/jobs/done/outputs/\(name)", method: .get) { response async throws in
                    #expect(response.status == .notFound)
                }
            }
        }
    }

    @Test func eventsReplayAfterLastEventID() async throws {
        defer { folder.remove() }
        let sha = String(repeating: "d", count: 64)
        let store = context.store
        _ = try await store.addBook(sha256: sha, size: 1)
        _ = try await store.createJob(NewJob(id: "ev", book: sha, options: JobOptions()), now: Date())
        let plan = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(plan, outcome: .failed(message: "unreadable", retry: false), now: Date())
        let events = try await store.events(jobID: "ev", after: 0, limit: 100)
        #expect(events.count == 3)
        try await withServer { client in
            try await client.execute(uri: "/v1/jobs/ev/events", method: .get) { response async throws in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.components(separatedBy: "\n\n").filter { $0.hasPrefix("id: ") }.count == 3)
                #expect(
                    text.contains(
                        "id: \(events[2].id)\nevent: state\ndata: {\"error\":\"unreadable\",\"state\":\"failed\"}"))
            }
            try await client.execute(
                uri: "/v1/jobs/ev/events", method: .get,
                headers: [.init("Last-Event-ID")!: String(events[0].id)]
            ) { response async throws in
                let text = String(buffer: response.body)
                #expect(!text.contains("id: \(events[0].id)\n"))
                #expect(text.contains("id: \(events[1].id)\n") && text.contains("id: \(events[2].id)\n"))
            }
            try await client.execute(
                uri: "/v1/jobs/ev/events", method: .get, headers: [.init("Last-Event-ID")!: "x"]
            ) { response async throws in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test func voicesAreListed() async throws {
        defer { folder.remove() }
        try await withServer { client in
            try await client.execute(uri: "/v1/voices", method: .get) { response async throws in
                let voices = try #require(try Self.json(response.body)["voices"] as? [[String: Any]])
                #expect(voices.contains { ($0["languages"] as? [String])?.contains("en") == true })
                #expect(voices.contains { $0["engine"] as? String == "espeak" })
            }
        }
    }

    @Test func withAuthEveryRequestNeedsAKnownTokenAndSeesItsOwnJobs() async throws {
        defer { folder.remove() }
        let sha = String(repeating: "e", count: 64)
        _ = try await context.store.addBook(sha256: sha, size: 1)
        let alice = TokenSecret.generate()
        let bob = TokenSecret.generate()
        try await context.store.addToken(
            Token(name: "alice", maxRunning: 1, maxQueued: 1), secretSHA256: TokenSecret.sha256(alice), now: Date())
        try await context.store.addToken(
            Token(name: "bob", maxRunning: 1, maxQueued: 5), secretSHA256: TokenSecret.sha256(bob), now: Date())
        let router = try ServerApplication.router(
            context: context, limits: ServiceLimits(requireTokens: true), logger: Logger(label: "test"))
        try await Application(router: router).test(.live) { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            for header in [nil, "Bearer nope", "Basic YWxpY2U6eA==", "Bearer " + alice + "x"] {
                var headers: HTTPFields = [:]
                if let header { headers[.authorization] = header }
                try await client.execute(uri: "/v1/jobs", method: .get, headers: headers) { response async throws in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate] == "Bearer")
                    #expect(try Self.json(response.body)["error"] as? String == "unauthorized")
                }
            }
            let body = ByteBuffer(string: #"{"book":"\#(sha)"}"#)
            let asAlice: HTTPFields = [.authorization: "Bearer " + alice, .contentType: "application/json"]
            let asBob: HTTPFields = [.authorization: "Bearer " + bob, .contentType: "application/json"]
            try await client.execute(uri: "/v1/jobs/a1", method: .put, headers: asAlice, body: body) {
                #expect($0.status == .created)
            }
            // Her queue is full: 429 with Retry-After.
            try await client.execute(uri: "/v1/jobs/a2", method: .put, headers: asAlice, body: body) {
                response async throws in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "30")
                #expect(try Self.json(response.body)["error"] as? String == "too-many-requests")
            }
            // Bob sees none of her jobs, and cannot take her job's id.
            try await client.execute(uri: "/v1/jobs/a1", method: .get, headers: asBob) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/v1/jobs/a1/cancel", method: .post, headers: asBob) {
                #expect($0.status == .notFound)
            }
            try await client.execute(uri: "/v1/jobs", method: .get, headers: asBob) { response async throws in
                #expect((try Self.json(response.body)["jobs"] as? [Any])?.isEmpty == true)
            }
            // Ids are each token's own: Bob's a1 (another body) is a job of his; hers is untouched, and
            // nothing tells him she has one.
            let flac = ByteBuffer(string: #"{"book":"\#(sha)","options":{"format":"flac"}}"#)
            try await client.execute(uri: "/v1/jobs/a1", method: .put, headers: asBob, body: flac) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/v1/jobs/a1", method: .put, headers: asBob, body: flac) {
                #expect($0.status == .ok)
            }
            try await client.execute(uri: "/v1/jobs/a1/cancel", method: .post, headers: asBob) {
                response async throws in
                #expect(try Self.json(response.body)["state"] as? String == "cancelled")
            }
            try await client.execute(uri: "/v1/jobs/a1", method: .delete, headers: asBob) {
                #expect($0.status == .noContent)
            }
            try await client.execute(uri: "/v1/jobs/a1", method: .get, headers: asAlice) { response async throws in
                #expect(response.status == .ok)
                let job = try Self.json(response.body)
                #expect(job["state"] as? String == "queued")
                #expect((job["options"] as? [String: Any])?["format"] as? String == "wav")
            }
        }
    }
}

/// Runs `executable` and returns its standard output; throws on a non-zero exit.
func runProcess(_ executable: String, _ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    struct Failed: Error { var status: Int32 }
    guard process.terminationStatus == 0 else { throw Failed(status: process.terminationStatus) }
    return data

}
