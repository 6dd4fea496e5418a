public import Contracts
import Conversion
public import EPUBReader
import Foundation
import Markup
import ZipReader

/// The audio and timing of one converted section, as a read-along book takes them.
public struct ReadAlongSection: Hashable, Sendable {
    /// The section number.
    public var number: Int
    /// The path of its audio file.
    public var audioPath: String
    /// When each of its sentences is heard.
    public var timing: SectionTiming

    /// A section whose audio is at `audioPath`.
    public init(number: Int, audioPath: String, timing: SectionTiming) {
        self.number = number
        self.audioPath = audioPath
        self.timing = timing
    }
}

/// What `ReadAlongEPUB.write` made.
public struct ReadAlongResult: Hashable, Sendable {
    /// The read-along book's path.
    public var path: String
    /// Content documents that got a Media Overlay.
    public var overlaidDocuments: Int
    /// Sentences highlighted, out of `sentences` spoken.
    public var placedSentences: Int
    /// Sentences spoken in the sections taken.
    public var sentences: Int
    /// What the book lacks that a reader might expect (a document left without an overlay, a
    /// section without timing).
    public var warnings: [String]
}

/// Why a read-along book cannot be made.
public enum ReadAlongError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sections' format is not one of EPUB's core audio types (MP3, AAC in MP4, Opus in Ogg).
    case audioFormat(AudioFormat)
    /// The book is neither EPUB 3 nor EPUB 2 (whose copy is made an EPUB 3 package).
    case notEPUB3(version: String)
    /// The book has Media Overlays of its own.
    case hasMediaOverlays
    /// No section to take has timing (sections made by a version that did not record it).
    case noTiming
    /// The book could not be read again (changed or removed since the conversion).
    case unreadableBook(String)
    /// The read-along book could not be written.
    case unwritable(path: String, reason: String)

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .audioFormat(let format):
            return "a read-along EPUB needs audio in MP3 or Opus (EPUB core media types), not \(format.rawValue)"
        case .notEPUB3(let version):
            return "a read-along EPUB is made from EPUB 2 and EPUB 3 books only; this book is EPUB \(version)"
        case .hasMediaOverlays: return "the book already has Media Overlays (it is a read-along book)"
        case .noTiming: return "no converted section has sentence timing to make a read-along book from"
        case .unreadableBook(let reason): return "cannot read the book again: \(reason)"
        case .unwritable(let path, let reason): return "cannot write \(path): \(reason)"
        }
    }
}

/// `--bundle epub`: a copy of the book whose spoken sentences are highlighted as they are heard, an
/// EPUB 3 with Media Overlays (EPUB 3.3, "Media Overlays").
///
/// The copy keeps every file of the book (cover, metadata, navigation, styles, fonts) and changes
/// only: the content documents the sections read, whose sentences are wrapped in `<span id>`
/// (`SentenceSpans`) and which link one small stylesheet; the package document, which gets the new
/// items, `media-overlay` attributes, `media:duration`s, `media:active-class` and a new
/// `dcterms:modified`. It adds one SMIL document per content document read, the sections' audio files
/// and the stylesheet, in a folder of their own beside the package document. Skipped sections stay
/// in the book, readable, without an overlay; a content document that is not well-formed XML is
/// copied as it is, without an overlay (a warning says so).
///
/// The copy of an EPUB 2 book is an EPUB 3 package (`EPUB3Upgrade`): version 3.0, metadata without
/// OPF 2 attributes, a navigation document made from the NCX (which stays), content documents with
/// the HTML5 document type and the manifest `properties` they need.
public enum ReadAlongEPUB {
    /// The class a reading system gives the element of the sentence being read.
    public static let activeClass = "-epub-media-overlay-active"
    /// The folder of the added files, beside the package document.
    static let folderName = "read-along"

    /// The EPUB core media type of `format`'s files (EPUB 3.3, "Core media types"); nil for formats
    /// a read-along book cannot carry (WAV, FLAC, Vorbis).
    public static func mediaType(for format: AudioFormat) -> String? {
        switch format {
        case .mp3: return "audio/mpeg"
        case .opus: return "audio/ogg; codecs=opus"
        case .wav, .flac, .ogg: return nil
        }
    }

    /// Refuses before any audio is made what `write` would refuse: a format that is not a core media
    /// type, a book that is neither EPUB 3 nor EPUB 2 or already has Media Overlays.
    public static func check(_ package: EPUBPackage, format: AudioFormat) throws(ReadAlongError) {
        guard mediaType(for: format) != nil else { throw .audioFormat(format) }
        guard package.version.hasPrefix("3") || package.version.hasPrefix("2") else {
            throw .notEPUB3(version: package.version)
        }
        if package.manifest.contains(where: { $0.mediaType.lowercased() == "application/smil+xml" }) {
            throw .hasMediaOverlays
        }
    }

    /// `Title - Author (read-along).epub`, made safe for one file name.
    public static func fileName(title: String, authors: [String]) -> String {
        let names = authors.filter { !$0.isEmpty }.joined(separator: ", ")
        let name = names.isEmpty ? title : "\(title) - \(names)"
        return OutputNaming.sanitisedTitle(name, number: 0) + " (read-along).epub"
    }

    /// Writes the read-along copy of the book at `bookPath` to `outputPath` (through a temporary file
    /// beside it, renamed when complete), with `sections` (book order) read aloud in `format`, and
    /// `modified` as the package's new `dcterms:modified` and the time stamped on the files.
    /// - Returns: what was made, with warnings for documents left without an overlay.
    /// - Throws: `ReadAlongError`.
    public static func write(
        bookPath: String, sections: [ReadAlongSection], format: AudioFormat, to outputPath: String,
        modified: Date = Date()
    ) throws(ReadAlongError) -> ReadAlongResult {
        let book: EPUBBook
        let archive: ZipArchive
        do {
            book = try EPUBBook.open(path: bookPath)
            archive = try ZipArchive(path: bookPath)
        } catch {
            throw .unreadableBook("\(error)")
        }
        try check(book.package, format: format)
        guard let mediaType = mediaType(for: format) else { throw .audioFormat(format) }
        var assembly = ReadAlongAssembly(
            book: book, archive: archive, sections: sections, audioMediaType: mediaType,
            audioExtension: format.fileExtension)
        try assembly.build(modified: modified)
        try assembly.writeArchive(to: outputPath, modified: modified)
        return ReadAlongResult(
            path: outputPath, overlaidDocuments: assembly.overlays.count, placedSentences: assembly.placedSentences,
            sentences: sections.reduce(0) { $0 + $1.timing.cues.count }, warnings: assembly.warnings)
    }
}
