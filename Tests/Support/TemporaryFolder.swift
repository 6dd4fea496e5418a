import Foundation

/// A fresh temporary folder, removed at deinit.
public final class TemporaryFolder {
    /// The folder's path.
    public let path: String

    /// Makes a new, empty folder under the system's temporary folder.
    public init() throws {
        path = NSTemporaryDirectory() + "epub2audio-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The names in the folder, sorted.
    public var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}
