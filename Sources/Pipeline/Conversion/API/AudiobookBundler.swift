internal import AudioFiles
public import EPUBReader
import Foundation

/// `--bundle`: the one-file audiobook formats made from the finished section files.
public enum BundleFormat: String, Hashable, Sendable, Codable, CaseIterable {
    /// MPEG-4 audiobook: AAC-LC in the `ipod` muxer, chapters, iTunes tags (through ffmpeg).
    case m4b

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }
}

/// The tags of a bundle, from the book's metadata.
public struct AudiobookMetadata: Hashable, Sendable {
    public var title: String
    public var authors: [String]
    /// `dc:date` as written in the book (players show its year).
    public var date: String?
    /// `dc:description`.
    public var description: String?

    public init(title: String, authors: [String] = [], date: String? = nil, description: String? = nil) {
        self.title = title
        self.authors = authors
        self.date = date
        self.description = description
    }
}

extension AudiobookMetadata {
    /// The tags of `book`: `title` (the caller's clean title: the metadata's, or the file's name when
    /// there is none), its authors, `dc:date` and `dc:description`.
    public init(book: EPUBBook, title: String) {
        let metadata = book.package.metadata
        self.init(title: title, authors: metadata.authors, date: metadata.date, description: metadata.description)
    }
}

/// The cover picture attached to a bundle: JPEG or PNG bytes, copied as they are.
public struct AudiobookCover: Hashable, Sendable {
    public var data: [UInt8]
    /// `jpg` or `png`, from the bytes' signature.
    public var fileExtension: String

    /// Nil unless `data` starts with a JPEG or PNG signature (other formats are not attached).
    public init?(data: [UInt8]) {
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            fileExtension = "jpg"
        } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            fileExtension = "png"
        } else {
            return nil
        }
        self.data = data
    }
}

extension AudiobookCover {
    /// The book's cover image (EPUB 3 `cover-image`, EPUB 2 `meta name="cover"`) when it is a JPEG or
    /// PNG that can be read; nil otherwise: a bundle without a cover is still a good bundle.
    public init?(book: EPUBBook) {
        guard let href = book.package.metadata.coverImage, let data = try? book.data(forHref: href) else {
            return nil
        }
        self.init(data: data)
    }
}

/// One chapter of a bundle: a section file and where its first frame lands in the whole.
public struct AudiobookChapter: Hashable, Sendable {
    public var title: String
    /// The section's file name inside the output folder.
    public var file: String
    /// Frames of all the sections before this one.
    public var startFrame: Int
    public var frames: Int

    public init(title: String, file: String, startFrame: Int, frames: Int) {
        self.title = title
        self.file = file
        self.startFrame = startFrame
        self.frames = frames
    }
}

/// What `AudiobookBundler.bundle` did.
public struct BundleResult: Hashable, Sendable {
    /// The bundle's path.
    public var path: String
    /// False when the bundle was already up to date (no section changed) and was left alone.
    public var rebuilt: Bool
    public var chapters: Int
}

/// Makes one audiobook file from the finished sections of an output folder.
///
/// One ffmpeg run decodes the section files in book order and encodes them once: encoding sections
/// separately and joining them would add AAC priming samples at every joint and make the chapter
/// marks drift. Each section's audio is cut (or padded) to exactly the frames the manifest records
/// before the joint (a filter graph: `aresample`, `apad`, `atrim`, `concat`): MP3 and Opus files
/// decode with encoder padding at their ends, which the concat demuxer would keep, shifting every
/// later chapter by tens of milliseconds. Chapters come from the same frame counts, in a
/// `1/sampleRate` time base, so each starts at the exact first sample of its section. Tags go through
/// an ffmetadata file; never `-movflags +use_metadata_tags`, which replaces the iTunes tags players
/// read. The file is written to a temporary name and renamed when complete; `bundle.json` beside it
/// records a hash of the inputs, and an unchanged bundle is not rebuilt.
///
/// Everything but `bundle` is a pure function, unit-tested; `bundle` runs ffmpeg.
public struct AudiobookBundler: Sendable {
    /// The record of the last bundle, beside it in the output folder (versioned JSON).
    public static let recordFileName = "bundle.json"
    /// AAC bit rate: speech from espeak-ng is mono at 22 kHz; 64 kb/s is transparent for it.
    public static let aacBitRate = "64k"
    /// iTunes media kind (`stik`) of an audiobook.
    static let audiobookMediaKind = 2

    public var format: BundleFormat
    /// Path of the ffmpeg executable (see `locateFFmpeg`).
    public var ffmpegPath: String

