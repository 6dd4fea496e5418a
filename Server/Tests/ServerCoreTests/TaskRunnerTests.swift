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
}
