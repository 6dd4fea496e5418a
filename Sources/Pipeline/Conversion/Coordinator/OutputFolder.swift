import Foundation

/// The output folder of a run: made or checked, locked for the run's length, cleaned of what an
/// interrupted run left, and given its playlist at the end. Nothing is written outside it.
final class OutputFolder: Sendable {
    /// The folder's path (absolute, no trailing slash).
    let path: String
    private let lock: FolderLock

    /// Creates the folder when missing and locks it; refuses a folder with foreign files and no
    /// manifest (unless `allowNonEmpty`).
    /// - Throws: `ConversionError.invalidRequest` without a path, `.outputUnwritable`, `.outputNotEmpty`.
    init(preparing directory: String, allowNonEmpty: Bool) throws {
        path = try Self.prepare(directory, allowNonEmpty: allowNonEmpty)
        lock = try FolderLock(directory: path)
    }

    /// Ends the run's hold on the folder.
    package func release() { lock.release() }

    /// The path of `name` inside the folder.
    func path(of name: String) -> String { OutputPaths.join(path, name) }

    /// Name → size of the files in the folder (`stat` follows links, as opening them would).
    func filesOnDisk() -> [String: Int64] {
        var sizes: [String: Int64] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            if let size = Self.fileSize(path(of: name)) { sizes[name] = size }
        }
        return sizes
    }

    /// Removes `names` (files the plan found ours and unlisted), then what an interrupted run left.
    func remove(_ names: Set<String>) {
        for name in names { unlink(path(of: name)) }
        removeStaleFiles()
    }

    /// Removes `.part` files, temp files and a bundle's working folder left by an interrupted run
    /// (only names we make).
    func removeStaleFiles() {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in entries where Self.isOurPartFile(name) || name.hasPrefix(AtomicFile.tempPrefix) {
            let file = path(of: name)
            if unlink(file) != 0, errno == EISDIR, name.hasPrefix(AtomicFile.tempPrefix) {
                // `AudiobookBundler`'s working folder (removing it removes links, never their targets).
                try? FileManager.default.removeItem(atPath: file)
            }
        }
    }

    /// Every finished section of the book, in book order, this run's and earlier runs' alike: a
    /// run of `--chapters 3` after the whole book no longer leaves a playlist of one chapter.
    func writePlaylist(_ manifest: Manifest) throws {
        try AtomicFile.write(Data(Playlist.text(for: manifest).utf8), named: Playlist.fileName, in: path)
    }

    /// `NNN - Title.ext.part`: a section file in the making.
    static func isOurPartFile(_ name: String) -> Bool {
        guard name.hasSuffix(".part") else { return false }
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        return digits.count >= 3 && name.dropFirst(digits.count).hasPrefix(" - ")
    }

    /// The size of the file at `path`, following links; nil when there is none.
    static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    private static func prepare(_ requested: String, allowNonEmpty: Bool) throws -> String {
        var directory = requested
        guard !directory.isEmpty else { throw ConversionError.invalidRequest("no output folder given") }
        while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ConversionError.outputUnwritable(path: directory, reason: "it exists and is not a folder")
            }
        } else {
            do {
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw PosixFailure.map(error, path: directory)
                    ?? ConversionError.outputUnwritable(path: directory, reason: "cannot create the folder")
            }
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw ConversionError.outputUnwritable(path: directory, reason: String(cString: strerror(errno)))
        }
        let manifestPath = OutputPaths.join(directory, Manifest.fileName)
        if !manager.fileExists(atPath: manifestPath) && !allowNonEmpty {
            let entries = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
            if entries.contains(where: { !$0.hasPrefix(AtomicFile.tempPrefix) }) {
                throw ConversionError.outputNotEmpty(path: directory)
            }
        }
        return directory
    }
}

/// An exclusive `flock` on the output folder itself for the length of a run.
///
/// Two runs into one folder (a command started twice) removed each other's `.part` files and raced
/// on the manifest: one failed with a baffling "No such file or directory", and with different
/// settings the manifest could describe files made with other settings. The lock lives on the
/// folder's descriptor (no lock file to leave behind), opened close-on-exec so workers do not hold
/// it, and the kernel drops it when the process dies, even by `kill -9`.
///
/// `release()` unlocks before it closes. A `flock` belongs to the open file description, and a
/// process forked by another thread (a job slot's fork server, ffmpeg, another job of the service)
/// holds a copy of every descriptor until its `exec` closes the close-on-exec ones: closing ours
/// alone left the folder locked for that instant, and a bundle made right after its conversion
/// was refused as "another epub2audio run".
package final class FolderLock: Sendable {
    /// The folder's descriptor, holding the lock (internal for the test that copies it as a fork would).
    package let descriptor: Int32

    package init(directory: String) throws {
        descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ConversionError.outputUnwritable(path: directory, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason =
                busy
                ? "another epub2audio run is converting into this folder; wait for it to finish"
                : String(cString: strerror(errno))
            close(descriptor)
            throw ConversionError.outputUnwritable(path: directory, reason: reason)
        }
    }

    package func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
