internal import AudioFiles
import Contracts
public import Conversion
public import EPUBReader
import Foundation
public import TagEditing

/// `--bundle`: the one-file audiobook formats made from the finished section files (all through ffmpeg).
public enum BundleFormat: String, Hashable, Sendable, Codable, CaseIterable {
    /// MPEG-4 audiobook: AAC-LC in the `ipod` muxer, chapters (QuickTime chapter track and Nero `chpl`),
    /// iTunes tags.
    case m4b
    /// MP3 (LAME): ID3v2.4 tags, chapters as `CHAP` frames under a `CTOC`, cover as `APIC`.
    case mp3
    /// Ogg Opus: Vorbis comments, chapters as `CHAPTERnnn` comments, cover as `METADATA_BLOCK_PICTURE`.
    case opus
    /// Ogg Vorbis: as Opus.
    case ogg
    /// FLAC: Vorbis comments with `CHAPTERnnn` chapters, a cue sheet, the cover as a PICTURE block.
    case flac

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether tags are Vorbis comments, where chapters are `CHAPTERnnn` comments (Xiph's chapter
    /// extension), not ffmpeg chapters.
    var usesVorbisComments: Bool { self == .opus || self == .ogg || self == .flac }

    /// Ogg cannot carry a picture stream in ffmpeg 5.1: the cover goes in a comment instead.
    var coverIsComment: Bool { self == .opus || self == .ogg }
}

/// The tags of a bundle, from the book's metadata.
public struct AudiobookMetadata: Hashable, Sendable {
    /// The book's title (title and album tags).
    public var title: String
    /// The authors (artist and album-artist tags), in the book's order.
    public var authors: [String]
    /// `dc:date` as written in the book (players show its year).
    public var date: String?
    /// The book's description, plain text (`EPUBMetadata.descriptionText`).
    public var description: String?
    /// Who reads the book: the engine and its voice (`espeak-ng, voice en-us`), in the composer tag
    /// where audiobook players look for a narrator.
    public var narrator: String?
    /// The language the book is read in (BCP 47, `zh-Hant`): the bundle's tags and tracks carry its
    /// ISO 639-2 code (`zho`); none when nil or without one.
    public var language: String?

    /// Tags with the given values; the absent ones are not written.
    public init(
        title: String, authors: [String] = [], date: String? = nil, description: String? = nil,
        narrator: String? = nil, language: String? = nil
    ) {
        self.title = title
        self.authors = authors
        self.date = date
        self.description = description
        self.narrator = narrator
        self.language = language
    }

    /// The ISO 639-2 code of `language` (`BundleLanguage.iso639_2`).
    var languageCode: String? { language.flatMap(BundleLanguage.iso639_2) }
}

extension AudiobookMetadata {
    /// The tags of `book`: `title` (the caller's clean title: the metadata's, or the file's name when
    /// there is none), its authors, `dc:date`, `dc:description` as plain text (the HTML many books
    /// put there removed: `EPUBMetadata.descriptionText`), and `language`: the language its text is
    /// read in when the caller knows it is not `dc:language` (`BookLanguage.textLanguage`), else the
    /// first `dc:language`.
    public init(book: EPUBBook, title: String, narrator: String? = nil, language: String? = nil) {
        let metadata = book.package.metadata
        self.init(
            title: title, authors: metadata.authors, date: metadata.date, description: metadata.descriptionText,
            narrator: narrator, language: language ?? metadata.languages.first)
    }
}

/// One chapter of a bundle: a section file and where its first frame lands in the whole.
public struct AudiobookChapter: Hashable, Sendable {
    /// The chapter title, as `--list` shows the section.
    public var title: String
    /// The section's file name inside the output folder.
    public var file: String
    /// Frames of all the sections before this one.
    public var startFrame: Int
    /// The section's length in frames (from the manifest).
    public var frames: Int

    /// A chapter for the section file `file`, starting `startFrame` frames into the bundle.
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
    /// How many chapters the bundle holds (one per section).
    public var chapters: Int
    /// What the bundle lacks that a reader might expect (more chapters than a chapter list holds).
    public var warnings: [String] = []
}

/// How far `AudiobookBundler.bundle` has got: seconds of audio encoded out of the whole.
public struct BundleProgress: Hashable, Sendable {
    /// Seconds of audio ffmpeg has encoded so far.
    public var audioSeconds: Double
    /// Seconds of audio in the whole bundle.
    public var totalSeconds: Double

