import Foundation

/// Where a section stands in the output folder.
public enum SectionStatus: String, Hashable, Sendable, Codable {
    /// Selected and not made yet (or interrupted).
    case pending
    /// Being made right now (a manifest that says so after a crash means: redo it).
    case inProgress = "in-progress"
    /// Its file is complete.
    case done
    /// Making it failed; `error` says why.
    case failed
    /// Not selected in this run.
    case skipped
}

/// The book a manifest belongs to.
public struct BookRecord: Hashable, Sendable, Codable {
    /// The package's unique identifier, when it has one.
    public var identifier: String?
    /// The book's title, when it has one.
    public var title: String?
    /// The book's authors.
    public var authors: [String]
    /// SHA-256 of the `.epub` file, hex.
    public var sha256: String

    /// A record of the book; every field may be missing in an older manifest.
    public init(identifier: String? = nil, title: String? = nil, authors: [String] = [], sha256: String = "") {
        self.identifier = identifier
        self.title = title
        self.authors = authors
        self.sha256 = sha256
    }

    private enum CodingKeys: String, CodingKey { case identifier, title, authors, sha256 }

    /// Decodes the record; missing keys take their defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decodeIfPresent(String.self, forKey: .identifier)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        authors = try container.decodeIfPresent([String].self, forKey: .authors) ?? []
        sha256 = try container.decodeIfPresent(String.self, forKey: .sha256) ?? ""
    }
}

/// One section's entry in the manifest.
public struct SectionRecord: Hashable, Sendable, Codable {
    /// The section number (as `--list` shows it).
    public var number: Int
    /// The section's title as shown and spoken.
    public var title: String
    /// Where the section stands.
    public var status: SectionStatus
    /// The audio file's name inside the output folder (no folder part), once decided.
    public var file: String?
    /// Duration of the finished file, in seconds.
    public var durationSeconds: Double?
    /// PCM frames in the finished file, silences included (exact: chapter marks of a bundle start at
    /// the sum of the frames before them); nil in manifests written before it was recorded.
    public var frames: Int?
    /// Sample rate of the finished file; nil in manifests written before it was recorded.
    public var sampleRate: Int?
    /// Words in the section (as the book text counts them).
    public var words: Int
    /// Words spoken so far while in progress.
    public var wordsDone: Int?
    /// Size of the finished audio file.
    public var bytes: Int64?
    /// SHA-256 of the section's spoken text (blocks with their kinds and languages), hex.
    public var textSHA256: String?
    /// `AudioSettings.fingerprint` of the settings the file was made with.
    public var settingsSHA256: String?
    /// ISO-8601 time the last attempt started.
    public var started: String?
    /// ISO-8601 time the file was completed (or the attempt failed).
    public var finished: String?
    /// Why the last attempt failed.
    public var error: String?
    /// The finished parts of a long section not yet joined into its file (`SectionParts`); nil when
    /// the section is made in one piece or is done (its parts are removed once joined).
    public var parts: [PartRecord]?
    /// The track number the finished file is tagged with ("3/12", its place among the folder's
    /// files: `TrackNumbering`); nil in manifests written before it was recorded, when it is set
    /// again once.
    public var track: String?

    /// A section's entry.
    public init(
        number: Int, title: String, status: SectionStatus = .pending, file: String? = nil,
        durationSeconds: Double? = nil, words: Int = 0, wordsDone: Int? = nil, bytes: Int64? = nil,
        textSHA256: String? = nil, settingsSHA256: String? = nil, started: String? = nil, finished: String? = nil,
        error: String? = nil
    ) {
        self.number = number
        self.title = title
        self.status = status
        self.file = file
        self.durationSeconds = durationSeconds
        self.words = words
        self.wordsDone = wordsDone
        self.bytes = bytes
        self.textSHA256 = textSHA256
        self.settingsSHA256 = settingsSHA256
        self.started = started
        self.finished = finished
        self.error = error
    }

    private enum CodingKeys: String, CodingKey {
        case number, title, status, file, durationSeconds, frames, sampleRate, words, wordsDone, bytes, textSHA256
        case settingsSHA256, started, finished, error, parts, track
    }

