import TestSupport
import Testing

@testable import ZipReader

@Suite struct ZipArchiveTests {
    @Test func listsAndReadsEntries() throws {
        let zip = makeZip([.stored("mimetype", "application/epub+zip"), .deflatedZeros("zeros.bin", count: 10_000)])
        let archive = try ZipArchive(bytes: zip, name: "t.zip")
        #expect(archive.entries.map(\.name) == ["mimetype", "zeros.bin"])
        #expect(archive.entries[0].isStored)
        #expect(archive.entries[1].compressionMethod == 8)
        #expect(archive.entries[1].uncompressedSize == 10_000)
        #expect(try archive.read("mimetype") == Array("application/epub+zip".utf8))
        #expect(try archive.read(index: 1) == [UInt8](repeating: 0, count: 10_000))
        #expect(archive.totalBytesRead == 10_020)
        #expect(throws: ZipError.entryNotFound(archive: "t.zip", name: "nope")) { try archive.read("nope") }
    }

    @Test(arguments: [
        ("empty", [UInt8]()),
        ("html", Array("<html><body>not a zip</body></html>".utf8)),
        ("png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 100)),
    ])
    func refusesNonZips(name: String, bytes: [UInt8]) {
        #expect {
            try ZipArchive(bytes: bytes, name: name)
        } throws: { error in
            guard case ZipError.cannotOpen(let archive, let reason) = error else { return false }
            return archive == name && !reason.isEmpty
        }
    }

    @Test func refusesTruncatedZip() {
        let zip = makeZip([.stored("a.txt", String(repeating: "abc", count: 100)), .stored("b.txt", "b")])
        for length in [zip.count - 10, zip.count / 2, 30] {
            #expect(throws: ZipError.self) { try ZipArchive(bytes: Array(zip.prefix(length))) }
        }
    }

    @Test func anEntryTheDirectoryPutsOutsideTheFileIsADamagedArchive() throws {
        // The central directory's local-header offset of the second entry, far past the end.
        var zip = makeZip([.stored("mimetype", "application/epub+zip"), .stored("b.txt", "b")])
        let signature: [UInt8] = [0x50, 0x4B, 0x01, 0x02]
        let last = (0..<zip.count - 3).last { Array(zip[$0..<$0 + 4]) == signature }
        let directory = try #require(last)
        zip.replaceSubrange(directory + 42..<directory + 46, with: [0xF0, 0xFF, 0xFF, 0x7F])
        let archive = try ZipArchive(bytes: zip, name: "t.zip")
        #expect {
            try archive.read("b.txt")
        } throws: { error in
            guard case ZipError.readFailed(_, "b.txt", let reason) = error else { return false }
            return reason == "the archive's directory puts it outside the file: a damaged archive"
        }
    }

    @Test func refusesMissingFile() {
        #expect(throws: ZipError.self) { try ZipArchive(path: "/nonexistent/dir/book.epub") }
    }

    @Test func refusesHighCompressionRatioBeforeReading() throws {
        let limits = ZipLimits(
            maxEntryBytes: 1 << 30, maxCompressionRatio: 100, ratioCheckThreshold: 1024, maxTotalBytes: 1 << 30,
            maxEntries: 100)
        let archive = try ZipArchive(bytes: makeZip([.deflatedZeros("bomb.xhtml", count: 200_000)]), limits: limits)
        #expect {
            try archive.read("bomb.xhtml")
        } throws: { error in
            guard case ZipError.limitExceeded(_, let name, let what) = error else { return false }
            return name == "bomb.xhtml" && what.contains("ratio")
        }
        #expect(archive.totalBytesRead == 0)
    }

    @Test func refusesHugeDeclaredSize() throws {
        let archive = try ZipArchive(
            bytes: makeZip([.stored("big.xhtml", "tiny").declaring(size: 4_294_967_280)]))
        #expect {
            try archive.read("big.xhtml")
        } throws: { error in
            guard case ZipError.limitExceeded(_, _, let what) = error else { return false }
            return what.contains("declares")
        }
    }

    @Test func refusesEntryLargerThanDeclared() throws {
        // libzip does not check: 100,000 bytes come out of an entry declaring 1,000.
        let archive = try ZipArchive(
            bytes: makeZip([.deflatedZeros("liar.xhtml", count: 100_000).declaring(size: 1000)]))
        #expect {
            try archive.read("liar.xhtml")
        } throws: { error in
            switch error {
            case ZipError.limitExceeded(_, _, let what): return what.contains("more than")
            case ZipError.readFailed: return true  // libzip's CRC check may fire first
            default: return false
            }
        }
    }

    @Test func enforcesTotalBudget() throws {
        let limits = ZipLimits(
            maxEntryBytes: 1 << 20, maxCompressionRatio: 1000, ratioCheckThreshold: 1 << 20, maxTotalBytes: 25_000,
            maxEntries: 100)
        let archive = try ZipArchive(bytes: makeZip([.deflatedZeros("a", count: 10_000)]), limits: limits)
        _ = try archive.read("a")
        _ = try archive.read("a")
        #expect(throws: ZipError.self) { try archive.read("a") }
    }

    @Test func refusesEncryptedEntries() throws {
        let archive = try ZipArchive(bytes: makeZip([.stored("secret.xhtml", "xxxxxxxxxxxxxxxx").encrypted()]))
        #expect(archive.entries[0].isEncrypted)
        #expect {
            try archive.read("secret.xhtml")
        } throws: { error in
            guard case ZipError.encryptedEntry(_, let name, let method) = error else { return false }
            return name == "secret.xhtml" && method.contains("ZipCrypto")
        }
    }

    @Test func refusesUnsupportedCompression() throws {
        var entry = TestZipEntry.stored("odd.xhtml", "data")
        entry.method = 97  // WavPack
        let archive = try ZipArchive(bytes: makeZip([entry]))
        #expect(throws: ZipError.unsupportedCompression(archive: "<memory>", name: "odd.xhtml", method: 97)) {
            try archive.read("odd.xhtml")
        }
    }

    @Test func traversalNamesAreListedVerbatimAndNeverTouchTheFileSystem() throws {
        let names = [
            "../../../../tmp/zipslip.txt", "/tmp/absolute.txt", "..\\..\\windows.txt", "EPUB/../../nested.txt",
        ]
        let archive = try ZipArchive(bytes: makeZip(names.map { .stored($0, "evil") }))
        #expect(archive.entries.map(\.name) == names)
        for name in names { #expect(try archive.read(name) == Array("evil".utf8)) }
    }

    @Test func nonUTF8NamesDecodeAsCP437() throws {
        var entry = TestZipEntry.stored("x", "data")
        entry.name = Array("caf".utf8) + [0x82] + Array(".xhtml".utf8)  // é in CP437
        let archive = try ZipArchive(bytes: makeZip([entry]))
        #expect(archive.entries[0].name == "caf\u{E9}.xhtml")
        #expect(archive.entries[0].rawName == entry.name)
        #expect(ZipArchive.decodeName(Array(0x80...0xFF)).unicodeScalars.count == 128)
    }

    @Test func duplicateNamesOpenWithWarningAndFirstWins() throws {
        let archive = try ZipArchive(bytes: makeZip([.stored("a.txt", "first"), .stored("a.txt", "second")]))
        #expect(archive.entries.count == 2)
        #expect(!archive.warnings.isEmpty)
        #expect(try archive.read("a.txt") == Array("first".utf8))
    }
}
