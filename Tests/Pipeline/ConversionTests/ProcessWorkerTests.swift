import Contracts
import Foundation
import Testing

@testable import Conversion

/// The process plumbing of the worker path, with `/bin/sh` scripts standing in for `epub2audio worker`.
@Suite struct ProcessWorkerTests {
    static let job = WorkerJob(
        book: BookInput(path: "/dev/null"), section: 7, settings: AudioSettings(voice: VoiceSettings(voice: "en")),
        partPath: "/dev/null", tags: AudioTags(title: "t", album: "a", artist: "b", trackNumber: "7"))

    func executor(_ script: String) -> WorkerExecutor {
        WorkerExecutor(launcher: ProcessWorkerLauncher(executable: "/bin/sh", arguments: ["-c", script]))
    }

    @Test func answersAreReadFromTheProcess() throws {
        let worker = executor(
            #"while read line; do echo '{"type":"progress","section":7,"wordsDone":1,"wordsTotal":2,"frames":3,"sampleRate":4}'; "#
                + #"echo '{"type":"done","result":{"section":7,"frames":8000,"sampleRate":8000,"textSHA256":"ab","words":2}}'; done"#
        )
        var progress: [WorkerMessage] = []
        for _ in 0..<2 {  // a second job gets a fresh process
            let outcome = worker.execute(Self.job, shouldStop: { false }, progress: { progress.append($0) })
            guard case .done(let result) = outcome else {
                Issue.record("expected done, got \(outcome)")
                return
            }
            #expect(result.durationSeconds == 1)
        }
        #expect(progress.count == 2)
        worker.shutdown()
    }

    @Test func aWorkerThatExitsIsReportedDeadWithItsStatusAndStderr() {
        let worker = executor("read line; echo 'espeak exploded' >&2; exit 3")
        let outcome = worker.execute(Self.job, shouldStop: { false }, progress: { _ in })
        guard case .died(let reason) = outcome else {
            Issue.record("expected died, got \(outcome)")
            return
        }
        #expect(reason.contains("exit status 3"))
        #expect(reason.contains("espeak exploded"))
    }

    @Test func garbageOutputKillsTheWorker() {
        let worker = executor("read line; echo 'hello there'; sleep 30")
        let start = Date()
        let outcome = worker.execute(Self.job, shouldStop: { false }, progress: { _ in })
        guard case .died(let reason) = outcome else {
            Issue.record("expected died, got \(outcome)")
            return
        }
        #expect(reason.contains("unexpected output"))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func killStopsAHangingWorkerAtOnce() async throws {
        let worker = executor("read line; sleep 30")
        let killedAt = Locked<Date?>(nil)
        // A thread, not a Task: `execute` below blocks a cooperative thread, and on a 2-core machine
        // with other blocking tests a Task could wait the whole 30 s for a thread to run on.
        Thread {
            usleep(200_000)
            killedAt.withLock { $0 = Date() }
            worker.kill()
        }.start()
        let outcome = worker.execute(Self.job, shouldStop: { false }, progress: { _ in })
        let start = try #require(killedAt.value)
        guard case .died(let reason) = outcome else {
            Issue.record("expected died, got \(outcome)")
            return
        }
        #expect(reason.contains("signal 9"))
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test func aMissingExecutableIsReported() {
        let worker = WorkerExecutor(
            launcher: ProcessWorkerLauncher(executable: "/nonexistent/epub2audio", arguments: []))
        guard case .died(let reason) = worker.execute(Self.job, shouldStop: { false }, progress: { _ in }) else {
            Issue.record("expected died")
            return
        }
        #expect(reason.contains("/nonexistent/epub2audio"))
    }
}
