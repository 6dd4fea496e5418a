import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension WorkerMain {
    /// Runs jobs from standard input as `run` does, each in a child process forked from this one once
    /// the engine is initialised: `epub2audio fork-server` (a hidden entry point of the CLI).
    ///
    /// A fresh worker process per section is what makes the audio byte-identical whatever ran
    /// before (espeak-ng keeps state no API resets), but it cost about 40 ms of CPU per section
    /// (loading 60 libraries, Swift start-up, espeak-ng reading its voices) against 2–3 ms of speech
    /// for a short one. A child forked from a process that has only initialised the engine starts
    /// every section from that same state, as a fresh process does, for a fraction of the cost.
    ///
    /// Forking is only safe from a process in which no other thread can hold a lock: the caller must
    /// call this from the main thread of a process that has started no other thread (the CLI calls it
    /// before Swift's concurrency machinery starts). espeak-ng starts one thread of its own at
    /// initialisation, used only for asynchronous output (we use synchronous output), which waits on
    /// a condition variable and holds no lock; the server checks before every fork that no other
    /// thread has appeared and that espeak-ng's is asleep, and stops (exit status 3) otherwise.
    ///
    /// Messages go from the child straight to standard output. A child that ends without exit status
    /// 0 ends the server too (exit status 1, the reason on standard error), so the coordinator sees a
    /// dead worker, as with a fresh process. Exit status 0: the input ended; 2: a job line was not valid.
    package static func runForkServer(environment: ConversionEnvironment) -> ExitStatus {
        let send = messageWriter(FileHandle(fileDescriptor: 1, closeOnDealloc: false))
        func stop(_ reason: String) -> ExitStatus {
            try? FileHandle.standardError.write(contentsOf: Data("epub2audio fork-server: \(reason)\n".utf8))
            return .cannotForkSafely
        }
        // Unknown is unsafe: without /proc the threads cannot be seen, so no child is forked.
        guard let before = ForkSafety.otherThreads() else {
            return stop("cannot read /proc/self/task to see the threads: cannot fork safely")
        }
        guard before.isEmpty else {
            return stop("other threads are running before the engine starts: cannot fork safely")
        }
        let session = WorkerSession(environment: environment)
        // An engine that cannot start is left to each child, which then reports the error for its
        // section exactly as a fresh worker would.
        try? session.prepareEngine()
        WorkerSession.warmUp()
        guard let engineThreads = ForkSafety.otherThreads() else {
            return stop("cannot read /proc/self/task to see the threads: cannot fork safely")
        }
        let reader = LineReader(fileDescriptor: 0)
        while true {
            let job: WorkerJob
            switch nextJob(reader, send: send) {
            case .end: return .inputEnded
            case .invalid: return .invalidJob
            case .job(let next): job = next
            }
            // The job's voice, configured here once for every child (a no-op while it does not change).
            try? session.prepareEngine(for: job.settings.voice)
            guard ForkSafety.otherThreads() == engineThreads else {
                return stop("a thread appeared after the engine started: cannot fork safely")
            }
            guard ForkSafety.waitUntilAsleep(engineThreads) else {
                return stop("the engine's thread does not go to sleep: cannot fork safely")
            }
            let child = fork()
            if child == 0 {
                // The child: one section, then `_exit`, so no exit handler of the server's runs twice.
                var status = ExitStatus.inputEnded
                do { try session.perform(job, shouldStop: { false }, send: send) } catch { status = .outputLost }
                _exit(status.rawValue)
            }
            guard child > 0 else {
                let reason = String(cString: strerror(errno))
                try? send(.failed(section: job.section, kind: .section, message: "cannot fork: \(reason)", path: nil))
                continue
            }
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 {
                guard errno == EINTR else { return stop("waitpid: \(String(cString: strerror(errno)))") }
            }
            // The <sys/wait.h> macros, which Swift does not import.
            let signal = status & 0x7F
            let code = (status >> 8) & 0xFF
            if signal != 0 || code != 0 {
                let how = signal != 0 ? "was killed by signal \(signal)" : "ended with exit status \(code)"
                try? FileHandle.standardError.write(
                    contentsOf: Data("section \(job.section): the forked worker \(how)\n".utf8))
                return .outputLost
            }
        }
    }
}

/// What the fork server checks before forking: the threads of this process besides the main one.
///
/// Read with plain system calls, without Foundation: the server runs these before every fork, and
/// every page it writes while a child runs is a page copied on write.
enum ForkSafety {
    /// Thread ids of this process other than the main thread's (whose id is the process id); nil when
    /// `tasks` (`/proc/self/task`) cannot be read (the caller must then not fork: it cannot tell).
    static func otherThreads(tasks: String = "/proc/self/task") -> [Int32]? {
        guard let folder = opendir(tasks) else { return nil }
        defer { closedir(folder) }
        let main = getpid()
        var threads: [Int32] = []
        while let entry = readdir(folder) {
            let id = withUnsafeBytes(of: entry.pointee.d_name) { Int32(decimal: $0) }
            if let id, id != main { threads.append(id) }
        }
        return threads.sorted()
    }

    /// Waits (up to half a second) until each thread is asleep (state `S`): blocked, here in a
    /// condition wait, so not inside a critical section it could leave locked in the child.
    static func waitUntilAsleep(_ threads: [Int32]) -> Bool {
        var waited = 0
        while true {
            if threads.allSatisfy({ state(of: $0) == UInt8(ascii: "S") }) { return true }
            if waited >= 500 { return false }
            usleep(1_000)
            waited += 1
        }
    }

    /// The state letter in `/proc/self/task/TID/stat` (after the parenthesised command name, which
    /// may itself hold parentheses and spaces).
    private static func state(of thread: Int32) -> UInt8? {
        let descriptor = open("/proc/self/task/\(thread)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            let text = UnsafeBufferPointer(rebasing: buffer[..<count])
            guard let close = text.lastIndex(of: UInt8(ascii: ")")) else { return nil }
            return text[(close + 1)...].first { $0 != UInt8(ascii: " ") }
        }
    }
}

extension Int32 {
    /// The number a NUL-terminated run of ASCII digits spells (a `/proc` entry's name); nil for any
    /// other name ("." and "..").
    fileprivate init?(decimal name: UnsafeRawBufferPointer) {
        var value: Int32 = 0
        var digits = 0
        for byte in name {
            if byte == 0 { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 9 else { return nil }
            value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0 else { return nil }
        self = value
    }
}