    /// Progress of `audioSeconds` out of `totalSeconds`.
    public init(audioSeconds: Double, totalSeconds: Double) {
        self.audioSeconds = audioSeconds
        self.totalSeconds = totalSeconds
    }
}

/// Makes one audiobook file from the finished sections of an output folder.
///
/// One ffmpeg run decodes the section files in book order and encodes them once: encoding sections
/// separately and joining them would add AAC priming samples at every joint and make the chapter
/// marks drift. Each section's audio is cut (or padded) to exactly the frames the manifest records
/// before the joint (a filter graph: `aresample`, `apad`, `atrim`, `concat`): MP3 and Opus files
/// decode with encoder padding at their ends, which the concat demuxer would keep, shifting every
/// later chapter by tens of milliseconds. Chapters come from the same frame counts.
///
/// Who writes what: ffmpeg encodes every format and writes the tags it is given in an ffmetadata
/// file. For m4b and MP3 the chapters are ffmetadata `[CHAPTER]`s in a `1/sampleRate` time base,
/// which ffmpeg writes as the QuickTime chapter track and Nero `chpl` (m4b; `chpl` only up to 255
/// chapters, as it counts them in one byte) or ID3v2 `CHAP`/`CTOC` frames (MP3). For Opus, Vorbis and
/// FLAC the bundler writes the chapters itself as `CHAPTERnnn=HH:MM:SS.mmm` and `CHAPTERnnnNAME=`
/// comments (ffmpeg 5.1 writes them for Opus only, never for FLAC or Vorbis), the Ogg cover as a
/// `METADATA_BLOCK_PICTURE` comment (ffmpeg 5.1 cannot mux a picture into Ogg), and the FLAC cue sheet
/// as a metadata block inserted after encoding (ffmpeg writes none). Never `-movflags
/// +use_metadata_tags`, which replaces the iTunes tags players read. The file is written to a
/// temporary name and renamed when complete; `bundle.json` beside it records a hash of the inputs,
/// and an unchanged bundle is not rebuilt.
///
/// Everything but `bundle` is a pure function, unit-tested; `bundle` runs ffmpeg.
public struct AudiobookBundler: Sendable {
    /// The record of the last bundle, beside it in the output folder (versioned JSON).
    public static let recordFileName = "bundle.json"
    /// AAC bit rate: speech from espeak-ng is mono at 22 kHz; 64 kb/s is transparent for it.
    public static let aacBitRate = "64k"
    /// MP3 bit rate (constant): 64 kb/s keeps 22 kHz mono speech clean with LAME.
    public static let mp3BitRate = "64k"
    /// Opus bit rate: 32 kb/s is transparent for mono speech.
    public static let opusBitRate = "32k"
    /// iTunes media kind (`stik`) of an audiobook.
    static let audiobookMediaKind = 2
    /// Nero `chpl` counts chapters in one byte.
    public static let maxNeroChapters = 255

    /// The container and codec of the bundle.
    public var format: BundleFormat
    /// Path of the ffmpeg executable (see `locateFFmpeg`).
    public var ffmpegPath: String

    /// A bundler writing `format` with the ffmpeg at `ffmpegPath`.
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

    /// The ffmetadata file: global tags, then the chapters: one `[CHAPTER]` each in a `1/sampleRate`
    /// time base (m4b, MP3), or `CHAPTERnnn` and `CHAPTERnnnNAME` tags (Opus, Vorbis, FLAC). For Ogg
    /// formats the cover, when given, is a `METADATA_BLOCK_PICTURE` tag.
    public static func ffmetadata(
        metadata: AudiobookMetadata, chapters: [AudiobookChapter], sampleRate: Int, format: BundleFormat = .m4b,
        cover: AudiobookCover? = nil
    ) -> String {
        let authors = metadata.authors.filter { !$0.isEmpty }.joined(separator: ", ")
        var tags: [(String, String?)] = [
            ("title", metadata.title), ("artist", authors), ("album", metadata.title), ("album_artist", authors),
            ("genre", "Audiobook"), ("date", metadata.date), ("comment", metadata.description),
            ("composer", metadata.narrator),
        ]
        // MP3: `TLAN`; Vorbis comments: `LANGUAGE`. An m4b takes it on its tracks (`ffmpegArguments`).
        if format != .m4b { tags.append(("language", metadata.languageCode)) }
        if format == .m4b { tags.append(("media_type", String(audiobookMediaKind))) }
        if format.usesVorbisComments {
            for (index, chapter) in chapters.enumerated() {
                let key = "CHAPTER" + padded(index + 1, to: 3)
                tags.append((key, vorbisChapterTime(frames: chapter.startFrame, sampleRate: sampleRate)))
                tags.append((key + "NAME", chapter.title))
            }
            if format.coverIsComment, let cover {
                tags.append(("METADATA_BLOCK_PICTURE", FLACMetadata.vorbisCommentPicture(cover)))
            }
        }
        tags = tags.filter { !($0.1 ?? "").isEmpty }
        var out = ";FFMETADATA1\n"
        for (key, value) in tags { out += "\(key)=\(escapeMetadata(value ?? ""))\n" }
        guard !format.usesVorbisComments else { return out }
        for chapter in chapters {
            out += "[CHAPTER]\nTIMEBASE=1/\(sampleRate)\n"
            out += "START=\(chapter.startFrame)\nEND=\(chapter.startFrame + chapter.frames)\n"
            out += "title=\(escapeMetadata(chapter.title))\n"
        }
        return out
    }

