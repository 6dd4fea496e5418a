import ArgumentParser
import LiveConversion

/// `epub2audio worker` (hidden): a conversion worker process. Reads jobs as JSON lines on standard
/// input, writes messages as JSON lines on standard output (see docs/library-api.md).
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Internal: a conversion worker process.", shouldDisplay: false)

    func run() throws {
        let status = LiveWorker.run()
        if status != 0 { throw ExitCode(status) }
    }
}
