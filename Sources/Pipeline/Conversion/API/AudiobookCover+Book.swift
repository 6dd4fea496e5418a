public import EPUBReader
import Foundation
public import TagEditing

extension AudiobookCover {
    /// The book's cover image (EPUB 3 `cover-image`, EPUB 2 `meta name="cover"`) when it is a JPEG or
    /// PNG that can be read; another raster format (GIF, WebP, BMP, TIFF) converted to PNG, or an SVG
    /// drawn into a JPEG, by `ffmpegPath` when given; nil otherwise (no ffmpeg, an image ffmpeg cannot
    /// read, a placeholder of `placeholderSide` pixels or fewer on a side...): a bundle without a
    /// cover is still a good bundle.
    public init?(book: EPUBBook, ffmpegPath: String? = nil) {
        guard let href = book.package.metadata.coverImage, let data = try? book.data(forHref: href) else {
            return nil
        }
        self.init(image: data, ffmpegPath: ffmpegPath)
    }

    /// Puts `cover` beside the section files as `folderFileName` (Audiobookshelf, Plex and most players
    /// show a folder's `cover.jpg`), atomically, leaving a file that already holds these bytes alone, and
    /// removes the other name; with no cover (another book, after `--force`), removes both. Returns
    /// the cover's path, if any. - Throws: `ConversionError.outputUnwritable`.
    @discardableResult
    public static func updateFolderCover(_ cover: AudiobookCover?, in directory: String) throws -> String? {
        for name in folderFileNames where name != cover?.folderFileName {
            unlink(OutputPaths.join(directory, name))
        }
        guard let cover else { return nil }
        let path = OutputPaths.join(directory, cover.folderFileName)
        if let existing = FileManager.default.contents(atPath: path), existing.elementsEqual(cover.data) {
            return path
        }
        do {
            try AtomicFile.write(Data(cover.data), named: cover.folderFileName, in: directory)
        } catch {
            throw ConversionError.outputUnwritable(path: path, reason: "\(error)")
        }
        return path
    }
}
