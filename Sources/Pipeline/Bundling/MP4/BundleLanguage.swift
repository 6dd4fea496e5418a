import Conversion
import Foundation

/// The book's language in a bundle: an ISO 639-2 code in the tags (MP3 `TLAN`, a `LANGUAGE` comment)
/// and in the m4b's tracks. ffmpeg 5.1 writes the m4b's chapter track (its `text` track) as English
/// whatever the book: the bundler sets that track's language itself, in the file ffmpeg wrote.
enum BundleLanguage {
    /// The ISO 639-2 code (the terminology one, as MP4 wants: `zho`, `deu`, `fra`) of the BCP 47
    /// `tag`'s primary language: a three-letter language as it is, a two-letter one looked up;
    /// nil for no language (`und`, private use, a code without a three-letter one).
    static func iso639_2(_ tag: String) -> String? {
        let primary = tag.prefix { $0 != "-" && $0 != "_" }.lowercased()
        guard primary.allSatisfy({ $0.isASCII && $0.isLetter }), primary != "und", primary != "mul" else { return nil }
        switch primary.count {
        case 3: return primary
        case 2: return Locale.Language(identifier: primary).languageCode?.identifier(.alpha3)
        default: return nil
        }
    }

    /// The packed form of an ISO 639-2 code in an MP4 `mdhd` box: three letters of five bits each
    /// (the letter's code minus 0x60), the top bit clear (ISO/IEC 14496-12, 8.4.2.3).
    static func packed(_ code: String) -> UInt16? {
        let letters = Array(code.utf8)
        guard letters.count == 3, letters.allSatisfy({ (0x61...0x7A).contains($0) }) else { return nil }
        return letters.reduce(0) { $0 << 5 | UInt16($1 - 0x60) }
    }

    /// Largest `moov` box read to find the chapter track: a book of ten thousand chapters has one of
    /// a few megabytes.
    static let maxMovieBytes = 64 << 20

    /// Sets the language of every text track (ffmpeg's chapter track) of the MP4 file at `path` to
    /// `code`, in place: the two bytes of each track's `mdhd` box, nothing else.
    ///
    /// - Throws: `ConversionError.bundleFailed` when the file is not laid out as MP4 says, or has
    ///   no `moov` box; `.outputUnwritable` when it cannot be read or written.
    static func setTextTrackLanguage(_ code: String, inMP4At path: String) throws {
        guard let language = packed(code) else { return }
        guard let handle = FileHandle(forUpdatingAtPath: path) else {
            throw ConversionError.outputUnwritable(path: path, reason: "cannot open the bundle to set its language")
        }
        defer { try? handle.close() }
        do {
            let end = try handle.seekToEnd()
            guard let movie = try findBox("moov", in: handle, from: 0, to: end) else {
                throw ConversionError.bundleFailed(reason: "the m4b ffmpeg wrote has no moov box")
            }
            guard movie.size <= UInt64(maxMovieBytes) else {
                throw ConversionError.bundleFailed(reason: "the m4b's moov box is over 64 MB")
            }
            try handle.seek(toOffset: movie.offset)
            let bytes = Array(try handle.read(upToCount: Int(movie.size)) ?? Data())
            for offset in textTrackLanguageOffsets(inMovie: bytes) {
                try handle.seek(toOffset: movie.offset + UInt64(offset))
                try handle.write(contentsOf: [UInt8(language >> 8), UInt8(language & 0xFF)])
            }
            try handle.synchronize()
        } catch let error as ConversionError {
            throw error
        } catch {
            throw PosixFailure.map(error, path: path)
                ?? ConversionError.outputUnwritable(path: path, reason: "\(error)")
        }
    }

    /// The top-level box `type` of the file: its offset and size (header included).
    private static func findBox(_ type: String, in handle: FileHandle, from start: UInt64, to end: UInt64) throws
        -> (offset: UInt64, size: UInt64)?
    {
        var at = start
        while at + 8 <= end {
            try handle.seek(toOffset: at)
            let header = Array(try handle.read(upToCount: 16) ?? Data())
            guard header.count >= 8 else { return nil }
            var size = UInt64(bigEndian(header, 0, 4))
            if size == 1 {
                guard header.count == 16 else { return nil }
                size = UInt64(bigEndian(header, 8, 8))
            } else if size == 0 {
                size = end - at
            }
            guard size >= 8, at + size <= end else {
                throw ConversionError.bundleFailed(reason: "the m4b ffmpeg wrote has a box past its end")
            }
            if String(decoding: header[4..<8], as: UTF8.self) == type { return (at, size) }
            at += size
        }
        return nil
    }

    /// In a `moov` box's bytes, where the two language bytes of each text track's `mdhd` box are.
    static func textTrackLanguageOffsets(inMovie movie: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        for track in boxes(in: movie, range: 8..<movie.count) where track.type == "trak" {
            guard let media = boxes(in: movie, range: track.body).first(where: { $0.type == "mdia" }) else { continue }
            let parts = boxes(in: movie, range: media.body)
            // hdlr: version and flags, pre_defined, then the handler type.
            guard let handler = parts.first(where: { $0.type == "hdlr" }), handler.body.count >= 12,
                String(decoding: movie[handler.body.lowerBound + 8..<handler.body.lowerBound + 12], as: UTF8.self)
                    == "text",
                let header = parts.first(where: { $0.type == "mdhd" }),
                let version = movie[safe: header.body.lowerBound]
            else { continue }
            // mdhd: version and flags, creation and modification times, time scale, duration (times and
            // duration in 8 bytes in version 1), then the language.
            let offset = header.body.lowerBound + (version == 1 ? 32 : 20)
            if offset + 2 <= header.body.upperBound { offsets.append(offset) }
        }
        return offsets
    }

    /// The boxes laid one after another in `range` of `bytes`: type and body range (after the header).
    private static func boxes(in bytes: [UInt8], range: Range<Int>) -> [(type: String, body: Range<Int>)] {
        var out: [(String, Range<Int>)] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = bigEndian(bytes, at, 4)
            var header = 8
            if size == 1 {
                guard at + 16 <= range.upperBound else { break }
                size = bigEndian(bytes, at + 8, 8)
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, at + size <= range.upperBound else { break }
            out.append((String(decoding: bytes[at + 4..<at + 8], as: UTF8.self), at + header..<at + size))
            at += size
        }
        return out
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
