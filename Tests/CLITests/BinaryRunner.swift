import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The result of running the built `epub2audio` binary.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Peak resident memory, in bytes: the largest of the direct child's peak (from `wait4`, which on
    /// Linux also covers the children it has reaped, i.e. finished worker processes) and the peaks of
    /// its descendants seen while polling `/proc/<pid>/status` (`VmHWM`) during the run.
    /// An upper bound: `posix_spawn` starts the child in the test process's memory until `exec`, and
    /// Linux keeps that image's peak in `ru_maxrss`, so even a run that fails at once shows the test
    /// runner's size (~100 MiB).
    var peakMemory: Int
    var seconds: Double
    var timedOut: Bool
    /// True when the child was ended by a signal (`status` is then 128 + the signal number).
    var signalled: Bool = false

    /// Lines of standard error that start with `error:` (ArgumentParser's usage errors say `Error:`).
    var errorLines: [Substring] {
        stderr.split(separator: "\n").filter { $0.lowercased().hasPrefix("error:") }
    }
}

/// A started `epub2audio` process: signal it, then wait for it.
///
/// `@unchecked Sendable`: `result(timeout:)` hands the blocking wait to a thread of its own (so a
/// test does not hold one of the few cooperative threads for a whole conversion); the mutable state
/// (`finished`, the memory peak) is only touched by whichever single caller is waiting at the time.
final class RunningBinary: @unchecked Sendable {
    let pid: pid_t
    let start: Date
    private let scratch: URL
    private var finished: RunResult?
    private var peakDescendants = 0

    fileprivate init(pid: pid_t, start: Date, scratch: URL) {
        self.pid = pid
        self.start = start
        self.scratch = scratch
    }

