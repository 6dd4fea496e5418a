import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// Retries as a worker lives them: a storage outage is waited out, a book that cannot be read fails
/// at once, and a failed job runs its failed sections again through the API.
@Suite(.serialized) struct RetryTests {
    /// Runs `runner` until `body` returns.
    static func running<T: Sendable>(_ runner: TaskRunner, _ body: () async throws -> T) async throws -> T {
        let run = Task { await runner.run() }
        defer { run.cancel() }
        return try await body()
    }

    /// Waits until the job `id` of `store` satisfies `condition`, at most `seconds`.
    static func wait(
        _ store: any JobRepository, id: String, seconds: Double, until condition: (JobRecord) -> Bool
    ) async throws -> JobRecord {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let job = try await store.job(id: id), condition(job) { return job }
            try await Task.sleep(for: .milliseconds(100))
        }
        let job = try await store.job(id: id)
        Issue.record("job \(id) did not get there in \(seconds) s: \(String(describing: job))")
        throw CancellationError()
    }

    /// The bucket becomes unreachable for 9 seconds as the job's sections start (their files cannot be
    /// kept): the sections are tried again after their backoff, and the job succeeds.
    @Test(
        .enabled(
            if: S3Stand.available, "needs the S3 stand-in: run through scripts/with-s3.sh (make -C Server test does)"))
    func aNineSecondS3OutageDoesNotFailTheJob() async throws {
        let server = try #require(Paths.serverBinary, "make -C Server test builds epub2audio-server")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let bucket = try await S3Stand.bucket()
        let address = try #require(S3Stand.endpoint)
        let endpoint = try #require(URLComponents(string: address))
        let host = try #require(endpoint.host)
        let port = try #require(endpoint.port)
        let relay = try StoreOutageTests.Relay(host: host, port: port)
        defer { relay.stop() }
        let blobs = try S3BlobStore(
            configuration: try S3Stand.configuration(
                bucket: bucket.configuration.bucket, endpoint: "http://127.0.0.1:\(relay.port)"),
            root: folder.path)
        // Bounds of 2, 4, 8, 8… s: the default's doubling, capped lower so the test stays short (the
        // default's span is RetryPolicyTests').
        let store = try SQLiteJobStore(
            path: folder.path + "/jobs.sqlite", retries: RetryPolicy(maxAttempts: 10, base: 2, cap: 8))
        let sha = sha256Hex(APITests.sample)
        _ = try await blobs.putBook(
            sha256: sha,
            body: AsyncStream {
                $0.yield(Array(APITests.sample)); $0.finish()
            }, limit: 1 << 30)
        _ = try await store.addBook(sha256: sha, size: Int64(APITests.sample.count))
        _ = try await store.createJob(
            NewJob(id: "outage", book: sha, options: JobOptions(chapters: [3, 4])), now: Date())
        let runner = TaskRunner(
            store: store, blobs: blobs,
            configuration: WorkerConfiguration(executable: server, arguments: ["section-worker"], slots: 2),
            logger: Logger(label: "test"))
        let job = try await Self.running(runner) { () async throws -> JobRecord in
            _ = try await Self.wait(store, id: "outage", seconds: 60) { $0.sections.running > 0 }
            relay.stop()
            try await Task.sleep(for: .seconds(9))
            try relay.start()
            return try await Self.wait(store, id: "outage", seconds: 120) { $0.state.isTerminal }
        }
        let events = try await store.events(jobID: "outage", after: 0, limit: 1000)
        #expect(job.state == .succeeded, "\(job.error ?? "") \(events.map(\.data))")
        #expect(job.sections.done == 2 && job.failures.isEmpty)
        // The outage was felt, and waited out.
        let retries = events.filter { $0.type == "retry" }
        #expect(!retries.isEmpty)
        #expect(
            retries.allSatisfy {
                $0.data.contains("cannot reach the object store") && $0.data.contains("delaySeconds")
            },
            "\(retries)")
        #expect(try await blobs.jobKeys("outage").contains { $0.hasSuffix(".wav") })
    }

    /// A book the reader refuses fails its job at the first attempt, with the reader's reason, and
    /// the job lists its plan as failed for good.
    @Test func aBookTheReaderRefusesFailsAtOnceWithItsReason() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blobs = try DiskBlobStore(root: folder.path)
        let notABook = Array("this is not a zip archive".utf8)
        let sha = sha256Hex(Data(notABook))
        _ = try await blobs.putBook(
            sha256: sha,
            body: AsyncStream {
                $0.yield(notABook); $0.finish()
            }, limit: 1 << 20)
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
        _ = try await store.addBook(sha256: sha, size: Int64(notABook.count))
        _ = try await store.createJob(NewJob(id: "bad", book: sha, options: JobOptions()), now: Date())
        let runner = TaskRunner(
            store: store, blobs: blobs,
            configuration: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1),
            logger: Logger(label: "test"))
        let start = ContinuousClock.now
        let job = try await Self.running(runner) {
            try await Self.wait(store, id: "bad", seconds: 30) { $0.state.isTerminal }
        }
        #expect(start.duration(to: .now) < .seconds(5))
        #expect(job.state == .failed)
        #expect(job.error?.hasPrefix("the book cannot be read") == true, "\(job.error ?? "")")
        #expect(job.failures.count == 1)
        let plan = try #require(job.failures.first)
        #expect(plan.kind == .plan && plan.isFinal && plan.attempts == 1 && plan.error == job.error)
        #expect(!(try await store.events(jobID: "bad", after: 0, limit: 100)).contains { $0.type == "retry" })
    }

    /// `POST /v1/jobs/{id}/retry`: a failed job's failed sections run again (200, running); a job that
    /// is not failed is a 409; an unknown job a 404. The job lists its failed tasks and their errors.
    @Test func theRetryEndpointRunsAFailedJobsFailedSections() async throws {
        let api = try APITests()
        defer { api.folder.remove() }
        let store = api.context.store
        let sha = String(repeating: "ab", count: 32)
        _ = try await store.addBook(sha256: sha, size: 1)
        _ = try await store.createJob(NewJob(id: "broken", book: sha, options: JobOptions()), now: Date())
        let planTask = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        #expect(planTask.jobID == "broken")
        _ = try await store.complete(
            planTask, outcome: .planned(JobPlan(voice: "gmw/en", sections: [1, 2], displayTitle: "B")), now: Date())
        for _ in 1...2 {
            let task = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
            let outcome: TaskOutcome =
                task.section == 1
                ? .sectionDone(SectionResult(section: 1, directory: "work/1-1", file: "f", durationSeconds: 1))
                : .failed(message: "section 2: the engine refused the text", retry: false)
            _ = try await store.complete(task, outcome: outcome, now: Date())
        }
        let finalize = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(
            finalize, outcome: .finalized(outputs: [], audioSeconds: 1, failedSections: 1), now: Date())
        _ = try await store.createJob(NewJob(id: "waiting", book: sha, options: JobOptions()), now: Date())
        try await api.withServer { client in
            let failed = try await client.execute(uri: "/v1/jobs/broken", method: .get) { try APITests.json($0.body) }
            #expect(failed["state"] as? String == "failed")
            let failures = try #require(failed["failures"] as? [[String: Any]])
            #expect(failures.count == 1)
            #expect(failures.first?["task"] as? String == "section" && failures.first?["section"] as? Int == 2)
            #expect(failures.first?["final"] as? Bool == true && failures.first?["attempts"] as? Int == 1)
            #expect(failures.first?["error"] as? String == "section 2: the engine refused the text")

            try await client.execute(uri: "/v1/jobs/broken/retry", method: .post) { response async throws in
                #expect(response.status == .ok)
                let job = try APITests.json(response.body)
                #expect(job["state"] as? String == "running")
                let sections = try #require(job["sections"] as? [String: Any])
                #expect(sections["done"] as? Int == 1 && sections["queued"] as? Int == 1)
            }
            // Running again now: not failed.
            try await client.execute(uri: "/v1/jobs/broken/retry", method: .post) { response async throws in
                #expect(response.status == .conflict)
                #expect(try APITests.json(response.body)["error"] as? String == "conflict")
            }
            try await client.execute(uri: "/v1/jobs/waiting/retry", method: .post) { response async throws in
                #expect(response.status == .conflict)
                #expect((try APITests.json(response.body)["message"] as? String)?.contains("queued") == true)
            }
            try await client.execute(uri: "/v1/jobs/nothing/retry", method: .post) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/v1/jobs/broken/retry", method: .get) {
                #expect($0.status == .methodNotAllowed)
            }
        }
        // Only the failed section is queued again, as a first attempt.
        var claimed: [ClaimedTask] = []
        while let task = try await store.claim(owner: "w", lease: 30, now: Date()) { claimed.append(task) }
        #expect(
            claimed.filter { $0.jobID == "broken" }.map { "\($0.kind) \($0.section) \($0.attempt)" } == ["section 2 1"])
    }
}
