import Foundation
import Logging
import Testing

@testable import ServerCore

/// The runner's shutdown: a section that does not finish within the grace is stopped and its task
/// given back to the queue, the attempt not counted.
@Suite struct TaskRunnerTests {
    @Test func aSectionCutShortByTheShutdownIsGivenBack() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sample = try Data(contentsOf: URL(fileURLWithPath: Paths.sample("the-lighthouse-keepers-daughter.epub")))
        let blobs = try DiskBlobStore(root: folder.path)
        let sha = sha256Hex(sample)
        _ = try await blobs.putBook(
            sha256: sha,
            body: AsyncStream {
                $0.yield(Array(sample)); $0.finish()
            }, limit: 1 << 30)
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
        _ = try await store.addBook(sha256: sha, size: Int64(sample.count))
        _ = try await store.createJob(NewJob(id: "slow", book: sha, options: JobOptions()), now: Date())
        let plan = try #require(try await store.claim(owner: "w", lease: 30, now: Date()))
        _ = try await store.complete(
            plan, outcome: .planned(JobPlan(voice: "gmw/en", sections: [3], displayTitle: "T")), now: Date())
        // A "worker" that never answers: the section runs until it is stopped.
        let runner = TaskRunner(
            store: store, blobs: blobs,
            configuration: WorkerConfiguration(executable: "/bin/sleep", arguments: ["60"], slots: 1),
            logger: Logger(label: "test"))
        let running = Task { await runner.run() }
        var started = false
        for _ in 0..<500 where !started {
            started = (try await store.job(id: "slow"))?.sections.running == 1
            if !started { try await Task.sleep(for: .milliseconds(20)) }
        }
        try #require(started)
        let stop = ContinuousClock.now
        running.cancel()
        runner.drain(within: .milliseconds(300))
        await running.value
        #expect(stop.duration(to: .now) < .seconds(10))
        let job = try #require(try await store.job(id: "slow"))
        #expect(job.state == .running && job.sections.queued == 1 && job.sections.running == 0)
        // Given back uncounted: the next claim is attempt 1 again, and nothing said it failed.
        let again = try #require(try await store.claim(owner: "next", lease: 30, now: Date()))
        #expect(again.section == 3 && again.attempt == 1)
        #expect(!(try await store.events(jobID: "slow", after: 0, limit: 100)).contains { $0.type == "retry" })
    }

    /// The reaper removes a book no job names once it is older than the output lifetime: its row,
    /// then its file; a book a job names stays.
    @Test func theReaperRemovesExpiredBooks() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let blobs = try DiskBlobStore(root: folder.path)
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite", outputLifetime: 60)
        var books: [String] = []
        for text in ["unused book", "named book"] {
            let bytes = Array(text.utf8)
            let sha = sha256Hex(Data(bytes))
            _ = try await blobs.putBook(
                sha256: sha,
                body: AsyncStream {
                    $0.yield(bytes); $0.finish()
                }, limit: 100)
            _ = try await store.addBook(sha256: sha, size: Int64(bytes.count), now: Date().addingTimeInterval(-120))
            books.append(sha)
        }
        _ = try await store.createJob(NewJob(id: "j", book: books[1], options: JobOptions()), now: Date())
        let runner = TaskRunner(
            store: store, blobs: blobs,
            configuration: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 0),
            logger: Logger(label: "test"))
        let running = Task { await runner.run() }
        var removed = false
        for _ in 0..<250 where !removed {
            removed = try await blobs.bookSize(sha256: books[0]) == nil
            if !removed { try await Task.sleep(for: .milliseconds(20)) }
        }
        running.cancel()
        await running.value
        #expect(removed)
        #expect(try await !store.hasBook(sha256: books[0]))
        #expect(try await blobs.bookSize(sha256: books[1]) != nil)
        #expect(try await store.hasBook(sha256: books[1]))
    }
}