    /// Decodes the entry; missing keys take their defaults and an unknown status means `pending`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decodeIfPresent(Int.self, forKey: .number) ?? 0
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        // An unknown status (from a newer version) is treated as "not done": the section is redone.
        status = (try? container.decodeIfPresent(SectionStatus.self, forKey: .status)) ?? .pending
        file = try container.decodeIfPresent(String.self, forKey: .file)
        durationSeconds = try container.decodeIfPresent(Double.self, forKey: .durationSeconds)
        frames = try container.decodeIfPresent(Int.self, forKey: .frames)
        sampleRate = try container.decodeIfPresent(Int.self, forKey: .sampleRate)
        words = try container.decodeIfPresent(Int.self, forKey: .words) ?? 0
        wordsDone = try container.decodeIfPresent(Int.self, forKey: .wordsDone)
        bytes = try container.decodeIfPresent(Int64.self, forKey: .bytes)
        textSHA256 = try container.decodeIfPresent(String.self, forKey: .textSHA256)
        settingsSHA256 = try container.decodeIfPresent(String.self, forKey: .settingsSHA256)
        started = try container.decodeIfPresent(String.self, forKey: .started)
        finished = try container.decodeIfPresent(String.self, forKey: .finished)
        error = try container.decodeIfPresent(String.self, forKey: .error)
        parts = try container.decodeIfPresent([PartRecord].self, forKey: .parts)
        track = try container.decodeIfPresent(String.self, forKey: .track)
    }
}

/// A finished part of a long section, waiting in its PCM file to be joined (see `SectionParts`).
///
/// Used again by a later run when the section's text and settings are unchanged, the part covers the
/// same chunks and its file has the recorded size.
public struct PartRecord: Hashable, Sendable, Codable {
    /// The part's position in its section, from 0.
    public var index: Int
    /// Its first chunk in the section's chunk list.
    public var firstChunk: Int
    /// One past its last chunk.
    public var endChunk: Int
    /// Its raw PCM file (16-bit little-endian mono) inside the output folder.
    public var file: String
    /// PCM frames in the file, silences included.
    public var frames: Int
    /// Sample rate of the PCM.
    public var sampleRate: Int
    /// Size of the file.
    public var bytes: Int64
    /// SHA-256 of the whole section's spoken text when the part was made.
    public var textSHA256: String
    /// `AudioSettings.fingerprint` of the settings the part was made with.
    public var settingsSHA256: String

    /// A part's record.
    public init(
        index: Int, firstChunk: Int, endChunk: Int, file: String, frames: Int, sampleRate: Int, bytes: Int64,
        textSHA256: String, settingsSHA256: String
    ) {
        self.index = index
        self.firstChunk = firstChunk
        self.endChunk = endChunk
        self.file = file
        self.frames = frames
        self.sampleRate = sampleRate
        self.bytes = bytes
        self.textSHA256 = textSHA256
        self.settingsSHA256 = settingsSHA256
    }

    private enum CodingKeys: String, CodingKey {
        case index, firstChunk, endChunk, file, frames, sampleRate, bytes, textSHA256, settingsSHA256
    }

    /// Decodes a part; a missing key makes it unusable (empty hashes), never an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        index = try container.decodeIfPresent(Int.self, forKey: .index) ?? -1
        firstChunk = try container.decodeIfPresent(Int.self, forKey: .firstChunk) ?? 0
        endChunk = try container.decodeIfPresent(Int.self, forKey: .endChunk) ?? 0
        file = try container.decodeIfPresent(String.self, forKey: .file) ?? ""
        frames = try container.decodeIfPresent(Int.self, forKey: .frames) ?? 0
        sampleRate = try container.decodeIfPresent(Int.self, forKey: .sampleRate) ?? 0
        bytes = try container.decodeIfPresent(Int64.self, forKey: .bytes) ?? -1
        textSHA256 = try container.decodeIfPresent(String.self, forKey: .textSHA256) ?? ""
        settingsSHA256 = try container.decodeIfPresent(String.self, forKey: .settingsSHA256) ?? ""
    }
}

/// `OUTDIR/manifest.json`: what was made from which book with which settings; makes runs resumable.
///
/// Versioned (`version`, currently 2); every key but `version` may be missing and falls back to a
/// default. Written atomically (temp file, fsync, rename, fsync of the folder). While a run goes on,
/// section changes are appended to `manifest.journal` beside it, which `load(fromDirectory:)`
/// replays (version 2). See docs/manifest.md.
public struct Manifest: Hashable, Sendable, Codable {
    /// The format version this library writes: 2 since section changes go to a journal beside the
    /// file (a version-1 reader would ignore the journal and lose the progress recorded there).
    public static let currentVersion = 2
    /// The manifest's file name inside the output folder.
    public static let fileName = "manifest.json"

