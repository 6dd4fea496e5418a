import Foundation
import TestSupport
import Testing
import ZipReader

/// Archives written by `ZipWriter` and read back by `ZipArchive`.
@Suite struct ZipWriterTests {
    @Test func entriesComeBackInOrderWithTheirContentAndMethod() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/audio.bin"
        try Data([1, 2, 3, 4]).write(to: URL(fileURLWithPath: file))
        let path = folder.path + "/book.epub"
        let writer = try ZipWriter(path: path, modificationTime: 1_800_000_000)
        try writer.add("mimetype", bytes: Array("application/epub+zip".utf8), compressed: false)
        try writer.add("OEBPS/a.xhtml", bytes: Array(String(repeating: "text ", count: 200).utf8))
        try writer.add("OEBPS/é.mp3", contentsOf: file, compressed: false)
        try writer.close()

        let archive = try ZipArchive(path: path)
        #expect(archive.entries.map(\.name) == ["mimetype", "OEBPS/a.xhtml", "OEBPS/é.mp3"])
        #expect(archive.entries.map(\.isStored) == [true, false, true])
        #expect(try archive.read("mimetype") == Array("application/epub+zip".utf8))
        #expect(try archive.read("OEBPS/a.xhtml").count == 1_000)
        #expect(try archive.read("OEBPS/é.mp3") == [1, 2, 3, 4])
        #expect(archive.warnings.isEmpty)
    }

    @Test func theMimetypeEntryHasNoExtraFieldAndStartsAtByte30() throws {
        // EPUB's OCF: `mimetype` first, stored, no extra field, so that its content sits at byte 38.
        let folder = try TemporaryFolder()
        let path = folder.path + "/book.epub"
        let writer = try ZipWriter(path: path, modificationTime: 0)
        try writer.add("mimetype", bytes: Array("application/epub+zip".utf8), compressed: false)
        try writer.close()
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes[28] == 0 && bytes[29] == 0)  // extra field length
        #expect(String(decoding: bytes[30..<38], as: UTF8.self) == "mimetype")
        #expect(String(decoding: bytes[38..<58], as: UTF8.self) == "application/epub+zip")
    }

    @Test func aNameAddedTwiceAndAMissingFileAreReadableErrors() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/book.epub"
        let writer = try ZipWriter(path: path, modificationTime: 0)
        try writer.add("a", bytes: [1])
        #expect(throws: ZipError.self) { try writer.add("a", bytes: [2]) }
        do {
            try writer.add("b", contentsOf: folder.path + "/missing")
            try writer.close()
            Issue.record("a missing file was written")
        } catch let error as ZipError {
            guard case .writeFailed(let archive, _, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(archive == path)
            #expect(error.description.contains(path))
        }
    }

    @Test func aWriterDroppedWithoutClosingLeavesNothing() throws {
        let folder = try TemporaryFolder()
        do {
            let writer = try ZipWriter(path: folder.path + "/book.epub", modificationTime: 0)
            try writer.add("a", bytes: [1])
        }
        #expect(folder.names.isEmpty)
    }
}
