import ArgumentParser

struct VoicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "voices", abstract: "List installed voices.")
}

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "worker", shouldDisplay: false)
}
