import Foundation
import Testing

@testable import Conversion

@Suite struct ForkServerTests {
    @Test func refusesToForkFromAProcessWithOtherThreads() {
        // This test process runs Swift Testing's threads: forking here could leave a lock taken in the
        // child. The server must stop before reading a job, let alone forking.
        #expect(ForkSafety.otherThreads()?.isEmpty == false)
        #expect(WorkerMain.runForkServer(environment: environment(source: FakeSource.make())) == .cannotForkSafely)
    }

    @Test func threadsThatCannotBeSeenAreUnknownNotNone() {
        // Without /proc (a container without it, a system without procfs) the server cannot tell
        // whether another thread runs: unknown must not read as "no other thread".
        #expect(ForkSafety.otherThreads(tasks: "/nonexistent/proc/self/task") == nil)
    }

    @Test func threadsAreSeenAsleepOrNot() throws {
        let asleep = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        // Only the thread this test starts: other new threads of the test runner may be busy running
        // other tests at the same moment.
        let threadID = Locked<Int32>(0)
        let thread = Thread {
            // "/proc/thread-self" links to "PID/task/TID" for the calling thread.
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            let id = Int32(link.split(separator: "/").last.map(String.init) ?? "") ?? 0
            threadID.withLock { $0 = id }
            started.signal()
            asleep.wait()
        }
        thread.start()
        started.wait()
        let id = threadID.value
        #expect(id != 0)
        #expect(ForkSafety.otherThreads()?.contains(id) == true)
        // A thread blocked on a semaphore is asleep.
        #expect(ForkSafety.waitUntilAsleep([id]))
        asleep.signal()
    }

    @Test func aThreadThatRunsIsNotSeenAsleep() {
        let started = DispatchSemaphore(value: 0)
        let threadID = Locked<Int32>(0)
        let stop = Locked(false)
        let thread = Thread {
            let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            threadID.withLock { $0 = Int32(link.split(separator: "/").last.map(String.init) ?? "") ?? 0 }
            started.signal()
            // Busy, never blocked: its state stays R (running or runnable), even while preempted.
            while !stop.value {}
        }
        thread.start()
        started.wait()
        let id = threadID.value
        #expect(id != 0)
        #expect(!ForkSafety.waitUntilAsleep([id]))
        stop.withLock { $0 = true }
    }
}
