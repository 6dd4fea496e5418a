import Contracts
import Foundation

/// The book's cover embedded in a finished section file, by epub2audio itself (libsndfile cannot
/// write pictures): a PICTURE block in FLAC, an ID3v2 `APIC` frame in MP3, a `METADATA_BLOCK_PICTURE`
/// comment in Ogg Opus and Ogg Vorbis; WAV has no picture chunk players read and is left as it is.
///
/// One step applied to the complete `.part` file, before the coordinator renames it to its final
/// name: the edited file is written beside it (`….part.cover.part`, removed as stale after a crash)
/// and renamed over it, so a crash never leaves a half-edited file under either name. Deterministic:
/// the same file and cover give the same bytes.
package enum CoverArt {
    /// Largest cover embedded, in bytes: every section file carries a copy, and a FLAC PICTURE block
    /// holds at most 16 MB. A larger cover is left out of the files (it is still written beside them).
    package static let maxCoverBytes = 8 << 20

    /// Longest head of a file read into memory to edit its tags (an ID3v2 tag, Ogg header packets).
    static let maxHeadBytes = 64 << 20

    /// Whether files of `format` take an embedded cover (WAV does not).
    package static func embeds(in format: AudioFormat) -> Bool { format != .wav }

    /// Reads the cover at `coverPath`, checks it holds the bytes the coordinator wrote (`expectedSHA256`),
    /// and embeds it in the `format` file at `path` (nothing for WAV).
    ///
    /// - Throws: `TagEditingError.malformed` when the file or the cover cannot be read as expected,
    ///   `TagEditingError.system` or `.unusable` when reading or writing fails.
    package static func embed(
        coverAt coverPath: String, expectedSHA256: String?, format: AudioFormat, inFileAt path: String
    )
        throws
    {
        try embed(try cover(at: coverPath, expectedSHA256: expectedSHA256), format: format, inFileAt: path)
    }

    /// The cover at `coverPath`, checked to hold the bytes the coordinator wrote (`expectedSHA256`).
    package static func cover(at coverPath: String, expectedSHA256: String?) throws -> AudiobookCover {
        guard let data = FileManager.default.contents(atPath: coverPath), data.count <= maxCoverBytes,
            let cover = AudiobookCover(data: Array(data))
        else { throw TagEditingError.malformed(reason: "cannot read the cover \(coverPath) as a JPEG or PNG image") }
        if let expectedSHA256, SHA256.hex(cover.data) != expectedSHA256 {
            throw TagEditingError.malformed(reason: "the cover \(coverPath) changed during the run")
        }
        return cover
    }

    /// Whether `embed` changes a `format` file given `cover` and `texts`: an Ogg file always has its
    /// comment header laid out anew (without Opus's padding, `VorbisCommentPacket.edited`), so that
    /// every Ogg file epub2audio finishes has the same layout, whatever its tags.
    package static func edits(_ format: AudioFormat, cover: AudiobookCover?, texts: [(id: String, text: String)])
        -> Bool
    {
        switch format {
        case .wav: false
        case .flac: cover != nil
        case .mp3: cover != nil || !texts.isEmpty
        case .ogg, .opus: true
        }
    }

    /// Embeds `cover` in the `format` file at `path`, replacing any cover it has (nothing for WAV),
    /// in MP3 the `texts` frames (`ID3v2.tag`), and lays an Ogg file's comment header out anew
    /// (`edits`); nothing to do otherwise.
    ///
    /// - Throws: as `embed(coverAt:expectedSHA256:format:inFileAt:)`.
    package static func embed(
        _ cover: AudiobookCover?, texts: [(id: String, text: String)] = [], format: AudioFormat, inFileAt path: String
    ) throws {
        guard edits(format, cover: cover, texts: texts) else { return }
        try replaceInPlace(path, temporarySuffix: ".cover.part") { temp in
            switch format {
            case .flac:
                guard let cover else { return false }
                try FLACMetadata.rewrite(from: path, to: temp) { blocks in
                    blocks.filter { $0.type != FLACMetadata.BlockType.picture.rawValue }
                        + [(FLACMetadata.BlockType.picture.rawValue, FLACMetadata.picture(cover)[...])]
                }
            case .mp3:
                try rewrite(path, to: temp) { reader, writer in
                    try embedMP3(cover, texts: texts, reader: reader, writer: writer)
                }
            case .ogg, .opus:
                let picture = cover.map { VorbisCommentPacket.pictureKey + "=" + FLACMetadata.vorbisCommentPicture($0) }
                try rewrite(path, to: temp) { reader, writer in
                    try rewriteOgg(reader: reader, writer: writer) {
                        try VorbisCommentPacket.edited($0, picture: picture)
                    }
                }
            case .wav:
                return false
            }
            return true
        }
    }

    /// Edits the file at `path` in place safely: `write` writes its new version to a file beside it
    /// (`path` + `temporarySuffix`) and says whether it wrote one; that file is then renamed over the
    /// old, so the file is whole before and after. On failure the partial file is removed and a
    /// format error names the file. The one place `CoverArt` and `TrackNumberTag` replace a file.
    static func replaceInPlace(
        _ path: String, temporarySuffix: String, _ write: (_ temp: String) throws -> Bool
    ) throws {
        let temp = path + temporarySuffix
        do {
            guard try write(temp) else { return }
            guard rename(temp, path) == 0 else { throw TagEditingError.system(path: path, code: errno) }
        } catch TagEditingError.malformed(let reason) {
            unlink(temp)
            throw TagEditingError.malformed(reason: "the file " + reason)
        } catch {
            unlink(temp)
            throw error
        }
    }

    /// MP3: the file's ID3v2 tag with an `APIC` frame and the `texts` frames (`ID3v2.tag`), or a
    /// new tag before the audio when it has none.
    static func embedMP3(
        _ cover: AudiobookCover?, texts: [(id: String, text: String)] = [], reader: BufferedFileReader,
        writer: BufferedFileWriter
    ) throws {
        let header = try reader.read(ID3v2.headerBytes)
        if let length = ID3v2.tagLength(header: header) {
            guard length <= maxHeadBytes else { throw TagEditingError.malformed(reason: "has an ID3v2 tag over 64 MB") }
            let tag = header + (try reader.read(length - header.count))
            guard tag.count == length else { throw TagEditingError.malformed(reason: "has a truncated ID3v2 tag") }
            try writer.write(try ID3v2.tag(tag, withPicture: cover, texts: texts))
        } else {
            try writer.write(try ID3v2.tag(nil, withPicture: cover, texts: texts))
            try writer.write(header)
        }
        try reader.copyRest(to: writer)
    }

    /// Ogg Opus or Vorbis: the comment header as `edit` makes it, laid out on new pages; every later
    /// page is renumbered and its CRC recomputed, its contents unchanged. The stream's serial number,
    /// which libsndfile draws at random, becomes the CRC of the identification and comment headers:
    /// the same section makes the same bytes on every run, and sections differ from one another.
    static func rewriteOgg(
        reader: BufferedFileReader, writer: BufferedFileWriter, edit: ([UInt8]) throws -> [UInt8]
    ) throws {
        func nextPage() throws -> OggPage? {
            let fixed = try reader.read(OggPage.fixedHeaderBytes)
            if fixed.isEmpty { return nil }
            guard fixed.count == OggPage.fixedHeaderBytes else {
                throw TagEditingError.malformed(reason: "ends inside an Ogg page")
            }
            let lacing = try reader.read(Int(fixed[26]))
            let body = try reader.read(lacing.reduce(0) { $0 + Int($1) })
            guard lacing.count == Int(fixed[26]), body.count == lacing.reduce(0, { $0 + Int($1) }) else {
                throw TagEditingError.malformed(reason: "ends inside an Ogg page")
            }
            return try OggPage(header: fixed + lacing, body: body)
        }
        guard let first = try nextPage(), first.headerType & OggPage.beginning != 0,
            let identification = first.pieces.first, first.pieces.count == 1, identification.ends
        else { throw TagEditingError.malformed(reason: "does not start with an Ogg identification header page") }
        // Opus: identification and comment headers; Vorbis: identification, comment and setup headers.
        let headerPackets: Int
        if identification.bytes.starts(with: Array("OpusHead".utf8)) {
            headerPackets = 2
        } else if identification.bytes.starts(with: [1] + Array("vorbis".utf8)) {
            headerPackets = 3
        } else {
            throw TagEditingError.malformed(reason: "is neither Ogg Opus nor Ogg Vorbis")
        }
        var packets: [[UInt8]] = []
        var partial: [UInt8] = []
        var headerPages = 0
        var headBytes = 0
        while packets.count < headerPackets - 1 {
            guard let page = try nextPage() else {
                throw TagEditingError.malformed(reason: "ends inside its Ogg headers")
            }
            guard page.serial == first.serial else {
                throw TagEditingError.malformed(reason: "has more than one Ogg stream")
            }
            headerPages += 1
            headBytes += page.body.count
            guard headBytes <= maxHeadBytes else {
                throw TagEditingError.malformed(reason: "has Ogg headers over 64 MB")
            }
            for piece in page.pieces {
                // The first audio packet starts a page of its own (RFC 7845, 3; Vorbis I, A.2).
                guard packets.count < headerPackets - 1 else {
                    throw TagEditingError.malformed(reason: "has audio on the page of its last Ogg header")
                }
                partial += piece.bytes
                if piece.ends {
                    packets.append(partial)
                    partial = []
                }
            }
        }
        packets[0] = try edit(packets[0])
        let serial = OggCRC.checksum(identification.bytes + packets[0])
        var firstPage = first
        firstPage.serial = serial
        try writer.write(firstPage.bytes)
        let pages = OggPage.paginate(packets, serial: serial, firstSequence: first.sequence &+ 1)
        for page in pages { try writer.write(page.bytes) }
        let shift = UInt32(truncatingIfNeeded: pages.count - headerPages)
        while var page = try nextPage() {
            guard page.serial == first.serial else {
                throw TagEditingError.malformed(reason: "has more than one Ogg stream")
            }
            page.sequence &+= shift
            page.serial = serial
            try writer.write(page.bytes)
        }
    }

    /// Opens `source` and a new `destination` and runs `edit` on them; `destination` is complete and
    /// synchronised to disk when this returns.
    static func rewrite(
        _ source: String, to destination: String,
        edit: (BufferedFileReader, BufferedFileWriter) throws -> Void
    ) throws {
        let reader = try BufferedFileReader(path: source)
        let writer = try BufferedFileWriter(path: destination)
        try edit(reader, writer)
        try writer.finish()
    }
}
