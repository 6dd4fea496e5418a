import Contracts

/// The cover picture attached to a bundle: JPEG or PNG bytes, copied as they are.
public struct AudiobookCover: Hashable, Sendable {
    /// The image file's bytes.
    public var data: [UInt8]
    /// `jpg` or `png`, from the bytes' signature.
    public var fileExtension: String
    /// What the cover is made from, as SHA-256: of `data` for a picture the book holds as it is; of
    /// the conversion's recipe and the book's image for a converted one (`CoverConversion`). Resume
    /// and the bundle compare this, never the converted bytes: an identical book with identical
    /// options is done whatever the converter (ffmpeg's version, its decoders) makes of it today.
    public var sourceSHA256: String

    /// Nil unless `data` starts with a JPEG or PNG signature (other formats are not attached). The
    /// picture is its own source (`sourceSHA256` is the hash of `data`).
    public init?(data: [UInt8]) {
        self.init(data: data, sourceSHA256: SHA256.hex(data))
    }

    /// A picture made from another (`sourceSHA256` names that source and how it was converted).
    package init?(data: [UInt8], sourceSHA256: String) {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            fileExtension = "jpg"
        } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            fileExtension = "png"
        } else {
            return nil
        }
        self.data = data
        self.sourceSHA256 = sourceSHA256
    }
}

extension AudiobookCover {
    /// A picture this small on a side is no cover: a 1×1 spacer or a placeholder icon a converter
    /// left where the book has none. Embedded, it showed as a blank tile in players.
    public static let placeholderSide = 16

    /// The picture `data` as a cover: a JPEG or PNG as it is; another raster format (GIF, WebP, BMP,
    /// TIFF) converted to PNG, or an SVG drawn into a JPEG, by `ffmpegPath` when given (`CoverConversion`);
    /// nil otherwise (no ffmpeg, an image ffmpeg cannot read, a placeholder of `placeholderSide` pixels
    /// or fewer on a side...).
    package init?(image data: [UInt8], ffmpegPath: String?) {
        let cover: AudiobookCover
        if let asItIs = AudiobookCover(data: data) {
            cover = asItIs
        } else if let ffmpegPath, let converted = CoverConversion.cover(from: data, ffmpegPath: ffmpegPath) {
            cover = converted
        } else {
            return nil
        }
        guard !cover.isPlaceholder else { return nil }
        self = cover
    }

    /// Whether the picture is `placeholderSide` pixels or fewer on a side (from its header; a
    /// picture whose header gives no size is taken as it is).
    public var isPlaceholder: Bool {
        guard let size = FLACMetadata.imageSize(data) else { return false }
        return min(size.width, size.height) <= Self.placeholderSide
    }

    /// Whether `data` starts like a raster image ffmpeg reads that players do not take as a cover:
    /// GIF, WebP, BMP or TIFF.
    public static func isConvertibleRaster(_ data: [UInt8]) -> Bool {
        data.starts(with: Array("GIF8".utf8)) || data.starts(with: Array("BM".utf8))
            || (data.starts(with: Array("RIFF".utf8)) && data.count > 12 && Array(data[8..<12]) == Array("WEBP".utf8))
            || data.starts(with: [0x49, 0x49, 0x2A, 0x00]) || data.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }

    /// `cover.jpg` or `cover.png`: the cover's name beside the section files.
    public var folderFileName: String { "cover.\(fileExtension)" }

    /// The names a folder cover can have; in an output folder they are epub2audio's file names.
    public static let folderFileNames = ["cover.jpg", "cover.png"]
}
