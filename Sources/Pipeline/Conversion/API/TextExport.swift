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
    /// each file atomically (`AtomicFile.Batch`: two syncs for a batch of files, not two per file).
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
        var batch = AtomicFile.Batch(directory: directory)
        do {
            for (index, section) in sections.enumerated() where selected.contains(section.number) {
                let blocks: [SpokenBlock]
                do {
                    blocks = try source.blocks(section: section.number)
                } catch {
                    throw ConversionError.sectionFailed(
                        section: section.number, reason: "cannot read its text: \(error)")
                }
                try write(SpokenTextExtractor.plainText(blocks), named: names[index], into: &batch)
                written.append(names[index])
                if batch.count >= batchSize { try commit(&batch) }
            }
            try commit(&batch)
        } catch {
            // What was written before the failure is kept, as the audio of a failed run is.
            try? batch.commit()
            throw error
        }
        return written
    }

    /// Files written between two syncs of the folder's file system.
    static let batchSize = 256

    private static func write(_ text: String, named name: String, into batch: inout AtomicFile.Batch) throws {
        do {
            try batch.add(Data(text.utf8), named: name)
        } catch {
            throw writeFailure(error, path: OutputPaths.join(batch.directory, name))
        }
    }

    private static func commit(_ batch: inout AtomicFile.Batch) throws {
        do {
            try batch.commit()
        } catch {
            throw writeFailure(error, path: batch.directory)
        }
    }

    private static func writeFailure(_ error: any Error, path: String) -> ConversionError {
        (error as? ConversionError) ?? .outputUnwritable(path: path, reason: "\(error)")
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
