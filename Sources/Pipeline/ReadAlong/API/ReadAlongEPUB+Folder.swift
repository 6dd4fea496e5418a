import Contracts
import Conversion
import Foundation

extension ReadAlongEPUB {
    /// Makes the read-along book of the sections `numbers` (book order) converted into `directory`
    /// from the book at `bookPath`, as `fileName(title:authors:)` in that folder.
    ///
    /// Takes each section's audio and its timing file (`SectionTimingFile`); a section not converted,
    /// or converted by an epub2audio that kept no timing, stays in the book without an overlay (a
    /// warning says which). The folder is locked while the book is written, as for a conversion.
    /// - Returns: what was made, with its warnings.
    /// - Throws: `ReadAlongError` (`.noTiming` when no section has timing); `ConversionError` for the
    ///   folder (no manifest, locked, a timing file that is not ours).
    public static func make(
        bookPath: String, directory: String, numbers: [Int], title: String, authors: [String],
        format: AudioFormat, modified: Date = Date()
    ) throws -> ReadAlongResult {
        guard let manifest = try Manifest.load(fromDirectory: directory) else {
            throw ConversionError.bundleFailed(reason: "\(directory) has no manifest")
        }
        let lock = try FolderLock(directory: directory)
        defer { lock.release() }
        var sections: [ReadAlongSection] = []
        var warnings: [String] = []
        for number in numbers {
            guard let record = manifest.section(number), record.status == .done, let file = record.file else {
                warnings.append("section \(number) is not converted: it stays in the read-along book without audio")
                continue
            }
            guard let timing = try SectionTimingFile.read(directory: directory, section: number) else {
                warnings.append(
                    "section \(number) has no sentence timing: it stays in the read-along book without audio")
                continue
            }
            sections.append(
                ReadAlongSection(number: number, audioPath: OutputPaths.join(directory, file), timing: timing))
        }
        guard !sections.isEmpty else { throw ReadAlongError.noTiming }
        let path = OutputPaths.join(directory, fileName(title: title, authors: authors))
        var result = try write(bookPath: bookPath, sections: sections, format: format, to: path, modified: modified)
        result.warnings = warnings + result.warnings
        return result
    }
}
