internal import BookText
import Contracts
import Foundation

/// Writes the exact text a conversion would speak, one `.txt` file per selected section, named
/// as the audio files will be (`NNN - Title.txt`), without synthesizing anything (`--text`).
public enum TextExport {
    /// The files written, in book order (names inside `request.outputDirectory`).
    ///
    /// Uses the same section source, selection and text options as a conversion, so the text is
    /// what the engine would receive (after normalisation). Writes only inside the output folder,
    /// each file atomically.
    /// - Throws: `ConversionError` (unreadable book, unknown section, unwritable folder).
    public static func run(_ request: ConversionRequest, environment: ConversionEnvironment) throws -> [String] {
        let source = try environment.source(for: request)
        let sections = source.sections
        let selected = try request.selection.numbers(in: sections)
        let directory = request.outputDirectory
        let names = OutputNaming.fileNames(for: sections.map { ($0.number, $0.fileTitle) }, fileExtension: "txt")
        try refuseForeignFiles(in: directory, ours: Set(names), allowed: request.allowNonEmptyOutput)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ConversionError.outputUnwritable(path: directory, reason: "cannot create the folder")
        }
        var written: [String] = []
        for (index, section) in sections.enumerated() where selected.contains(section.number) {
            let blocks: [SpokenBlock]
            do {
                blocks = try source.blocks(section: section.number)
            } catch {
                throw ConversionError.sectionFailed(section: section.number, reason: "cannot read its text: \(error)")
            }
            let text = SpokenTextExtractor.plainText(blocks)
            do {
                try AtomicFile.write(Data(text.utf8), named: names[index], in: directory)
            } catch let error as ConversionError {
                throw error
            } catch {
                throw ConversionError.outputUnwritable(
                    path: OutputPaths.join(directory, names[index]), reason: "\(error)")
            }
            written.append(names[index])
        }
        return written
    }

    /// The conversion's ownership rule, for text files: a folder holding other files than ours and no
    /// manifest is refused (`outputNotEmpty`) unless the caller allows it. Ours: the `.txt` names this
    /// book's sections get (a repeated `--text`), and anything in a folder with a manifest (an audio
    /// folder of ours). Without this, `--text -o ~/Documents` would write into, and could replace
    /// files in, a folder the user keeps other things in.
    private static func refuseForeignFiles(in directory: String, ours: Set<String>, allowed: Bool) throws {
        guard !allowed, !directory.isEmpty else { return }
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        if manager.fileExists(atPath: OutputPaths.join(directory, Manifest.fileName)) { return }
        let entries = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
        if entries.contains(where: { !ours.contains($0) && !$0.hasPrefix(AtomicFile.tempPrefix) }) {
            throw ConversionError.outputNotEmpty(path: directory)
        }
    }
}
