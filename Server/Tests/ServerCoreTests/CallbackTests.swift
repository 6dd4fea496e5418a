import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import ServerCore

/// Job callbacks: signed POSTs of the job document to a real receiver on loopback, retried with
/// backoff, kept in the store (both stores) so that a restart does not lose them.
@Suite struct CallbackTests {
    let folder: TemporaryFolder
    let book = String(repeating: "ab", count: 32)
    let secret = "e2a_cb_test-secret"

    init() throws {
        folder = try TemporaryFolder()
    }

    // MARK: Signature

    @Test func theSignatureIsHMACSHA256OverTimestampDotBody() {
        // Computed with Python's hmac module: hmac.new(secret, b'1800000000.{"id":"j"}', sha256).
        #expect(
            CallbackSignature.signature(body: Array(#"{"id":"j"}"#.utf8), timestamp: 1_800_000_000, secret: secret)
                == "sha256=d3c247ec2b347ce1dd2757a90ee59665f9c16d8d2b1913ff58f513973e8efb19")
    }

    @Test(arguments: [
        "ftp://example.com/hook", "example.com/hook", "https://", "http://exa mple.com/",
        "https://example.com/" + String(repeating: "a", count: CallbackURL.maxBytes),
    ])
    func aCallbackMustBeAnHTTPURLOfBoundedLength(_ url: String) {
        #expect(CallbackURL.problem(url) != nil)
    }

    @Test(arguments: ["https://example.com/hook?job=1", "http://127.0.0.1:8080/a/b"])
    func httpAndHTTPSURLsAreCallbacks(_ url: String) {
        #expect(CallbackURL.problem(url) == nil)
    }

    @Test func onlyTheStepThatFinishesAJobCallsBack() {
        let lifecycle = JobLifecycle(outputLifetime: 60)
        let running = JobLifecycleTests.running(.finalize)
        let attempt = JobLifecycleTests.claimed(.finalize)
        let outcomes: [(TaskOutcome, Bool)] = [
            (.finalized(outputs: [], audioSeconds: 1, failedSections: 0), true),
            (.finalized(outputs: [], audioSeconds: 1, failedSections: 2), true),
            (.failed(message: "x", retry: false), true),
            (.failed(message: "x", retry: true), false),
        ]
        for (outcome, callsBack) in outcomes {
            let step = lifecycle.completed(
                attempt, outcome: outcome, stored: running, jobState: .running, openSections: 0, now: Date())
            #expect(step?.callsBack == callsBack, "\(outcome)")
        }
        #expect(!lifecycle.cancelled(jobState: .running, now: Date()).callsBack)
        #expect(!lifecycle.created().callsBack)
    }

    @Test func theDocumentIsTheAPIsWithTheOutputsURLsInS3Mode() throws {
        var job = JobRecord(
            id: "j", key: "j", owner: nil, book: book, options: JobOptions(), state: .succeeded, error: nil,
            created: Date(), updated: Date(), expires: nil, audioSeconds: 1, sections: SectionCounts(),
            outputs: [OutputRecord(name: "001 - X.wav", size: 1, sha256: "00")])
        job.callback = CallbackRecord(url: "https://example.com/hook", state: .pending, attempts: 1)
        let bucket = try S3BlobStore(
            configuration: try S3Configuration(
                store: "s3://bucket-name", endpoint: "http://127.0.0.1:9", region: "us-east-1", accessKey: "AK",
                secretKey: "SK"),
            root: folder.path)
        for (blobs, url) in [(nil, false), (bucket as (any BlobStore)?, true)] {
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(CallbackSender.document(job, blobs: blobs)))
                    as? [String: Any])
            #expect((document["callback"] as? [String: Any])?["state"] as? String == "pending")
            let output = try #require((document["outputs"] as? [[String: Any]])?.first)
            #expect(
                (output["url"] as? String)?.hasPrefix("http://127.0.0.1:9/bucket-name/job.j/out/001%20-%20X.wav?")
                    == (url ? true : nil))
        }
        folder.remove()
    }

    // MARK: Delivery

    @Test(arguments: StoreKind.available) func aSucceededJobIsPostedSignedUntilTheReceiverTakesIt(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        // The token's own secret signs its jobs' callbacks (the server's is another).
        let token = Token(name: "alice", maxRunning: 1, maxQueued: 5, callbackSecret: secret)
        try await store.addToken(token, secretSHA256: TokenSecret.sha256("bearer"), now: Date())
        #expect(try await store.token(secretSHA256: TokenSecret.sha256("bearer"))?.callbackSecret == secret)
        let receiver = Receiver(failures: 2)
        try await receiver.serve { url in
            _ = try await store.createJob(
                NewJob(id: "j", book: book, options: JobOptions(), owner: token, callback: url), now: Date())
            #expect(try await store.job(id: "j")?.callback?.state == .waiting)
            try await Self.succeed(store, job: "j")
            let job = try await Self.deliver(store, serverSecret: "another-server-secret")
            #expect(job.callback?.state == .delivered)
            #expect(job.callback?.attempts == 3)
            #expect(job.callback?.lastError == "HTTP 500")
            #expect(job.callback?.delivered != nil)
        }
        let received = receiver.received
        #expect(received.count == 3)
        for request in received {
            let timestamp = try #require(request.timestamp.flatMap(Int.init))
            #expect(abs(Double(timestamp) - Date().timeIntervalSince1970) < 60)
            #expect(request.signature == Self.hmac(secret: secret, timestamp: timestamp, body: request.body))
            let document = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            #expect(document["id"] as? String == "j")
            #expect(document["state"] as? String == "succeeded")
            #expect((document["outputs"] as? [[String: Any]])?.first?["name"] as? String == "001 - X.wav")
        }
    }

    @Test(arguments: StoreKind.available) func aJobThatFailsForGoodCallsBackAndACancelledOneDoesNot(
        _ kind: StoreKind
    ) async throws {
        defer { folder.remove() }
        let store = try await open(kind)
        let receiver = Receiver(failures: 0)
        try await receiver.serve { url in
            _ = try await store.createJob(
                NewJob(id: "j", book: book, options: JobOptions(), callback: url), now: Date())
            _ = try await store.createJob(
                NewJob(id: "c", book: book, options: JobOptions(), callback: url), now: Date())
            _ = try await store.cancelJob(id: "c", now: Date())
            let plan = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
            #expect(plan.jobID == "j")
            _ = try await store.complete(plan, outcome: .failed(message: "not a book", retry: false), now: Date())
            #expect(try await store.job(id: "j")?.callback?.state == .pending)
            // Without a token, the server's secret signs.
            let job = try await Self.deliver(store, serverSecret: secret)
            #expect(job.callback?.state == .delivered)
            #expect(job.callback?.attempts == 1)
            #expect(try await store.job(id: "c")?.callback?.state == .waiting)
            #expect(try await store.claimCallback(lease: 30, now: Date().addingTimeInterval(3600)) == nil)
        }
        let received = receiver.received
        #expect(received.count == 1)
        let request = try #require(received.first)
        let timestamp = try #require(request.timestamp.flatMap(Int.init))
        #expect(request.signature == Self.hmac(secret: secret, timestamp: timestamp, body: request.body))
        let document = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(document["state"] as? String == "failed")
        #expect(document["error"] as? String == "not a book")
    }

    @Test(arguments: StoreKind.available) func aRedirectIsNotFollowedAndTheLastFailureIsFinal(_ kind: StoreKind)
        async throws
    {
        defer { folder.remove() }
        let store = try await open(kind)
        let receiver = Receiver(failures: 0, redirect: true)
        try await receiver.serve { url in
            _ = try await store.createJob(
                NewJob(id: "j", book: book, options: JobOptions(), callback: url), now: Date())
            try await Self.succeed(store, job: "j")
            let job = try await Self.deliver(store, serverSecret: secret, attempts: 2)
            #expect(job.callback?.state == .failed)
            #expect(job.callback?.attempts == 2)
            #expect(job.callback?.lastError == "HTTP 302")
            #expect(job.callback?.nextAttempt == nil)
        }
        // Only the URL the job named was called: the redirect's target never was.
        #expect(receiver.received.map(\.path) == ["/hook", "/hook"])
    }

    @Test(arguments: StoreKind.available) func aPendingCallbackOutlivesTheProcess(_ kind: StoreKind) async throws {
        defer { folder.remove() }
        let receiver = Receiver(failures: 0)
        try await receiver.serve { url in
            do {
                let store = try await open(kind)
                _ = try await store.createJob(
                    NewJob(id: "j", book: book, options: JobOptions(), callback: url), now: Date())
                try await Self.succeed(store, job: "j")
                // A sender took it and died before its answer was recorded.
                #expect(try await store.claimCallback(lease: 0.2, now: Date()) != nil)
                (store as? PostgresJobStore)?.shutdown()
            }
            let reopened = try await kind.open(folder: folder, name: "jobs")
            let job = try await Self.deliver(reopened, serverSecret: secret, now: Date().addingTimeInterval(1))
            #expect(job.callback?.state == .delivered)
            #expect(job.callback?.attempts == 2)
        }
        #expect(receiver.received.count == 1)
    }

    @Test func theAPIChecksTheCallbackAndShowsItsDelivery() async throws {
        defer { folder.remove() }
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
        _ = try await store.addBook(sha256: book, size: 1)
        var context = ServiceContext(
            store: store, blobs: try DiskBlobStore(root: folder.path),
            worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
        let book = self.book
        /// The answer's body, a space and its status.
        @Sendable func put(_ client: any TestClientProtocol, _ id: String, _ callback: String) async throws
            -> ByteBuffer
        {
            let body = try JSONSerialization.data(withJSONObject: ["book": book, "callback": callback])
            return try await client.execute(
                uri: "/v1/jobs/\(id)", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(data: body)
            ) { response in
                var body = response.body
                body.writeString(" \(response.status.code)")
                return body
            }
        }
        // No secret to sign with: refused, saying why.
        try await Application(
            router: try ServerApplication.router(context: context, limits: .init(), logger: .init(label: "t"))
        )
        .test(.live) { client in
            let answer = String(buffer: try await put(client, "a", "https://example.com/hook"))
            #expect(answer.hasSuffix(" 400"))
            #expect(answer.contains("--callback-secret"))
        }
        context.callbacks = CallbackConfiguration(serverSecret: secret)
        let router = try ServerApplication.router(context: context, limits: .init(), logger: .init(label: "t"))
        try await Application(router: router).test(.live) { client in
            let bad = String(buffer: try await put(client, "a", "ftp://example.com/hook"))
            #expect(bad.hasSuffix(" 400"))
            #expect(bad.contains("http or https"))
            let made = String(buffer: try await put(client, "a", "https://example.com/hook")).dropLast(4)
            let job = try #require(try JSONSerialization.jsonObject(with: Data(made.utf8)) as? [String: Any])
            let callback = try #require(job["callback"] as? [String: Any])
            #expect(callback["url"] as? String == "https://example.com/hook")
            #expect(callback["state"] as? String == "waiting")
            #expect(callback["attempts"] as? Int == 0)
            // Part of the body: another callback under the same id is another body.
            #expect(String(buffer: try await put(client, "a", "https://example.com/other")).hasSuffix(" 409"))
        }
    }

    // MARK: Helpers

    func open(_ kind: StoreKind) async throws -> any JobStore {
        let store = try await kind.open(folder: folder, name: "jobs")
        _ = try await store.addBook(sha256: book, size: 10)
        return store
    }

    /// Takes the job `job` (the only one queued) through its plan, one section and its finalize task.
    static func succeed(_ store: any JobStore, job: String) async throws {
        let plan = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        #expect(plan.jobID == job)
        _ = try await store.complete(
            plan, outcome: .planned(JobPlan(voice: "gmw/en", sections: [1], displayTitle: "Book")), now: Date())
        let section = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(
            section,
            outcome: .sectionDone(
                SectionResult(section: 1, directory: "work/1-1", file: "001 - X.wav", durationSeconds: 1)),
            now: Date())
        let finalize = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(
            finalize,
            outcome: .finalized(
                outputs: [OutputRecord(name: "001 - X.wav", size: 10, sha256: "00")], audioSeconds: 1,
                failedSections: 0),
            now: Date())
        #expect(try await store.job(id: job)?.state == .succeeded)
    }

    /// Runs a sender (`attempts` attempts, a few milliseconds apart) until the job `j`'s callback is
    /// delivered or failed, at most 20 s; returns the job then.
    static func deliver(
        _ store: any JobStore, serverSecret: String, attempts: Int = 3, now: Date = Date()
    ) async throws -> JobRecord {
        var configuration = CallbackConfiguration(serverSecret: serverSecret)
        configuration.retries = RetryPolicy(maxAttempts: attempts, base: 0.01, cap: 0.01)
        let sender = CallbackSender(store: store, configuration: configuration, logger: Logger(label: "test"))
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        var job = try #require(try await store.job(id: "j"))
        while clock.now < deadline {
            // `now` moves the sender's clock (a lease taken before a restart has run out).
            _ = try await sender.deliverNext(now: max(now, Date()))
            job = try #require(try await store.job(id: "j"))
            if job.callback?.state == .delivered || job.callback?.state == .failed { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await sender.shutdown()
        return job
    }

    static func hmac(secret: String, timestamp: Int, body: Data) -> String {
        let code = HMAC<SHA256>.authenticationCode(
            for: Data("\(timestamp).".utf8) + body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }
}

/// A callback receiver on loopback: answers 500 to its first `failures` POSTs, then 200 (or always a
/// 302 to another path when `redirect`), and keeps what it was sent.
final class Receiver: Sendable {
    struct Request: Sendable {
        var path: String
        var timestamp: String?
        var signature: String?
        var body: Data
    }

    let failures: Int
    let redirect: Bool
    private let requests = Mutex<[Request]>([])

    init(failures: Int, redirect: Bool = false) {
        self.failures = failures
        self.redirect = redirect
    }

    var received: [Request] { requests.withLock { $0 } }

    static func header(_ request: Hummingbird.Request, _ name: String) -> String? {
        request.headers.first { $0.name.canonicalName == name.lowercased() }?.value
    }

    /// Runs `body` with the receiver listening on an ephemeral port; `body` gets its `/hook` URL.
    func serve(_ body: @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        for path in ["/hook", "/elsewhere"] {
            router.post(RouterPath(stringLiteral: path)) { request, _ -> Response in
                let bytes = try await request.body.collect(upTo: 1 << 20)
                let count = self.requests.withLock {
                    $0.append(
                        Request(
                            path: request.uri.path,
                            timestamp: Self.header(request, CallbackSignature.timestampHeader),
                            signature: Self.header(request, CallbackSignature.signatureHeader),
                            body: Data(buffer: bytes)))
                    return $0.count
                }
                if self.redirect { return Response(status: .found, headers: [.location: "/elsewhere"]) }
                return Response(status: count <= self.failures ? .internalServerError : .ok)
            }
        }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                let port = try #require(client.port)
                try await body("http://127.0.0.1:\(port)/hook")
            }
    }
}
