import Foundation
import TagEditing

extension WorkerJob {
    /// Completes the tags of the job's finished file: embeds its cover, and in MP3 the title, album
    /// and artist that Latin-1 cannot hold (`ID3v2.unicodeTexts`). A part of a long section is raw
    /// PCM: its section takes them once its parts are joined (`ConversionRun`), with this same call.
    ///
    /// - Throws: `ConversionError.sectionFailed` when the file or the cover is not as expected, a
    ///   POSIX failure (disk full) as the pipeline maps it.
    func completeTags() throws {
        guard part == nil else { return }
        let format = settings.encoding.format
        let texts = format == .mp3 ? ID3v2.unicodeTexts(tags) : []
        guard coverPath != nil || CoverArt.edits(format, cover: nil, texts: texts) else { return }
        do {
            let cover = try coverPath.map { try CoverArt.cover(at: $0, expectedSHA256: coverFileSHA256) }
            try CoverArt.embed(cover, texts: texts, format: format, inFileAt: partPath)
        } catch TagEditingError.malformed(let reason) {
            throw ConversionError.sectionFailed(
                section: section, reason: "cannot complete the tags of \(partPath): \(reason)")
        } catch {
            throw PosixFailure.map(error, path: partPath) ?? error
        }
    }
}
