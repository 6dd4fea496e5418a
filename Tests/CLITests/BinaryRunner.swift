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
    /// Peak resident memory of the child, in bytes.
    var peakMemory: Int
    var seconds: Double
    var timedOut: Bool
}

/// Runs the `epub2audio` binary built next to the test bundle, with files for its output (no pipe
/// deadlocks), a time limit, and the child's peak memory from `wait4`.
enum BinaryRunner {
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

    static func run(
        _ arguments: [String], directory: URL? = nil, environment: [String: String] = [:], timeout: Double = 60
    ) throws -> RunResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("e2a-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
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
        let spawned = posix_spawn(&pid, program, &actions, nil, cArgs, cEnv)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }

        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        while true {
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if Date().timeIntervalSince(start) > timeout {
                kill(pid, SIGKILL)
                timedOut = true
                _ = wait4(pid, &status, 0, &usage)
                break
            }
            usleep(5_000)
        }
        let seconds = Date().timeIntervalSince(start)
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return RunResult(
            status: exitStatus,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            peakMemory: Int(usage.ru_maxrss) * 1024, seconds: seconds, timedOut: timedOut)
    }
}
