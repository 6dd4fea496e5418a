import Contracts
import Foundation
import TestSupport
import Testing

@testable import Conversion

/// `FolderLock`: one run per output folder.
@Suite struct FolderLockTests {
    @Test("a held folder is refused with the reason a user can act on; free again once released")
    func heldThenReleased() throws {
        let folder = try TemporaryFolder()
        let first = try FolderLock(directory: folder.path)
        #expect {
            try FolderLock(directory: folder.path)
        } throws: { error in
            guard case ConversionError.outputUnwritable(_, let reason) = error else { return false }
            return reason.contains("another epub2audio run is converting into this folder")
        }
        first.release()
        try FolderLock(directory: folder.path).release()
    }

    /// A process forked by another thread holds a copy of the descriptor until its `exec`; the
    /// copy made here with `dup` shares the open file description the same way.
    @Test("released while a forked process still holds a copy of the descriptor: the folder is free")
    func releasedWhileACopyIsOpen() throws {
        let folder = try TemporaryFolder()
        let lock = try FolderLock(directory: folder.path)
        let copy = dup(lock.descriptor)
        try #require(copy >= 0)
        defer { close(copy) }
        lock.release()
        try FolderLock(directory: folder.path).release()
    }
}
