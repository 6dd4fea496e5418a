import ArgumentParser

/// `epub2audio worker` (hidden): a conversion worker process, driven by the coordinator.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "worker", shouldDisplay: false)
}
