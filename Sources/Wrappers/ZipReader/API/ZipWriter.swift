internal import CLibZip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a new ZIP archive with libzip: entries in the order they are added, each deflated or stored.
///
/// Owns one `zip_t` from `init` to `close()`; libzip writes the archive only when it is closed (into a
/// temporary file beside `path`, renamed into place), and discards everything when the writer is
/// dropped without `close()`. Entry data is read at close time: bytes are copied when added, files
/// are read from disk then (they must stay there until `close()` returns). Not `Sendable`: one writer
/// is filled by one task.
public final class ZipWriter {
    /// The path the archive is written to.
    public let path: String
    /// The modification time every entry carries (seconds since 1970): a fixed time makes the same
    /// entries give the same archive, byte for byte.
    public let modificationTime: Int
    private var handle: OpaquePointer?

    /// Starts an archive at `path`, replacing any file there once `close()` succeeds; every entry is
    /// stamped with `modificationTime`.
    /// - Throws: `ZipError.writeFailed` when libzip cannot start the archive.
    public init(path: String, modificationTime: Int) throws {
        self.path = path
        self.modificationTime = modificationTime
        var code: Int32 = 0
        guard let handle = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &code) else {
            throw ZipError.writeFailed(archive: path, name: "", reason: Self.message(forCode: code))
        }
        self.handle = handle
    }

    deinit {
        if let handle { zip_discard(handle) }
    }

    /// Adds an entry holding `bytes` (copied now), deflated unless `compressed` is false.
    ///
    /// An EPUB's `mimetype` must be the first entry and stored: add it first, with `compressed: false`.
    /// - Throws: `ZipError.writeFailed` (a name added twice, the writer closed, no memory).
    public func add(_ name: String, bytes: [UInt8], compressed: Bool = true) throws {
        let handle = try openHandle(for: name)
        let copy = bytes.isEmpty ? nil : malloc(bytes.count)
        if let copy {
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { memcpy(copy, base, raw.count) }
            }
        }
        // libzip frees the copy with free() along with the source (freep = 1).
        guard let source = zip_source_buffer(handle, copy, zip_uint64_t(bytes.count), 1) else {
            free(copy)
            throw failure(name)
        }
        try add(name, source: source, compressed: compressed)
    }

    /// Adds an entry whose content is the file at `file`, read when the archive is closed.
    /// - Throws: `ZipError.writeFailed` (the file cannot be opened, a name added twice).
    public func add(_ name: String, contentsOf file: String, compressed: Bool = true) throws {
        let handle = try openHandle(for: name)
        guard let source = zip_source_file(handle, file, 0, 0) else { throw failure(name) }
        try add(name, source: source, compressed: compressed)
    }

    /// Writes the archive and releases libzip's handle.
    /// - Throws: `ZipError.writeFailed` with libzip's reason (a disk full, a file that went away);
    ///   nothing is left at `path` then.
    public func close() throws {
        guard let handle else { throw ZipError.writeFailed(archive: path, name: "", reason: "already closed") }
        if zip_close(handle) != 0 {
            let reason = Self.message(zip_get_error(handle))
            zip_discard(handle)
            self.handle = nil
            throw ZipError.writeFailed(archive: path, name: "", reason: reason)
        }
        self.handle = nil
    }

    // MARK: - libzip status to Swift errors (the one place)

    private func openHandle(for name: String) throws -> OpaquePointer {
        guard let handle else { throw ZipError.writeFailed(archive: path, name: name, reason: "already closed") }
        return handle
    }

    private func add(_ name: String, source: OpaquePointer, compressed: Bool) throws {
        guard let handle else { throw ZipError.writeFailed(archive: path, name: name, reason: "already closed") }
        let index = zip_file_add(handle, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(source)
            throw failure(name)
        }
        let method = compressed ? ZIP_CM_DEFLATE : ZIP_CM_STORE
        guard zip_set_file_compression(handle, zip_uint64_t(index), method, 0) == 0,
            zip_file_set_mtime(handle, zip_uint64_t(index), time_t(modificationTime), 0) == 0
        else { throw failure(name) }
    }

    private func failure(_ name: String) -> ZipError {
        ZipError.writeFailed(archive: path, name: name, reason: handle.map { Self.message(zip_get_error($0)) } ?? "")
    }

    private static func message(_ error: UnsafeMutablePointer<zip_error_t>?) -> String {
        guard let error else { return "unknown libzip error" }
        return String(cString: zip_error_strerror(error))
    }

    private static func message(forCode code: Int32) -> String {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        return String(cString: zip_error_strerror(&error))
    }
}
