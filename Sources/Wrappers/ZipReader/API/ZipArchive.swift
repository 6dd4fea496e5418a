internal import CLibZip

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One entry of a ZIP archive's central directory, as plain values.
///
/// Names are for matching only: they are never used as file-system paths (`../../x` and `/etc/x`
/// come back exactly as the archive spells them).
public struct ZipEntry: Hashable, Sendable {
    /// Position in the central directory.
    public var index: Int
    /// The name decoded as UTF-8 when it is valid UTF-8, else as code page 437 (the ZIP default).
    public var name: String
    /// The name's bytes exactly as stored.
    public var rawName: [UInt8]
    /// Uncompressed size the archive declares (not to be trusted: the reader checks it while reading).
    public var uncompressedSize: UInt64
    /// Compressed size the archive declares.
    public var compressedSize: UInt64
    /// ZIP compression method (0 stored, 8 deflate, 12 bzip2, 14 LZMA, ...).
    public var compressionMethod: Int
    /// ZIP encryption method (0 none, 1 ZipCrypto, 0x0101...0x0103 WinZip AES, ...).
    public var encryptionMethod: Int

    /// True when the entry is encrypted and cannot be read without a password.
    public var isEncrypted: Bool { encryptionMethod != 0 }
    /// True for a folder entry (name ends with `/`).
    public var isDirectory: Bool { name.hasSuffix("/") }
    /// True when the compression method is stored (no compression).
    public var isStored: Bool { compressionMethod == 0 }
}

/// A read-only ZIP archive backed by libzip, with hard limits on what reading it may cost.
///
/// Owns one `zip_t` and frees it in `deinit`. Not `Sendable`: one archive is read from one task
/// at a time (libzip archives are not thread-safe), and it counts the bytes read so far.
public final class ZipArchive {
    /// The path the archive was opened from, or the name given for an in-memory archive.
    public let archiveName: String
    /// The central directory, in order.
    public let entries: [ZipEntry]
    /// Problems that did not stop opening (inconsistent headers, duplicate names).
    public let warnings: [String]
    /// The limits this archive enforces.
    public let limits: ZipLimits
    /// Bytes read so far, all entries together; bounded by `limits.maxTotalBytes`.
    public private(set) var totalBytesRead: Int = 0

    private let handle: OpaquePointer
    /// First entry for each name (later duplicates are reported in `warnings`).
    private let indexByName: [String: Int]
    /// Position in `entries` of each central-directory index (entries with unreadable headers are skipped).
    private let positionByIndex: [Int: Int]

    /// Opens the archive at `path`.
    ///
    /// Opens with libzip's consistency checks (`ZIP_CHECKCONS`) first; an archive that fails them
    /// but is otherwise readable is opened without them and the problem is kept in `warnings`.
    /// - Throws: `ZipError.cannotOpen` when the file is missing, not a ZIP, or truncated;
    ///   `ZipError.limitExceeded` when it lists more than `limits.maxEntries` entries.
    public convenience init(path: String, limits: ZipLimits = .default) throws {
        let (handle, warnings) = try Self.open(archiveName: path, isFile: true) { flags, errorCode in
            zip_open(path, flags, &errorCode)
        }
        try self.init(handle: handle, archiveName: path, limits: limits, openWarnings: warnings)
    }

