import ArgumentParser
import Conversion
import Foundation

/// `epub2audio worker` (hidden): a conversion worker process. Reads jobs as JSON lines on standard
/// input, writes messages as JSON lines on standard output (see docs/library-api.md).
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Internal: a conversion worker process.", shouldDisplay: false)

    func run() throws {
        // Ctrl-C at the terminal reaches the whole process group: the coordinator decides what
        // happens (it cancels and kills us), so the worker does not die half-way through a write.
        signal(SIGINT, SIG_IGN)
        // Past a file-size limit (ulimit -f) a write should fail with EFBIG, not kill the process.
        signal(SIGXFSZ, SIG_IGN)
        let status = WorkerMain.run(
            input: FileHandle.standardInput, output: FileHandle.standardOutput, environment: LiveEnvironment.make())
        if status != 0 { throw ExitCode(status) }
    }
}
