import ArgumentParser

/// `epub2audio`: the root command. Converting a book is the default subcommand, so
/// `epub2audio book.epub --list` and `epub2audio voices` both read naturally.
/// (The entry point is `Entry`, which runs this command.)
struct EPUB2AudioCommand: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "epub2audio",
        abstract: "Turn EPUB books into audiobooks, offline.",
        usage: """
            epub2audio BOOK.epub... [--list [--json|--verbose]] [--text] [--chapters LIST] [options]
              epub2audio voices [--json] [--language LANG]
            """,
        discussion: """
            Sections come from the book's table of contents and are numbered in reading order; front and \
            back matter (cover, copyright, contents, notes, index...) is skipped unless asked for. \
            Use --list to see the sections and the decisions, then --chapters to choose. \
            All conversion options: epub2audio help convert.

            \(Exit.helpText)
            """,
        version: version,
        subcommands: [ConvertCommand.self, VoicesCommand.self, WorkerCommand.self],
        defaultSubcommand: ConvertCommand.self
    )
}