    /// `HH:MM:SS.mmm` for a `CHAPTERnnn` comment: the frame's time, rounded to the millisecond
    /// (hours grow past 99 rather than wrap).
    public static func vorbisChapterTime(frames: Int, sampleRate: Int) -> String {
        let milliseconds = (frames * 1_000 + sampleRate / 2) / max(1, sampleRate)
        let seconds = milliseconds / 1_000
        return padded(seconds / 3_600, to: 2) + ":" + padded(seconds / 60 % 60, to: 2) + ":"
            + padded(seconds % 60, to: 2) + "." + padded(milliseconds % 1_000, to: 3)
    }

    private static func padded(_ value: Int, to width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
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
    /// cover as inputs, the filter graph from a file, the encoder and muxer of `format`, written to
    /// `output`. m4b: AAC-LC in the `ipod` muxer with faststart, without the Nero chapter list when
    /// there are more chapters than it holds (`neroChapters` false), its audio track in `language`
    /// (ISO 639-2) when given. Ogg formats never take the cover as a stream (it is a comment in the
    /// metadata file).
    public static func ffmpegArguments(
        format: BundleFormat = .m4b, sectionFiles: [String], graphFile: String, metadataFile: String,
        coverFile: String?, output: String, neroChapters: Bool = true, language: String? = nil
    ) -> [String] {
        let coverFile = format.coverIsComment ? nil : coverFile
        var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
        for file in sectionFiles { arguments += ["-i", file] }
        arguments += ["-f", "ffmetadata", "-i", metadataFile]
        if let coverFile { arguments += ["-i", coverFile] }
        let metadataInput = String(sectionFiles.count)
        arguments += ["-filter_complex_script", graphFile, "-map", "[audio]"]
        if coverFile != nil { arguments += ["-map", "\(sectionFiles.count + 1):v"] }
        // Vorbis-comment formats take their chapters from the tags; ffmpeg's own would be written
        // twice for Opus.
        arguments += [
            "-map_metadata", metadataInput, "-map_chapters", format.usesVorbisComments ? "-1" : metadataInput,
        ]
        switch format {
        // ffmpeg's fast AAC coder: 160x real time on one core here for speech, the default
        // (twoloop) 28x, for no difference a listener of espeak-ng at 64 kb/s would hear.
        case .m4b: arguments += ["-c:a", "aac", "-aac_coder", "fast", "-profile:a", "aac_low", "-b:a", aacBitRate]
        case .mp3: arguments += ["-c:a", "libmp3lame", "-b:a", mp3BitRate, "-id3v2_version", "4"]
        case .opus: arguments += ["-c:a", "libopus", "-b:a", opusBitRate]
        case .ogg: arguments += ["-c:a", "libvorbis", "-q:a", "4"]
        case .flac: arguments += ["-c:a", "flac"]
        }
        if coverFile != nil { arguments += ["-c:v", "copy", "-disposition:v:0", "attached_pic"] }
        if format == .m4b, let language { arguments += ["-metadata:s:a:0", "language=\(language)"] }
        switch format {
        case .m4b: arguments += ["-movflags", neroChapters ? "+faststart" : "+faststart+disable_chpl", "-f", "ipod"]
        case .mp3: arguments += ["-f", "mp3"]
        // The Ogg muxer draws a random stream serial unless told to be bit-exact: the same sections
        // then give the same bundle, byte for byte, as every other file of a conversion.
        case .opus, .ogg: arguments += ["-fflags", "+bitexact", "-f", "ogg"]
        case .flac: arguments += ["-f", "flac"]
        }
        return arguments + [output]
    }

    /// SHA-256 over everything the bundle is made from: the tool version, the ffmpeg arguments'
    /// shape, the ffmetadata text, each section's file, text and settings fingerprints, and what the
    /// cover is made from (`AudiobookCover.sourceSHA256`).
    public static func inputsSHA256(
        format: BundleFormat = .m4b, metadataText: String, chapters: [AudiobookChapter], records: [SectionRecord],
        cover: AudiobookCover?, language: String? = nil
    ) -> String {
        var hash = SHA256()
        // Version 3: the m4b's chapter track takes the book's language (`BundleLanguage`).
        hash.update("epub2audio \(Converter.toolVersion) bundle 3 \(format.rawValue)\n")
        hash.update(
            ffmpegArguments(
                format: format, sectionFiles: records.map { $0.file ?? "" }, graphFile: "G", metadataFile: "M",
                coverFile: cover.map { _ in "C" }, output: "O", neroChapters: chapters.count <= maxNeroChapters,
                language: language
            ).joined(separator: "\u{0}"))
        hash.update("\n" + metadataText)
        for chapter in chapters { hash.update("\(chapter.file)\u{0}\(chapter.frames)\n") }
        for record in records {
            hash.update(
                "\(record.number)\u{0}\(record.file ?? "")\u{0}\(record.textSHA256 ?? "")\u{0}"
                    + "\(record.settingsSHA256 ?? "")\u{0}\(record.bytes ?? -1)\n")
        }
        // What the cover is made from, not its converted bytes (`AudiobookCover.sourceSHA256`).
        if let cover { hash.update(cover.sourceSHA256) }
        return hash.finalizeHex()
    }

    /// What a reader of the bundle may miss: m4b's Nero chapter list holds 255 chapters, FLAC's cue
    /// sheet 254 (the chapter track, the ID3 frames and the comments hold them all).
    public static func warnings(format: BundleFormat, chapters: Int) -> [String] {
        switch format {
        case .m4b where chapters > maxNeroChapters:
            return [
                "\(chapters) chapters: more than the \(maxNeroChapters) a Nero chapter list holds; the m4b has "
                    + "the QuickTime chapter track only (players that read only Nero chapters show none)"
            ]
        case .flac where chapters > FLACMetadata.maxCueSheetTracks:
            return [
                "\(chapters) chapters: more than the \(FLACMetadata.maxCueSheetTracks) a FLAC cue sheet holds; "
                    + "the FLAC has the CHAPTERnnn comments only"
            ]
        default: return []
        }
    }

    // MARK: - The run

    /// Bundles the finished sections `numbers` (book order) of `directory` into one file there.
    ///
    /// Reads the manifest, skips the work when `bundle.json` records the same inputs and the file is
    /// there, else runs ffmpeg into a temporary name and renames it. `progress` is called from time
    /// to time while ffmpeg encodes. Cancelling the task stops ffmpeg and removes the temporary file.
    /// - Throws: `ConversionError.bundleFailed` (ffmpeg's own message), `.outputUnwritable`,
    ///   `.cancelled`.
    public func bundle(
        directory: String, numbers: [Int], metadata: AudiobookMetadata, cover: AudiobookCover? = nil,
        progress: @escaping @Sendable (BundleProgress) -> Void = { _ in }
    ) async throws -> BundleResult {
        // Absolute paths: ffmpeg's lists name the section files from the working folder.
        let directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        guard let manifest = try Manifest.load(fromDirectory: directory) else {
            throw ConversionError.bundleFailed(reason: "\(directory) has no manifest")
        }
        // The folder is ours for the length of the bundle, as for a conversion: a run started
        // meanwhile would remove the working folder and the temporary bundle as an interrupted
        // run's leftovers, and two bundles would race on `bundle.json`.
        let lock = try FolderLock(directory: directory)
        defer { lock.release() }
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
        let metadataText = Self.ffmetadata(
            metadata: metadata, chapters: chapters, sampleRate: sampleRate, format: format, cover: cover)
        // Hashed without the picture an Ogg bundle's text carries: the cover counts by its source.
        let inputs = Self.inputsSHA256(
            format: format,
            metadataText: Self.ffmetadata(
                metadata: metadata, chapters: chapters, sampleRate: sampleRate, format: format),
            chapters: chapters, records: records, cover: cover, language: metadata.languageCode)
        let name = Self.fileName(for: metadata, format: format)
        let target = OutputPaths.join(directory, name)
        let warnings = Self.warnings(format: format, chapters: chapters.count)
        var record = BundleRecord.load(fromDirectory: directory) ?? BundleRecord()
        let previous = record.bundles[format.rawValue]
        if let previous, previous.file == name, previous.inputsSHA256 == inputs,
            FileManager.default.fileExists(atPath: target)
        {
            return BundleResult(path: target, rebuilt: false, chapters: chapters.count, warnings: warnings)
        }

        // The lists, the cover and ffmpeg's log (and a FLAC bundle before its cue sheet is added) go
        // to a hidden working folder in the output folder, removed when the bundle is made (or by the
        // next run after a crash, as every name with the temporary prefix): nothing is written outside
        // the output folder, a TMPDIR that cannot be written stops nothing, and a whole book's FLAC
        // needs room where the book's audio already has it.
        let work = OutputPaths.join(directory, "\(AtomicFile.tempPrefix)\(getpid())-bundle")
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
        // FLAC: ffmpeg encodes into the work folder, the cue sheet is added on the copy into place.
        let encoded = format == .flac ? OutputPaths.join(work, "encoded.flac") : temp
        let arguments = Self.ffmpegArguments(
            format: format, sectionFiles: files, graphFile: graphPath, metadataFile: metadataPath,
            coverFile: coverPath, output: encoded, neroChapters: chapters.count <= Self.maxNeroChapters,
            language: metadata.languageCode)
        let totalFrames = chapters.reduce(0) { $0 + $1.frames }
        let totalSeconds = Double(totalFrames) / Double(sampleRate)
        progress(BundleProgress(audioSeconds: 0, totalSeconds: totalSeconds))
        do {
            try await FFmpegProcess.run(
                executable: ffmpegPath, arguments: arguments, errorLog: OutputPaths.join(work, "ffmpeg.log")
            ) { seconds in
                progress(BundleProgress(audioSeconds: min(seconds, totalSeconds), totalSeconds: totalSeconds))
            }
            if format == .m4b, let language = metadata.languageCode {
                try BundleLanguage.setTextTrackLanguage(language, inMP4At: encoded)
            }
            if format == .flac {
                var blocks: [(FLACMetadata.BlockType, [UInt8])] = []
                if let cueSheet = FLACMetadata.cueSheet(starts: chapters.map(\.startFrame), totalSamples: totalFrames) {
                    blocks.append((.cueSheet, cueSheet))
                }
                do {
                    try FLACMetadata.insertBlocks(blocks, from: encoded, to: temp)
                } catch TagEditingError.malformed(let reason) {
                    throw ConversionError.bundleFailed(reason: "the encoded FLAC file \(reason)")
                } catch {
                    throw PosixFailure.map(error, path: temp) ?? error
                }
            }
            try AtomicFile.rename(from: temp, to: target, in: directory)
        } catch {
            unlink(temp)
            throw error
        }
        progress(BundleProgress(audioSeconds: totalSeconds, totalSeconds: totalSeconds))
        record.bundles[format.rawValue] = BundleRecord.Entry(file: name, inputsSHA256: inputs)
        try record.write(toDirectory: directory)
        // The book's title or authors changed: the bundle under the old name was ours, and is stale.
        if let old = previous?.file, old != name, old.hasSuffix("." + format.fileExtension),
            OutputPaths.isSafeComponent(old)
        {
            unlink(OutputPaths.join(directory, old))
        }
        return BundleResult(path: target, rebuilt: true, chapters: chapters.count, warnings: warnings)
    }
}

/// `bundle.json`: which bundle of each format was made from which inputs, so that bundles of
/// several formats in one folder are each rebuilt only when their inputs change. Versioned; missing
/// keys decode to defaults; version 1 (one bundle: `file`, `inputsSHA256`) is read as the entry of
/// its file's format.
struct BundleRecord: Codable, Hashable {
    static let currentVersion = 2

