import ArgumentParser
import BookText
import EPUBReader
import Foundation

/// Errors the command line itself raises (the library's errors are mapped in `exitStatus(for:)`).
enum CLIError: Error, CustomStringConvertible {
    case inputNotFound(String)
    case noBooksInFolder(String)
    case unavailable(String)

    var description: String {
        switch self {
        case .inputNotFound(let path): "no such file or folder: \(path)"
        case .noBooksInFolder(let path): "no .epub files in folder \(path)"
        case .unavailable(let message): message
        }
    }
}

/// The exit status and the one-line message for an error that ends a book.
func exitStatus(for error: any Error) -> (Exit, String) {
    switch error {
    case let error as EPUBError:
        switch error {
        case .drmProtected, .encrypted: return (.protectedBook, error.description)
        default: return (.unreadableBook, error.description)
        }
    case let error as BookTextError:
        switch error {
        case .chapterOutOfRange, .invalidChapterSelection: return (.usage, "--chapters: \(error.description)")
        case .emptySpine: return (.unreadableBook, error.description)
        }
    case let error as CLIError:
        switch error {
        case .inputNotFound, .noBooksInFolder: return (.unreadableBook, error.description)
        case .unavailable: return (.unavailable, error.description)
        }
    default:
        return (.internalError, String(describing: error))
    }
}

/// One line: never let a message with line breaks break a script that reads stderr.
func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
}
