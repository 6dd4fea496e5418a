/// Why a ZIP archive or one of its entries could not be read.
///
/// Every case names the archive (a path, or `<memory>` for an archive opened from bytes) and, where
/// there is one, the entry inside it.
public enum ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libzip refused to open the archive (not a ZIP, truncated, no central directory, ...).
    case cannotOpen(archive: String, reason: String)
    /// No entry has this name.
    case entryNotFound(archive: String, name: String)
    /// No entry has this index.
    case indexOutOfRange(archive: String, index: Int)
    /// The entry is encrypted (ZipCrypto, AES, ...): it cannot be read without a password.
    case encryptedEntry(archive: String, name: String, method: String)
    /// The entry uses a compression method libzip cannot decompress here (bzip2, LZMA, ...).
    case unsupportedCompression(archive: String, name: String, method: Int)
    /// A size or ratio limit was hit: the entry (or the archive) is too large to be a real book.
    case limitExceeded(archive: String, name: String, what: String)
    /// libzip failed while reading the entry (bad CRC, corrupt deflate stream, ...).
    case readFailed(archive: String, name: String, reason: String)
    /// libzip could not write the archive or add this entry to it (`ZipWriter`); `name` is empty for
    /// the archive as a whole.
    case writeFailed(archive: String, name: String, reason: String)

    /// One line naming the archive, the entry and what went wrong.
    public var description: String {
        switch self {
        case .cannotOpen(let archive, let reason):
            return "\(archive): not a readable ZIP archive (\(reason))"
        case .entryNotFound(let archive, let name):
            return "\(archive): no entry named '\(name)'"
        case .indexOutOfRange(let archive, let index):
            return "\(archive): no entry at index \(index)"
        case .encryptedEntry(let archive, let name, let method):
            return "\(archive): entry '\(name)' is encrypted (\(method))"
        case .unsupportedCompression(let archive, let name, let method):
            return "\(archive): entry '\(name)' uses unsupported compression method \(method)"
        case .limitExceeded(let archive, let name, let what):
            return "\(archive): entry '\(name)' exceeds a safety limit: \(what)"
        case .readFailed(let archive, let name, let reason):
            return "\(archive): cannot read entry '\(name)' (\(reason))"
        case .writeFailed(let archive, let name, let reason):
            return name.isEmpty
                ? "\(archive): cannot write the archive (\(reason))"
                : "\(archive): cannot write entry '\(name)' (\(reason))"
        }
    }
}
