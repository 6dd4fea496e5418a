import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The coordinator's end of one worker: a line out, lines in, and a way to kill it.
///
/// `send`/`readLine`/`close` are called by one slot thread; `kill` may come from any thread.
protocol WorkerConnection: AnyObject, Sendable {
    func send(_ line: String) throws
    /// The next line, nil when the worker's output ended (it exited or died).
    func readLine() -> String?
    /// Stops the worker at once (SIGKILL for a process).
    func kill()
    /// Ends the worker politely (closes its input), waits briefly, then kills it.
    func close()
    /// Why the worker ended, for messages ("exit status 1", "killed by signal 9", last stderr lines).
    func endDescription() -> String
}

/// Starts workers.
protocol WorkerLauncher: Sendable {
    func launch() throws -> any WorkerConnection
}

/// Launches `executable arguments...` (the CLI passes its own path and `worker`).
struct ProcessWorkerLauncher: WorkerLauncher {
    var executable: String
    var arguments: [String]

    func launch() throws -> any WorkerConnection {
        // A worker that dies while we write its next job must give us EPIPE, not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        return try ProcessWorkerConnection(executable: executable, arguments: arguments)
    }
}

/// A worker process. `@unchecked Sendable`: `Process` and `Pipe` are not marked Sendable; the
/// mutable state (stderr tail) is behind a `Mutex`, and `kill` only uses the immutable pid.
final class ProcessWorkerConnection: WorkerConnection, @unchecked Sendable {
    /// Bytes of the worker's standard error kept for error messages.
    private static let stderrTailBytes = 2048

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let reader: LineReader
    private let stderrTail = Locked<Data>(Data())
    /// Set once the stderr handler has seen the end of the worker's stderr.
    private let stderrEnded = Flag()
    private let pid: Int32

    init(executable: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        reader = LineReader(fileDescriptor: output.fileHandleForReading.fileDescriptor)
        let tail = stderrTail
        let ended = stderrEnded
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                ended.set()
                return
            }
            tail.withLock { buffer in
                buffer.append(data)
                if buffer.count > Self.stderrTailBytes { buffer = buffer.suffix(Self.stderrTailBytes) }
            }
        }
        do {
            try process.run()
        } catch {
            throw ConversionError.invalidRequest("cannot start the worker \(executable): \(error)")
        }
        pid = process.processIdentifier
    }

    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    func readLine() -> String? {
        // Once the worker has exited, its output has ended even if a child of it still holds the pipe.
        reader.readLine { [process] in !process.isRunning }
    }

    func kill() {
        guard pid > 0 else { return }
        // Foundation starts the worker in its own process group: killing the group also stops any
        // child of it that would otherwise keep the output pipe open.
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
    }

    func close() {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill() }
        process.waitUntilExit()
    }

    func endDescription() -> String {
        if process.isRunning {
            // Output ended but the process is still there: give it a moment to exit, then kill it.
            let deadline = Date().addingTimeInterval(1)
            while process.isRunning && Date() < deadline { usleep(5_000) }
            if process.isRunning { kill() }
        }
        process.waitUntilExit()
        // The stderr handler runs on another queue: let it take in what the worker wrote last (its
        // reason for dying) before reading the tail. A grandchild holding the pipe only costs the wait.
        let drained = Date().addingTimeInterval(1)
        while !stderrEnded.isSet && Date() < drained { usleep(2_000) }
        var text =
            process.terminationReason == .uncaughtSignal
            ? "killed by signal \(process.terminationStatus)" : "exit status \(process.terminationStatus)"
        let tail = String(decoding: stderrTail.withLock { $0 }, as: UTF8.self)
            .split(separator: "\n").suffix(3).joined(separator: " / ")
        if !tail.isEmpty { text += ": \(tail)" }
        return text
    }
}

/// Runs `WorkerMain` on a thread with pipes: the worker protocol without a process, for tests
/// (with a fake engine; the real espeak-ng engine must never run twice in one process).
struct ThreadWorkerLauncher: WorkerLauncher {
    var environment: ConversionEnvironment
    /// Called with each job line the worker receives; returning true makes the worker "die" (close
    /// its output without answering), to test the coordinator's retry.
    var dieOnJob: @Sendable (WorkerJob) -> Bool = { _ in false }

    func launch() throws -> any WorkerConnection {
        ThreadWorkerConnection(environment: environment, dieOnJob: dieOnJob)
    }
}

/// `@unchecked Sendable`: pipes are only used by the owning slot thread and the worker thread; the
/// shared flags are `Atomic`.
final class ThreadWorkerConnection: WorkerConnection, @unchecked Sendable {
    private let toWorker = Pipe()
    private let fromWorker = Pipe()
    private let reader: LineReader
    private let stopped = Flag()
    private let finished = DispatchSemaphore(value: 0)
    private let status = Locked<String>("running")

    init(environment: ConversionEnvironment, dieOnJob: @escaping @Sendable (WorkerJob) -> Bool) {
        reader = LineReader(fileDescriptor: fromWorker.fileHandleForReading.fileDescriptor)
        let input = toWorker.fileHandleForReading
        let output = fromWorker.fileHandleForWriting
        let stopped = self.stopped
        let finished = self.finished
        let status = self.status
        let thread = Thread {
            // Intercepts job lines so a test can make this worker die on a given job.
            let filtered = Pipe()
            let forward = Thread {
                // Reads through `input`'s descriptor; `input` is captured so it stays open meanwhile.
                let filterReader = LineReader(fileDescriptor: input.fileDescriptor)
                while let line = filterReader.readLine() {
                    if let job = try? JSONDecoder().decode(WorkerJob.self, from: Data(line.utf8)), dieOnJob(job) {
                        stopped.set()
                        status.withLock { $0 = "died on section \(job.section) (test)" }
                        break
                    }
                    try? filtered.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
                }
                try? filtered.fileHandleForWriting.close()
            }
            forward.start()
            let code = WorkerMain.run(
                input: filtered.fileHandleForReading, output: output, environment: environment,
                shouldStop: { stopped.isSet })
            status.withLock { if $0 == "running" { $0 = "exit status \(code)" } }
            try? output.close()
            finished.signal()
        }
        thread.start()
    }

    func send(_ line: String) throws {
        try toWorker.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    func readLine() -> String? { reader.readLine() }

    func kill() {
        // Only the flag: closing a pipe here, while the slot thread may be writing to it, could make
        // that write land in whatever file next reuses the descriptor number.
        stopped.set()
        status.withLock { if $0 == "running" { $0 = "killed" } }
    }

    func close() {
        try? toWorker.fileHandleForWriting.close()
        finished.wait()
    }

    func endDescription() -> String { status.withLock { $0 } }
}