    /// Opens an archive held in memory (tests, fuzzing). The bytes are copied.
    /// - Parameters:
    ///   - bytes: the whole archive.
    ///   - name: how errors name this archive.
    ///   - limits: the bounds on entries and sizes, as for a file.
    /// - Throws: as `init(path:limits:)`.
    public convenience init(bytes: [UInt8], name: String = "<memory>", limits: ZipLimits = .default) throws {
        let (handle, warnings) = try Self.open(archiveName: name, isFile: false) { flags, errorCode in
            var error = zip_error_t()
            zip_error_init(&error)
            defer { zip_error_fini(&error) }
            // libzip frees the copy with free() when the source is freed (freep = 1). It skips a
            // zero-length buffer without taking ownership, so an empty input gets no copy at all
            // (found by fuzz-read: a 1-byte leak per empty input).
            let copy = bytes.isEmpty ? nil : malloc(bytes.count)
            if !bytes.isEmpty && copy == nil {
                errorCode = ZIP_ER_MEMORY
                return nil
            }
            if let copy {
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { memcpy(copy, base, raw.count) }
                }
            }
            guard let source = zip_source_buffer_create(copy, zip_uint64_t(bytes.count), 1, &error) else {
                free(copy)
                errorCode = zip_error_code_zip(&error)
                return nil
            }
            guard let archive = zip_open_from_source(source, flags, &error) else {
                zip_source_free(source)
                errorCode = zip_error_code_zip(&error)
                return nil
            }
            return archive
        }
        try self.init(handle: handle, archiveName: name, limits: limits, openWarnings: warnings)
    }

    private init(handle: OpaquePointer, archiveName: String, limits: ZipLimits, openWarnings: [String]) throws {
        self.handle = handle
        self.archiveName = archiveName
        self.limits = limits
        var warnings = openWarnings
        let count = zip_get_num_entries(handle, 0)
        if count == 0 {
            zip_discard(handle)
            throw ZipError.cannotOpen(archive: archiveName, reason: "empty file or archive with no entries")
        }
        if count < 0 || count > limits.maxEntries {
            zip_discard(handle)
            throw ZipError.limitExceeded(
                archive: archiveName, name: "", what: "\(count) entries (limit \(limits.maxEntries))")
        }
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(count))
        var indexByName: [String: Int] = [:]
        for index in 0..<Int(count) {
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(handle, zip_uint64_t(index), zip_flags_t(ZIP_FL_ENC_RAW), &stat) == 0,
                let cName = stat.name
            else {
                warnings.append("entry \(index): unreadable header (\(Self.archiveMessage(handle)))")
                continue
            }
            let rawName = Array(UnsafeRawBufferPointer(start: cName, count: strlen(cName)))
            let name = Self.decodeName(rawName)
            let entry = ZipEntry(
                index: index, name: name, rawName: rawName, uncompressedSize: stat.size,
                compressedSize: stat.comp_size, compressionMethod: Int(stat.comp_method),
                encryptionMethod: Int(stat.encryption_method))
            entries.append(entry)
            if indexByName[name] == nil {
                indexByName[name] = index
            } else {
                warnings.append("duplicate entry name '\(name)': the first one is used")
            }
        }
        self.entries = entries
        self.indexByName = indexByName
        self.positionByIndex = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1.index, $0) })
        self.warnings = warnings
    }

    deinit {
        zip_discard(handle)
    }

    /// The entry with exactly this name (first one when names repeat), or nil.
    public func entry(named name: String) -> ZipEntry? {
        indexByName[name].flatMap { positionByIndex[$0] }.map { entries[$0] }
    }

    /// Reads and decompresses the entry named `name` (exact match).
    /// - Throws: `ZipError.entryNotFound`, plus everything `read(index:)` throws.
    public func read(_ name: String) throws -> [UInt8] {
        guard let index = indexByName[name] else {
            throw ZipError.entryNotFound(archive: archiveName, name: name)
        }
        return try read(index: index)
    }

    /// Reads and decompresses the entry at `index`.
    ///
    /// Refuses before reading: encrypted entries, compression methods libzip cannot decompress,
    /// declared sizes above `limits.maxEntryBytes`, ratios above `limits.maxCompressionRatio`, and
    /// reads that would take the archive past `limits.maxTotalBytes`. While reading, refuses an entry
    /// that yields more bytes than it declared (libzip itself does not check).
    public func read(index: Int) throws -> [UInt8] {
        guard let position = positionByIndex[index] else {
            throw ZipError.indexOutOfRange(archive: archiveName, index: index)
        }
        let entry = entries[position]
        try checkBeforeReading(entry)
        let declared = Int(entry.uncompressedSize)
        guard let file = zip_fopen_index(handle, zip_uint64_t(index), 0) else {
            throw ZipError.readFailed(archive: archiveName, name: entry.name, reason: Self.archiveMessage(handle))
        }
        defer { zip_fclose(file) }
        var result: [UInt8] = []
        result.reserveCapacity(declared)
        let chunkSize = 64 << 10
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in
                zip_fread(file, raw.baseAddress, zip_uint64_t(chunkSize))
            }
            if count < 0 {
                throw ZipError.readFailed(archive: archiveName, name: entry.name, reason: Self.fileMessage(file))
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<Int(count)])
            if result.count > declared {
                throw ZipError.limitExceeded(
                    archive: archiveName, name: entry.name,
                    what: "yields more than the \(declared) bytes it declares")
            }
        }
        totalBytesRead += result.count
        return result
    }

    /// Throws what `read(index:)` would throw before reading anything (encryption, compression
    /// method, declared size, ratio, total budget), without reading. Lets a caller refuse a zip bomb
    /// when opening rather than later.
    public func checkReadable(index: Int) throws {
        guard let position = positionByIndex[index] else {
            throw ZipError.indexOutOfRange(archive: archiveName, index: index)
        }
        try checkBeforeReading(entries[position])
    }

    private func checkBeforeReading(_ entry: ZipEntry) throws {
        if entry.isEncrypted {
            throw ZipError.encryptedEntry(
                archive: archiveName, name: entry.name, method: Self.encryptionName(entry.encryptionMethod))
        }
        if zip_compression_method_supported(zip_int32_t(entry.compressionMethod), 0) == 0 {
            throw ZipError.unsupportedCompression(
                archive: archiveName, name: entry.name, method: entry.compressionMethod)
        }
        let declared = entry.uncompressedSize
        if declared > UInt64(limits.maxEntryBytes) {
            throw ZipError.limitExceeded(
                archive: archiveName, name: entry.name,
                what: "declares \(declared) bytes (limit \(limits.maxEntryBytes))")
        }
        let ratio = declared / max(entry.compressedSize, 1)
        if declared > UInt64(limits.ratioCheckThreshold), ratio > UInt64(limits.maxCompressionRatio) {
            throw ZipError.limitExceeded(
                archive: archiveName, name: entry.name,
                what: "compression ratio \(ratio):1 (limit \(limits.maxCompressionRatio):1)")
        }
        if totalBytesRead + Int(declared) > limits.maxTotalBytes {
            throw ZipError.limitExceeded(
                archive: archiveName, name: entry.name,
                what: "reading it would take the archive past \(limits.maxTotalBytes) bytes in total")
        }
    }

    // MARK: - libzip status to Swift errors (the one place)

    /// Opens with `ZIP_CHECKCONS`, then without it when only the consistency check failed.
    private static func open(
        archiveName: String, isFile: Bool, _ opener: (Int32, inout Int32) -> OpaquePointer?
    ) throws -> (OpaquePointer, [String]) {
        var errorCode: Int32 = 0
        if let handle = opener(ZIP_RDONLY | ZIP_CHECKCONS, &errorCode) {
            return (handle, [])
        }
        let strictMessage = message(forCode: errorCode)
        // A failed consistency check (inconsistent headers, duplicate names) is worth a second,
        // lenient try; a missing or unreadable file is not.
        if errorCode != ZIP_ER_NOENT && errorCode != ZIP_ER_OPEN && errorCode != ZIP_ER_MEMORY
            && errorCode != ZIP_ER_READ
        {
            var lenientCode: Int32 = 0
            if let handle = opener(ZIP_RDONLY, &lenientCode) {
                return (handle, ["archive fails consistency checks (\(strictMessage)); read anyway"])
            }
        }
        // libzip says "No such file" also for an archive whose ZIP64 end record, which the end of
        // the file points at, is not there; the file itself was found (or given in memory).
        let missingRecord = errorCode == ZIP_ER_NOENT && (!isFile || access(archiveName, F_OK) == 0)
        throw ZipError.cannotOpen(
            archive: archiveName, reason: missingRecord ? "its ZIP64 directory record is missing" : strictMessage)
    }

    private static func message(forCode code: Int32) -> String {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        return String(cString: zip_error_strerror(&error))
    }

    private static func archiveMessage(_ handle: OpaquePointer) -> String {
        guard let error = zip_get_error(handle) else { return "unknown libzip error" }
        return message(for: error)
    }

    private static func fileMessage(_ file: OpaquePointer) -> String {
        guard let error = zip_file_get_error(file) else { return "unknown libzip error" }
        return message(for: error)
    }

    /// libzip's message, but what it means for a reader when an entry's place in the archive is
    /// wrong: reading it fails with "Invalid argument" or a seek error when the central directory
    /// points before the start of the file or past its end.
    private static func message(for error: UnsafeMutablePointer<zip_error_t>) -> String {
        let code = zip_error_code_zip(error)
        if code == ZIP_ER_SEEK || code == ZIP_ER_INVAL {
            return "the archive's directory puts it outside the file: a damaged archive"
        }
        return String(cString: zip_error_strerror(error))
    }

    private static func encryptionName(_ method: Int) -> String {
        switch method {
        case 1: return "traditional PKWARE ZipCrypto"
        case 0x0101, 0x0102, 0x0103: return "WinZip AES"
        case 0x660e, 0x660f, 0x6610: return "PKWARE AES"
        default: return "encryption method \(method)"
        }
    }

    // MARK: - Names

    /// UTF-8 when valid, else code page 437 (in which every byte means something).
    static func decodeName(_ bytes: [UInt8]) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        var scalars = String.UnicodeScalarView()
        for byte in bytes {
            if byte < 0x80 {
                scalars.append(Unicode.Scalar(byte))
            } else {
                scalars.append(cp437High[Int(byte) - 0x80])
            }
        }
        return String(scalars)
    }

    private static let cp437High: [Unicode.Scalar] = Array(
        ("ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀"
            + "αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{00A0}").unicodeScalars)
}
