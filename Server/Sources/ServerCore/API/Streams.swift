import Foundation
import OpenAPIRuntime

/// A job's stored events as Server-Sent Events: every event after `after`, then new ones as they
/// are stored, until the job reaches a final state.
struct EventStream: Sendable {
    let store: any JobEventLog & JobRepository
    let jobID: String
    let after: Int64
    /// Set when the process shuts down: the stream ends (the client reconnects with Last-Event-ID).
    var shutdown: ManagedFlag?
    /// How often the store is asked for new events.
    var poll: Duration = .milliseconds(250)
    /// A comment line keeps proxies from closing a quiet stream.
    var keepAlive: Duration = .seconds(15)

    func chunks() -> AsyncThrowingStream<ArraySlice<UInt8>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last = after
                var quiet = Duration.zero
                do {
                    while !Task.isCancelled, shutdown?.isSet != true {
                        let events = try await store.events(jobID: jobID, after: last, limit: 500)
                        var finished = false
                        for event in events {
                            continuation.yield(ArraySlice(Self.frame(event).utf8))
                            last = event.id
                            if event.type == "state", Self.isFinal(event.data) { finished = true }
                        }
                        if finished { break }
                        if events.isEmpty {
                            // The job may be gone (deleted) or finished before `after`.
                            guard let job = try await store.job(id: jobID) else { break }
                            if job.state.isTerminal, try await store.events(jobID: jobID, after: last, limit: 1).isEmpty
                            {
                                break
                            }
                            try await Task.sleep(for: poll)
                            quiet += poll
                            if quiet >= keepAlive {
                                continuation.yield(ArraySlice(": keep-alive\n\n".utf8))
                                quiet = .zero
                            }
                        } else {
                            quiet = .zero
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `id: 12\nevent: section\ndata: {...}\n\n`.
    static func frame(_ event: JobEvent) -> String {
        "id: \(event.id)\nevent: \(event.type)\ndata: \(event.data)\n\n"
    }

    static func isFinal(_ data: String) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any],
            let state = object["state"] as? String
        else { return false }
        return JobState(rawValue: state)?.isTerminal == true
    }
}

/// A file, or a range of it, as a streamed body: read a chunk at a time as the client takes them
/// (not opened at all for a HEAD request, whose body is never read).
enum FileBody {
    static let chunkSize = 256 * 1024

    static func body(path: String, range: Range<Int64>) -> HTTPBody {
        let reader = Reader(path: path, range: range)
        let stream = AsyncThrowingStream<ArraySlice<UInt8>, any Error>(unfolding: { try reader.next() })
        return HTTPBody(stream, length: .known(range.upperBound - range.lowerBound), iterationBehavior: .single)
    }

    /// The open file and what is left to read of the range.
    final class Reader: @unchecked Sendable {
        // @unchecked Sendable: the body is iterated once (`iterationBehavior: .single`), one chunk
        // after the other, so `handle` and `remaining` are never touched at once.
        private let path: String
        private let start: Int64
        private var remaining: Int64
        private var handle: FileHandle?

        init(path: String, range: Range<Int64>) {
            self.path = path
            start = range.lowerBound
            remaining = range.upperBound - range.lowerBound
        }

        deinit { try? handle?.close() }

        /// The next chunk; nil at the end of the range (or of the file).
        func next() throws -> ArraySlice<UInt8>? {
            guard remaining > 0 else { return nil }
            if handle == nil {
                let opened = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                try opened.seek(toOffset: UInt64(start))
                handle = opened
            }
            let count = Int(min(Int64(FileBody.chunkSize), remaining))
            guard let data = try handle?.read(upToCount: count), !data.isEmpty else {
                remaining = 0
                return nil
            }
            remaining -= Int64(data.count)
            return ArraySlice(data)
        }
    }
}

/// A `Range: bytes=...` header (RFC 9110 §14.1.2); only a single range is served, several are
/// answered with the whole file, as the RFC allows.
enum ByteRange: Equatable {
    /// No usable range: send the whole file.
    case none
    case unsatisfiable
    case range(Range<Int64>)

    static func parse(_ header: String, size: Int64) -> ByteRange {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return .none }
        let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .none }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        let digits: (String) -> Bool = {
            !$0.isEmpty && $0.count <= 18 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber)
        }
        if first.isEmpty {
            // bytes=-N: the last N bytes.
            guard digits(last), let count = Int64(last) else { return .none }
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .range(max(0, size - count)..<size)
        }
        guard digits(first), let start = Int64(first) else { return .none }
        guard start < size else { return .unsatisfiable }
        if last.isEmpty { return .range(start..<size) }
        guard digits(last), let end = Int64(last) else { return .none }
        guard end >= start else { return .none }
        return .range(start..<min(end + 1, size))
    }
}
