/// Everything that can stop a conversion, or a section of it, with a readable description.
public enum ConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The output folder (or a file in it) cannot be created or written.
    case outputUnwritable(path: String, reason: String)
    /// The disk filled up while writing `path`.
    case diskFull(path: String)
    /// The output folder's manifest was made from a different book file (different SHA-256).
    case bookChanged(manifest: String, recordedSHA256: String, currentSHA256: String)
    /// The output folder holds files epub2audio did not make (no manifest), or a file it would replace.
    case outputNotEmpty(path: String)
    /// A worker process died (twice) while making a section.
    case workerFailed(section: Int, reason: String)
    /// A section could not be made (text, engine or audio writer error).
    case sectionFailed(section: Int, reason: String)
    /// The conversion was cancelled.
    case cancelled
    /// The book file cannot be read.
    case unreadableBook(path: String, reason: String)
    /// The manifest exists but is not valid JSON of the expected shape.
    case invalidManifest(path: String, reason: String)
    /// The manifest was written by a newer epub2audio.
    case unsupportedManifestVersion(path: String, version: Int)
    /// The selection names a section the book does not have.
    case unknownSection(Int)
    /// Nothing to convert: the selection is empty.
    case noSections
    /// The request is inconsistent (the reason says how).
    case invalidRequest(String)
    /// The one-file audiobook (`--bundle`) could not be made; the section files are intact.
    case bundleFailed(reason: String)
    /// A section's timing file (`.epub2audio-timing-NNN.json`) is not one this epub2audio can read.
    case invalidTimingFile(path: String, reason: String)

    /// A readable sentence naming the path, the section or the reason.
    public var description: String {
        switch self {
        case .outputUnwritable(let path, let reason): "cannot write to \(path): \(reason)"
        case .diskFull(let path): "the disk is full (while writing \(path))"
        case .bookChanged(let manifest, let recorded, let current):
            "\(manifest) was made from a different book file (SHA-256 \(recorded.prefix(12))…, this one is "
                + "\(current.prefix(12))…); use --force to start over or choose another output folder"
        case .outputNotEmpty(let path):
            "\(path) already holds files epub2audio did not make; choose an empty folder or allow overwriting"
        case .workerFailed(let section, let reason): "section \(section): the worker process failed: \(reason)"
        case .sectionFailed(let section, let reason): "section \(section): \(reason)"
        case .cancelled: "cancelled"
        case .unreadableBook(let path, let reason): "cannot read \(path): \(reason)"
        case .invalidManifest(let path, let reason): "\(path) is not a valid epub2audio manifest: \(reason)"
        case .unsupportedManifestVersion(let path, let version):
            "\(path) has version \(version), newer than this epub2audio understands (\(Manifest.currentVersion))"
        case .unknownSection(let number): "the book has no section \(number)"
        case .noSections: "no sections selected"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        case .bundleFailed(let reason): "cannot make the audiobook file: \(reason)"
        case .invalidTimingFile(let path, let reason):
            "\(path) is not a timing file this epub2audio can read: \(reason); remove it and make its section again"
        }
    }
}
