import Foundation

/// A section made by a run of its own, in a folder of its own (the service makes each section of a
/// job as a task, on any of its machines).
public struct MadeSection: Hashable, Sendable {
    /// The section number.
    public var section: Int
    /// The folder its run wrote.
    public var directory: String
    /// Its audio file's name in that folder.
    public var file: String

    /// A section made in `directory`.
    public init(section: Int, directory: String, file: String) {
        self.section = section
        self.directory = directory
        self.file = file
    }
}

/// Puts sections made in folders of their own together, as one run would have left them.
public enum SectionedOutput {
    /// Why the sections cannot be put together.
    public struct MergeError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is missing.
        public var description: String
    }

    /// Moves the sections' files (the audio and its timing file, when the run wrote one) into
    /// `outputDirectory` and writes there one manifest (each section's
    /// record from its own run; a section of `planned` that was not made is failed, one not planned
    /// and not done is skipped) and the playlist of the sections made; returns their audio length.
    /// - Throws: `MergeError` when a section's manifest or file is missing, or nothing was made;
    ///   the file system's errors.
    public static func merge(_ made: [MadeSection], planned: [Int], into outputDirectory: String) throws -> Double {
        try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        var manifest: Manifest?
        var records: [Int: SectionRecord] = [:]
        for section in made {
            guard let run = try Manifest.load(fromDirectory: section.directory),
                let record = run.section(section.section)
            else { throw MergeError(description: "section \(section.section): its manifest is missing") }
            if manifest == nil { manifest = run }
            records[section.section] = record
            let target = outputDirectory + "/" + section.file
            if !FileManager.default.fileExists(atPath: target) {
                guard rename(section.directory + "/" + section.file, target) == 0 else {
                    throw MergeError(description: "section \(section.section): cannot move \(section.file)")
                }
            }
            // Subtitles and the read-along book are made from it; a section made without one has none.
            let timing = SectionTiming.fileName(section: section.section)
            _ = rename(section.directory + "/" + timing, outputDirectory + "/" + timing)
        }
        guard var manifest else { throw MergeError(description: "no section was made") }
        manifest.journal = nil
        for index in manifest.sections.indices {
            let number = manifest.sections[index].number
            if let record = records[number] {
                manifest.sections[index] = record
            } else if planned.contains(number) {
                manifest.sections[index].status = .failed
            } else if manifest.sections[index].status != .done {
                manifest.sections[index].status = .skipped
            }
        }
        try manifest.write(toDirectory: outputDirectory)
        let entries = manifest.sections.filter { $0.status == .done && $0.file != nil && records[$0.number] != nil }
            .map { Playlist.Entry(title: $0.title, file: $0.file ?? "", durationSeconds: $0.durationSeconds ?? 0) }
        try Data(Playlist.text(entries).utf8).write(
            to: URL(fileURLWithPath: outputDirectory + "/" + Playlist.fileName), options: .atomic)
        return entries.reduce(0) { $0 + $1.durationSeconds }
    }
}
