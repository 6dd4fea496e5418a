import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// File-scope wrappers: inside `AtomicFile` the names `write` and `rename` mean its own methods.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

/// Atomic replacement of a small file inside a folder: temp file, fsync, rename, fsync of the folder.
///
/// After a crash at any point the file holds either the old or the new contents, never a mix.
package enum AtomicFile {
    /// Prefix of temp files; files starting with it are ours and removed as stale at start.
    package static let tempPrefix = ".epub2audio-tmp-"

    package static func write(_ data: Data, named name: String, in directory: String) throws {
        try write(data, named: name, in: directory, sync: true)
    }

    /// `write` without the fsyncs, for a file that is as durable as the audio beside it (not synced
    /// either; the manifest's journal syncs the folder before it records the section): a rename still
    /// never shows a half-written file to a reader while the machine runs.
    static func writeLeavingSyncToTheJournal(_ data: Data, named name: String, in directory: String) throws {
        try write(data, named: name, in: directory, sync: false)
    }

    private static func write(_ data: Data, named name: String, in directory: String, sync: Bool) throws {
        let target = OutputPaths.join(directory, name)
        let temp = try writeTemporary(data, for: target, named: name, in: directory, sync: sync)
        guard posixRename(temp, target) == 0 else {
            let failure = PosixFailure.error(errno, path: target)
            unlink(temp)
            throw failure
        }
        if sync { syncDirectory(directory) }
    }

    /// Writes `data` to a new temp file beside `target` (fsynced when `sync`); returns its path. No
    /// temp file is left behind when this throws.
    private static func writeTemporary(
        _ data: Data, for target: String, named name: String, in directory: String, sync: Bool
    ) throws -> String {
        let temp = OutputPaths.join(directory, "\(tempPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)")
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PosixFailure.error(errno, path: target) }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        do {
            try writeAll(data, to: fd, path: target)
            if sync, fsync(fd) != 0 { throw PosixFailure.error(errno, path: target) }
            closed = true
            guard close(fd) == 0 else { throw PosixFailure.error(errno, path: target) }
        } catch {
            unlink(temp)
            throw error
        }
        return temp
    }

    /// Many files of one folder replaced atomically, as `write` replaces one, with two syncs for a
    /// whole batch instead of two per file: each file goes to a temp file, unsynced; `commit` makes
    /// them all durable at once (`syncfs`), renames each over its target, then syncs the folder.
    /// `--text` of a book of 2,000 sections made 4,000 fsyncs, and most of its time was spent there.
    struct Batch {
        let directory: String
        private var pending: [(temp: String, target: String)] = []

        init(directory: String) { self.directory = directory }

        /// Files written and not yet committed.
        var count: Int { pending.count }

        /// Writes `data` for the file `name`, which appears at `commit`.
        mutating func add(_ data: Data, named name: String) throws {
            let target = OutputPaths.join(directory, name)
            pending.append((try writeTemporary(data, for: target, named: name, in: directory, sync: false), target))
        }

        /// Makes the files added since the last commit durable, then puts each in its place. On a
        /// failure, the temp files not renamed yet are removed.
        mutating func commit() throws {
            guard !pending.isEmpty else { return }
            let files = pending
            pending = []
            var renamed = 0
            defer { for file in files[renamed...] { unlink(file.temp) } }
            try syncFileSystem(of: directory, path: files[0].target)
            for file in files {
                guard posixRename(file.temp, file.target) == 0 else {
                    throw PosixFailure.error(errno, path: file.target)
                }
                renamed += 1
            }
            syncDirectory(directory)
        }
    }

    /// `syncfs` of the file system that holds `directory`: every file written there is durable after
    /// (`sync` where the C library has no `syncfs`).
    private static func syncFileSystem(of directory: String, path: String) throws {
        guard let syncfs = syncfsFunction else { return sync() }
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw PosixFailure.error(errno, path: path) }
        defer { close(fd) }
        guard syncfs(fd) == 0 else { throw PosixFailure.error(errno, path: path) }
    }

    /// `syncfs(2)`: a GNU extension, which the C library's Swift module does not import.
    private static let syncfsFunction: (@convention(c) (Int32) -> Int32)? = CLibrary.function(named: "syncfs")

    /// Writes all of `data` to `fd` (retrying short writes and EINTR); errors name `path`.
    static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = posixWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw PosixFailure.error(errno, path: path)
                }
                offset += written
            }
        }
    }

    /// Renames `from` to `to` (same folder) and makes the rename durable.
    package static func rename(from: String, to: String, in directory: String) throws {
        try renameLeavingSyncToTheJournal(from: from, to: to)
        syncDirectory(directory)
    }

    /// Renames `from` to `to` (same folder), leaving the folder's fsync to the manifest's journal
    /// writer, which makes the folder durable before it writes the records queued since: once per
    /// group of records instead of once per file, and not on the job slot's thread. The record that
    /// names the file is queued after the rename, so it never becomes durable before the rename.
    static func renameLeavingSyncToTheJournal(from: String, to: String) throws {
        guard posixRename(from, to) == 0 else { throw PosixFailure.error(errno, path: to) }
    }

    /// fsync of a folder so a rename inside it survives a power cut; best effort.
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// The one place that turns an errno into a `ConversionError`.
package enum PosixFailure {
    package static func error(_ code: Int32, path: String) -> ConversionError {
        if code == ENOSPC || code == EDQUOT { return .diskFull(path: path) }
        if code == EFBIG { return .outputUnwritable(path: path, reason: "the file size limit was reached (ulimit -f)") }
        return .outputUnwritable(path: path, reason: String(cString: strerror(code)))
    }

    /// Maps an error thrown by an audio sink or Foundation to a `ConversionError` when it is an I/O one.
    package static func map(_ error: any Error, path: String) -> ConversionError? {
        if let conversion = error as? ConversionError { return conversion }
        if let posix = error as? POSIXError { return self.error(posix.code.rawValue, path: path) }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return self.error(Int32(ns.code), path: path) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return self.error(Int32(underlying.code), path: path)
        }
        if ns.domain == NSCocoaErrorDomain && ns.code == NSFileWriteOutOfSpaceError { return .diskFull(path: path) }
        let text = "\(error)".lowercased()
        if text.contains("no space left") { return .diskFull(path: path) }
        if text.contains("file too large") { return self.error(EFBIG, path: path) }
        return nil
    }
}
