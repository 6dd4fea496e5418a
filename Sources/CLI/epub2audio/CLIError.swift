import ArgumentParser
import Foundation
import LiveConversion

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
    case let error as NeuralVoiceError:
        switch error {
        case .unreadable: return (.unreadableBook, error.description)
        case .exists: return (.outputError, error.description + " (--replace replaces it)")
        case .unavailable: return (.unavailable, error.description)
        }
    default:
        return (.internalError, String(describing: error))
    }
}

/// One line: never let a message with line breaks break a script that reads stderr, nor a value
/// the book or the user gave (a 70,000-character path, a 3 MB `dc:language`) fill the terminal:
/// a run of more than `longestRun` characters without a space keeps its start and its end.
func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        .split(separator: " ", omittingEmptySubsequences: false).map(elidedRun).joined(separator: " ")
}

/// The longest run of characters without a space that a message shows whole.
let longestRun = 160

/// `run` when it is at most `longestRun` characters long; else its first 100 and last 40 around "…".
private func elidedRun(_ run: Substring) -> Substring {
    guard run.count > longestRun else { return run }
    return run.prefix(100) + "…" + run.suffix(40)
}
