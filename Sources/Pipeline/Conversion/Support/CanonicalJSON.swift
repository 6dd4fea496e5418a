import Foundation

/// JSON encoding with sorted keys and no pretty-printing, so the same value gives the same bytes.
/// Package-visible: the CLI writes its own `book-failed` event as the events are written.
package enum CanonicalJSON {
    package static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding our own plain value types cannot fail (no non-finite doubles are produced).
        return (try? encoder.encode(value)) ?? Data()
    }

    /// One line of JSON (no newline inside; JSONEncoder escapes newlines in strings).
    package static func line<T: Encodable>(_ value: T) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }
}
