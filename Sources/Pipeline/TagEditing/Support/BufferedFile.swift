import Foundation

/// Reads a file in large chunks: exact byte counts for headers, then the rest streamed.
final class BufferedFileReader {
    private let handle: FileHandle
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0

    init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TagEditingError.unusable(path: path, reason: "cannot read the file")
        }
        self.handle = handle
        self.path = path
    }

    deinit { try? handle.close() }

    /// The next `count` bytes, or fewer at the end of the file.
    func read(_ count: Int) throws -> [UInt8] {
        while buffer.count - start < count {
            guard let more = try chunk(max(1 << 20, count - (buffer.count - start))) else { break }
            buffer.removeSubrange(0..<start)
            start = 0
            buffer += more
        }
        let available = min(count, buffer.count - start)
        defer { start += available }
        return Array(buffer[start..<start + available])
    }

    /// Writes the next `count` bytes of the file (fewer at its end) to `writer`.
    func copy(_ count: Int, to writer: BufferedFileWriter) throws {
        var remaining = count
        while remaining > 0 {
            let chunk = try read(min(remaining, 1 << 20))
            if chunk.isEmpty { return }
            try writer.write(chunk)
            remaining -= chunk.count
        }
    }

    /// Writes what is left of the file to `writer`.
    func copyRest(to writer: BufferedFileWriter) throws {
        try writer.write(Array(buffer[start...]))
        buffer = []
        start = 0
        while let more = try chunk(1 << 20) { try writer.write(more) }
    }

    private func chunk(_ count: Int) throws -> [UInt8]? {
        do {
            guard let data = try handle.read(upToCount: count), !data.isEmpty else { return nil }
            return Array(data)
        } catch {
            throw TagEditingError.failure(error, path: path)
        }
    }
}

/// Writes a new file in large chunks; `finish()` flushes it and synchronises it to disk.
final class BufferedFileWriter {
    private let handle: FileHandle
    private let path: String
    private var pending: [UInt8] = []

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw TagEditingError.unusable(path: path, reason: "cannot create the file") }
        self.handle = handle
        self.path = path
    }

    deinit { try? handle.close() }

    func write(_ bytes: [UInt8]) throws {
        pending += bytes
        if pending.count >= 1 << 20 { try flush() }
    }

    func finish() throws {
        try flush()
        do {
            try handle.synchronize()
        } catch {
            throw TagEditingError.failure(error, path: path)
        }
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        do {
            try handle.write(contentsOf: pending)
        } catch {
            throw TagEditingError.failure(error, path: path)
        }
        pending = []
    }
}
