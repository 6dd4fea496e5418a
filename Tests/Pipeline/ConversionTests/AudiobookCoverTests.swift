import EPUBReader
import Foundation
import TestSupport
import Testing

@testable import Conversion
@testable import TagEditing

/// `AudiobookCover`: which pictures are covers, their FLAC picture block and the folder's cover file.
struct AudiobookCoverTests {
    @Test func coverIsJPEGOrPNGOnly() {
        #expect(AudiobookCover(data: [0xFF, 0xD8, 0xFF, 0xE0])?.fileExtension == "jpg")
        #expect(AudiobookCover(data: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])?.fileExtension == "png")
        #expect(AudiobookCover(data: Array("<svg/>".utf8)) == nil)
    }

    @Test(
        "a picture of 16 pixels or fewer on a side is a placeholder, no cover",
        arguments: [(1, 1, false), (16, 16, false), (16, 400, false), (400, 12, false), (17, 17, true), (24, 36, true)])
    func placeholderCoverIsNoCover(width: Int, height: Int, isCover: Bool) throws {
        let folder = try TemporaryFolder()
        let png = TestImages.png(width: width, height: height)
        var book = SmallEPUB(entries: [SmallEPUB.Entry(title: "One", body: "<p>Text.</p>")])
        book.cover = (png, "png", "image/png")
        let epub = try EPUBBook.open(path: try book.write(into: folder.path))
        #expect((AudiobookCover(book: epub) != nil) == isCover)
        #expect(AudiobookCover(data: png)?.isPlaceholder == !isCover)
    }

    @Test func pictureBlockAndImageSizes() throws {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 1, 0x2C, 0, 0, 0, 0xC8, 8, 6, 0, 0, 0]
        #expect(FLACMetadata.imageSize(png)! == (300, 200, 32))
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 11, 8, 0, 24, 0, 32, 3]
        #expect(FLACMetadata.imageSize(jpeg)! == (32, 24, 24))
        #expect(FLACMetadata.imageSize([0xFF, 0xD8, 0xFF]) == nil)
        let cover = try #require(AudiobookCover(data: jpeg))
        let block = FLACMetadata.picture(cover)
        #expect(Array(block[0..<4]) == [0, 0, 0, 3], "front cover")
        #expect(String(decoding: block[8..<18], as: UTF8.self) == "image/jpeg")
        #expect(Array(block.suffix(jpeg.count)) == jpeg)
        #expect(Data(base64Encoded: FLACMetadata.vorbisCommentPicture(cover)) == Data(block))
    }

    @Test func folderCoverIsWrittenReplacedAndRemoved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("e2a-cover-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = { try FileManager.default.contentsOfDirectory(atPath: directory).sorted() }
        let png = try #require(AudiobookCover(data: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1]))
        let jpeg = try #require(AudiobookCover(data: [0xFF, 0xD8, 0xFF, 0xE0, 2]))
        #expect(try AudiobookCover.updateFolderCover(png, in: directory) == directory + "/cover.png")
        #expect(try files() == ["cover.png"])
        try AudiobookCover.updateFolderCover(jpeg, in: directory)
        #expect(try files() == ["cover.jpg"])
        #expect(FileManager.default.contents(atPath: directory + "/cover.jpg") == Data(jpeg.data))
        #expect(try AudiobookCover.updateFolderCover(nil, in: directory) == nil)
        #expect(try files().isEmpty)
    }
}
