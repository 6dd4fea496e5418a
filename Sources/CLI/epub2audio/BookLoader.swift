import Foundation
import LiveConversion

/// Opens books for the commands and expands folders: the one place the CLI touches the reader.
enum BookLoader {
    /// The book at `path`, opened and indexed once (`OpenedBook.open`); the memory the index freed is
    /// handed back at once.
    static func load(path: String, options: SectionOptions, chapters: ChapterSelection?) throws -> OpenedBook {
        let book = try OpenedBook.open(path: path, options: options, chapters: chapters)
        ProcessMemory.releaseFreed()
        return book
    }

    /// Expands folders into the EPUB files they hold (recursively, sorted) and keeps files as given.
    static func expand(_ arguments: [String]) throws -> [String] {
        var books: [String] = []
        let manager = FileManager.default
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw CLIError.inputNotFound(argument)
            }
            guard isDirectory.boolValue else {
                books.append(argument)
                continue
            }
            let root = URL(fileURLWithPath: argument)
            let found = (manager.enumerator(atPath: argument)?.allObjects as? [String] ?? [])
                .filter { $0.lowercased().hasSuffix(".epub") }
                .sorted()
                .map { root.appendingPathComponent($0).path }
            if found.isEmpty { throw CLIError.noBooksInFolder(argument) }
            books += found
        }
        return books
    }
}
