public import Contracts
public import Conversion
import Foundation

/// What `SubtitleFiles.write` and `writeBook` did.
public struct SubtitleResult: Hashable, Sendable {
    /// The subtitle files written, by name, in book order.
    public var files: [String] = []
    /// A line for each section left out (its timing file is missing: made by an older run).
    public var warnings: [String] = []

    /// A result.
    public init(files: [String] = [], warnings: [String] = []) {
        self.files = files
        self.warnings = warnings
    }
}

/// Writes subtitle files into an output folder from what a run left there: the manifest (which
/// sections are done, their file names and lengths) and each section's timing file
/// (`SectionTiming.fileName(section:)`).
///
/// A stage after the conversion, like the bundle: a section finished in an earlier run gets its
/// subtitles from its timing file as well as one made now. A section's file takes its audio file's
/// name with the subtitle extension (`007 - Title.mp3` → `007 - Title.vtt`); the whole book's, the
/// bundle's name. Subtitle files are not sections: the manifest and the playlist never list them.
public enum SubtitleFiles {
    /// `name` with its extension replaced by the subtitle format's.
    public static func fileName(replacingExtensionOf name: String, format: SubtitleFormat) -> String {
        let base = (name as NSString).deletingPathExtension
        return (base.isEmpty ? name : base) + "." + format.fileExtension
    }

    /// Writes the subtitles of each finished section of `numbers` beside its audio in `directory`.
    /// A section whose timing file is missing or unreadable gets a warning, not a file.
    /// - Throws: `ConversionError.bundleFailed` without a manifest; `.outputUnwritable` when a file
    ///   cannot be written.
    public static func write(directory: String, numbers: [Int], options: SubtitleOptions) throws -> SubtitleResult {
        let manifest = try manifest(in: directory)
        var result = SubtitleResult()
        for record in records(of: manifest, numbers: numbers) {
            guard let file = record.file else { continue }
            switch timing(of: record, in: directory) {
            case .success(let timing):
                let name = fileName(replacingExtensionOf: file, format: options.format)
                let cues = SubtitleLayout.cues(for: timing)
                try save(SubtitleDocument.text(cues, format: options.format, words: options.words), name, directory)
                result.files.append(name)
            case .failure(let problem):
                result.warnings.append(problem.description)
            }
        }
        removeStale(in: directory, manifest: manifest, format: options.format, numbers: numbers)
        return result
    }

    /// Removes the subtitles of `format` an earlier run wrote for a section of `numbers` under a name
    /// its audio no longer has (the book retitled it): `NNN - Old Title.vtt` beside `NNN - New Title.mp3`.
    /// Only names of our pattern, only for these sections, never one a section of the manifest has now.
    static func removeStale(in directory: String, manifest: Manifest, format: SubtitleFormat, numbers: [Int]) {
        let current = Set(
            manifest.sections.compactMap { $0.file.map { fileName(replacingExtensionOf: $0, format: format) } })
        let prefixes = Set(numbers.map { OutputNaming.paddedNumber($0) + " - " })
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in entries where name.hasSuffix("." + format.fileExtension) && !current.contains(name) {
            guard let dash = name.range(of: " - "),
                prefixes.contains(String(name[..<dash.lowerBound]) + " - "), OutputPaths.isSafeComponent(name)
            else { continue }
            unlink(OutputPaths.join(directory, name))
        }
    }

    /// Writes one subtitle file for the whole book, named `fileName`, with each finished section of
    /// `numbers` at its start in the audio bundle (the sum of the lengths before it, in the
    /// manifest's order, as `AudiobookBundler` joins them). A section without timing keeps its place
    /// and shows nothing (a warning says so); without any length for it the file is not written.
    /// - Throws: as `write`.
    public static func writeBook(
        directory: String, numbers: [Int], options: SubtitleOptions, fileName: String
    ) throws -> SubtitleResult {
        let manifest = try manifest(in: directory)
        var result = SubtitleResult()
        var sections: [(timing: SectionTiming?, frames: Int, sampleRate: Int)] = []
        for record in records(of: manifest, numbers: numbers) {
            switch timing(of: record, in: directory) {
            case .success(let timing):
                sections.append(
                    (timing, record.frames ?? timing.frames, record.sampleRate ?? timing.sampleRate))
            case .failure(let problem):
                result.warnings.append(problem.description)
                guard let frames = record.frames, let rate = record.sampleRate else {
                    result.warnings.append(
                        "the book's subtitles were not written: the length of section \(record.number) is unknown")
                    return result
                }
                sections.append((nil, frames, rate))
            }
        }
        let offsets = SubtitleLayout.offsets(lengths: sections.map { ($0.frames, $0.sampleRate) })
        let placed = zip(sections, offsets).compactMap { section, offset in
            section.timing.map { (timing: $0, offsetSeconds: offset) }
        }
        let cues = SubtitleLayout.cues(for: placed)
        try save(SubtitleDocument.text(cues, format: options.format, words: options.words), fileName, directory)
        result.files.append(fileName)
        return result
    }

    /// Why a section has no subtitles.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// No timing file: the section was made by a version that wrote none.
        case missing(section: Int, title: String)
        /// A timing file that cannot be read.
        case unreadable(section: Int, title: String, reason: String)

        /// One line naming the section.
        public var description: String {
            switch self {
            case .missing(let section, let title):
                "section \(section) (\(title)) has no timing file (made by an older run): no subtitles for it; "
                    + "--force remakes it"
            case .unreadable(let section, let title, let reason):
                "section \(section) (\(title)) has no subtitles: \(reason)"
            }
        }
    }

    /// The timing of a finished section, from its file in `directory` (`SectionTimingFile.read`).
    public static func timing(of record: SectionRecord, in directory: String) -> Result<SectionTiming, Problem> {
        do {
            guard let timing = try SectionTimingFile.read(directory: directory, section: record.number) else {
                return .failure(.missing(section: record.number, title: record.title))
            }
            return .success(timing)
        } catch {
            return .failure(.unreadable(section: record.number, title: record.title, reason: "\(error)"))
        }
    }

    private static func manifest(in directory: String) throws -> Manifest {
        guard let manifest = try Manifest.load(fromDirectory: directory) else {
            throw ConversionError.bundleFailed(reason: "\(directory) has no manifest")
        }
        return manifest
    }

    /// The finished sections of `numbers`, in the manifest's (book) order.
    private static func records(of manifest: Manifest, numbers: [Int]) -> [SectionRecord] {
        let wanted = Set(numbers)
        return manifest.sections.filter { wanted.contains($0.number) && $0.status == .done && $0.file != nil }
    }

    private static func save(_ text: String, _ name: String, _ directory: String) throws {
        try AtomicFile.write(Data(text.utf8), named: name, in: directory)
    }
}
