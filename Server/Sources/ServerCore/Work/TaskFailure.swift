import Foundation
import LiveConversion

/// Whether a failed task may succeed if tried again: the one place that decides it, for every error
/// a task can end with (`TaskRunner`), so that a storage outage is waited out and a book that cannot
/// be made fails at once with its reason.
package enum TaskFailure {
    /// Transient: the same attempt may well succeed later (storage or network errors, the store
    /// unreachable, a worker process that died, the disk full). Permanent: it never will (the reader
    /// refuses the book, an option is invalid, the engine cannot make a section's text).
    package enum Kind: Equatable, Sendable {
        case transient, permanent
    }

    /// The outcome a task that threw `error` reports: its message, and whether to retry.
    package static func outcome(for error: any Error) -> TaskOutcome {
        let kind = classify(error)
        // Every error here says itself in words (`CustomStringConvertible`), or as Swift prints it.
        return .failed(message: "\(error)", retry: kind == .transient)
    }

    /// What kind of failure `error` is. An error this function does not know is transient: a retry
    /// costs a few attempts, a wrong "permanent" fails a job for good.
    package static func classify(_ error: any Error) -> Kind {
        switch error {
        case let failure as ConversionAdapter.Failure:
            return failure.isTransient ? .transient : .permanent
        case let conversion as ConversionError:
            return classify(conversion)
        case let readAlong as ReadAlongError:
            return classify(readAlong)
        case let blob as BlobStoreError:
            switch blob {
            case .unavailable: return .transient
            // A stored blob that is not what its name says will not become so.
            case .tooLarge, .hashMismatch, .invalidName: return .permanent
            }
        case is JobStoreError:
            return .transient
        default:
            return .transient
        }
    }

    /// The library's errors: those about the book or the request are permanent; the output folder,
    /// the disk and the worker process may recover.
    static func classify(_ error: ConversionError) -> Kind {
        switch error {
        case .unreadableBook, .unknownSection, .noSections, .invalidRequest, .sectionFailed, .bundleFailed,
            .bookChanged, .unsupportedManifestVersion, .invalidTimingFile:
            return .permanent
        case .outputUnwritable, .diskFull, .outputNotEmpty, .workerFailed, .cancelled, .invalidManifest:
            return .transient
        }
    }

    /// The read-along book's errors (`bundle epub`): the book or the format cannot give one, or the
    /// sections have no timing, for good; a file that could not be written may be next time.
    static func classify(_ error: ReadAlongError) -> Kind {
        switch error {
        case .audioFormat, .notEPUB3, .hasMediaOverlays, .noTiming, .unreadableBook: .permanent
        case .unwritable: .transient
        }
    }

    /// The failure of a section the library reported by its message (`ConversionEvent.error`): a
    /// worker process that died (`ConversionError.workerFailed`, said with the library's own words)
    /// is transient; any other reason is the section's content, permanent.
    package static func sectionFailure(section: Int, message: String) -> ConversionAdapter.Failure {
        let died = ConversionError.workerFailed(section: section, reason: "").description
        return ConversionAdapter.Failure(description: message, isTransient: message.hasPrefix(died))
    }
}