    public init(format: BundleFormat, ffmpegPath: String) {
        self.format = format
        self.ffmpegPath = ffmpegPath
    }

    // MARK: - Pure parts

    /// The first executable `ffmpeg` in the colon-separated `searchPath` (`$PATH`), or nil.
    public static func locateFFmpeg(searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for folder in (searchPath ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = OutputPaths.join(String(folder), "ffmpeg")
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// `Title - Author.m4b` (authors joined with ", "; the title alone when there is none), made safe
    /// for one file name.
    public static func fileName(for metadata: AudiobookMetadata, format: BundleFormat) -> String {
        let authors = metadata.authors.filter { !$0.isEmpty }.joined(separator: ", ")
        let name = authors.isEmpty ? metadata.title : "\(metadata.title) - \(authors)"
        return OutputNaming.sanitisedTitle(name, number: 0) + "." + format.fileExtension
    }

    /// Chapters for the given finished sections, in the order given, and their common sample rate.
    ///
    /// `frameCount` supplies frames and rate for a record without them (manifests from before they were
    /// recorded). - Throws: `ConversionError.bundleFailed` when a section is not done or the rates differ.
    public static func chapters(
        for records: [SectionRecord],
        frameCount: (SectionRecord) throws -> (frames: Int, sampleRate: Int)
    ) throws -> (chapters: [AudiobookChapter], sampleRate: Int) {
        var chapters: [AudiobookChapter] = []
        var rate: Int?
        var start = 0
        for record in records {
            guard record.status == .done, let file = record.file else {
                throw ConversionError.bundleFailed(reason: "section \(record.number) is not converted")
            }
            let (frames, sampleRate): (Int, Int)
            if let recorded = record.frames, let recordedRate = record.sampleRate {
                (frames, sampleRate) = (recorded, recordedRate)
            } else {
                (frames, sampleRate) = try frameCount(record)
            }
            if let rate, rate != sampleRate {
                throw ConversionError.bundleFailed(
                    reason: "section \(record.number) is at \(sampleRate) Hz, the others at \(rate) Hz")
            }
            rate = sampleRate
            chapters.append(AudiobookChapter(title: record.title, file: file, startFrame: start, frames: frames))
            start += frames
        }
        guard let rate, !chapters.isEmpty else { throw ConversionError.bundleFailed(reason: "no sections to bundle") }
        return (chapters, rate)
    }

    /// The ffmetadata file: global tags, then one `[CHAPTER]` per chapter in a `1/sampleRate` time base.
    public static func ffmetadata(
        metadata: AudiobookMetadata, chapters: [AudiobookChapter], sampleRate: Int
    ) -> String {
        let authors = metadata.authors.filter { !$0.isEmpty }.joined(separator: ", ")
        var tags: [(String, String?)] = [
            ("title", metadata.title), ("artist", authors), ("album", metadata.title), ("album_artist", authors),
            ("genre", "Audiobook"), ("date", metadata.date), ("comment", metadata.description),
            ("media_type", String(audiobookMediaKind)),
        ]
        tags = tags.filter { !($0.1 ?? "").isEmpty }
        var out = ";FFMETADATA1\n"
        for (key, value) in tags { out += "\(key)=\(escapeMetadata(value ?? ""))\n" }
        for chapter in chapters {
            out += "[CHAPTER]\nTIMEBASE=1/\(sampleRate)\n"
            out += "START=\(chapter.startFrame)\nEND=\(chapter.startFrame + chapter.frames)\n"
            out += "title=\(escapeMetadata(chapter.title))\n"
        }
        return out
    }

    /// A value for an ffmetadata line: `=`, `;`, `#`, `\` and line breaks are escaped with `\`.
    public static func escapeMetadata(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "=", ";", "#", "\\": out += "\\\(character)"
            case "\n", "\r", "\r\n": out += "\\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// The filter graph (for `-filter_complex_script`): input `i` (chapter `i`'s file) resampled to
    /// `sampleRate`, padded with silence and cut to exactly its frames, then all joined in order
    /// into `[audio]`.
    public static func filterGraph(chapters: [AudiobookChapter], sampleRate: Int) -> String {
        var out = ""
        for (index, chapter) in chapters.enumerated() {
            out +=
                "[\(index):a]aresample=\(sampleRate),apad=whole_len=\(chapter.frames),"
                + "atrim=end_sample=\(chapter.frames)[s\(index)];\n"
        }
        out += chapters.indices.map { "[s\($0)]" }.joined()
        out += "concat=n=\(chapters.count):v=0:a=1[audio]\n"
        return out
    }

    /// ffmpeg's arguments: the section files (in chapter order), the ffmetadata file and the optional
    /// cover as inputs, the filter graph from a file; AAC-LC in the `ipod` muxer with faststart,
    /// written to `output`.
    public static func ffmpegArguments(
        sectionFiles: [String], graphFile: String, metadataFile: String, coverFile: String?, output: String
    ) -> [String] {
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
        for file in sectionFiles { arguments += ["-i", file] }
        arguments += ["-f", "ffmetadata", "-i", metadataFile]
        if let coverFile { arguments += ["-i", coverFile] }
        let metadataInput = String(sectionFiles.count)
        arguments += ["-filter_complex_script", graphFile, "-map", "[audio]"]
        if coverFile != nil { arguments += ["-map", "\(sectionFiles.count + 1):v"] }
        arguments += ["-map_metadata", metadataInput, "-map_chapters", metadataInput]
        arguments += ["-c:a", "aac", "-profile:a", "aac_low", "-b:a", aacBitRate]
        if coverFile != nil { arguments += ["-c:v", "copy", "-disposition:v:0", "attached_pic"] }
        arguments += ["-movflags", "+faststart", "-f", "ipod", output]
        return arguments
    }

    /// SHA-256 over everything the bundle is made from: the tool version, the ffmpeg arguments'
    /// shape, the ffmetadata text, each section's file, text and settings fingerprints, and the cover.
    public static func inputsSHA256(
        metadataText: String, chapters: [AudiobookChapter], records: [SectionRecord], cover: AudiobookCover?
    ) -> String {
        var hash = SHA256()
        hash.update("epub2audio \(Converter.toolVersion) bundle 1\n")
        hash.update(
            ffmpegArguments(
                sectionFiles: records.map { $0.file ?? "" }, graphFile: "G", metadataFile: "M",
                coverFile: cover.map { _ in "C" }, output: "O"
            ).joined(separator: "\u{0}"))
        hash.update("\n" + metadataText)
        for chapter in chapters { hash.update("\(chapter.file)\u{0}\(chapter.frames)\n") }
        for record in records {
            hash.update(
                "\(record.number)\u{0}\(record.file ?? "")\u{0}\(record.textSHA256 ?? "")\u{0}"
                    + "\(record.settingsSHA256 ?? "")\u{0}\(record.bytes ?? -1)\n")
        }
        if let cover { hash.update(SHA256.hex(cover.data)) }
        return hash.finalizeHex()
    }

    // MARK: - The run

    /// Bundles the finished sections `numbers` (book order) of `directory` into one file there.
    ///
    /// Reads the manifest, skips the work when `bundle.json` records the same inputs and the file is
    /// there, else runs ffmpeg into a temporary name and renames it. - Throws:
    /// `ConversionError.bundleFailed` (ffmpeg's own message), `.outputUnwritable`.
    public func bundle(
        directory: String, numbers: [Int], metadata: AudiobookMetadata, cover: AudiobookCover? = nil
    ) throws -> BundleResult {
        // ffmpeg runs with its files in another folder: absolute paths only.
        let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        guard let manifest = try Manifest.load(fromDirectory: directory) else {
            throw ConversionError.bundleFailed(reason: "\(directory) has no manifest")
        }
        let wanted = Set(numbers)
        let records = manifest.sections.filter { wanted.contains($0.number) }
        let (chapters, sampleRate) = try Self.chapters(for: records) { record in
            do {
                let info = try AudioFileInfo.inspect(path: OutputPaths.join(directory, record.file ?? ""))
                return (info.frames, info.sampleRate)
            } catch {
                throw ConversionError.bundleFailed(reason: "section \(record.number): \(error)")
            }
        }
        let metadataText = Self.ffmetadata(metadata: metadata, chapters: chapters, sampleRate: sampleRate)
        let inputs = Self.inputsSHA256(metadataText: metadataText, chapters: chapters, records: records, cover: cover)
        let name = Self.fileName(for: metadata, format: format)
        let target = OutputPaths.join(directory, name)
        let previous = BundleRecord.load(fromDirectory: directory)
        if let previous, previous.file == name, previous.inputsSHA256 == inputs,
            FileManager.default.fileExists(atPath: target)
        {
            return BundleResult(path: target, rebuilt: false, chapters: chapters.count)
        }

        // The lists and the cover go to a private folder outside the output folder: only the bundle
        // itself must be renamed into place there.
        let work = FileManager.default.temporaryDirectory
            .appendingPathComponent("epub2audio-bundle-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try? FileManager.default.removeItem(atPath: work)
        do {
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
        } catch {
            throw ConversionError.outputUnwritable(path: work, reason: "cannot create a working folder")
        }
        defer { try? FileManager.default.removeItem(atPath: work) }
        let graphPath = OutputPaths.join(work, "graph.txt")
        let metadataPath = OutputPaths.join(work, "metadata.txt")
        let coverPath = cover.map { OutputPaths.join(work, "cover.\($0.fileExtension)") }
        let files = chapters.map { OutputPaths.join(directory, $0.file) }
        let graph = Self.filterGraph(chapters: chapters, sampleRate: sampleRate)
        try AtomicFile.write(Data(graph.utf8), named: "graph.txt", in: work)
        try AtomicFile.write(Data(metadataText.utf8), named: "metadata.txt", in: work)
        if let cover, let coverPath {
            try AtomicFile.write(Data(cover.data), named: (coverPath as NSString).lastPathComponent, in: work)
        }
        let temp = OutputPaths.join(directory, "\(AtomicFile.tempPrefix)\(getpid())-\(name)")
        let arguments = Self.ffmpegArguments(
            sectionFiles: files, graphFile: graphPath, metadataFile: metadataPath, coverFile: coverPath, output: temp)
        do {
            try FFmpegProcess.run(executable: ffmpegPath, arguments: arguments)
        } catch {
            unlink(temp)
            throw error
        }
        do {
            try AtomicFile.rename(from: temp, to: target, in: directory)
        } catch {
            unlink(temp)
            throw error
        }
        try BundleRecord(file: name, inputsSHA256: inputs).write(toDirectory: directory)
        // The book's title or authors changed: the bundle under the old name was ours, and is stale.
        if let old = previous?.file, old != name, old.hasSuffix("." + format.fileExtension),
            OutputPaths.isSafeComponent(old)
        {
            unlink(OutputPaths.join(directory, old))
        }
        return BundleResult(path: target, rebuilt: true, chapters: chapters.count)
    }
}

/// `bundle.json`: which bundle was made from which inputs. Versioned; missing keys decode to defaults.
struct BundleRecord: Codable, Hashable {
    static let currentVersion = 1
    var version: Int = BundleRecord.currentVersion
    var file: String
    var inputsSHA256: String

    init(file: String, inputsSHA256: String) {
        self.file = file
        self.inputsSHA256 = inputsSHA256
    }

    private enum CodingKeys: String, CodingKey { case version, file, inputsSHA256 }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? Self.currentVersion
        file = try c.decodeIfPresent(String.self, forKey: .file) ?? ""
        inputsSHA256 = try c.decodeIfPresent(String.self, forKey: .inputsSHA256) ?? ""
    }

    /// Nil when absent or unreadable: the bundle is then simply rebuilt.
    static func load(fromDirectory directory: String) -> BundleRecord? {
        let path = OutputPaths.join(directory, AudiobookBundler.recordFileName)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(BundleRecord.self, from: data)
    }

    func write(toDirectory directory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        try AtomicFile.write(data, named: AudiobookBundler.recordFileName, in: directory)
    }
}

/// Runs ffmpeg and turns a failure into `ConversionError.bundleFailed` with its last error lines.
enum FFmpegProcess {
    static func run(executable: String, arguments: [String]) throws {
        // ffmpeg opens every section file at once: a book of a thousand sections would pass the
        // usual soft limit of 1,024 descriptors. The child inherits ours, raised to the hard limit.
        var saved = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        if getrlimit(resource, &saved) == 0, saved.rlim_cur < saved.rlim_max {
            var raised = saved
            raised.rlim_cur = saved.rlim_max
            if setrlimit(resource, &raised) == 0 {
                defer { _ = setrlimit(resource, &saved) }
                return try spawnAndWait(executable: executable, arguments: arguments)
            }
        }
        try spawnAndWait(executable: executable, arguments: arguments)
    }

    private static func spawnAndWait(executable: String, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ConversionError.bundleFailed(reason: "cannot start \(executable): \(error)")
        }
        // Read to the end before waiting: a full pipe would block ffmpeg (and us) forever.
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let lines = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline).suffix(3)
            throw ConversionError.bundleFailed(
                reason: "ffmpeg failed (status \(process.terminationStatus)): " + lines.joined(separator: " / "))
        }
    }
}