    /// The format version of this manifest (`currentVersion` when written by this library).
    public var version: Int
    /// The epub2audio version that last wrote the manifest.
    public var toolVersion: String
    /// The book the files were made from.
    public var book: BookRecord
    /// The settings of the latest run (each section also keeps a fingerprint of its own).
    public var settings: AudioSettings?
    /// ISO-8601 time the manifest was first written.
    public var created: String?
    /// ISO-8601 time of the latest write.
    public var updated: String?
    /// Every section of the book, in book order.
    public var sections: [SectionRecord]
    /// The identifier of the journal (`manifest.journal`) whose records apply on top of this file;
    /// nil when there is none (a finished run folds its journal into the file and removes it). A
    /// journal that names another identifier is stale and ignored.
    public var journal: String?

    /// A manifest.
    public init(
        version: Int = Manifest.currentVersion, toolVersion: String = Converter.toolVersion,
        book: BookRecord = BookRecord(),
        settings: AudioSettings? = nil, created: String? = nil, updated: String? = nil, sections: [SectionRecord] = [],
        journal: String? = nil
    ) {
        self.version = version
        self.toolVersion = toolVersion
        self.book = book
        self.settings = settings
        self.created = created
        self.updated = updated
        self.sections = sections
        self.journal = journal
    }

    private enum CodingKeys: String, CodingKey {
        case version, toolVersion, book, settings, created, updated, sections, journal
    }

