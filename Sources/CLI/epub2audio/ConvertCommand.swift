import ArgumentParser

/// Converts books (the default subcommand). Being written: the reader and sections land first.
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "convert", abstract: "Convert EPUB books.")
    @Argument(help: "EPUB files or folders of EPUB files.") var books: [String] = []
    func run() async throws { throw ExitCode(Exit.internalError.rawValue) }
}

struct VoicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "voices", abstract: "List installed voices.")
}

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "worker", shouldDisplay: false)
}