    deinit {
        if finished == nil {
            killTree()
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Standard output so far (the process writes it to a file).
    var stdoutSoFar: String {
        (try? String(contentsOfFile: scratch.appendingPathComponent("stdout").path, encoding: .utf8)) ?? ""
    }

    /// Sends `signal` to the process, or to its whole process group (as a terminal's Ctrl-C does).
    func send(_ signal: Int32, toGroup: Bool = false) {
        _ = kill(toGroup ? -pid : pid, signal)
    }

    /// Kills the process and every process descended from it (workers sit in process groups of their
    /// own, so killing our group alone would orphan them).
    func killTree() {
        let tree = BinaryRunner.descendants(of: pid)
        _ = kill(-pid, SIGKILL)
        _ = kill(pid, SIGKILL)
        for child in tree {
            _ = kill(-child, SIGKILL)
            _ = kill(child, SIGKILL)
        }
    }

    /// Polls until `condition` holds or `timeout` passes; false if the process ended or time ran out first.
    func waitUntil(timeout: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            if !isRunning { return condition() }
            sampleMemory()
            try? await Task.sleep(for: .milliseconds(2))
        }
        return false
    }

    /// Sends `signals` (in order; to the process group with `toGroup`) as soon as `condition` holds, from a thread of its own that polls every 2 ms:
    /// a test's task can wait for a cooperative thread for seconds on a loaded machine, and a signal
    /// sent after that wait lands later than the test means (CI saw a three-book batch finish first).
    /// False, and nothing sent, if the process ended or `timeout` passed first.
    func send(
        _ signals: [Int32], toGroup: Bool = false, timeout: Double, when condition: @escaping () -> Bool
    ) async -> Bool {
        let polled = UncheckedCondition(condition)
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                let deadline = Date().addingTimeInterval(timeout)
                while Date() < deadline && self.isRunning {
                    if polled.condition() {
                        for signal in signals { self.send(signal, toGroup: toGroup) }
                        continuation.resume(returning: true)
                        return
                    }
                    usleep(2_000)
                }
                continuation.resume(returning: false)
            }
            thread.start()
        }
    }

    /// `wait(timeout:)` on a thread of its own, leaving the cooperative pool free for other tests.
    func result(timeout: Double = 60) async -> RunResult {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.wait(timeout: timeout)) }
            thread.start()
        }
    }

    /// False once the process has exited (a zombie not yet waited for counts as exited).
    var isRunning: Bool {
        if finished != nil { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    private func sampleMemory() {
        for child in BinaryRunner.descendants(of: pid) {
            peakDescendants = max(peakDescendants, BinaryRunner.peakResident(of: child))
        }
    }

    /// Waits for the process to end (killing it and its workers after `timeout` seconds).
    @discardableResult
    func wait(timeout: Double = 60) -> RunResult {
        if let finished { return finished }
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        var polls = 0
        while true {
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if Date().timeIntervalSince(start) > timeout {
                killTree()
                timedOut = true
                _ = wait4(pid, &status, 0, &usage)
                break
            }
            // Reading /proc is cheap, but not free: every 20 ms is plenty for peaks of whole sections.
            if polls % 4 == 0 { sampleMemory() }
            polls += 1
            usleep(5_000)
        }
        let seconds = Date().timeIntervalSince(start)
        let signalled = (status & 0x7f) != 0
        let exitStatus: Int32 = signalled ? 128 + (status & 0x7f) : (status >> 8) & 0xff
        let result = RunResult(
            status: exitStatus,
            stdout: (try? String(contentsOfFile: scratch.appendingPathComponent("stdout").path, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: scratch.appendingPathComponent("stderr").path, encoding: .utf8)) ?? "",
            peakMemory: max(Int(usage.ru_maxrss) * 1024, peakDescendants), seconds: seconds, timedOut: timedOut,
            signalled: signalled)
        finished = result
        return result
    }
}

/// Runs the `epub2audio` binary built next to the test bundle, with files for its output (no pipe
/// deadlocks), a time limit, and the child's peak memory from `wait4`.
enum BinaryRunner {
    /// Whether the binary is a debug build (its wall-clock limits exempt `SlowBooks`).
    static var isDebugBinary: Bool { binary.contains("/debug/") }

    /// Path of the binary: `EPUB2AUDIO_BIN` when set, else beside this test executable.
    static var binary: String {
        if let path = ProcessInfo.processInfo.environment["EPUB2AUDIO_BIN"] { return path }
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: me).deletingLastPathComponent()
        // Inside an .xctest bundle on some layouts the executable sits one level deeper.
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("epub2audio").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("epub2audio").path
    }

    /// The package root (for samples/ and ../shared).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var sharedCorpus: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// A sample book from `samples/`.
    static func sample(_ name: String) -> String {
        packageRoot.appendingPathComponent("samples/\(name)").path
    }

    /// Runs the binary to the end (killed with its workers after `timeout` seconds).
    static func run(
        _ arguments: [String], directory: URL? = nil, environment: [String: String] = [:],
        removing: Set<String> = [], timeout: Double = 60
    ) async throws -> RunResult {
        let running = try start(arguments, directory: directory, environment: environment, removing: removing)
        return await running.result(timeout: timeout)
    }

    /// Starts the binary in a process group of its own (so a test can signal the group as a
    /// terminal would) with `NO_COLOR=1` unless `removing` holds `NO_COLOR`; stdin is /dev/null.
    static func start(
        _ arguments: [String], directory: URL? = nil, environment: [String: String] = [:],
        removing: Set<String> = []
    ) throws -> RunningBinary {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("e2a-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        // The test process may ignore or block signals (SIGPIPE, SIGINT...): the child starts clean.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        for key in removing { env[key] = nil }
        // posix_spawn_file_actions_addchdir_np is not visible from Swift's Glibc module: let a shell
        // change the directory, then exec the binary so the measured process is ours.
        let argv: [String]
        let program: String
        if let directory {
            program = "/bin/sh"
            argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path, binary] + arguments
        } else {
            program = binary
            argv = [binary] + arguments
        }
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = Date()
        let spawned = posix_spawn(&pid, program, &actions, &attributes, cArgs, cEnv)
        guard spawned == 0 else {
            try? FileManager.default.removeItem(at: scratch)
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }
        return RunningBinary(pid: pid, start: start, scratch: scratch)
    }

    /// Every live process descended from `pid` (children, grandchildren...), from `/proc/*/stat`.
    static func descendants(of pid: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var parents: [pid_t: [pid_t]] = [:]
        for entry in entries {
            guard let child = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // Fields after the command name: state ppid ...
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
            parents[parent, default: []].append(child)
        }
        var out: [pid_t] = []
        var queue = [pid]
        while let next = queue.popLast() {
            for child in parents[next] ?? [] {
                out.append(child)
                queue.append(child)
            }
        }
        return out
    }

    /// `VmHWM` (peak resident set) of a live process, in bytes; 0 when unknown.
    static func peakResident(of pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
}

/// Runs `command` with `shell` (`/bin/sh` for `ulimit`, bash for `PIPESTATUS`), colour off; its exit
/// status and everything it wrote on standard error (standard output is dropped).
func runShell(_ command: String, shell: String = "/bin/sh") throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: shell)
    process.arguments = ["-c", command]
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A condition handed to the polling thread of `RunningBinary.send(_:when:timeout:)`: only that thread
/// calls it while the test's task waits, so it is never called from two threads at once.
private final class UncheckedCondition: @unchecked Sendable {
    let condition: () -> Bool
    init(_ condition: @escaping () -> Bool) { self.condition = condition }
}
