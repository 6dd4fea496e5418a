import Foundation
import Testing

@testable import Conversion

@Suite struct ForkServerTests {
    @Test func refusesToForkFromAProcessWithOtherThreads() {
        // This test process runs Swift Testing's threads: forking here could leave a lock taken in the
        // child. The server must stop before reading a job, let alone forking.
        #expect(!ForkSafety.otherThreads().isEmpty)
        #expect(WorkerMain.runForkServer(environment: environment(source: FakeSource.make())) == 3)
    }

    @Test func threadsAreSeenAsleepOrNot() throws {
        let asleep = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let before = Set(ForkSafety.otherThreads())
        let thread = Thread {
            started.signal()
            asleep.wait()
        }
        thread.start()
        started.wait()
        let added = Array(Set(ForkSafety.otherThreads()).subtracting(before))
        // A thread blocked on a semaphore is asleep (other new threads of the test runner may be too).
        #expect(!added.isEmpty)
        #expect(ForkSafety.waitUntilAsleep(added))
        asleep.signal()
    }
}
