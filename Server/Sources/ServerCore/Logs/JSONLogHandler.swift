import Foundation
import Logging

/// Writes each log record as one line of JSON, for a log collector:
/// `{"time":"2026-11-29T04:31:08.123Z","level":"info","label":"epub2audio-server","message":"…","metadata":{…}}`
/// (`metadata` only when there is some: the logger's, the record's and the metadata provider's,
/// the record's winning). Numbers and booleans in metadata stay JSON numbers and booleans.
package struct JSONLogHandler: LogHandler {
    /// The logger's label (`Logger(label:)`).
    package let label: String
    /// Lowest level written.
    package var logLevel: Logger.Level = .info
    /// Metadata set on the logger.
    package var metadata: Logger.Metadata = [:]
    /// Metadata added to every record at the time it is written (the request's id).
    package var metadataProvider: Logger.MetadataProvider?
    private let write: @Sendable (String) -> Void

    /// A handler writing to standard error, one `write(2)` per line (lines from concurrent tasks do
    /// not interleave).
    package init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, metadataProvider: metadataProvider) { line in
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// A handler giving each line (with its newline) to `write`.
    package init(
        label: String, metadataProvider: Logger.MetadataProvider? = nil, write: @escaping @Sendable (String) -> Void
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    /// The metadata value under `key`.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the record as one line.
    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        write(Self.line(time: Date(), level: event.level, label: label, message: event.message.description, merged))
    }

    /// The JSON line of one record, keys in a fixed order (time, level, label, message, metadata).
    static func line(
        time: Date, level: Logger.Level, label: String, message: String, _ metadata: Logger.Metadata
    ) -> String {
        var line = "{\"time\":" + quoted(time.formatted(timeStyle))
        line += ",\"level\":" + quoted(level.rawValue)
        line += ",\"label\":" + quoted(label)
        line += ",\"message\":" + quoted(message)
        if !metadata.isEmpty { line += ",\"metadata\":" + json(.dictionary(metadata)) }
        return line + "}\n"
    }

    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text):
            return quoted(text)
        case .stringConvertible(let value):
            switch value {
            case let number as Int: return String(number)
            case let number as Int64: return String(number)
            case let number as Double where number.isFinite: return String(number)
            case let flag as Bool: return flag ? "true" : "false"
            default: return quoted(value.description)
            }
        case .array(let values):
            return "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let values):
            let members = values.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + json($0.value) }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped (a message with a newline
    /// stays on its line).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Other control characters, and the two separators some JSON readers take for line ends.
            case _ where scalar.properties.generalCategory == .control || [0x2028, 0x2029].contains(scalar.value):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// How the server writes its logs (`--log-format`).
package enum LogFormat: String, CaseIterable, Sendable {
    /// One JSON object per line (`JSONLogHandler`).
    case json
    /// swift-log's plain lines, for a person at a terminal.
    case text

    /// Text when standard error is a terminal, JSON otherwise (a container, a service manager, a pipe).
    package static var automatic: LogFormat { isatty(STDERR_FILENO) == 1 ? .text : .json }

    /// Makes this the format of every logger the process creates from now on, with each request's id
    /// (and token name) in every line written while it is served. Once per process.
    package func bootstrap(level: Logger.Level = .info) {
        switch self {
        case .json:
            LoggingSystem.bootstrap(
                { label, provider in
                    var handler = JSONLogHandler(label: label, metadataProvider: provider)
                    handler.logLevel = level
                    return handler
                }, metadataProvider: RequestTrace.metadataProvider)
        case .text:
            LoggingSystem.bootstrap(
                { label, provider in
                    var handler = StreamLogHandler.standardError(label: label, metadataProvider: provider)
                    handler.logLevel = level
                    return handler
                }, metadataProvider: RequestTrace.metadataProvider)
        }
    }
}
