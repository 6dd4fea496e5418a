public import Contracts
public import Foundation

extension SHA256 {
    /// Feeds the contents of `data`.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0.bindMemory(to: UInt8.self)) }
    }

    /// The hex digest of a file's contents, read in 1 MiB blocks so large books need little memory.
    ///
    /// Throws `ConversionError.unreadableBook(path:reason:)` when the file cannot be opened or read.
    public static func hex(fileAtPath path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ConversionError.unreadableBook(path: path, reason: "cannot open the file")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let block: Data?
            do {
                block = try handle.read(upToCount: 1 << 20)
            } catch {
                throw ConversionError.unreadableBook(path: path, reason: "\(error)")
            }
            guard let block, !block.isEmpty else { break }
            hasher.update(block)
        }
        return hasher.finalizeHex()
    }
}
