import Foundation
import LiveConversion
import Testing

@testable import ServerCore

/// How long a task waits between attempts, and which failures get another attempt at all.
@Suite struct RetryPolicyTests {
    @Test func theBoundDoublesFromTheBaseUpToTheCap() {
        let policy = RetryPolicy(maxAttempts: 10, base: 2, cap: 300)
        #expect((1...10).map(policy.bound(after:)) == [2, 4, 8, 16, 32, 64, 128, 256, 300, 300])
        // Far attempts stay finite and capped.
        #expect(policy.bound(after: 1000) == 300)
    }

    @Test(arguments: [0.0, 0.25, 0.999]) func theWaitIsAPointOfTheBound(_ jitter: Double) {
        let policy = RetryPolicy(maxAttempts: 10, base: 2, cap: 300, jitter: { jitter })
        for attempt in 1...10 {
            #expect(policy.delay(after: attempt) == policy.bound(after: attempt) * jitter)
        }
    }

    @Test func randomWaitsStayWithinTheirBoundsAndSpread() {
        let policy = RetryPolicy()
        let waits = (0..<200).map { _ in policy.delay(after: 3) }
        #expect(waits.allSatisfy { (0..<8).contains($0) })
        // Full jitter: tasks that failed together do not come back together.
        #expect(Set(waits).count > 150)
    }

    /// The default outlasts an outage of minutes: its attempts' bounds add up to more than 10 minutes,
    /// and the first retries come within seconds.
    @Test func theDefaultSpansMinutes() {
        let policy = RetryPolicy()
        #expect(policy.maxAttempts == 10)
        let total = (1..<policy.maxAttempts).map(policy.bound(after:)).reduce(0, +)
        #expect(total > 600)
        #expect(policy.bound(after: 1) <= 2)
        #expect(policy.retries(after: 9) && !policy.retries(after: 10))
    }

    // MARK: Which failures are retried

    @Test(arguments: [
        BlobStoreError.unavailable("S3 PUT jobs/j/out: connection refused") as any Error,
        JobStoreError.unavailable("PostgreSQL did not answer within 10 s"),
        ConversionError.workerFailed(section: 3, reason: "killed by signal 9"),
        ConversionError.diskFull(path: "/data/jobs/j"),
        ConversionError.outputUnwritable(path: "/data/jobs/j", reason: "permission denied"),
        ReadAlongError.unwritable(path: "/data/jobs/j/out/b.epub", reason: "no space left on device"),
        CocoaError(.fileReadUnknown),
    ])
    func passingFailuresAreTransient(_ error: any Error) {
        #expect(TaskFailure.classify(error) == .transient)
        #expect(TaskFailure.outcome(for: error) == .failed(message: "\(error)", retry: true))
    }

    @Test(arguments: [
        ConversionAdapter.Failure(description: "the book cannot be read: not a zip archive") as any Error,
        ConversionAdapter.Failure(description: "the book has no section 40 (it has 12)"),
        ConversionError.unreadableBook(path: "b.epub", reason: "no container.xml"),
        ConversionError.invalidRequest("voice xx is not installed"),
        ConversionError.sectionFailed(section: 2, reason: "the engine refused the text"),
        ConversionError.bundleFailed(reason: "ffmpeg: invalid cover"),
        ReadAlongError.notEPUB3(version: "2.0"),
        ReadAlongError.noTiming,
        BlobStoreError.hashMismatch(expected: "a", actual: "b"),
    ])
    func failuresOfTheBookOrTheRequestArePermanent(_ error: any Error) {
        #expect(TaskFailure.classify(error) == .permanent)
        #expect(TaskFailure.outcome(for: error) == .failed(message: "\(error)", retry: false))
    }

    /// A section's failure comes as the library's message: a worker process that died is said in the
    /// library's words for `workerFailed`, and only that is transient.
    @Test func aSectionWhoseWorkerDiedIsRetriedAndOneTheEngineRefusedIsNot() {
        let died = ConversionError.workerFailed(section: 4, reason: "exit status 137").description
        #expect(TaskFailure.classify(TaskFailure.sectionFailure(section: 4, message: died)) == .transient)
        let refused = ConversionError.sectionFailed(section: 4, reason: "no text to speak").description
        #expect(TaskFailure.classify(TaskFailure.sectionFailure(section: 4, message: refused)) == .permanent)
        // Another section's worker message does not count for this one.
        #expect(TaskFailure.classify(TaskFailure.sectionFailure(section: 5, message: died)) == .permanent)
    }
}