    struct Entry: Codable, Hashable {
        var file: String
        var inputsSHA256: String
    }

    var version: Int = BundleRecord.currentVersion
    /// By format (`BundleFormat.rawValue`).
    var bundles: [String: Entry] = [:]

    init(bundles: [String: Entry] = [:]) { self.bundles = bundles }

    private enum CodingKeys: String, CodingKey { case version, bundles, file, inputsSHA256 }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Self.currentVersion
        bundles = try container.decodeIfPresent([String: Entry].self, forKey: .bundles) ?? [:]
        if let file = try container.decodeIfPresent(String.self, forKey: .file) {
            let format = (file as NSString).pathExtension
            if bundles[format] == nil {
                let inputs = try container.decodeIfPresent(String.self, forKey: .inputsSHA256) ?? ""
                bundles[format] = Entry(file: file, inputsSHA256: inputs)
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.currentVersion, forKey: .version)
        try container.encode(bundles, forKey: .bundles)
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
    /// Runs `executable` with `arguments` plus `-progress pipe:1`, calling `progress` with the seconds
    /// of output ffmpeg reports (`out_time_us`) as it goes. ffmpeg's standard error goes to
    /// `errorLog` (a file: a pipe nobody reads could fill and block it). Cancelling the task kills
    /// ffmpeg and throws `ConversionError.cancelled` once it has exited: SIGKILL, not SIGTERM, since
    /// ffmpeg stops gracefully on SIGTERM by closing its inputs, and `apad` then pads every remaining
    /// section with silence into a file that is about to be removed anyway.
    static func run(
        executable: String, arguments: [String], errorLog: String, progress: (Double) -> Void
    ) async throws {
        // Process ids are shared with the cancellation handler, which may run on any thread.
        let state = Locked<(pid: pid_t?, cancelled: Bool)>((nil, false))
        try await withTaskCancellationHandler {
            try withRaisedFileLimit {
                try spawnAndWait(
                    executable: executable, arguments: ["-progress", "pipe:1", "-nostats"] + arguments,
                    errorLog: errorLog, state: state, progress: progress)
            }
        } onCancel: {
            let pid = state.withLock { current -> pid_t? in
                current.cancelled = true
                return current.pid
            }
            if let pid { kill(pid, SIGKILL) }
        }
    }

    /// ffmpeg opens every section file at once: a book of a thousand sections would pass the usual
    /// soft limit of 1,024 descriptors. The child inherits ours, raised to the hard limit.
    private static func withRaisedFileLimit(_ body: () throws -> Void) throws {
        var saved = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        if getrlimit(resource, &saved) == 0, saved.rlim_cur < saved.rlim_max {
            var raised = saved
            raised.rlim_cur = saved.rlim_max
            if setrlimit(resource, &raised) == 0 {
                defer { _ = setrlimit(resource, &saved) }
                return try body()
            }
        }
        try body()
    }

    private static func spawnAndWait(
        executable: String, arguments: [String], errorLog: String,
        state: Locked<(pid: pid_t?, cancelled: Bool)>, progress: (Double) -> Void
    ) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        guard FileManager.default.createFile(atPath: errorLog, contents: nil),
            let log = FileHandle(forWritingAtPath: errorLog)
        else { throw ConversionError.outputUnwritable(path: errorLog, reason: "cannot create ffmpeg's log") }
        defer { try? log.close() }
        let output = Pipe()
        process.standardError = log
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ConversionError.bundleFailed(reason: "cannot start \(executable): \(error)")
        }
        let cancelledBeforeStart = state.withLock { current -> Bool in
            current.pid = process.processIdentifier
            return current.cancelled
        }
        if cancelledBeforeStart { kill(process.processIdentifier, SIGKILL) }
        // `-progress` writes blocks of key=value lines; `out_time_us` is the output's position.
        var pending = Data()
        let reader = output.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                // Ctrl-C reaches ffmpeg too; what it reports while stopping is no progress.
                if line.hasPrefix("out_time_us="), let micros = Double(line.dropFirst("out_time_us=".count)),
                    !state.value.cancelled
                {
                    progress(max(0, micros) / 1_000_000)
                }
            }
        }
        process.waitUntilExit()
        state.withLock { $0.pid = nil }
        if state.value.cancelled { throw ConversionError.cancelled }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let text = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            let lines = text.split(whereSeparator: \.isNewline).suffix(3)
            throw ConversionError.bundleFailed(
                reason: "ffmpeg failed (status \(process.terminationStatus)): " + lines.joined(separator: " / "))
        }
    }
}
