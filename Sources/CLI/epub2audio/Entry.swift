import ArgumentParser
import Dispatch
import Foundation
import LiveConversion

#if canImport(Glibc)
    import Glibc
#endif

/// The entry point of `epub2audio`.
///
/// `epub2audio fork-server` (internal; the conversion starts one per job slot) runs first, on the
/// main thread, with nothing else started: it forks a child per section, which is only safe from a
/// process with a single thread (see `LiveWorker.runForkServer`), and the asynchronous command
/// machinery below starts the threads of Swift's cooperative pool. Everything else is the
/// `EPUB2AudioCommand` with its subcommands, run as `@main` would run it.
@main
enum Entry {
    static func main() {
        ProcessMemory.limitArenas()
        if CommandLine.arguments.count == 2, CommandLine.arguments[1] == LiveWorker.forkServerArgument {
            exit(LiveWorker.runForkServer())
        }
        Task {
            do {
                try checkHelpTopic(Array(CommandLine.arguments.dropFirst()))
                var command = try EPUB2AudioCommand.parseAsRoot()
                if var asynchronous = command as? AsyncParsableCommand {
                    try await asynchronous.run()
                } else {
                    try command.run()
                }
                exit(0)
            } catch {
                exit(usageError(error))
            }
        }
        dispatchMain()
    }

    /// What `AsyncParsableCommand.main` does with an error, but a usage error (a bad option or
    /// value, missing books) is one line, as every other error: `error: --toc-depth must be 1 or
    /// more (epub2audio --help lists the options)`, exit 64. Help, the version and the exit codes the
    /// commands throw go as ArgumentParser sends them.
    static func usageError(_ error: any Error) -> Int32 {
        let code = EPUB2AudioCommand.exitCode(for: error)
        guard !(error is ExitCode), code == .validationFailure else { EPUB2AudioCommand.exit(withError: error) }
        var message = oneLine(EPUB2AudioCommand.message(for: error))
        if message.hasSuffix(".") { message.removeLast() }
        let style = TerminalStyle.detect(fileDescriptor: 2)
        StandardError.write(style.red("error:") + " " + message + " (\(helpHint()))\n")
        return code.rawValue
    }

    /// Where the options of the command that was run are listed: `epub2audio help voices` for
    /// `epub2audio voices --bogus`, `epub2audio --help` otherwise.
    static func helpHint(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String {
        guard let first = arguments.first, first == VoicesCommand.configuration.commandName else {
            return "epub2audio --help lists the options"
        }
        return "epub2audio help \(first) lists the options"
    }

    /// `epub2audio help TOPIC` names a command: ArgumentParser answers an unknown one with the main
    /// help and exit 0, which a script takes for success.
    static func checkHelpTopic(_ arguments: [String]) throws {
        guard arguments.count >= 2, arguments[0] == "help" else { return }
        let known = ["convert", VoicesCommand.configuration.commandName ?? "voices"]
        guard known.contains(arguments[1]) else {
            throw ValidationError(
                "'\(arguments[1])' is no command of epub2audio, which has \(known.joined(separator: " and "))")
        }
    }
}
