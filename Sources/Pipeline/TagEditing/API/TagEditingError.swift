import Foundation

/// Why the tags of a finished audio file could not be edited: the file is not laid out as its format
/// says, or reading or writing it failed. The module's one error; the pipeline turns it into its own
/// (`ConversionError`, in `PosixFailure.map`).
public enum TagEditingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is not laid out as its format says ("is not a FLAC file", "has an Ogg page with a
    /// wrong CRC"...): the reason reads after the file's name.
    case malformed(reason: String)
    /// A system call on `path` failed with `code` (an `errno` value: `ENOSPC`, `EFBIG`...).
    case system(path: String, code: Int32)
    /// `path` could not be opened, created, read or written, for `reason`.
    case unusable(path: String, reason: String)

    /// The reason, for a malformed file; the path and what failed otherwise.
    public var description: String {
        switch self {
        case .malformed(let reason): reason
        case .system(let path, let code): "\(path): \(String(cString: strerror(code)))"
        case .unusable(let path, let reason): "\(path): \(reason)"
        }
    }

    /// `error`, thrown by Foundation or the system while reading or writing `path`, as a system
    /// failure when it carries an `errno` value (`SystemErrorCode`), else as the file being unusable.
    static func failure(_ error: any Error, path: String) -> TagEditingError {
        if let tags = error as? TagEditingError { return tags }
        if let code = SystemErrorCode.of(error) { return .system(path: path, code: code) }
        return .unusable(path: path, reason: "\(error)")
    }
}