    /// Decodes a manifest; every key but `version` may be missing and takes its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Manifest.currentVersion
        toolVersion = try container.decodeIfPresent(String.self, forKey: .toolVersion) ?? ""
        book = try container.decodeIfPresent(BookRecord.self, forKey: .book) ?? BookRecord()
        settings = try container.decodeIfPresent(AudioSettings.self, forKey: .settings)
        created = try container.decodeIfPresent(String.self, forKey: .created)
        updated = try container.decodeIfPresent(String.self, forKey: .updated)
        sections = try container.decodeIfPresent([SectionRecord].self, forKey: .sections) ?? []
        journal = try container.decodeIfPresent(String.self, forKey: .journal)
    }

    /// The record of section `number`, if any.
    public func section(_ number: Int) -> SectionRecord? { sections.first { $0.number == number } }

    /// Pretty-printed JSON with sorted keys and a final newline.
    ///
    /// The same bytes as `JSONEncoder` gives for the whole value, made one section record at a time:
    /// the encoder builds a tree of the whole value before writing it, and for the 10,000 records
    /// of the 10,000-section book that tree raised the coordinator's peak RSS each time the journal
    /// was folded in (80 → 95 → 100 MiB over one conversion).
    public func encoded() -> Data {
        let encoder = Self.encoder()
        var shell = self
        shell.sections = []
        var data = (try? encoder.encode(shell)) ?? Data()
        if !sections.isEmpty, let empty = data.range(of: Self.emptySections) {
            data.replaceSubrange(empty, with: sectionsArray(encoder))
        }
        data.append(0x0A)
        return data
    }

    /// `"sections"` with no records, as the encoder writes it one level in (an empty line inside).
    private static let emptySections = Data("\"sections\" : [\n\n  ]".utf8)

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `"sections" : [...]` with every record, each encoded alone and indented to its depth (two levels).
    private func sectionsArray(_ encoder: JSONEncoder) -> Data {
        // Bytes in an array, made `Data` once: `Data.append` of one byte cost more than the encoding.
        var bytes = Array("\"sections\" : [\n".utf8)
        for (position, record) in sections.enumerated() {
            if position > 0 { bytes.append(contentsOf: ",\n".utf8) }
            Self.appendIndented((try? encoder.encode(record)) ?? Data(), to: &bytes)
        }
        bytes.append(contentsOf: "\n  ]".utf8)
        return Data(bytes)
    }

    /// Appends `json` with four spaces before each line that is not empty (the encoder leaves the
    /// line inside an empty array empty at any depth).
    private static func appendIndented(_ json: Data, to data: inout [UInt8]) {
        var lineStart = true
        for byte in json {
            if lineStart && byte != 0x0A { data.append(contentsOf: [0x20, 0x20, 0x20, 0x20]) }
            data.append(byte)
            lineStart = byte == 0x0A
        }
    }

    /// Decodes a manifest; throws `ConversionError.invalidManifest` or `.unsupportedManifestVersion`.
    public static func decode(_ data: Data, path: String = Manifest.fileName) throws -> Manifest {
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            let head = String(decoding: data.prefix(40), as: UTF8.self)
            let reason =
                data.isEmpty ? "the file is empty" : "\(Self.describe(error)); it starts with \(head.debugDescription)"
            throw ConversionError.invalidManifest(path: path, reason: reason)
        }
        guard manifest.version <= currentVersion else {
            throw ConversionError.unsupportedManifestVersion(path: path, version: manifest.version)
        }
        try manifest.checkFileNames(path: path)
        return manifest
    }

    /// Refuses a record whose `file` is not a plain name in the output folder.
    func checkFileNames(path: String) throws {
        // `file` is joined to the output folder to replace and remove files: a path there (a damaged
        // or hand-edited manifest) must stop the run with a clear message, not reach outside the folder
        // or trip the precondition in `OutputPaths.join`.
        let unsafePart = sections.first { ($0.parts ?? []).contains { !OutputPaths.isSafeComponent($0.file) } }
        if let bad = unsafePart {
            throw ConversionError.invalidManifest(
                path: path,
                reason: "section \(bad.number) names a part file that is not a plain file name in this folder; "
                    + "remove the manifest to start over")
        }
        if let bad = sections.first(where: { $0.file.map { !OutputPaths.isSafeComponent($0) } ?? false }) {
            throw ConversionError.invalidManifest(
                path: path,
                reason: "section \(bad.number) names the file \((bad.file ?? "").debugDescription), which is not a "
                    + "plain file name in this folder; remove the manifest to start over")
        }
    }

    /// Reads `directory/manifest.json` and replays the journal beside it (`manifest.journal`, when its
    /// identifier is the manifest's `journal`); nil when there is no manifest.
    ///
    /// A torn last journal line (the process was killed while appending it) and anything after a line
    /// that does not decode are ignored: those changes were never recorded.
    public static func load(fromDirectory directory: String) throws -> Manifest? {
        let path = OutputPaths.join(directory, fileName)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConversionError.outputUnwritable(path: path, reason: "cannot read the manifest")
        }
        var manifest = try decode(data, path: path)
        if let id = manifest.journal,
            let journal = FileManager.default.contents(atPath: OutputPaths.join(directory, ManifestJournal.fileName))
        {
            manifest.apply(ManifestJournal.records(in: journal, id: id))
            try manifest.checkFileNames(path: OutputPaths.join(directory, ManifestJournal.fileName))
        }
        return manifest
    }

    /// Replaces each section's record by the given ones, in order (the last record of a section wins);
    /// records of sections the manifest does not list are ignored.
    mutating func apply(_ records: [SectionRecord]) {
        guard !records.isEmpty else { return }
        var positions: [Int: Int] = [:]
        for (index, section) in sections.enumerated() where positions[section.number] == nil {
            positions[section.number] = index
        }
        for record in records {
            if let index = positions[record.number] { sections[index] = record }
        }
    }

    /// Writes `directory/manifest.json` atomically.
    public func write(toDirectory directory: String) throws {
        try AtomicFile.write(encoded(), named: Manifest.fileName, in: directory)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return "not JSON (\(context.debugDescription))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(path): \(context.debugDescription)"
        default: return "\(error)"
        }
    }
}

/// ISO-8601 timestamps (UTC, seconds) as the manifest stores them: `2026-11-26T00:14:33Z`.
///
/// Written with `gmtime_r`, not `ISO8601DateFormatter`: the formatter is built anew from ICU data
/// for each call, and two timestamps per section made it about a tenth of the coordinator's CPU
/// when converting the 10,000-section book (perf). Same text: whole seconds, truncated.
enum Timestamp {
    static func now() -> String { string(Date()) }

    static func string(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let day = padded(parts.tm_year + 1900, 4) + "-" + padded(parts.tm_mon + 1) + "-" + padded(parts.tm_mday)
        let time = padded(parts.tm_hour) + ":" + padded(parts.tm_min) + ":" + padded(parts.tm_sec)
        return day + "T" + time + "Z"
    }

    private static func padded(_ value: Int32, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
